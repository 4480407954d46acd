"""Finished tables recorded as they end: each running table's runner tells this of its changes
(after they are stored); the change that ends the table queues its result and ratings on the
storage's writer at once, after the table's last save (:func:`ratings.record_result`)."""

from __future__ import annotations

import logging
import time
from typing import Any

from hippodrome.server.accounts import ratings
from hippodrome.server.accounts.service import Accounts

log = logging.getLogger(__name__)


class TableEnds:
    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.pending: set[Any] = set()   # the writes under way (kept until done)

    def watch(self, room: Any) -> None:
        """Follow a table the server runs: when it ends, store its result once."""
        if room.table.over:   # it ended before this process ran it: recorded then
            return
        recorded = []

        def changed(room: Any) -> None:
            if room.table.over and not recorded:
                recorded.append(True)
                self._record(room)
        room.watchers.append(changed)

    def _record(self, room: Any) -> None:
        places = room.table.state.final_places()
        rated = room.description.rated
        # queued now, right after the table's last save: stored before anyone hears the table is over
        write = self.accounts.writer.submit(self.accounts.storage.write, lambda sql: ratings.record_result(
            sql, room.id, room.game, time.time(), places, rated))
        self.pending.add(write)
        write.add_done_callback(self._done)

    def _done(self, write: Any) -> None:
        self.pending.discard(write)
        if not write.cancelled() and write.exception() is not None:
            log.error("a finished table's result was not stored: %s", write.exception())
