"""One thread that every storage write goes through, in order, off the event loop.

A storage (SQLite's :class:`~hippodrome.server.storage.Storage`, or any other with the same
synchronous methods) is written only from this thread while the server runs: ``await
writer.call(storage.save_progress, ...)`` queues the call and returns its result, or raises its
exception, once the thread has run it. Calls run one at a time, in the order they were made, so
a table's changes are stored in the order the table made them. A database lock held by another
process blocks only this thread (SQLite waits out its busy timeout here), never the event loop:
the other tables, the lobby and every connection go on being served meanwhile.

The writer does not retry: a failed call raises in the coroutine that awaited it, and the table
runner decides what to do (pause the table, tell its players, try again; see
:class:`~hippodrome.table.runner.TableRunner`).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class WriterClosed(RuntimeError):
    """The writer was closed (the server is stopping): nothing more is written."""


class StoreWriter:
    def __init__(self, name: str = "hippodrome-store"):
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self.closed = False

    async def call(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` on the writer's thread, after every call made before it."""
        if self.closed:
            raise WriterClosed("the storage writer is closed")  # i18n: programming error (only while stopping)
        future = self._thread.submit(function, *args, **kwargs)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Run the calls already queued, then stop the thread."""
        self.closed = True
        self._thread.shutdown(wait=True)
