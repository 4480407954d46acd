"""A bot's thought, and a worker process's side of :mod:`hippodrome.table.thinking`.

:func:`bot_thought` asks a bot for its choice from its seat's view (or, with a seed, for its free
action); :func:`thought_at` does it at a state. A worker process (:func:`serve`) keeps the bots it
was sent under their keys and a replica of each table's match
(:class:`~hippodrome.table.capture.Replicas`), and answers the server's questions one at a time
on quick lanes, each long thought (a search bot's budget) on a thread of its own.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import pickle
import random
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterator

import orjson

from hippodrome.core.bot import Bot
from hippodrome.core.game import Action, Game
from hippodrome.table.bots import free_choice
from hippodrome.table.capture import Replicas, question

log = logging.getLogger(__name__)

#: bots a worker keeps at most (the oldest unused go first; one sent again is simply re-installed)
WORKER_BOTS = 5000
#: seconds between a worker's checks that the server's process is still there
PARENT_CHECK = 1.0
#: how much nicer than the server a worker process is (``os.nice``; 0 to 19, higher yields more)
WORKER_NICENESS = 5


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


def thought_at(bot: Bot, state: Game, seat: int, free_seed: int | None) -> Action | None:
    """The bot's decision (``free_seed`` None) or free action at ``state``, from its seat's view;
    None when it has nothing to choose (no free action open to it) or failed."""
    asked = question(state, seat, free=free_seed is not None)
    return None if asked is None else bot_thought(bot, *asked, free_seed)


_UNKNOWN = "unknown bot"
_UNKNOWN_TABLE = "unknown table"
#: quick thoughts (a tactical move, a bet) a worker runs at once; the others wait their turn. A
#: thought is CPU work under the worker's interpreter lock, so more threads buy no speed, and 64
#: of them (the old number) thrashed: numpy gives the lock up at each step of the odds, every
#: thread woke for it in turn, and a thought cost 3 to 30 times its CPU alone (worker at a full
#: core, bots a second late). Two, so that one slow thought (tables filled at first use) holds up
#: no other.
QUICK_THOUGHTS_AT_ONCE = 2
#: long thoughts (bots with ``thinks_long``: a search bot takes its whole budget) a worker runs at
#: once, each in a thread of its own, so that one bot's second holds up no other
LONG_THOUGHTS_AT_ONCE = 64
_bots: OrderedDict[str, Bot] = OrderedDict()
_bots_lock = threading.Lock()
#: the worker's replicas of tables' matches (its main thread's alone)
_replicas = Replicas()


def _watch_parent(parent: int) -> None:
    """In a worker, at its start: exit when the server's process is gone (its parent changes)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)
    threading.Thread(target=watch, name="hippodrome-parent-watch", daemon=True).start()


def observation_payload(observation: Any) -> Any:
    """A view (or a decision's options) as it travels to a worker: its JSON text where JSON carries
    it as it is (views and options are made of JSON's types; their tuples arrive as lists, as on a
    page), else the value itself. orjson writes it in a quarter of pickle's time (a bettor's free
    options are hundreds of bets), on the event loop. (Not :mod:`hippodrome.core.jsondump`: what
    orjson refuses travels pickled, not as the standard library's JSON.)"""
    try:
        return orjson.dumps(observation)
    except TypeError:  # orjson.JSONEncodeError is one: a key that is not a string, a set ...
        return observation


def _think_in_worker(key: str, bot: Bot | None, forgotten: list[str], observation: bytes | dict[str, Any],
                     options: bytes | tuple[Action, ...], free_seed: int | None) -> Any:
    if isinstance(observation, bytes):
        observation = orjson.loads(observation)
    if isinstance(options, bytes):
        options = tuple(orjson.loads(options))
    with _bots_lock:
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


def _prepare_thought_at(key: str, bot: Bot | None, forgotten: list[str], table: str, record: dict[str, Any] | None,
                        start: int, entries: list[dict[str, Any]], seat: int,
                        free_seed: int | None) -> tuple[str, tuple[Any, ...]] | str | None:
    """On the worker's main thread, in the order the questions came: the table's replica brought
    up to the question's position, and the seat's view and options read from it. Returns the
    thought to run (a ``think`` call), or the answer at once: None when there is nothing to choose,
    :data:`_UNKNOWN_TABLE` when the replica is missing (the server sends the record)."""
    state = _replicas.advance(table, record, start, entries)
    if state is None:
        return _UNKNOWN_TABLE
    asked = question(state, seat, free=free_seed is not None)
    if asked is None:
        return None
    view, options = asked
    return "think", (key, bot, forgotten, _json_copy(view), tuple(_json_copy(options)), free_seed)


def _json_copy(value: Any) -> Any:
    """``value`` as a bot in a worker reads it: as JSON carries it (tuples arrive as lists, as on a
    page), written and read back, so that no thought shares an object with the replica the main
    thread goes on changing."""
    payload = observation_payload(value)
    return orjson.loads(payload) if isinstance(payload, bytes) else copy.deepcopy(value)


def _held_in_worker() -> list[str]:
    """The keys of the bots this worker holds (for tests)."""
    with _bots_lock:
        return list(_bots)


_CALLS: dict[str, Callable[..., Any]] = {"think": _think_in_worker, "held": _held_in_worker}


class _Lanes:
    """A worker's threads: a few for quick thoughts, taken in turn, and one for each long thought."""

    def __init__(self) -> None:
        self.quick = ThreadPoolExecutor(max_workers=QUICK_THOUGHTS_AT_ONCE, thread_name_prefix="hippodrome-thought")
        self.long = ThreadPoolExecutor(max_workers=LONG_THOUGHTS_AT_ONCE, thread_name_prefix="hippodrome-long-thought")

    def submit(self, long: bool, function: Callable[..., Any], *args: Any) -> None:
        (self.long if long else self.quick).submit(function, *args)


def thinks_long(bot: Bot) -> bool:
    """Whether the bot's thoughts take a budget of time (its ``thinks_long``; the search bot's)."""
    return bool(getattr(bot, "thinks_long", False))


def requests(conn: Connection) -> Iterator[tuple[int, bytes, bool]]:
    """A worker's requests as they come (its number, the pickled call, whether it is long); the
    worker exits when the server closed its end or is gone."""
    while True:
        try:
            yield conn.recv()
        except (EOFError, OSError):
            os._exit(0)


def serve(conn: Connection, parent: int) -> None:
    """A worker's main loop: each request (its number, the pickled call, whether it is long) runs
    in a thread of :class:`_Lanes`; answers go back as they come."""
    _watch_parent(parent)
    with contextlib.suppress(OSError):   # a system that refuses it: the same priority as the server
        os.nice(WORKER_NICENESS)
    lanes = _Lanes()
    sending = threading.Lock()

    def answer(number: int, ok: bool, value: Any) -> None:
        with sending:
            try:
                conn.send((number, ok, value))
            except (OSError, ValueError):  # the server is gone
                os._exit(0)
            except Exception as error:  # an answer that cannot be pickled
                conn.send((number, False, f"{type(error).__name__}: {error}"))

    def run(number: int, name: str, args: tuple[Any, ...]) -> None:
        try:
            answer(number, True, _CALLS[name](*args))
        except Exception as error:
            answer(number, False, f"{type(error).__name__}: {error}")

    for number, payload, long in requests(conn):
        try:
            # unpickled here, one at a time: a bot's first arrival imports its game's modules, and
            # imports made at once by several threads can meet a module half made (a circular import)
            name, args = pickle.loads(payload)
            if name == "tables":   # the replicas' keys (for tests), read where they change
                answer(number, True, _replicas.keys())
                continue
            if name in ("think", "think_at"):
                _replicas.forget(args[2])   # the keys the server no longer holds (bots' go in the thought)
            if name == "think_at":   # the table's replica moves here, in the questions' order
                prepared = _prepare_thought_at(*args)
                if not isinstance(prepared, tuple):
                    answer(number, True, prepared)
                    continue
                name, args = prepared
        except Exception as error:
            answer(number, False, f"{type(error).__name__}: {error}")
            continue
        lanes.submit(long, run, number, name, args)


# -- the server's side ------------------------------------------------------------------
