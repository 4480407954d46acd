"""Live odds: chances of each horse finishing 1st, top 2, top 3, and the value of every bet.

For any race state (positions, the last roll and whether it was a bonus move, which decide
the next bonus: R1) the rest of the race is simulated many times at once with NumPy: every
simulated race is a row; each step rolls 2d6 for all the rows still running, moves the
horse with its bonus (R1), stops it at 15 (R2) and drops the rows that have finished.
The finishes are then judged by :func:`hippodrome.readysetbet.board.wins`, the very function
that settles real races, so every space of the board (Win/Place/Show, colours, props,
exotics) gets a probability and an expected value for each token.

>>> from hippodrome.readysetbet.dice_race import RaceState
>>> odds = race_odds(RaceState.start(), simulations=2000, seed=1)
>>> round(sum(h["win"] for h in odds.horses.values()), 6)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from hippodrome.readysetbet.board import Finish, Space, wins
from hippodrome.readysetbet.dice_race import BONUS, FINISH, HORSE_FOR_SUM, HORSES, RaceState
from hippodrome.readysetbet.settlement import Token, expected_value

#: the 36 equally likely 2d6 outcomes, as horse indices
_HORSE_OF_OUTCOME = np.array([HORSE_FOR_SUM[a + b] for a in range(1, 7) for b in range(1, 7)], dtype=np.int8)
_BONUS = np.array([BONUS[h] for h in HORSES], dtype=np.int8)
DEFAULT_SIMULATIONS = 20_000


def simulate_finishes(state: RaceState, simulations: int, rng: np.random.Generator) -> np.ndarray:
    """Final positions (simulations x 9) of the race continued from ``state``."""
    if state.finished:
        return np.tile(np.array(state.positions, dtype=np.int8), (simulations, 1))
    positions = np.tile(np.array(state.positions, dtype=np.int8), (simulations, 1))
    last = -1 if state.last_horse is None else state.last_horse
    previous = np.full(simulations, last, dtype=np.int8)
    previous_bonus = np.full(simulations, state.last_was_bonus, dtype=bool)
    rows = np.arange(simulations)
    while rows.size:
        horse = _HORSE_OF_OUTCOME[rng.integers(0, 36, rows.size)]
        bonus = (previous[rows] == horse) & ~previous_bonus[rows]
        moved = np.minimum(positions[rows, horse] + 1 + bonus * _BONUS[horse], FINISH)
        positions[rows, horse] = moved
        previous[rows] = horse
        previous_bonus[rows] = bonus
        rows = rows[moved < FINISH]
    return positions


@dataclass
class Odds:
    simulations: int
    finish: Finish
    #: horse -> {"win": p, "place": p, "show": p}
    horses: dict[str, dict[str, float]]

    def standard_error(self, p: float) -> float:
        return float(np.sqrt(p * (1 - p) / self.simulations))

    def max_standard_error(self) -> float:
        return max(self.standard_error(p) for h in self.horses.values() for p in h.values())

    def probability(self, space: Space) -> float:
        return float(wins(space, self.finish).mean())

    def space_values(self, spaces: Iterable[Space], tokens: Iterable[Token]) -> dict[str, dict[str, Any]]:
        """For each space: its chance of winning and each token's expected value there."""
        tokens = list(tokens)
        values = {}
        for space in spaces:
            p = self.probability(space)
            values[space.id] = {"p": p, "ev": {t["id"]: float(expected_value(space, t, p)) for t in tokens}}
        return values

    def to_json(self) -> dict[str, Any]:
        return {"horses": self.horses, "simulations": self.simulations}


def race_odds(state: RaceState, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None,
              rng: np.random.Generator | None = None) -> Odds:
    """Odds of every horse from ``state`` by ``simulations`` simulated finishes."""
    if simulations < 1:
        raise ValueError("at least one simulation is needed")  # i18n: programming error (checked data and callers)
    rng = rng if rng is not None else np.random.default_rng(seed)
    finish = Finish(simulate_finishes(state, simulations, rng))
    rank = finish.rank
    win = (rank == 1).mean(axis=0)
    place = (rank <= 2).mean(axis=0)
    show = (rank <= 3).mean(axis=0)
    horses = {h: {"win": float(win[i]), "place": float(place[i]), "show": float(show[i])}
              for i, h in enumerate(HORSES)}
    return Odds(simulations, finish, horses)
