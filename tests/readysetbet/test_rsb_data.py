"""The VIP deck (R8) and House data (R9) as printed in the rulings."""

from collections import Counter

from hippodrome.readysetbet.board import all_exotic_ids, all_prop_ids
from hippodrome.readysetbet.game import HOUSE_DATA, HOUSE_TOKEN_VALUES, ReadySetBet
from hippodrome.readysetbet.vip import (
    VIP_AFTER_RACES, VIP_CARDS, VIP_DRAW, bonus_token, comp_chips, deck_ids, previous_deck_ids,
)


def test_r8_vip_deck_as_listed():
    dealt = [VIP_CARDS[c] for c in deck_ids()]
    kinds = Counter(card["kind"] for card in dealt)
    # R8 as ruled: 32 cards, Snake Eyes x2 and Boxcars x2 being four cards
    assert len(dealt) == 32
    assert kinds == {"comp_chips": 4, "bandwagon": 4, "bonus_token": 12, "roll_payout": 10, "last_call": 2}
    assert sorted(comp_chips(c) for c in deck_ids() if c.startswith("comp")) == [3, 4, 5, 6]
    assert sorted(c["token"] for c in dealt if c["kind"] == "bandwagon") == [2, 3, 4, 5]
    single = Counter(c["sums"][0] for c in dealt if c["kind"] == "roll_payout" and len(c["sums"]) == 1)
    assert single == {2: 2, 12: 2, 3: 1, 4: 1, 5: 1, 9: 1, 10: 1, 11: 1}  # Snake Eyes, Boxcars, Lucky numbers
    assert VIP_DRAW == 2 and VIP_AFTER_RACES == (1, 2, 3)


def test_r8_games_stored_with_the_30_card_deck_still_replay():
    previous = previous_deck_ids()
    assert len(previous) == 30 and sum(VIP_CARDS[c]["sums"] == [2, 12] for c in previous
                                       if VIP_CARDS[c]["kind"] == "roll_payout") == 2
    game = ReadySetBet.new({"players": 2})
    game.apply({"type": "shuffle", "props": all_prop_ids(), "exotics": all_exotic_ids(), "vip": previous,
                "caller": 7})
    assert sorted(game.vip_deck) == sorted(previous)  # accepted as it was dealt


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
