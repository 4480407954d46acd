"""The odds of a race position (R1, R2: the rest of the race simulated) are worked out once per
position and process and shared by every bot that asks: the same answer whoever asks, new odds
when the position changes in any way that matters to the rest of the race."""

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
