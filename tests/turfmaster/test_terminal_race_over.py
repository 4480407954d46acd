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


def test_t10_between_races_the_horses_table_shows_each_horse_in_its_stall():
    """Before race 2 (its bonus-card question) the course shows the horses in their stalls (T10);
    the horses' table says the same, not race 1's "fell" or "finished 2nd"."""
    from rich.console import Console

    from hippodrome.cli.turfmaster_view import horses_table

    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": ["Ana", "Bo"], "steeplechase": True},
                  seed=1)
    rng = random.Random(1)
    while not (match.state.phase == "prepare" and match.state.race_no == 2):
        pending = match.resolve_chance()
        match.act(pending.seat, rng.choice([o for o in pending.options if o["type"] != "claim_bonus"]))
    assert match.state.results[0]["fallen"], "race 1 had a fall: the table must not say so now"
    console = Console(width=150, record=True)
    console.print(horses_table(match.state.observation(0), "en"))
    text = console.export_text()
    for number, horse in enumerate(match.state.stalls, start=1):
        row = next(line for line in text.splitlines() if f" {horse.capitalize()} " in line)
        assert f"stall {number}" in row, row
    assert "fell" not in text and "finished" not in text
