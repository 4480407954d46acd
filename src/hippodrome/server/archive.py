"""Finished tables leave memory: archived, and loaded again from storage when someone opens one.

A table over for :attr:`Archiver.after` seconds (``hippodrome serve --archive-after``, default
:data:`ARCHIVE_AFTER`) with no connection left is dropped from the hub: its runner stops and its
room goes. Nothing is lost: every change was stored, so its page, its look-ups and the lobby's
listing (:mod:`hippodrome.server.listing`, which reads archived tables from their stored rows)
find it again, the first two by loading it on demand (``Hub.open``). A restart resumes only the
unfinished tables, so finished ones cost nothing until they are opened.

With several processes (:mod:`hippodrome.server.cluster`) an archived table is unloaded as a
table whose lease was lost is (``Hub.unload``), and its lease is given up: whichever process is
asked for it next takes the lease and opens it (``Hub.open`` takes the lease before loading).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from hippodrome.server.hub import Hub

log = logging.getLogger(__name__)

#: seconds a finished table stays in memory (its players look at the final result, the next game)
ARCHIVE_AFTER = 600.0
#: the longest pause between two looks for tables to archive
SWEEP_EVERY = 30.0


class Archiver:
    def __init__(self, hub: "Hub", after: float = ARCHIVE_AFTER, now: Callable[[], float] = time.monotonic):
        if after < 0:
            raise ValueError("archive_after must be 0 or more seconds")  # i18n: programming error
        self.hub = hub
        self.after = after
        self.now = now
        self.archived = 0   # tables dropped from memory so far

    def due(self) -> list[str]:
        """The tables to archive now: over for long enough, nobody connected."""
        now = self.now()
        return [room.id for room in self.hub.rooms.values()
                if room.over_since is not None and now - room.over_since >= self.after and not room.connections]

    async def sweep(self) -> list[str]:
        """Archive every table due; returns their ids."""
        dropped = []
        for table_id in self.due():
            if table_id not in self.hub.rooms:
                continue
            await self.hub.unload(table_id, release=True)   # in a cluster its lease is given up
            dropped.append(table_id)
        self.archived += len(dropped)
        if dropped:
            log.info("archived %d finished tables", len(dropped))
        return dropped

    async def run(self) -> None:
        pause = min(SWEEP_EVERY, max(0.05, self.after / 4))
        while True:
            await asyncio.sleep(pause)
            try:
                await self.sweep()
            except Exception:   # archiving must never stop the server
                log.exception("archiving finished tables failed")
