"""What the table tests share: a keeper that records what the table asked of it."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from hippodrome.core.bot import RandomBot
from hippodrome.table.journal import Progress
from hippodrome.table.table import Player, Table

Commit = Callable[[Progress, Callable[[], None]], Awaitable[Any]]


class RecordingKeeper:
    """A running table's keeper for tests: ``store`` runs ``commit(progress, stored)`` (None: stored
    at once); each change shown appends its state id to ``told``, each word on saving
    ``"failing"`` or ``"works again"``; ``shown`` hears each table shown."""

    def __init__(self, table: Table, commit: Commit | None = None, shown: Callable[[Table], None] | None = None):
        self.table = table
        self.commit = commit
        self.shown = shown
        self.told: list[Any] = []

    def store(self, progress: Progress, stored: Callable[[], None]) -> Awaitable[Any]:
        if self.commit is not None:
            return self.commit(progress, stored)
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    def show(self) -> None:
        self.told.append(self.table.state_id)
        if self.shown is not None:
            self.shown(self.table)

    def saving(self, failing: bool) -> None:
        self.told.append("failing" if failing else "works again")


def people(*persons: int) -> list[Player]:
    """Players for a lifecycle test: people at the seats ``persons``, bots at the seats between."""
    seats = max(persons) + 1 if persons else 0
    return [Player(f"seat {n}", None if n in persons else RandomBot(n), level=None if n in persons else "random")
            for n in range(seats)]


def hand_over(lifecycle, *seats: int) -> None:
    """The host hands ``seats`` (people's) to bots, as the runner does before telling the lifecycle."""
    for seat in seats:
        lifecycle.players[seat].hand_to(RandomBot(seat), "random")
