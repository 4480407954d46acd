"""The race (rulings R1, R2, R3), with the rulebook's own examples."""

import pytest
from hypothesis import given, strategies as st

from hippodrome.readysetbet.dice_race import (
    BONUS, COLOUR, CROSSINGS_TO_CLOSE, FINISH, HORSE_FOR_SUM, HORSE_INDEX, HORSES, RED_LINE, RaceState, advance,
    ranks,
)


def run(sums, state=None):
    state = state or RaceState.start()
    events = []
    for s in sums:
        state, new = advance(state, s)
        events.extend(new)
    return state, events


def pos(state, horse):
    return state.positions[HORSE_INDEX[horse]]


def test_r1_nine_horses_and_which_sum_moves_which():
    assert HORSES == ("2/3", "4", "5", "6", "7", "8", "9", "10", "11/12")
    assert HORSES[HORSE_FOR_SUM[2]] == HORSES[HORSE_FOR_SUM[3]] == "2/3"
    assert HORSES[HORSE_FOR_SUM[11]] == HORSES[HORSE_FOR_SUM[12]] == "11/12"
    for s in range(4, 11):
        assert HORSES[HORSE_FOR_SUM[s]] == str(s)


def test_r1_bonus_values_by_colour():
    assert {h: (COLOUR[h], BONUS[h]) for h in HORSES} == {
        "2/3": ("blue", 3), "4": ("blue", 3), "5": ("orange", 2), "6": ("red", 1), "7": ("black", 0),
        "8": ("red", 1), "9": ("orange", 2), "10": ("blue", 3), "11/12": ("blue", 3)}


def test_r1_rulebook_example_3_then_2_moves_2_3_four_spaces():
    state, _ = run([3])
    assert pos(state, "2/3") == 1
    state, events = run([2], state)
    assert pos(state, "2/3") == 5 and events[0]["bonus"] == 3


def test_r1_third_roll_in_a_row_gets_no_bonus_and_fourth_does():
    state, _ = run([3, 2])
    state, events = run([3], state)
    assert pos(state, "2/3") == 6 and events[0]["bonus"] == 0
    state, events = run([2], state)
    assert pos(state, "2/3") == 10 and events[0]["bonus"] == 3


@pytest.mark.parametrize("horse_sum,bonus", [(4, 3), (5, 2), (6, 1), (7, 0), (8, 1), (9, 2), (10, 3), (12, 3)])
def test_r1_bonus_on_repeated_horse(horse_sum, bonus):
    state, _ = run([horse_sum, horse_sum])
    assert state.positions[HORSE_FOR_SUM[horse_sum]] == 2 + bonus


def test_r1_another_horse_in_between_breaks_the_streak():
    state, _ = run([4, 5, 4])
    assert pos(state, "4") == 2 and pos(state, "5") == 1


def test_r2_red_line_crossings_are_announced_and_third_closes_bets():
    state = RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0))
    state, events = run([2], state)
    assert [e["event"] for e in events] == ["move", "red_line"] and events[1]["crossing"] == 1
    assert not state.bets_closed
    state, events = run([4], state)
    assert events[1]["crossing"] == 2 and not state.bets_closed
    state, events = run([5], state)
    assert [e["event"] for e in events] == ["move", "red_line", "no_more_bets"]
    assert events[1]["crossing"] == CROSSINGS_TO_CLOSE == 3 and state.bets_closed
    assert RED_LINE == 10


def test_r2_a_horse_already_past_the_line_does_not_cross_again():
    state = RaceState((10, 0, 0, 0, 0, 0, 0, 0, 0), crossings=1)
    state, events = run([2], state)
    assert state.crossings == 1 and [e["event"] for e in events] == ["move"]


def test_r2_move_stops_at_15_and_race_ends_immediately():
    state = RaceState((13, 0, 0, 0, 0, 0, 0, 0, 0), last_sum=3)
    state, events = run([2], state)  # 1 + bonus 3 would reach 17: stops at 15
    assert pos(state, "2/3") == FINISH == 15
    assert events[-1] == {"event": "finish", "horse": "2/3"}
    assert state.finished and state.bets_closed
    with pytest.raises(ValueError):
        advance(state, 7)


@given(st.lists(st.integers(0, 20), min_size=9, max_size=9))
def test_r3_a_horse_ranks_one_more_than_the_horses_strictly_ahead_of_it(positions):
    assert ranks(positions) == [1 + sum(other > mine for other in positions) for mine in positions]


def test_r3_competition_ranking_with_ties():
    assert ranks([15, 12, 12, 10, 0, 0, 0, 0, 0]) == [1, 2, 2, 4, 5, 5, 5, 5, 5]
    assert ranks([15, 13, 12, 12, 0, 0, 0, 0, 0])[:4] == [1, 2, 3, 3]
