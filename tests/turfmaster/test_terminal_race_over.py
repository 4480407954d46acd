"""The terminal's log of what happened tells each race run with its places and points (T9): the
small screens (80x24) leave no room for the points table, so this line is where a player reads
them between races."""

import random

from hippodrome.cli.turfmaster import _Events
from hippodrome.core.game import Decision
from hippodrome.core.match import Match
from hippodrome.turfmaster.scoring import race_points


def meeting_past_race_1(seed: int) -> tuple[Match, _Events, _Events]:
    """A meeting played at random to the first decision after race 1, its log caught up after every
    step in English and in Spanish."""
    match = Match("turfmaster", {"players": 3}, seed=seed)
    rng = random.Random(seed)
    english, spanish = _Events("en"), _Events("es")
    while not match.state.results:
        pending = match.resolve_chance()
        if isinstance(pending, Decision):
            match.act(pending.seat, rng.choice(pending.options))
        else:
            match.tick()   # (TurfMaster's chance steps are untimed: resolved above)
        for events in (english, spanish):
            events.catch_up(match.state, announce_start=True)
    return match, english, spanish


def test_t9_a_race_run_is_told_with_its_places_and_points_after_its_last_move():
    match, english, spanish = meeting_past_race_1(3)
    result = match.state.results[0]
    told = [line for line in english.lines if line.startswith("Race 1 is over: ")]
    assert len(told) == 1
    points = race_points(result["places"])
    first = result["places"][0]
    assert f"1st {first.capitalize()}: {points[first]} points" in told[0]
    assert told[0].count(":") == len(result["places"]) + 1 + bool(result["fallen"])   # every horse placed, and the fallen
    # after the race's moves (its last finisher among them), before the next race's stalls, if told
    at = english.lines.index(told[0])
    race_1 = english.lines.index(next(line for line in english.lines if line.startswith("--- Stalls for race 1")))
    assert any(" finishes " in line for line in english.lines[race_1:at])
    assert not any(line.startswith("--- ") for line in english.lines[race_1 + 1:at])
    assert all(not line.startswith("--- Stalls for race 2") for line in english.lines[:at])
    assert [line for line in spanish.lines if line.startswith("La carrera 1 ha terminado: 1.º ")], spanish.lines[-3:]
    # told once, however often the log catches up
    english.catch_up(match.state)
    assert sum(line.startswith("Race 1 is over: ") for line in english.lines) == 1
