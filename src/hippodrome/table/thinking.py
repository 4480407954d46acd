"""Where the bots of a running table think: a worker thread, or worker processes.

A bot's thought (its ``choose``, or its free action, a bet) is CPU work in Python. In a thread of
the server's process it shares the interpreter's lock with the event loop: each time the loop gives
the lock up to wait for the network, a thinking thread may take it for up to the interpreter's
switch interval (5 ms), so every step of every table waits behind the bots, and a search bot that
thinks for a second slows the whole server for that second. Worker processes think with their own
interpreter: the loop only builds the seat's view it sends and reads the answer.

:class:`ThreadThinker` runs the thought in the loop's default executor (a thread), as everywhere
in the process (tests, the terminal, simulations).

:class:`ProcessThinker` (``hippodrome serve --bot-workers N``, one by default) sends a bot, pickled,
to a worker process the first time it thinks and keeps it there under a key; later thoughts send
only the key and where the table stands, and the bot's own state (its random generator, what it
keeps from one decision to the next) lives on in the worker. A running table's bots think at a
:class:`~hippodrome.table.capture.Capture` (:meth:`ProcessThinker.think_at`): the worker keeps
a replica of the table's match, is sent the log's entries it has not seen, and builds the seat's
view and options itself, so the event loop neither copies the state nor builds a bot's view. A
bot always thinks in the same worker (chosen by its key). A worker runs quick thoughts (a tactical move, a bet) two at a time,
the others waiting their turn, and each long thought (a bot with ``thinks_long``: a search bot's
second) in a thread of its own, so that it holds up no other table's bot; all without the
server's interpreter lock. A bot the main process no longer holds is forgotten by its worker. A
worker runs at a lower priority than the server (:data:`WORKER_NICENESS`): on a busy machine the
event loop, which every person's move and every spectator waits for, gets the processor first, and
the bots think in the time left (they move after a pause of their own anyway). A
worker that dies is replaced (the thought it was running counts as the bot failing: the table plays
a random legal option, as for a bot's bug) and its bots are sent again. A bot that cannot be
pickled, or whose class is not this project's own (a test's stand-in), thinks in a thread. A worker
stops by itself when the server's process is gone (killed), so none is left behind.

Both give a bot only its seat's view (``observe()``, or built from a position's copy or replica:
nothing hidden from it) and the options. A view goes to a worker (or is read from its replica) as
JSON (:func:`observation_payload`: orjson writes a view in a quarter of the time pickle takes, on
the event loop), so a bot in a worker reads it as a page does; a view JSON cannot carry as it is
(a key that is not a string) goes pickled, as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import threading
import time
import uuid
import weakref
import zlib
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterable

from hippodrome.core.bot import Bot
from hippodrome.core.game import Action
from hippodrome.core.match import Match
from hippodrome.table.capture import Capture, copied, logged
from hippodrome.table.thought import (
    _UNKNOWN, _UNKNOWN_TABLE, PARENT_CHECK, bot_thought, observation_payload, serve, thinks_long, thought_at,
)
from hippodrome.table.threadsafe import settle_threadsafe

log = logging.getLogger(__name__)

Observe = Callable[[], dict[str, Any]]
#: a worker that stops within this many seconds of its start stopped "as it started"...
QUICK_STOP_SECONDS = 5.0
#: ... and after this many such workers in a row, bots think in threads instead
QUICK_STOPS = 3


class ThreadThinker:
    """Thoughts in the event loop's default executor (worker threads of this process)."""

    async def think(self, bot: Bot, observe: Observe, options: tuple[Action, ...],
                    free_seed: int | None = None) -> Action | None:
        return await asyncio.get_running_loop().run_in_executor(
            None, lambda: bot_thought(bot, observe(), options, free_seed))

    def capture(self, bot: Bot, match: Match, seat: int) -> Capture:
        """What ``bot`` will read, taken now (under the table's lock): a copy of the state."""
        return copied(match, seat)

    async def think_at(self, bot: Bot, position: Capture, free_seed: int | None = None) -> Action | None:
        """The bot's decision at ``position`` (its free action with a ``free_seed``), from its view there."""
        return await asyncio.get_running_loop().run_in_executor(
            None, lambda: thought_at(bot, position.state(), position.seat, free_seed))

    def close(self) -> None:
        pass


THREADS = ThreadThinker()

class WorkerStopped(RuntimeError):
    """The worker process stopped (killed, or crashed) before it answered."""


class _Worker:
    """One worker process (``target(connection, the server's pid, *args)``, the bots' ``serve`` by
    default), the thoughts it was asked and has not answered, and the keys of the
    bots it holds. A thread of the server's process reads its answers and settles their futures
    on their event loop."""

    def __init__(self, target: Callable[..., None] | None = None, args: tuple[Any, ...] = ()) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, there = context.Pipe()
        self.started = time.monotonic()
        self.process = context.Process(target=target or serve, args=(there, os.getpid(), *args), name="hippodrome-bots",
                                       daemon=True)
        self.process.start()
        there.close()
        self.holds: set[str] = set()
        self.replicas: dict[str, int] = {}   # key of a table -> the log entries its replica there has
        self.forgotten: list[str] = []
        self.stopped = False
        self._waiting: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future]] = {}
        self._progress: dict[int, Callable[..., None]] = {}   # a long call's reports (a review's)
        self._numbers = itertools.count()
        self._sending = threading.Lock()
        self._outbox: queue.SimpleQueue[tuple[int, bytes, bool] | None] = queue.SimpleQueue()
        threading.Thread(target=self._read, name="hippodrome-bot-answers", daemon=True).start()
        threading.Thread(target=self._send, name="hippodrome-bot-questions", daemon=True).start()

    def ask(self, name: str, *args: Any, long: bool = False,
            progress: Callable[..., None] | None = None) -> asyncio.Future:
        """Queue the call for the worker (``long``: in a thread of its own there, else in turn with
        the other quick ones); its future (on the running loop) gets the answer, and ``progress``
        (called on that loop) the reports the call sends on its way, if any. Raises
        what pickling raises (the caller thinks in a thread then) and WorkerStopped. The pipe is
        written by a thread of its own: a worker slow to read never holds up the event loop."""
        payload = pickle.dumps((name, args), protocol=pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        number = next(self._numbers)
        with self._sending:
            if self.stopped:
                raise WorkerStopped("the bot worker stopped")  # i18n: programming error (handled: a new worker)
            self._waiting[number] = (loop, future)
            if progress is not None:
                self._progress[number] = progress
        self._outbox.put((number, payload, long))
        return future

    def _send(self) -> None:
        while True:
            item = self._outbox.get()
            if item is None:
                return
            try:
                self.conn.send(item)
            except (OSError, ValueError) as error:
                # a send that fails finds the worker gone: marked at once, so that the next thought
                # starts a new worker without waiting for the reading thread to see the pipe close
                self._stop_waiting(str(error) or "the bot worker stopped")
                return

    def _read(self) -> None:
        while True:
            try:
                number, ok, value = self.conn.recv()
            except (EOFError, OSError):
                break
            with self._sending:
                if ok is None:   # a report on the way (a review's progress): the call goes on
                    report, (loop, _future) = self._progress.get(number), self._waiting.get(number, (None, None))
                    if report is not None and loop is not None:
                        with contextlib.suppress(RuntimeError):   # the loop is closed
                            loop.call_soon_threadsafe(report, *value)
                    continue
                self._progress.pop(number, None)
                loop, future = self._waiting.pop(number, (None, None))
            if future is not None:
                if ok:
                    settle_threadsafe(loop, future, value)
                else:   # the worker could not run the call (an unpicklable answer)
                    settle_threadsafe(loop, future, exception=RuntimeError(value))
        self._stop_waiting("the bot worker stopped")

    def _stop_waiting(self, reason: str) -> None:
        """The worker is gone: no more questions, and every thought under way fails."""
        with self._sending:
            self.stopped = True
            waiting, self._waiting = list(self._waiting.values()), {}
            self._progress.clear()
        self._outbox.put(None)
        for loop, future in waiting:
            settle_threadsafe(loop, future, exception=WorkerStopped(reason))

    def stop(self) -> None:
        """Stop the process (thoughts under way are dropped; their futures hear WorkerStopped)."""
        with self._sending:
            self.stopped = True
        self._outbox.put(None)
        self.process.terminate()
        self.process.join(PARENT_CHECK * 5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(PARENT_CHECK * 5)


class ProcessThinker:
    """Thoughts in ``workers`` worker processes, each bot kept in one of them (module docstring)."""

    def __init__(self, workers: int = 1, target: Callable[[Connection, int], None] | None = None):
        """``target``: the workers' main function (:func:`serve`; tests give a failing one)."""
        if workers < 1:
            raise ValueError("a process thinker needs at least one worker")  # i18n: programming error (CLI checks)
        self._target = target
        self._quick_stops = 0                    # workers in a row that stopped soon after their start
        self._workers: list[_Worker | None] = [None] * workers
        self._keys: dict[int, str] = {}          # id(bot) -> its key, while the bot lives
        self._in_threads: set[int] = set()       # ids of bots that think in a thread (not picklable)
        self._lock = threading.Lock()            # finalizers run on whichever thread collects
        self.closed = False

    # keys of bots and tables, and forgetting those the server no longer holds
    def _key(self, bot: Bot) -> str | None:
        """The bot's key, or None when it thinks in a thread (not this project's bot, no weak reference)."""
        found = self._keys.get(id(bot))
        if found is not None:
            return found
        if id(bot) in self._in_threads or not type(bot).__module__.startswith("hippodrome."):
            return None
        return self._new_key(bot)

    def _table_key(self, match: Match) -> str | None:
        """The key of a table's match, under which workers keep its replica."""
        return self._keys.get(id(match)) or self._new_key(match)

    def _new_key(self, thing: Any) -> str | None:
        key = uuid.uuid4().hex
        try:
            weakref.finalize(thing, self._forget, id(thing), key)
        except TypeError:  # no weak reference to it: its worker could never forget it
            return None
        self._keys[id(thing)] = key
        return key

    def _forget(self, thing_id: int, key: str) -> None:
        """A bot or a table is gone: every worker that holds it is told with its next question."""
        with self._lock:
            if self._keys.get(thing_id) == key:
                del self._keys[thing_id]
            self._in_threads.discard(thing_id)
            for worker in self._workers:
                if worker is not None and (key in worker.holds or key in worker.replicas):
                    worker.holds.discard(key)
                    worker.replicas.pop(key, None)
                    worker.forgotten.append(key)

    def _index(self, key: str) -> int:
        return zlib.crc32(key.encode()) % len(self._workers)

    def _worker(self, index: int) -> _Worker | None:
        """The worker for ``index``, started again if it stopped; None once workers keep stopping
        as soon as they start (:data:`QUICK_STOPS` in a row): bots think in threads from then on,
        rather than a process being started for every thought."""
        worker = self._workers[index]
        if worker is not None and worker.stopped:
            quick = time.monotonic() - worker.started < QUICK_STOP_SECONDS
            self._quick_stops = self._quick_stops + 1 if quick else 0
            if self._quick_stops >= QUICK_STOPS:
                log.error("bot worker processes keep stopping as soon as they start; "
                          "bots think in threads of the server from now on")
                self.close()
                return None
        if worker is None or worker.stopped:
            worker = self._workers[index] = _Worker(self._target)
        return worker

    async def think(self, bot: Bot, observe: Observe, options: tuple[Action, ...],
                    free_seed: int | None = None) -> Action | None:
        """The bot's choice among ``options`` from the view ``observe()`` builds here."""
        key = None if self.closed else self._key(bot)
        if key is None:
            return await THREADS.think(bot, observe, options, free_seed)
        view = observe()
        observation, sent_options = observation_payload(view), observation_payload(options)
        return await self._ask(bot, key, lambda sent, forgotten, worker: (
            "think", key, sent, forgotten, observation, sent_options, free_seed),
            lambda: THREADS.think(bot, lambda: view, options, free_seed))

    def capture(self, bot: Bot, match: Match, seat: int) -> Capture:
        """What ``bot`` will read, taken now (under the table's lock): for a bot that thinks in a
        worker, the match's log's length (the worker brings its replica there); else a copy."""
        if self.closed or self._key(bot) is None:
            return copied(match, seat)
        return logged(match, seat)

    async def think_at(self, bot: Bot, position: Capture, free_seed: int | None = None) -> Action | None:
        """The bot's decision at ``position`` (its free action with a ``free_seed``), from its seat's
        view there, built in the worker from its replica of the table (:mod:`hippodrome.table.capture`).
        None, without asking, when the worker's replica has already gone past the position (another
        bot of the table asked meanwhile): the table has moved on."""
        match = position.match
        key = None if self.closed or match is None else self._key(bot)
        table = None if key is None else self._table_key(match)
        if table is None:
            return await THREADS.think_at(bot, position, free_seed)

        def ask(sent: Bot | None, forgotten: list[str], worker: _Worker) -> tuple[Any, ...] | None:
            have = worker.replicas.get(table)
            if have is not None and have > position.entries:
                return None
            record = None if have is not None else position.record()
            entries = [] if have is None else match.log[have:position.entries]
            worker.replicas[table] = position.entries
            return "think_at", key, sent, forgotten, table, record, have or 0, entries, position.seat, free_seed

        return await self._ask(bot, key, ask, lambda: THREADS.think_at(bot, position, free_seed), table)

    async def _ask(self, bot: Bot, key: str, call: Callable[[Bot | None, list[str], _Worker], tuple[Any, ...] | None],
                   in_thread: Callable[[], Any], table: str | None = None) -> Action | None:
        """Ask the bot's worker ``call(the bot, or None when the worker holds it; the keys it must
        forget; the worker)`` (None: nothing to ask), again once if it had lost the bot or the
        table. ``in_thread``: the thought in a thread, when the bot cannot go to a worker."""
        for _attempt in range(2):
            worker = self._worker(self._index(key))
            if worker is None:
                return await in_thread()
            with self._lock:
                forgotten, worker.forgotten = worker.forgotten, []
            question = call(None if key in worker.holds else bot, forgotten, worker)
            if question is None:
                return None
            try:
                answer = await worker.ask(*question, long=thinks_long(bot))
            except WorkerStopped:
                log.warning("a bot worker process stopped; starting another (this thought counts as failed)")
                return None
            except RuntimeError as error:  # the worker could not run the call (an unpicklable answer)
                log.warning("bot %s failed in its worker process: %s", type(bot).__name__, error)
                return None
            except Exception as error:  # the bot (or what it holds) cannot be pickled: a thread then
                log.warning("bot %s cannot think in a worker process (%s); it thinks in a thread",
                            type(bot).__name__, error)
                if table is not None:
                    worker.replicas.pop(table, None)   # the question never went
                self._in_threads.add(id(bot))
                self._keys.pop(id(bot), None)
                return await in_thread()
            if answer == _UNKNOWN_TABLE:
                worker.replicas.pop(table, None)
                continue
            if answer != _UNKNOWN:
                worker.holds.add(key)
                return answer
            worker.holds.discard(key)
        return None

    def close(self) -> None:
        """Stop the workers (thoughts under way are dropped); later thoughts run in threads."""
        self.closed = True
        for index, worker in enumerate(self._workers):
            if worker is not None:
                self._workers[index] = None
                worker.stop()


def thinker_for(workers: int) -> ThreadThinker | ProcessThinker:
    """``workers`` worker processes, or threads of this process for 0."""
    return ProcessThinker(workers) if workers > 0 else THREADS


def worker_pids(thinker: ThreadThinker | ProcessThinker) -> Iterable[int]:
    """The process ids of a thinker's running workers (for tests)."""
    for worker in getattr(thinker, "_workers", ()):
        if worker is not None and not worker.stopped:
            yield worker.process.pid
