"""The VIP deck (R8) and House data (R9) as printed in the rulings."""

from collections import Counter

from hippodrome.readysetbet.game import HOUSE_DATA, HOUSE_TOKEN_VALUES
from hippodrome.readysetbet.vip import VIP_AFTER_RACES, VIP_CARDS, VIP_DRAW, bonus_token, comp_chips


def test_r8_vip_deck_as_listed():
    kinds = Counter(card["kind"] for card in VIP_CARDS.values())
    # R8 lists 30 cards although it says 32 (see docs/readysetbet.md)
    assert kinds == {"comp_chips": 4, "bandwagon": 4, "bonus_token": 12, "roll_payout": 8, "last_call": 2}
    assert sorted(comp_chips(c) for c in VIP_CARDS if c.startswith("comp")) == [3, 4, 5, 6]
    assert sorted(c["token"] for c in VIP_CARDS.values() if c["kind"] == "bandwagon") == [2, 3, 4, 5]
    lucky = sorted(c["sums"][0] for c in VIP_CARDS.values() if c["kind"] == "roll_payout" and len(c["sums"]) == 1)
    assert lucky == [3, 4, 5, 9, 10, 11]
    assert sum(c["sums"] == [2, 12] for c in VIP_CARDS.values() if c["kind"] == "roll_payout") == 2
    assert VIP_DRAW == 2 and VIP_AFTER_RACES == (1, 2, 3)


def test_r8_bonus_tokens_black_and_white_with_their_red_circles():
    tokens = {c: bonus_token(c) for c in VIP_CARDS if c.startswith("bonus-")}
    assert Counter(t["value"] for t in tokens.values()) == {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2}
    for colour in ("black", "white"):
        penalties = {v: (tokens[f"bonus-{v}-{colour}"]["penalty"], tokens[f"bonus-{v}-{colour}"]["cancels_loss"])
                     for v in range(2, 8)}
        assert penalties == {2: (0, True), 3: (0, False), 4: (1, False), 5: (2, False), 6: (3, False), 7: (5, False)}


def test_r9_house_tokens_money_and_compensation():
    assert sorted(HOUSE_TOKEN_VALUES) == [2, 3, 3, 4, 5, 5]
    assert HOUSE_DATA["house_bets_starting_money"] == 18
    assert HOUSE_DATA["rotating_compensation"] == {"2": 3, "3": 6, "4": 9}
