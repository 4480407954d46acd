"""What an encoding keeps per game object, made on the first question about it and kept weakly
(it goes with the game)."""

from __future__ import annotations

import weakref
from typing import Callable, Generic, TypeVar

from hippodrome.core.game import Game

Kept = TypeVar("Kept")


class PerGame(Generic[Kept]):
    """``of(game)``: what ``make(game)`` made for ``game`` the first time it was asked about. The
    last game asked about is at hand (an environment asks about one game over and over; holding
    it keeps it alive until another is asked about, so its identity is never reused meanwhile)."""

    def __init__(self, make: Callable[[Game], Kept]) -> None:
        self._make = make
        self._kept: "weakref.WeakKeyDictionary[Game, Kept]" = weakref.WeakKeyDictionary()
        self._last: Game | None = None
        self._last_kept: Kept | None = None

    def of(self, game: Game) -> Kept:
        if game is not self._last:
            kept = self._kept.get(game)
            if kept is None:
                kept = self._kept[game] = self._make(game)
            self._last, self._last_kept = game, kept
        return self._last_kept
