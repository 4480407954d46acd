"""Live odds (R1-R3) against plain exact counting on small states, and the value of bets."""

from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from hippodrome.readysetbet.board import race_spaces
from hippodrome.readysetbet.dice_race import HORSE_INDEX, HORSES, RaceState, advance, ranks
from hippodrome.readysetbet.odds import race_odds, simulate_finishes
from hippodrome.readysetbet.settlement import player_tokens
from tests.readysetbet.rsb_helpers import positions

WAYS = {s: 6 - abs(s - 7) for s in range(2, 13)}  # ways to roll each sum out of 36


@lru_cache(maxsize=None)
def exact(state):
    """Exact chances (win, place, show) per horse by plain recursion over the 11 sums."""
    if state.finished:
        r = ranks(state.positions)
        return tuple((Fraction(x == 1), Fraction(x <= 2), Fraction(x <= 3)) for x in r)
    total = [[Fraction(0)] * 3 for _ in HORSES]
    for s, ways in WAYS.items():
        after, _ = advance(state, s)
        for i, probs in enumerate(exact(after)):
            for k in range(3):
                total[i][k] += Fraction(ways, 36) * probs[k]
    return tuple(tuple(t) for t in total)


SMALL_STATES = [
    RaceState((14, 14, 13, 14, 12, 14, 13, 14, 14)),
    RaceState((14, 11, 13, 14, 13, 14, 13, 13, 14), last_sum=4),          # a 4 now gets its bonus: 4 jumps to 15
    RaceState((14, 11, 13, 14, 13, 14, 13, 13, 14), last_sum=4, last_was_bonus=True),  # ... but not after a bonus
    RaceState((13, 14, 12, 14, 14, 12, 14, 14, 13), last_sum=8),
]


@pytest.mark.parametrize("state", SMALL_STATES)
def test_r1_r3_simulated_odds_match_exact_counting(state):
    truth = exact(state)
    odds = race_odds(state, simulations=40_000, seed=3)
    for i, horse in enumerate(HORSES):
        for k, name in enumerate(("win", "place", "show")):
            p = float(truth[i][k])
            se = max(odds.standard_error(p), 1e-3)
            assert abs(odds.horses[horse][name] - p) < 5 * se, (horse, name, odds.horses[horse][name], p)


def test_r1_last_roll_matters_for_the_bonus():
    with_bonus = float(exact(SMALL_STATES[1])[HORSE_INDEX["4"]][0])
    without = float(exact(SMALL_STATES[2])[HORSE_INDEX["4"]][0])
    assert with_bonus > without + 0.05


def test_finished_race_odds_are_certain_and_probabilities_add_up():
    done = RaceState((15, 3, 3, 2, 0, 0, 0, 0, 0))
    odds = race_odds(done, simulations=10)
    assert odds.horses["2/3"] == {"win": 1.0, "place": 1.0, "show": 1.0}
    start = race_odds(RaceState.start(), simulations=5000, seed=2)
    assert sum(h["win"] for h in start.horses.values()) == pytest.approx(1.0)
    assert sum(h["place"] for h in start.horses.values()) >= 2.0 - 1e-9


def test_simulated_finishes_end_with_exactly_one_horse_at_15():
    finals = simulate_finishes(RaceState.start(), 3000, np.random.default_rng(0))
    assert ((finals == 15).sum(axis=1) == 1).all()
    assert (finals >= 0).all() and (finals <= 15).all()


def test_r4_expected_value_of_every_open_space_for_every_token():
    state = RaceState((14, 14, 13, 14, 12, 14, 13, 14, 14))
    odds = race_odds(state, simulations=40_000, seed=5)
    spaces = {s.id: s for s in race_spaces(["4>9"], ["by-a-nose"])}
    values = odds.space_values(spaces.values(), player_tokens(4))
    assert set(values) == set(spaces)
    p = float(exact(state)[HORSE_INDEX["7"]][0])
    ev = values["win:7:L"]["ev"]["5"]  # 3x, red circle 4
    assert ev == pytest.approx(values["win:7:L"]["p"] * 15 - (1 - values["win:7:L"]["p"]) * 4)
    assert values["win:7:L"]["p"] == pytest.approx(p, abs=0.01)


def test_r2_timing_of_the_simulated_races_closing_and_ending():
    from hippodrome.readysetbet.odds import simulate_race

    state = RaceState(positions(h7=14, h6=10, h8=9, h5=9), crossings=2)
    plain = simulate_race(state, 2000, np.random.default_rng(4))[0]
    final, closes, ends = simulate_race(state, 2000, np.random.default_rng(4), timing=True)
    assert (plain == final).all()  # timing draws nothing more
    assert (closes >= 1).all() and (closes <= ends).all()
    assert ((final == 15).sum(axis=1) == 1).all()
    # the next roll closes the bets on a 7 (finish), a 5 or an 8 (third crossing): 6 + 4 + 5 of 36
    odds = race_odds(state, simulations=40_000, seed=6, timing=True)
    assert odds.chance_over_within(1) == pytest.approx(15 / 36, abs=0.01)
    assert odds.chance_over_within(1, last_call=True) == pytest.approx(6 / 36, abs=0.01)  # Last call: the finish only
    assert race_odds(RaceState.start(), simulations=2000, seed=1, timing=True).chance_over_within(7) == 0.0
    with pytest.raises(ValueError):
        race_odds(state, simulations=10).chance_over_within(3)
