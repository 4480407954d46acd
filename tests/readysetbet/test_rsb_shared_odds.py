"""The odds of a race position (R1, R2: the rest of the race simulated) are worked out once per
position and process and shared by every bot that asks: the same answer whoever asks, new odds
when the position changes in any way that matters to the rest of the race."""

import time
from concurrent.futures import ThreadPoolExecutor

from hippodrome.readysetbet.bots import ValueBettor
from hippodrome.readysetbet.board_bot import BoardBettor
from hippodrome.readysetbet.dice_race import RaceState, advance
from hippodrome.readysetbet.odds import race_odds
from hippodrome.readysetbet.pricing import LiveOdds, position_odds


def race_json(state: RaceState) -> dict:
    from hippodrome.readysetbet.dice_race import HORSES
    return {"positions": dict(zip(HORSES, state.positions)), "last_sum": state.last_sum,
            "last_was_bonus": state.last_was_bonus, "crossings": state.crossings}


def test_two_bots_at_one_position_share_one_computation():
    state, _ = advance(RaceState.start(), 7)
    race = race_json(state)
    first, second = ValueBettor(seed=1), ValueBettor(seed=2)
    assert first.odds.of(race) is second.odds.of(race)
    assert LiveOdds(first.simulations).of(race) is first.odds.of(race)
    # the board bot simulates with timing (when betting closes): odds of their own
    assert BoardBettor(seed=1).odds.of(race) is not first.odds.of(race)


def test_the_odds_of_a_position_are_the_same_after_the_cache_forgot_them():
    state, _ = advance(RaceState.start(), 6)
    kept = position_odds(state, 400, False)
    position_odds.cache_clear()
    again = position_odds(state, 400, False)
    assert again is not kept and again.horses == kept.horses


def test_every_part_of_a_position_counts():
    """R1: the bonus depends on the last roll and whether it was a bonus; R2: the crossings."""
    start = RaceState.start()
    one, _ = advance(start, 7)
    two, _ = advance(one, 7)          # a bonus move for the same horse (R1)
    three, _ = advance(two, 7)        # no bonus after a bonus
    states = [start, one, two, three, RaceState(one.positions, 8, one.last_was_bonus, one.crossings)]
    odds = [position_odds(s, 300, False) for s in states]
    assert len({id(o) for o in odds}) == len(states)


def test_shared_odds_agree_with_a_fresh_simulation():
    state, _ = advance(RaceState.start(), 8)
    shared = position_odds(state, 6000, False)
    fresh = race_odds(state, 6000, seed=12345)
    for horse, chances in shared.horses.items():
        for kind, p in chances.items():
            assert abs(p - fresh.horses[horse][kind]) < 0.04, (horse, kind)


def test_bots_asking_at_once_for_one_position_wait_for_one_computation(monkeypatch):
    """The bots of a table ask for the odds of a roll at about the same time, each in a thread of
    the bot worker: the first works them out, the others wait for that answer (under load they
    had each worked them out, tripling the worker's work)."""
    from hippodrome.readysetbet import pricing
    worked = []

    def slow(state, simulations, timing):
        worked.append(state)
        time.sleep(0.2)
        return race_odds(state, simulations, seed=1)

    monkeypatch.setattr(pricing, "_work_out", slow)
    shared = pricing.SharedOdds()
    state, _ = advance(RaceState.start(), 9)
    with ThreadPoolExecutor(4) as threads:
        answers = list(threads.map(lambda _: shared(state, 200, False), range(4)))
    assert len(worked) == 1 and shared.computed == 1
    assert all(answer is answers[0] for answer in answers)


def test_odds_are_kept_a_few_seconds_after_they_were_last_asked_and_at_most_so_many():
    from hippodrome.readysetbet.pricing import SharedOdds
    clock = [0.0]
    shared = SharedOdds(size=3, seconds=5.0, now=lambda: clock[0])
    states = [advance(RaceState.start(), total)[0] for total in (5, 6, 7, 8, 9)]
    first = shared(states[0], 100, False)
    clock[0] = 4.0
    assert shared(states[0], 100, False) is first        # asked again: kept, its time renewed
    clock[0] = 8.0
    shared(states[1], 100, False)
    assert shared(states[0], 100, False) is first        # 4 s since last asked
    clock[0] = 14.0
    shared(states[1], 100, False)                        # worked out again: 6 s since last asked
    assert shared.computed == 3
    for state in states[2:]:                              # more than three positions: the least recent goes
        shared(state, 100, False)
    assert shared(states[1], 100, False) is not None and shared.computed == 7
