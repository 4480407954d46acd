"""Engine chance steps as OpenSpiel chance nodes, with their outcomes and probabilities.

A step that lists its outcomes (``Chance.outcomes()``: a roll's 36, a seat drawn by lot) is one
node whose outcome ids are the list's indices. A step described by draws (a deal, a shuffle, the
dice of a stall roll: ``Chance.draws``) is one node per item drawn: the outcome ids of a node are
the indices of the distinct items of the pool it draws from, each as likely as its copies left
(a deck's two "12"s count twice), and the engine's action is built once every item is drawn.
Probabilities are the engines' exact fractions, as floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from hippodrome.core.chance import Draws, Pool, chance_outcomes, draw_outcomes, next_pool
from hippodrome.core.game import Action, Chance


@dataclass(frozen=True)
class Node:
    """The chance node in front of a state: an engine step (``chance``) or a draw of its own
    (``draws``, such as the order in which bettors arrive), with the items drawn so far."""

    chance: Chance | None
    draws: Draws | None
    drawn: tuple[Any, ...] = ()

    @classmethod
    def of(cls, step: Chance | Draws, drawn: Sequence[Any] = ()) -> "Node":
        if isinstance(step, Chance):
            return cls(step, step.draws, tuple(drawn))
        return cls(None, step, tuple(drawn))

    def outcomes(self) -> list[tuple[int, float]]:
        """Every outcome id with its probability, ids ascending."""
        if self.draws is None:
            return [(number, float(p)) for number, (_, p) in enumerate(chance_outcomes(self.chance))]
        items = distinct_items(self._pool())
        return sorted((items.index(item), float(p)) for item, p in draw_outcomes(self.draws, self.drawn))

    def take(self, outcome: int) -> tuple[tuple[Any, ...], Action | list[Any] | None]:
        """The items drawn after ``outcome``, and what is complete: the engine's action (a listed
        outcome, or the last draw of an engine step), the items of an own draw, or None."""
        if self.draws is None:
            return (), chance_outcomes(self.chance)[outcome][0]
        legal = dict(self.outcomes())
        if outcome not in legal:
            raise ValueError(f"{outcome} is not an outcome of this chance node: {sorted(legal)}")  # i18n: programming error
        drawn = self.drawn + (distinct_items(self._pool())[outcome],)
        if len(drawn) < self.draws.length:
            return drawn, None
        return (), (self.draws.action(list(drawn)) if self.chance is not None else list(drawn))

    def item(self, outcome: int) -> Any:
        """What an outcome id stands for at this node."""
        if self.draws is None:
            return chance_outcomes(self.chance)[outcome][0]
        return distinct_items(self._pool())[outcome]

    def _pool(self) -> Pool:
        return next_pool(self.draws, self.drawn)[0]


def distinct_items(pool: Pool) -> list[Any]:
    """A pool's items, each once, in the pool's order: the outcome ids of its draws."""
    return list(dict.fromkeys(pool.items))
