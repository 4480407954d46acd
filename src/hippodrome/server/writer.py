"""One thread that every storage write goes through, in order, off the event loop.

A storage (SQLite's :class:`~hippodrome.server.storage.Storage`, or any other with the same
synchronous methods) is written only from this thread while the server runs: ``await
writer.call(storage.create_table, ...)`` queues the call and returns its result, or raises its
exception, once the thread has run it. Calls run one at a time, in the order they were made, so
a table's changes are stored in the order the table made them. A database lock held by another
process blocks only this thread (SQLite waits out its busy timeout here), never the event loop:
the other tables, the lobby and every connection go on being served meanwhile.

Tables' progress goes through :meth:`StoreWriter.save`: the saves that wait while the thread is
busy are stored together, in one transaction (``storage.save_many``), so that a hundred tables
moving at once cost one sync to the disk, not a hundred (a group commit). Each table has one save
under way at most (its runner awaits it), so a table's saves keep their order. When a group's
transaction fails, each of its saves is tried again alone, so that one table's fault (a lost
lease, say) fails that table only.

The writer does not retry further: a failed call raises in the coroutine that awaited it, and the
table runner decides what to do (pause the table, tell its players, try again; see
:class:`~hippodrome.table.runner.TableRunner`).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, TypeVar

from hippodrome.server.storage import Save
from hippodrome.table.threadsafe import Settlement, settle_all_threadsafe

T = TypeVar("T")
#: run on the loop the moment a save is stored (see :meth:`StoreWriter.save`)
AtOnce = Optional[Callable[[], None]]
#: a save waiting for the writer's thread: its storage, the save, the loop and future it is answered
#: on, and its ``at_once``
_Waiting = tuple[Any, Save, asyncio.AbstractEventLoop, asyncio.Future, AtOnce]


class WriterClosed(RuntimeError):
    """The writer was closed (the server is stopping): nothing more is written."""


class StoreWriter:
    def __init__(self, name: str = "hippodrome-store"):
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self.closed = False
        self._saves: list[_Waiting] = []
        self._saves_lock = threading.Lock()
        #: transactions of saves made, and the saves they held (for tests and measurements)
        self.groups = 0
        self.grouped = 0

    async def call(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` on the writer's thread, after every call made before it."""
        return await self.submit(function, *args, **kwargs)

    def submit(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> asyncio.Future:
        """:meth:`call` queued at once, in this step of the loop: its future."""
        if self.closed:
            raise WriterClosed("the storage writer is closed")  # i18n: programming error (only while stopping)
        return asyncio.wrap_future(self._thread.submit(function, *args, **kwargs))

    def save(self, storage: Any, save: Save, at_once: AtOnce = None) -> asyncio.Future:
        """``storage.save_progress`` of ``save`` on the writer's thread, in one transaction with
        the other saves waiting then: queued at once (no turn of the loop first), its future gets
        the number of log entries stored. ``at_once``, once it is stored, runs on the loop in the
        step the writer's answer arrives, just before the future is settled (what awaits the
        future resumes a step later)."""
        if self.closed:
            raise WriterClosed("the storage writer is closed")  # i18n: programming error (only while stopping)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._saves_lock:
            self._saves.append((storage, save, loop, future, at_once))
            first = len(self._saves) == 1
        if first:   # else a group already queued takes this save with it
            self._thread.submit(self._store_waiting)
        return future

    def _store_waiting(self) -> None:
        """On the writer's thread: every save waiting now, one transaction per storage."""
        with self._saves_lock:
            waiting, self._saves = self._saves, []
        groups: dict[int, list[_Waiting]] = {}
        for entry in waiting:
            groups.setdefault(id(entry[0]), []).append(entry)
        for group in groups.values():
            storage = group[0][0]
            self.groups += 1
            self.grouped += len(group)
            try:
                outcomes = [(True, stored) for stored in storage.save_many([entry[1] for entry in group])]
            except Exception as error:
                outcomes = [(False, error)] if len(group) == 1 else [_alone(storage, entry[1]) for entry in group]
            answers: dict[asyncio.AbstractEventLoop, list[Settlement]] = {}
            for (_storage, _save, loop, future, at_once), (ok, value) in zip(group, outcomes):
                answers.setdefault(loop, []).append((future, value, None, at_once) if ok
                                                    else (future, None, value, None))
            for loop, settlements in answers.items():   # one wake-up of each loop for the group
                settle_all_threadsafe(loop, settlements)

    def close(self) -> None:
        """Run the calls and saves already queued, then stop the thread."""
        self.closed = True
        self._thread.shutdown(wait=True)


def _alone(storage: Any, save: Save) -> tuple[bool, Any]:
    try:
        return True, storage.save_many([save])[0]
    except Exception as error:
        return False, error
