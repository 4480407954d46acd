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
only the key, the seat's view and the options, and the bot's own state (its random generator, the
odds it keeps from one roll to the next) lives on in the worker. A bot always thinks in the same
worker (chosen by its key). A bot the main process no longer holds is forgotten by its worker. A
worker that dies is replaced (the thought it was running counts as the bot failing: the table plays
a random legal option, as for a bot's bug) and its bots are sent again. A bot that cannot be
pickled, or whose class is not this project's own (a test's stand-in), thinks in a thread. A worker
stops by itself when the server's process is gone (killed), so none is left behind.

Both read only what they are given: the view (``observe()``, built from the turn's copy of the
state: the seat's own view, nothing hidden from it) and the options.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
import uuid
import weakref
import zlib
from collections import OrderedDict
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any, Callable, Iterable

from hippodrome.core.bot import Bot
from hippodrome.core.game import Action
from hippodrome.table.bots import free_choice

log = logging.getLogger(__name__)

Observe = Callable[[], dict[str, Any]]
#: bots a worker keeps at most (the oldest unused go first; one sent again is simply re-installed)
WORKER_BOTS = 5000
#: seconds between a worker's checks that the server's process is still there
PARENT_CHECK = 1.0


def bot_thought(bot: Bot, observation: dict[str, Any], options: tuple[Action, ...],
                free_seed: int | None) -> Action | None:
    """The bot's decision among ``options`` (``free_seed`` None), or its free action (a bet, or None
    to wait; ``free_seed`` seeds the chance a bot without ``choose_free`` bets). None also when the
    bot failed: its error is logged and the table plays a random legal option instead."""
    try:
        if free_seed is None:
            return bot.choose(observation, options)
        return free_choice(bot, observation, options, random.Random(free_seed))
    except Exception:  # a bot's bug must not stall a table of people
        log.exception("bot %s failed", type(bot).__name__)
        return None


class ThreadThinker:
    """Thoughts in the event loop's default executor (worker threads of this process)."""

    async def think(self, bot: Bot, observe: Observe, options: tuple[Action, ...],
                    free_seed: int | None = None) -> Action | None:
        return await asyncio.get_running_loop().run_in_executor(
            None, lambda: bot_thought(bot, observe(), options, free_seed))

    def close(self) -> None:
        pass


THREADS = ThreadThinker()

# -- the worker process's side ---------------------------------------------------------
_UNKNOWN = "unknown bot"
_bots: OrderedDict[str, Bot] = OrderedDict()


def _watch_parent(parent: int) -> None:
    """In a worker, at its start: exit when the server's process is gone (its parent changes)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)
    threading.Thread(target=watch, name="hippodrome-parent-watch", daemon=True).start()


def _think_in_worker(key: str, bot: Bot | None, forgotten: list[str], observation: dict[str, Any],
                     options: tuple[Action, ...], free_seed: int | None) -> Any:
    for gone in forgotten:
        _bots.pop(gone, None)
    if bot is not None:
        _bots[key] = bot
        while len(_bots) > WORKER_BOTS:
            _bots.popitem(last=False)
    bot = _bots.get(key)
    if bot is None:
        return _UNKNOWN
    _bots.move_to_end(key)
    return bot_thought(bot, observation, options, free_seed)


# -- the server's side ------------------------------------------------------------------
class _Worker:
    """One worker process (a one-process pool) and the keys of the bots it holds."""

    def __init__(self) -> None:
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_watch_parent, initargs=(os.getpid(),))
        self.holds: set[str] = set()
        self.forgotten: list[str] = []


class ProcessThinker:
    """Thoughts in ``workers`` worker processes, each bot kept in one of them (module docstring)."""

    def __init__(self, workers: int = 1):
        if workers < 1:
            raise ValueError("a process thinker needs at least one worker")  # i18n: programming error (CLI checks)
        self._workers: list[_Worker | None] = [None] * workers
        self._keys: dict[int, str] = {}          # id(bot) -> its key, while the bot lives
        self._in_threads: set[int] = set()       # ids of bots that think in a thread (not picklable)
        self._lock = threading.Lock()            # finalizers run on whichever thread collects
        self.closed = False

    # bots' keys, and forgetting the bots the server no longer holds
    def _key(self, bot: Bot) -> str | None:
        """The bot's key, or None when it thinks in a thread (not this project's bot, no weak reference)."""
        found = self._keys.get(id(bot))
        if found is not None:
            return found
        if id(bot) in self._in_threads or not type(bot).__module__.startswith("hippodrome."):
            return None
        key = uuid.uuid4().hex
        try:
            weakref.finalize(bot, self._forget, id(bot), key)
        except TypeError:  # no weak reference to it: its worker could never forget it
            return None
        self._keys[id(bot)] = key
        return key

    def _forget(self, bot_id: int, key: str) -> None:
        with self._lock:
            if self._keys.get(bot_id) == key:
                del self._keys[bot_id]
            self._in_threads.discard(bot_id)
            worker = self._workers[self._index(key)]
            if worker is not None and key in worker.holds:
                worker.holds.discard(key)
                worker.forgotten.append(key)   # told with the worker's next thought

    def _index(self, key: str) -> int:
        return zlib.crc32(key.encode()) % len(self._workers)

    def _worker(self, index: int) -> _Worker:
        worker = self._workers[index]
        if worker is None:
            worker = self._workers[index] = _Worker()
        return worker

    async def think(self, bot: Bot, observe: Observe, options: tuple[Action, ...],
                    free_seed: int | None = None) -> Action | None:
        key = None if self.closed else self._key(bot)
        if key is None:
            return await THREADS.think(bot, observe, options, free_seed)
        observation = observe()
        loop = asyncio.get_running_loop()
        for _attempt in range(2):   # the second only when the worker had lost the bot
            index = self._index(key)
            worker = self._worker(index)
            with self._lock:
                forgotten, worker.forgotten = worker.forgotten, []
            sent = None if key in worker.holds else bot
            try:
                answer = await loop.run_in_executor(worker.pool, _think_in_worker, key, sent, forgotten,
                                                    observation, options, free_seed)
            except BrokenExecutor:
                log.warning("a bot worker process stopped; starting another (this thought counts as failed)")
                self._replace(index, worker)
                return None
            except Exception as error:  # the bot (or what it holds) cannot be pickled: a thread then
                log.warning("bot %s cannot think in a worker process (%s); it thinks in a thread",
                            type(bot).__name__, error)
                self._in_threads.add(id(bot))
                self._keys.pop(id(bot), None)
                return await THREADS.think(bot, lambda: observation, options, free_seed)
            if answer != _UNKNOWN:
                worker.holds.add(key)
                return answer
            worker.holds.discard(key)
        return None

    def _replace(self, index: int, worker: _Worker) -> None:
        if self._workers[index] is worker:
            self._workers[index] = None
            worker.pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (thoughts under way are dropped); later thoughts run in threads."""
        self.closed = True
        for index, worker in enumerate(self._workers):
            if worker is not None:
                self._workers[index] = None
                worker.pool.shutdown(wait=False, cancel_futures=True)


def thinker_for(workers: int) -> ThreadThinker | ProcessThinker:
    """``workers`` worker processes, or threads of this process for 0."""
    return ProcessThinker(workers) if workers > 0 else THREADS


def worker_pids(thinker: ThreadThinker | ProcessThinker) -> Iterable[int]:
    """The process ids of a thinker's running workers (for tests and the load bench)."""
    for worker in getattr(thinker, "_workers", ()):
        if worker is not None:
            yield from (process.pid for process in (worker.pool._processes or {}).values())
