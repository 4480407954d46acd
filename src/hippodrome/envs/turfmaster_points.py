"""TurfMaster points per seat so far (T9: 50, 30, 20, 10 per race, added over the meeting): the
rewards of the environments and the returns of the OpenSpiel games.

A horse's points are earned when it is ranked, at the end of the round in which it crosses the
finish line; a place never changes after, so the points so far only grow, and at the end they
are the final table's totals.
"""

from __future__ import annotations

from hippodrome.core.game import Game
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.scoring import points_for_place


def points_so_far(state: Game) -> list[int]:
    """Each seat's points in a race ("turfmaster-race") or a meeting ("turfmaster") so far."""
    if isinstance(state, Meeting):
        points = [0] * state.players
        for result in state.results:
            _add(points, state.owner, result["places"])
        if state.phase == "race":
            _add(points, state.owner, state.race.places)
        return points
    points = [0] * state.seats
    _add(points, state.owner, state.places)
    return points


def _add(points: list[int], owner: dict[str, int], places: list[str]) -> None:
    for place, horse in enumerate(places, start=1):
        points[owner[horse]] += points_for_place(place)
