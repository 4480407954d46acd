"""What a chance step may draw, and how likely each outcome is (as OpenSpiel's chance nodes), for
research tools and search bots.

A :class:`~hippodrome.core.game.Chance` describes its outcomes in one of two ways:

* ``outcomes()``: every outcome with its probability, when they are few: a roll of two dice lists
  its 36 ordered rolls, a uniform choice (Ready Set Bet's first House) each choice;
* ``draws``: a :class:`Draws`, when they are far too many to list (a deck of 32 has billions of
  orders): the outcome is made of items drawn one at a time from :class:`Pool` s, and a tool
  walks the draws with :func:`draw_outcomes`, then builds the action with :meth:`Draws.action`.

A :class:`~hippodrome.core.match.Match` still draws every outcome with ``sample(rng)``; these
descriptions only say what that draw can give. Probabilities are exact fractions.

>>> from hippodrome.core.game import Chance
>>> deal = Draws((Pool(("12", "12", "J12"), 2),), lambda drawn: {"cards": drawn[0]},
...              lambda action: [action["cards"]])
>>> draw_outcomes(deal, [])
[('12', Fraction(2, 3)), ('J12', Fraction(1, 3))]
>>> draw_outcomes(deal, ["12"])
[('12', Fraction(1, 2)), ('J12', Fraction(1, 2))]
>>> deal.action(["12", "J12"])
{'cards': ['12', 'J12']}
>>> step = Chance("deal", lambda rng: {}, lambda action: True, draws=deal)
>>> outcome_probability(step, {"cards": ["12", "J12"]}), outcome_probability(step, {"cards": ["J12", "J12"]})
(Fraction(1, 3), Fraction(0, 1))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence

if TYPE_CHECKING:
    from hippodrome.core.game import Action, Chance

Outcomes = list[tuple["Action", Fraction]]


@dataclass(frozen=True)
class Pool:
    """``count`` items drawn one at a time from ``items``, where an item listed twice (a deck's two
    "12"s) is twice as likely. Without replacement each draw is uniform over what is left (a
    shuffle, a deal, a random discard); with replacement over all of ``items`` every time (dice)."""

    items: tuple[Hashable, ...]
    count: int
    replacement: bool = False

    def __post_init__(self) -> None:
        if self.count < 0 or (not self.replacement and self.count > len(self.items)) or not self.items and self.count:
            raise ValueError(f"cannot draw {self.count} items from {len(self.items)}")  # i18n: programming error


@dataclass(frozen=True)
class Draws:
    """A chance outcome as successive draws from ``pools``, in order.

    ``build`` makes the action from the items drawn, one list per pool (in the order drawn);
    ``items_of`` is its inverse: the items an action was built from (called on valid actions only).
    """

    pools: tuple[Pool, ...]
    build: Callable[[list[list[Any]]], "Action"]
    items_of: Callable[["Action"], list[list[Any]]]

    @property
    def length(self) -> int:
        """How many items make one outcome (every pool's count)."""
        return sum(pool.count for pool in self.pools)

    def action(self, drawn: Sequence[Any]) -> "Action":
        """The action made of ``drawn``, every item of the outcome in the order drawn."""
        if len(drawn) != self.length:
            raise ValueError(f"an outcome is {self.length} items, not {len(drawn)}")  # i18n: programming error
        groups, start = [], 0
        for pool in self.pools:
            groups.append(list(drawn[start:start + pool.count]))
            start += pool.count
        return self.build(groups)

    def drawn_in(self, action: "Action") -> list[Any]:
        """The items ``action`` was built from, in the order drawn (inverse of :meth:`action`)."""
        return [item for group in self.items_of(action) for item in group]


def uniform(actions: Iterable["Action"]) -> Outcomes:
    """Each of ``actions`` with the same probability (a uniform choice, such as a seat drawn by lot)."""
    actions = list(actions)
    return [(action, Fraction(1, len(actions))) for action in actions]


def chance_outcomes(chance: "Chance") -> Outcomes:
    """Every outcome of a step that lists them, with its probability (they add up to 1).

    A step described by draws has too many outcomes to list: walk them with :func:`draw_outcomes`.
    """
    if chance.outcomes is None:
        raise ValueError(f"the {chance.kind!r} step has too many outcomes to list: "  # i18n: programming error
                         "use draw_outcomes() on its draws")
    return list(chance.outcomes())


def draw_outcomes(draws: Draws, drawn: Sequence[Any]) -> list[tuple[Any, Fraction]]:
    """The next item's possible values, with their probabilities, after ``drawn`` (the items of
    this outcome drawn so far, in order); equal items are merged, so multiplicity counts."""
    pool, taken = next_pool(draws, drawn)
    left = Counter(pool.items)
    if not pool.replacement:
        left.subtract(taken)
    total = sum(count for count in left.values() if count > 0)
    return [(item, Fraction(count, total)) for item, count in left.items() if count > 0]


def outcome_probability(chance: "Chance", action: "Action") -> Fraction:
    """The probability that ``chance`` draws ``action``: 0 for an outcome it cannot draw."""
    if not chance.is_valid(action):
        return Fraction(0)
    if chance.outcomes is not None:
        return sum((probability for outcome, probability in chance.outcomes() if outcome == action), Fraction(0))
    draws = chance.draws
    drawn = draws.drawn_in(action)
    if len(drawn) != draws.length or draws.action(drawn) != action:
        return Fraction(0)
    probability = Fraction(1)
    for index, item in enumerate(drawn):
        step = dict(draw_outcomes(draws, drawn[:index]))
        probability *= step.get(item, Fraction(0))
    return probability


def next_pool(draws: Draws, drawn: Sequence[Any]) -> tuple[Pool, list[Any]]:
    """The pool the next item comes from, and the items already drawn from it (``drawn``: the
    items of this outcome drawn so far, in order)."""
    start = 0
    for pool in draws.pools:
        if len(drawn) < start + pool.count:
            return pool, list(drawn[start:])
        start += pool.count
    raise ValueError(f"all {draws.length} items of this outcome are drawn")  # i18n: programming error
