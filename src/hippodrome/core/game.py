"""The shape every game has: a state, explicit decisions and explicit chance steps.

A game state answers ``pending()`` with one of:

* a :class:`Decision`: seat ``seat`` must choose one of ``options`` (JSON-able dicts);
* a :class:`Chance`: the dice or a shuffle must be drawn (by a :class:`~hippodrome.core.match.Match`,
  which owns the seeded generator, so nobody holding the state can read future chance);
* ``None``: the game is over.

``apply(action)`` performs one action (a decision's option or a chance outcome) and refuses
anything else with :class:`~hippodrome.core.errors.IllegalAction` without changing the state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

Action = dict[str, Any]


@dataclass(frozen=True)
class Decision:
    """Seat ``seat`` must choose one of ``options``.

    ``notes`` may explain options (parallel to ``options``; "" when nothing to say),
    for instance that a card above the handicap will not move the horse.
    """

    seat: int
    kind: str
    options: tuple[Action, ...]
    context: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def note_for(self, action: Action) -> str:
        if not self.notes:
            return ""
        for option, note in zip(self.options, self.notes):
            if option == action:
                return note
        return ""


@dataclass(frozen=True)
class Chance:
    """A chance step: ``sample(rng)`` draws the outcome, ``is_valid(outcome)`` checks one."""

    kind: str
    sample: Callable[[random.Random], Action]
    is_valid: Callable[[Action], bool]
    context: dict[str, Any] = field(default_factory=dict)
    #: a timed step waits for the table's clock (Ready Set Bet's rolls); others are drawn at once
    timed: bool = False


_GAMES: dict[str, type["Game"]] = {}


def register_game(cls: type["Game"]) -> type["Game"]:
    """Class decorator: make a game known to :func:`game_class` (and so to ``replay``)."""
    _GAMES[cls.name] = cls
    return cls


def game_class(name: str) -> type["Game"]:
    try:
        return _GAMES[name]
    except KeyError:
        from hippodrome.core.errors import InvalidSetup

        known = ", ".join(sorted(_GAMES)) or "none registered"
        raise InvalidSetup(f"unknown game {name!r}; known games: {known}") from None


class Game(ABC):
    """A game state. Pure and deterministic: no clock, no I/O, no global random."""

    name: ClassVar[str]

    @classmethod
    @abstractmethod
    def new(cls, setup: dict[str, Any]) -> "Game":
        """The initial state for a setup (validated; raises InvalidSetup)."""

    @abstractmethod
    def pending(self) -> Decision | Chance | None: ...

    @abstractmethod
    def apply(self, action: Action) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator); never another seat's secrets."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> "Game": ...

    @abstractmethod
    def clone(self) -> "Game": ...

    #: action types any seat may take at any time, whatever is pending (simultaneous play,
    #: such as Ready Set Bet's bets); turn-based games have none
    free_action_types: ClassVar[frozenset[str]] = frozenset()

    def free_options(self, seat: int) -> tuple[Action, ...]:
        """The free actions ``seat`` may take now (for bots and front ends)."""
        return ()

    def apply_free(self, seat: int, action: Action) -> None:
        """Take a free action for ``seat``; IllegalAction (state unchanged) with the reason."""
        from hippodrome.core.errors import IllegalAction

        raise IllegalAction(f"{self.name} has no simultaneous actions")

    @property
    def is_over(self) -> bool:
        return self.pending() is None
