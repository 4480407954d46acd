"""Settlement of bets (rulings R4, R8 bonus tokens): payouts, red circles and the $0 floor."""

from hippodrome.readysetbet.board import race_spaces
from hippodrome.readysetbet.settlement import bet_payout, player_tokens, settle
from hippodrome.readysetbet.vip import bonus_token
from tests.readysetbet.rsb_helpers import positions

SPACES = {s.id: s for s in race_spaces([], [])}
FIVE = {"id": "5", "value": 5, "penalty": 0, "cancels_loss": False}


def test_r4_tokens_2_3_3_4_5_and_one_three_fewer_at_7_or_8_players():
    assert [t["value"] for t in player_tokens(4)] == [2, 3, 3, 4, 5]
    assert [t["value"] for t in player_tokens(7)] == [2, 3, 4, 5]
    assert [t["value"] for t in player_tokens(8)] == [2, 3, 4, 5]
    assert len({t["id"] for t in player_tokens(2)}) == 5


def test_r4_rulebook_example_token_5_on_2_3_win_pays_45_or_costs_2():
    space = SPACES["win:2/3:R"]
    assert bet_payout(space, FIVE, True) == 45
    assert bet_payout(space, FIVE, False) == -2


def test_r4_no_red_circle_costs_nothing():
    assert bet_payout(SPACES["win:4:R"], FIVE, False) == 0


def test_r8_bonus_token_adds_its_own_red_circle_and_the_2_cancels_the_loss():
    seven = bonus_token("bonus-7-black")
    assert bet_payout(SPACES["win:7:L"], seven, False) == -(4 + 5)
    assert bet_payout(SPACES["win:7:L"], seven, True) == 21
    two = bonus_token("bonus-2-white")
    assert bet_payout(SPACES["place:7:L"], two, False) == 0
    assert bet_payout(SPACES["place:7:L"], two, True) == 4
    assert bet_payout(SPACES["win:7:L"], bonus_token("bonus-3-black"), False) == -4


def test_r4_money_never_below_zero_and_wins_collected_before_losses():
    final = positions(h2_3=15)
    bets = [{"seat": 0, "token": FIVE, "space": "win:7:L"},  # loses 4
            {"seat": 1, "token": FIVE, "space": "win:7:L"},  # loses 4
            {"seat": 1, "token": {**FIVE, "id": "2", "value": 2}, "space": "win:2/3:R"}]  # wins 18
    money, results = settle(bets, SPACES, final, {0: 1, 1: 0})
    assert money == {0: 0, 1: 14}
    assert [r["amount"] for r in results] == [-4, -4, 18]
