"""A finished table's review (docs/review.md), made in a worker process of its own.

A review is CPU work in Python for up to a minute of one core (a TurfMaster meeting at the
default budget): never on the event loop, nor in a thread of the server's process (it would share
the interpreter's lock with the loop). It runs in a process started as the bots' workers are
(:class:`hippodrome.table.thinking._Worker`, spawned, stopped with the server), at the lowest
priority the system gives (:func:`lower_priority`: Linux's idle scheduling, else niceness 19;
the bots' workers have niceness 5): the event loop and the bots of live tables take the
processor whenever they want it, the reviews have the time left; and a review holds up no bot,
for none thinks in its process. A review worker makes one review at a time, in the order they
were asked, and reports its progress on the way (``(number, None, (done, total))``, at most
every :data:`PROGRESS_EVERY` seconds), then answers as a bot worker does (``(number, True,
review)``).

Idle scheduling is not enough on a small machine: a review that keeps a core busy still slows the
live tables beside it (the caches and the memory it shares with them). So a review is also paced
(:class:`Pacing`): between two decisions it pauses long enough to keep to the share of a core the
server allows it now (:class:`hippodrome.server.reviews.ReviewPace`: all of a core while the live
tables leave the server idle, ``--review-share`` while they keep it busy). The review's result does
not depend on it: a decision's budget is processor time.

The review is the game's own function (``description.review_function()``, a pure function of
the record), with each decision's ``at``: the replay's step (:mod:`hippodrome.server.replays`)
where the decision was taken, the one the timeline marks.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import pickle
import time
from bisect import bisect_right
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable

from hippodrome.core.registry import game_class
from hippodrome.server.replays import build
from hippodrome.table.thought import WORKER_NICENESS, _watch_parent, requests

log = logging.getLogger(__name__)

#: how much nicer than the server a review worker is (the bots' workers: 5), where the system has
#: no idle scheduling (:func:`lower_priority`)
REVIEW_NICENESS = 19
#: seconds between two reports of a review's progress
PROGRESS_EVERY = 0.5
#: longest sleep of a pause between two decisions before the allowed share is read again (the
#: server may have become idle meanwhile)
PACE_CHECK = 0.25
#: the least share of a core a review is allowed (a review always moves on)
MIN_SHARE = 0.01


class Pacing:
    """Between two decisions of a review (:meth:`pause`), the pause that keeps the review to the
    share of a core the server allows it now: ``share`` is read from shared memory (a
    ``multiprocessing`` double the server sets; None or 1.0: no pause). ``clock`` and ``used`` are
    the wall clock and this thread's processor time, ``sleep`` the pause (for tests)."""

    def __init__(self, share: Any = None, clock: Callable[[], float] = time.monotonic,
                 used: Callable[[], float] = time.thread_time, sleep: Callable[[float], None] = time.sleep):
        self.share, self.clock, self.used, self.sleep = share, clock, used, sleep
        self.restart()

    def restart(self) -> None:
        self.since, self.used_since = self.clock(), self.used()

    def allowed(self) -> float:
        return 1.0 if self.share is None else min(1.0, max(self.share.value, MIN_SHARE))

    def pause(self) -> None:
        """Sleep until the processor time used since the last pause is no more than the allowed
        share of the time gone by (the share read again every :data:`PACE_CHECK` seconds)."""
        used = self.used() - self.used_since
        while (share := self.allowed()) < 1.0:
            left = self.since + used / share - self.clock()
            if left <= 0:
                break
            self.sleep(min(left, PACE_CHECK))
        self.restart()


def table_review(record: dict[str, Any], playouts: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The review of a finished table's ``record`` by its game's review function (``playouts``:
    a fixed number a decision where the game takes it, for tests and benchmarks; None: the
    game's default budget), each decision with ``at``, its step on the replay's timeline."""
    reviewer = game_class(record["game"]).description.review_function()
    options: dict[str, Any] = {"progress": progress}
    if playouts is not None and "playouts" in inspect.signature(reviewer).parameters:
        options["playouts"] = playouts
    review = reviewer(record, **options)
    ends = build(record).ends   # ends[k]: the log's entries step k has played
    for decision in review["decisions"]:
        decision["at"] = bisect_right(ends, decision["step"]) - 1   # the step just before its entry
    return review


def _reporter(conn: Connection, number: int, pacing: Pacing) -> Callable[[int, int], None]:
    """``progress(done, total)`` sent to the server, now and then (and the last one always), after
    the pause of ``pacing`` (progress is told after each decision)."""
    last = [0.0]

    def report(done: int, total: int) -> None:
        pacing.pause()
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or done == total:
            last[0] = now
            conn.send((number, None, (done, total)))
    return report


_CALLS: dict[str, Callable[..., Any]] = {"review": table_review}


def lower_priority(idle: bool = True) -> None:
    """The review worker's priority: Linux's idle scheduling (``SCHED_IDLE``: it runs only when no
    other process wants the processor, and any that wakes takes it back at once), else the
    nicest niceness; a system that refuses both leaves it at the server's. And a session of its
    own: where Linux shares the processor among sessions first (``autogroup``), the review's time
    is then counted to its own group, at the nicest weight, not to the server's, whose event loop
    would otherwise wait for other sessions' processes for what the review used.

    ``idle`` False: the bots' workers' niceness only (:data:`WORKER_NICENESS`), for a machine
    that other work keeps busy, where the lowest priority may leave a review without a turn for
    minutes (the tests: the suite's workers keep both cores busy)."""
    if not idle:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(WORKER_NICENESS)
        return
    with contextlib.suppress(OSError, AttributeError):
        os.setsid()
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(REVIEW_NICENESS))
    with contextlib.suppress(OSError, AttributeError):
        os.nice(REVIEW_NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def serve_reviews(conn: Connection, parent: int, share: Any = None, idle: bool = True) -> None:
    """A review worker's main loop: each request (its number, the pickled call) runs in turn, paced
    to the ``share`` of a core the server allows (:class:`Pacing`), at the idle priority or not
    (:func:`lower_priority`)."""
    _watch_parent(parent)
    lower_priority(idle)
    for number, payload, _long in requests(conn):
        try:
            name, args = pickle.loads(payload)
            pacing = Pacing(share)
            answer = (number, True, _CALLS[name](*args, progress=_reporter(conn, number, pacing)))
        except Exception as error:   # a record that does not review: the server says so
            log.exception("a review failed")
            answer = (number, False, f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except (OSError, ValueError):  # the server is gone
            os._exit(0)
