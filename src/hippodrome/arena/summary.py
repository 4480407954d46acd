"""What a series of bot games comes to, per bot level, as ``simulate --json`` prints it.

``{"games": N, "bots": {"<level>": {"wins": W, "win_rate": R, "ci95": [lo, hi], "mean_points": P}}}``

* ``wins``: the games in which a seat of that level finished first. A first place shared (after
  the game's tie-breaks) is a win for every level sharing it, so the win rates of a series with
  ties add up to more than 1; a level that sits at several seats wins a game when any of them
  does (its fair share is then its seats' share of the table).
* ``win_rate``: ``wins / games``; ``ci95``: its 95% Wilson score interval (it always holds the rate).
* ``mean_points``: the level's mean final score per seat and game (TurfMaster's points, Ready
  Set Bet's money).
"""

from __future__ import annotations

import math
from typing import Any, Iterable


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def levels_won(seated: list[str], winners: Iterable[int]) -> set[str]:
    """The levels that won a game: those of the seats ranked first (``seated[seat]`` is a seat's level)."""
    return {seated[seat] for seat in winners}


def summary_json(games: int, levels: Iterable[str], wins: dict[str, int], points: dict[str, float],
                 seat_games: dict[str, int]) -> dict[str, Any]:
    """The JSON of a series (see the module docstring); ``levels`` in the order to print them."""
    bots = {}
    for level in dict.fromkeys(levels):
        won = wins.get(level, 0)
        low, high = wilson(won, games)
        seats = seat_games.get(level, 0)
        bots[level] = {"wins": won, "win_rate": won / games if games else 0.0, "ci95": [low, high],
                       "mean_points": points.get(level, 0) / seats if seats else 0.0}
    return {"games": games, "bots": bots}
