"""Tables of bots only share the event loop politely with tables of people.

A table whose every seat is a bot can run as fast as its pace allows (a roll every 0.05 s), and
thirty of them would take the whole event loop: every person elsewhere would wait behind their
rolls. Each change such a table makes (a roll, a bot's move or bet, with what listens to it:
storing, telling the connections) first waits for its turn at the process's :class:`Pacer`, and
reports the time it took; the pacer spaces the turns so that all tables of bots together take at
most ``share`` of the loop's time, one after the other in the order they asked (none starves).
Tables with a person are never paced: they only ever wait for the one change of bots running.
"""

from __future__ import annotations

import asyncio
import time
from typing import Callable

#: the part of the event loop's time that all tables of bots only may take together
BOTS_SHARE = 0.25


class Pacer:
    def __init__(self, share: float = BOTS_SHARE, now: Callable[[], float] = time.perf_counter):
        if not 0 < share <= 1:
            raise ValueError("share must be above 0 and at most 1")  # i18n: programming error
        self.share = share
        self.now = now
        self.next_turn = 0.0
        self._queue = asyncio.Lock()   # FIFO: tables of bots take turns in the order they asked
        self.turns = 0

    async def turn(self) -> None:
        """Wait until a table of bots may make its next change (always yields once)."""
        async with self._queue:
            await asyncio.sleep(max(0.0, self.next_turn - self.now()))
        self.turns += 1

    def spent(self, seconds: float) -> None:
        """A change of a table of bots took ``seconds`` of the loop: the next one waits in proportion."""
        self.next_turn = max(self.next_turn, self.now()) + seconds * (1 - self.share) / self.share
