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
import logging
import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable, Optional, TypeVar

from hippodrome.server.storage import Save
from hippodrome.table.threadsafe import Settlement, settle_all_threadsafe

log = logging.getLogger(__name__)
T = TypeVar("T")
#: run on the loop the moment a save is stored (see :meth:`StoreWriter.save`)
AtOnce = Optional[Callable[[], None]]
#: a save waiting for the writer's thread: its storage, the save, the loop and future it is answered
#: on, and its ``at_once``
_Waiting = tuple[Any, Save, asyncio.AbstractEventLoop, asyncio.Future, AtOnce]


class WriterClosed(RuntimeError):
    """The writer was closed (the server is stopping): nothing more is written."""


#: in the writer's queue: store the saves waiting now (a job of its own, queued by the first of them)
_STORE_WAITING = object()
#: a call in the writer's queue: the function, its arguments, and the future its outcome settles
_Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], Future]


class StoreWriter:
    """The writer's thread and its queue of jobs: calls, the saves waiting (queued by the first
    of them), and None to stop. A plain queue, not an executor: a job is queued on the event loop
    for every change of every table, and an executor's job costs the loop several times more."""

    def __init__(self, name: str = "hippodrome-store"):
        self.closed = False
        self._saves: list[_Waiting] = []
        self._saves_lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Call | object | None] = queue.SimpleQueue()
        #: transactions of saves made, and the saves they held (for tests and measurements)
        self.groups = 0
        self.grouped = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """The writer's thread: each job in turn, until None."""
        while (job := self._jobs.get()) is not None:
            if job is _STORE_WAITING:
                try:
                    self._store_waiting()
                except Exception:   # (each save's failure is its own future's: this is a bug)
                    log.exception("storing the waiting saves failed")
                continue
            function, args, kwargs, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = function(*args, **kwargs)
            except BaseException as error:   # handed to the caller, as an executor does
                future.set_exception(error)
            else:
                future.set_result(result)

    async def call(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` on the writer's thread, after every call made before it."""
        return await self.submit(function, *args, **kwargs)

    def submit(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> asyncio.Future:
        """:meth:`call` queued at once, in this step of the loop: its future."""
        if self.closed:
            raise WriterClosed("the storage writer is closed")  # i18n: programming error (only while stopping)
        future: Future = Future()
        self._jobs.put((function, args, kwargs, future))
        return asyncio.wrap_future(future)

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
            self._jobs.put(_STORE_WAITING)
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
        if not self.closed:
            self.closed = True
            self._jobs.put(None)
        self._thread.join()


def _alone(storage: Any, save: Save) -> tuple[bool, Any]:
    try:
        return True, storage.save_many([save])[0]
    except Exception as error:
        return False, error
