"""Reviews of finished tables on the server (issue 36; docs/review.md "On the server").

A review is asked for once per finished table and made once: in a review worker process
(:mod:`hippodrome.server.review_worker`, never on the event loop), then stored in the ``reviews``
table (SQLite or PostgreSQL: a restart keeps it, a second request reads it). While it runs, every
request for the same table shares the one run and reads its progress. At most
:attr:`ReviewSettings.waiting` reviews run or wait at once in a server process: past that a request
is refused (429, in words), so no client makes a server review thousands of tables at once.
A review that failed (a worker that died, a record that does not review) is told as failed until
it is asked for again.

While reviews run, :class:`ReviewPace` watches how busy the live tables keep the event loop and
tells the review workers the share of a core they may take (``--review-share`` while the loop is
busy, all of it while it is idle): the workers pause between decisions to keep to it
(:class:`hippodrome.server.review_worker.Pacing`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from hippodrome.i18n import Message
from hippodrome.server.localize import LobbyError
from hippodrome.server.review_settings import ReviewSettings
from hippodrome.server.review_worker import serve_reviews
from hippodrome.server.storage import Sql
from hippodrome.table.thinking import _Worker

log = logging.getLogger(__name__)

#: reviews that failed, kept to be told (the oldest forgotten first)
FAILED_KEPT = 100
#: seconds a refused request is told to wait (a review takes up to a minute)
RETRY_AFTER = 60
#: seconds between two looks at how busy the event loop is, while reviews run
PACE_EVERY = 0.5
#: the share of a core the event loop uses below which reviews take all of a core they can get ...
IDLE_LOOP = 0.02
#: ... and past which they are held to ``--review-share`` (in between, from one to the other)
BUSY_LOOP = 0.25


@dataclass
class Run:
    """A review under way: its progress, and the task that waits for it and stores it."""

    done: int = 0
    total: int = 0
    task: asyncio.Task | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        return {"status": "running", "done": self.done, "total": self.total}


def table_and_review(sql: Sql, table_id: str) -> tuple[str, bool, str | None] | None:
    """The table's game, whether it is over, and its stored review's JSON text (None: none yet);
    None for an unknown table."""
    row = sql.one("SELECT t.game, t.over, r.review FROM tables t LEFT JOIN reviews r ON r.table_id = t.id "
                  "WHERE t.id = ?", (table_id,))
    return None if row is None else (row[0], bool(row[1]), row[2])


def store_review(sql: Sql, table_id: str, review: str, now: float) -> None:
    """The table's review, stored once (a second one, made by another process meanwhile, is the same)."""
    sql.run("INSERT INTO reviews (table_id, review, created) VALUES (?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
            (table_id, review, now))


def too_busy() -> LobbyError:
    # NOTE: a request for a game's review when the server already makes as many as it may at once.
    return LobbyError(429, Message("the server is reviewing as many games as it can at once: ask again in a minute"),
                      code="too_many", headers={"Retry-After": str(RETRY_AFTER)})


class ReviewPace:
    """The share of a core the review workers may take now, in shared memory they read
    (:attr:`share`): all of a core while the event loop spent less than :data:`IDLE_LOOP` of a core
    in the last :data:`PACE_EVERY` seconds, ``busy_share`` past :data:`BUSY_LOOP`, and in between
    a share that falls in proportion. :meth:`watch` runs on the event loop while reviews run
    (``used``: the loop thread's processor time, for tests)."""

    def __init__(self, busy_share: float, used: Callable[[], float] = time.thread_time,
                 clock: Callable[[], float] = time.monotonic):
        self.busy_share, self.used, self.clock = busy_share, used, clock
        self.share = multiprocessing.get_context("spawn").RawValue("d", 1.0)

    def update(self, busy: float) -> None:
        """The allowed share, for an event loop that used ``busy`` of a core lately."""
        busyness = min(1.0, max(0.0, (busy - IDLE_LOOP) / (BUSY_LOOP - IDLE_LOOP)))
        self.share.value = 1.0 - busyness * (1.0 - self.busy_share)

    async def watch(self, running: dict[str, Any]) -> None:
        """While ``running`` holds a review, look at the loop every :data:`PACE_EVERY` seconds."""
        before, used_before = self.clock(), self.used()
        while running:
            await asyncio.sleep(PACE_EVERY)
            now, used = self.clock(), self.used()
            self.update((used - used_before) / max(now - before, 1e-9))
            before, used_before = now, used
        self.share.value = 1.0


class Reviews:
    """The reviews of a server process: those under way, those that failed, and the workers."""

    def __init__(self, storage: Any, writer: Any, settings: ReviewSettings):
        self.storage = storage
        self.writer = writer
        self.settings = settings
        self.running: dict[str, Run] = {}
        self.failed: OrderedDict[str, Message] = OrderedDict()
        self._workers: list[_Worker | None] = [None] * settings.workers
        self.pace = ReviewPace(settings.share)
        self._watching: asyncio.Task | None = None

    async def read(self, table_id: str) -> tuple[str, bool, str | None] | None:
        return await asyncio.get_running_loop().run_in_executor(None, self.storage.read,
                                                                lambda sql: table_and_review(sql, table_id))

    def under_way(self, table_id: str) -> dict[str, Any] | None:
        """The status of a review running or failed here (None: neither)."""
        run = self.running.get(table_id)
        if run is not None:
            return run.status()
        if table_id in self.failed:
            return {"status": "failed", "done": 0, "total": 0, "message_i18n": self.failed[table_id].to_json()}
        return None

    def start(self, table_id: str, record: dict[str, Any]) -> dict[str, Any]:
        """Start the review of ``record`` (a finished table's), or join the one under way; 429 past
        :attr:`ReviewSettings.waiting`."""
        run = self.running.get(table_id)
        if run is not None:
            return run.status()
        if not self._workers:
            # NOTE: the server was started with no review workers (hippodrome serve --review-workers 0).
            raise LobbyError(503, Message("this server does not review games"), code="no_reviews")
        if len(self.running) >= self.settings.waiting:
            raise too_busy()
        self.failed.pop(table_id, None)
        run = self.running[table_id] = Run()
        run.task = asyncio.ensure_future(self._make(table_id, record, run))
        if self._watching is None or self._watching.done():
            self._watching = asyncio.ensure_future(self.pace.watch(self.running))
        return run.status()

    def _worker(self) -> _Worker:
        """The worker with the fewest reviews under way, started (again) if it is not running."""
        index = min(range(len(self._workers)), key=lambda n: self._load(self._workers[n]))
        worker = self._workers[index]
        if worker is None or worker.stopped:
            worker = self._workers[index] = _Worker(serve_reviews, (self.pace.share, self.settings.idle))
        return worker

    @staticmethod
    def _load(worker: _Worker | None) -> int:
        return 0 if worker is None or worker.stopped else len(worker._waiting)

    async def _make(self, table_id: str, record: dict[str, Any], run: Run) -> None:
        def progress(done: int, total: int) -> None:
            run.done, run.total = done, total
        try:
            review = await self._worker().ask("review", record, self.settings.playouts, long=True, progress=progress)
            # written as JSON on the writer's thread, not the loop (a meeting's review is some 200 KB)
            await self.writer.call(self.storage.write,
                                   lambda sql: store_review(sql, table_id, json.dumps(review), time.time()))
        except Exception as error:   # the worker stopped, the record did not review, the storage failed
            log.error("the review of table %s failed: %s", table_id, error)
            # NOTE: the review of a finished game could not be made (the reason is in the server's log).
            self.failed[table_id] = Message("the review of this game could not be made; ask for it again")
            while len(self.failed) > FAILED_KEPT:
                self.failed.popitem(last=False)
        finally:
            self.running.pop(table_id, None)

    async def close(self) -> None:
        """Stop the workers (the reviews under way are dropped: asked again, they start again)."""
        for run in list(self.running.values()):
            if run.task is not None:
                run.task.cancel()
        if self._watching is not None:
            self._watching.cancel()
        workers, self._workers = [w for w in self._workers if w is not None], []
        if workers:
            await asyncio.get_running_loop().run_in_executor(None, lambda: [w.stop() for w in workers])
