"""Questions a page may ask about a Ready Set Bet game in progress (the description's look-ups)."""

from __future__ import annotations

from typing import Any, Mapping

from hippodrome.readysetbet.odds import race_odds

#: simulated finishes behind the page's "live odds" (a standard error under 1.2 points)
PAGE_SIMULATIONS = 2000


def odds(state: Any, seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The live odds from the public race position: each horse's win/place/show chances and each
    space's chance of winning. Reads only what every seat sees (positions and the last roll)."""
    if state.race.finished:
        return {"spaces": {}, "horses": {}}
    result = race_odds(state.race, PAGE_SIMULATIONS)
    return {"horses": result.horses, "simulations": result.simulations,
            "spaces": {space.id: round(result.probability(space), 3) for space in state.spaces.values()}}
