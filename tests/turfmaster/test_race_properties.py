"""Property tests: thousands of random races with random legal choices (T3-T5, T9, T11).

On every move: one horse per square, the end square is neither occupied nor blocked, the move
is full length whenever some path is and agrees with the naive reference (sampled), and the
views hide the other seats' hands; at the end replay(log) rebuilds the live state.
"""

import pytest
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippodrome.core import Match, replay
from hippodrome.core.game import Decision
from hippodrome.turfmaster.movement import blocked_squares

from .helpers import COLOURS
from .reference_movement import reference_destinations

MAX_DECISIONS = 3000


def race_setup(course, steeplechase, horses, seats):
    return {"course": course, "steeplechase": steeplechase, "seats": seats,
            "horses": [{"id": COLOURS[i], "owner": i % seats} for i in range(horses)]}


def check_square_decision(state, pending, rng, reference_every):
    course = state.course
    horse = pending.context["horse"]
    others = [state.square[h] for h in state.racing() if h != horse]
    blocked = blocked_squares(course, others)
    ends = [course.square(o["lane"], o["square"]) for o in pending.options]
    assert not set(ends) & blocked, "an end square is occupied or blocked (T4)"
    assert not set(ends) & state.fences, "no horse stands on a fence (T11)"
    if rng.random() < reference_every:
        steps, reference = reference_destinations(course, state.square[horse], state.points, blocked, state.fences)
        assert pending.context["steps"] == steps, "full value whenever some path allows it (T5)"
        assert sorted(ends) == reference


def check_views(state):
    for seat in range(state.seats):
        view = state.observation(seat)
        own = {h for h in state.ids if state.owner[h] == seat}
        assert set(view["hands"]) == own
        if view["pending"] and view["pending"]["seat"] != seat:
            assert "options" not in view["pending"]
    spectator = state.observation(None)
    assert spectator["hands"] == {}


def play_random_race(setup, seed, reference_every=0.0, check_every=1.0):
    match = Match("turfmaster-race", setup, seed)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        pending = match.pending()
        if pending is None:
            break
        assert isinstance(pending, Decision)
        state = match.state
        squares = [state.square[h] for h in state.racing()]
        assert len(squares) == len(set(squares)), "one horse per square (T4)"
        if pending.kind == "square":
            check_square_decision(state, pending, rng, reference_every)
        if rng.random() < check_every:
            check_views(state)
        match.act(pending.seat, rng.choice(pending.options))
    else:
        raise AssertionError("race did not end")
    state = match.state
    assert sorted(state.places + state.fallen) == sorted(state.ids), "every horse finishes or falls (T9)"
    if not state.steeplechase:
        assert not state.fallen
    return match


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), course=st.sampled_from(["oval", "triangle"]), steeplechase=st.booleans(),
       horses=st.integers(2, 8), seats=st.integers(1, 8))
def test_random_races_keep_every_invariant_and_replay(seed, course, steeplechase, horses, seats):
    steeplechase = steeplechase and course == "oval"
    setup = race_setup(course, steeplechase, horses, min(seats, horses))
    match = play_random_race(setup, seed, reference_every=0.1, check_every=0.2)
    record = json.loads(json.dumps(match.record()))
    assert replay(record).to_json() == match.state.to_json()


@pytest.mark.slow
def test_four_hundred_random_races_keep_the_board_invariants():
    """T4, T9, T11 on crowded boards: eight horses a race, ovals (half of them steeplechases) and triangles."""
    for seed in range(400):
        course = "oval" if seed % 3 else "triangle"
        setup = race_setup(course, course == "oval" and seed % 2 == 0, 8, 8)
        play_random_race(setup, seed, check_every=0.0)
