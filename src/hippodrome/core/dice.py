"""Six-sided dice, the one place every game draws, checks and lists them.

A roll is drawn from the chance step's generator one die at a time, ``rng.randint(1, 6)`` each,
in order: a seed has always drawn its dice this way, so seeded records, tests and the figures in
the docs stay exactly as they were. A roll of two dice as a chance step of its own is logged
``{"type": "roll", "dice": [a, b]}`` (:func:`roll_chance`).

>>> import random
>>> roll(random.Random("7:3"))
[3, 2]
>>> is_dice([1, 6]), is_dice([0, 6]), is_dice([True, 6])
(True, False, False)
>>> outcomes = dice_outcomes()
>>> len(outcomes), outcomes[0], sum(p for _, p in outcomes)
(36, ((1, 1), Fraction(1, 36)), Fraction(1, 1))
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import lru_cache
from typing import Any

from hippodrome.core.chance import Pool
from hippodrome.core.game import Action, Chance

#: the faces of one die
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def roll(rng: random.Random, count: int = 2) -> list[int]:
    """``count`` dice drawn from ``rng``, one ``randint(1, 6)`` each, in order."""
    return [rng.randint(FACES[0], FACES[-1]) for _ in range(count)]


def is_dice(value: Any, count: int = 2) -> bool:
    """Whether ``value`` is a list of ``count`` dice as a roll is logged (whole numbers 1-6, no bools)."""
    return (isinstance(value, list) and len(value) == count
            and all(isinstance(d, int) and not isinstance(d, bool) and FACES[0] <= d <= FACES[-1] for d in value))


@lru_cache(maxsize=None)
def dice_outcomes(count: int = 2) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every ordered roll of ``count`` dice with its probability: 36 rolls of 1/36 for two dice
    ((1, 2) and (2, 1) apart, as the log keeps the dice in the order drawn)."""
    probability = Fraction(1, len(FACES) ** count)
    return tuple((dice, probability) for dice in itertools.product(FACES, repeat=count))


def dice_pool(count: int) -> Pool:
    """``count`` dice as successive draws (:class:`~hippodrome.core.chance.Pool`), for an outcome
    holding too many dice to list every roll (a stall roll of eight horses)."""
    return Pool(FACES, count, replacement=True)


ROLL = "roll"


def is_roll(action: Any) -> bool:
    """Whether ``action`` is a roll of two dice as it is logged: ``{"type": "roll", "dice": [a, b]}``."""
    return isinstance(action, dict) and action.get("type") == ROLL and is_dice(action.get("dice"))


def roll_chance(context: dict[str, Any] | None = None, timed: bool = False) -> Chance:
    """The chance step "roll two dice" (TurfMaster's dice rounds, every roll of a Ready Set Bet race)."""

    def sample(rng: random.Random) -> Action:
        return {"type": ROLL, "dice": roll(rng)}

    def outcomes() -> list[tuple[Action, Fraction]]:
        return [({"type": ROLL, "dice": list(dice)}, probability) for dice, probability in dice_outcomes(2)]

    return Chance(ROLL, sample, is_roll, dict(context or {}), timed=timed, outcomes=outcomes)
