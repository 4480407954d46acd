"""The one interface every bot has: an observation (a seat's view) in, a choice out.

A bot never receives the game state, the seed or anything its seat may not know: only
``view(seat)`` and the options of the decision in front of it.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from hippodrome.core.game import Action


class Bot(Protocol):
    """``name``: its level. A bot whose thoughts take a budget of time (the search bot) may say so
    with a class attribute ``thinks_long = True``: a server's bot worker gives each such thought a
    thread of its own and runs the quick ones of other bots in turn beside it."""

    name: str

    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        """Pick one of ``options`` (a decision's legal options) for the seat that sees ``observation``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal options; its own generator, seeded per seat."""

    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        return self.rng.choice(options)

