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

from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from hippodrome.readysetbet.board import Finish, Space, wins
from hippodrome.readysetbet.dice_race import (
    BONUS, CROSSINGS_TO_CLOSE, FINISH, HORSE_FOR_SUM, HORSES, RED_LINE, RaceState,
)
from hippodrome.readysetbet.settlement import Token, expected_value

#: the 36 equally likely 2d6 outcomes, as horse indices
_HORSE_OF_OUTCOME = np.array([HORSE_FOR_SUM[a + b] for a in range(1, 7) for b in range(1, 7)], dtype=np.int8)
_BONUS = np.array([BONUS[h] for h in HORSES], dtype=np.int8)
DEFAULT_SIMULATIONS = 20_000


def simulate_finishes(state: RaceState, simulations: int, rng: np.random.Generator) -> np.ndarray:
    """Final positions (simulations x 9) of the race continued from ``state``."""
    return simulate_race(state, simulations, rng)[0]


def simulate_race(state: RaceState, simulations: int, rng: np.random.Generator,
                  timing: bool = False) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The race continued from ``state``: final positions (simulations x 9) and, with ``timing``,
    for each simulated race the roll (1 = the next one) that closes the bets (the third red-line
    crossing or a finish, R2; 0 if they are closed already) and the roll that finishes it (0 if
    it is over). Timing draws nothing more, so the positions are the same with or without it."""
    positions = np.tile(np.array(state.positions, dtype=np.int8), (simulations, 1))
    closes = np.zeros(simulations, dtype=np.int16) if timing else None
    ends = np.zeros(simulations, dtype=np.int16) if timing else None
    if state.finished:
        return positions, closes, ends
    last = -1 if state.last_horse is None else state.last_horse
    previous = np.full(simulations, last, dtype=np.int8)
    previous_bonus = np.full(simulations, state.last_was_bonus, dtype=bool)
    crossings = np.full(simulations, state.crossings, dtype=np.int8)
    rows = np.arange(simulations)
    roll = 0
    while rows.size:
        roll += 1
        horse = _HORSE_OF_OUTCOME[rng.integers(0, 36, rows.size)]
        bonus = (previous[rows] == horse) & ~previous_bonus[rows]
        moved = np.minimum(positions[rows, horse] + 1 + bonus * _BONUS[horse], FINISH)
        if timing:
            crossed = (positions[rows, horse] < RED_LINE) & (moved >= RED_LINE)
            crossings[rows] += crossed
            closing = (closes[rows] == 0) & ((crossings[rows] >= CROSSINGS_TO_CLOSE) | (moved >= FINISH))
            closes[rows[closing]] = roll
            ends[rows[moved >= FINISH]] = roll
        positions[rows, horse] = moved
        previous[rows] = horse
        previous_bonus[rows] = bonus
        rows = rows[moved < FINISH]
    if timing and state.bets_closed:
        closes[:] = 0
    return positions, closes, ends


@dataclass
class Odds:
    simulations: int
    finish: Finish
    #: horse -> {"win": p, "place": p, "show": p}
    horses: dict[str, dict[str, float]]
    #: with timing: per simulated race, the roll that closes the bets and the roll that ends it
    closes_at: np.ndarray | None = None
    ends_at: np.ndarray | None = None
    #: space id -> chance of winning, filled as spaces are asked about (readysetbet.pricing)
    chances: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def chance_over_within(self, rolls: int, last_call: bool = False) -> float:
        """The chance that betting is over within ``rolls`` more rolls (at the finish for a seat
        with a Last call card, R8); needs odds computed with ``timing``."""
        if self.closes_at is None or self.ends_at is None:
            raise ValueError("these odds were computed without timing")  # i18n: programming error
        return float(((self.ends_at if last_call else self.closes_at) <= rolls).mean())

    def standard_error(self, p: float) -> float:
        return float(np.sqrt(p * (1 - p) / self.simulations))

    def max_standard_error(self) -> float:
        return max(self.standard_error(p) for h in self.horses.values() for p in h.values())

    def probability(self, space: Space) -> float:
        return float(wins(space, self.finish).mean())

    def chance(self, space: Space) -> float:
        """:meth:`probability`, worked out once per space and kept (these odds are shared by every
        bot that asks about the same position: see :mod:`hippodrome.readysetbet.pricing`)."""
        found = self.chances.get(space.id)
        if found is None:
            found = self.chances[space.id] = self.probability(space)
        return found

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
              rng: np.random.Generator | None = None, timing: bool = False) -> Odds:
    """Odds of every horse from ``state`` by ``simulations`` simulated finishes (``timing``: also
    when each simulated race closes its bets and ends, :meth:`Odds.chance_over_within`)."""
    if simulations < 1:
        raise ValueError("at least one simulation is needed")  # i18n: programming error (checked data and callers)
    rng = rng if rng is not None else np.random.default_rng(seed)
    final, closes, ends = simulate_race(state, simulations, rng, timing)
    finish = Finish(final)
    rank = finish.rank
    win = (rank == 1).mean(axis=0)
    place = (rank <= 2).mean(axis=0)
    show = (rank <= 3).mean(axis=0)
    horses = {h: {"win": float(win[i]), "place": float(place[i]), "show": float(show[i])}
              for i, h in enumerate(HORSES)}
    return Odds(simulations, finish, horses, closes, ends)
