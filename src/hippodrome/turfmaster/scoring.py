"""Points and the meeting's final table (ruling T9, the texts' "Puntuación").

Only the first four horses of a race score: 50, 30, 20, 10. A fallen horse has no place and
scores nothing in that race (T11). A player's total is the sum over every horse it owns and
every race. Players level on points are separated by their best single finishing place, then
the next best, and so on (T9); a player whose places are the same as another's all the way
down shares the rank.
"""

from __future__ import annotations

from typing import Any, Iterable

PLACE_POINTS: tuple[int, ...] = (50, 30, 20, 10)
#: a race in which a horse fell counts below any finishing place in the tie-break
NO_PLACE = 99


def points_for_place(place: int | None) -> int:
    """Points of a finishing place (1 = winner); None (fallen) scores nothing."""
    if place is None or not 1 <= place <= len(PLACE_POINTS):
        return 0
    return PLACE_POINTS[place - 1]


def race_points(places: list[str]) -> dict[str, int]:
    """Points of every horse that finished a race, from its finishing order."""
    return {horse: points_for_place(number) for number, horse in enumerate(places, start=1)}


def final_table(owner: dict[str, int], players: int, results: Iterable[dict[str, Any]],
                names: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per player, best first: seat, name, horses, points per race, total, places, rank.

    ``results`` are the races run so far, each {"places": [...], "fallen": [...]}.
    """
    results = list(results)
    rows = []
    for seat in range(players):
        horses = [h for h, s in owner.items() if s == seat]
        per_race, places = [], []
        for result in results:
            finishing = result["places"]
            per_race.append(sum(points_for_place(finishing.index(h) + 1) for h in horses if h in finishing))
            places.extend(finishing.index(h) + 1 if h in finishing else NO_PLACE for h in horses)
        rows.append({"seat": seat, "name": names[seat] if names else f"seat {seat}", "horses": horses,
                     "races": per_race, "total": sum(per_race), "places": sorted(places)})
    rows.sort(key=_order_key)
    for number, row in enumerate(rows):
        if number and _order_key(row) == _order_key(rows[number - 1]):
            row["rank"] = rows[number - 1]["rank"]
        else:
            row["rank"] = number + 1
    return rows


def _order_key(row: dict[str, Any]) -> tuple:
    return (-row["total"], tuple(row["places"]))
