"""Where a bot's thought starts, and a worker process's replicas of the tables' matches.

A running table asks its bot to think under the table's lock and takes the answer later, once the
table may have moved on. What the bot reads is captured under the lock as a :class:`Capture`:

- for a thought in this process (a thread), a copy of the state (:func:`copied`);
- for a thought in a worker process, only the table's match and the length of its log then
  (:func:`logged`): the worker keeps a replica of each table's match (:class:`Replicas`), and is
  sent, with each question, the log's entries it has not seen yet. It applies them, builds the
  seat's view and the options itself, and the server's event loop neither copies the state nor
  builds nor writes the view a bot reads (a fifth of the loop's time under load went to that).

A replica is rebuilt from the record without its seed: the log holds every die and card drawn,
so the worker never draws one and holds nothing that tells the dice to come. A bot reads only
its seat's view of the replica (:func:`question`), written as JSON and read back, as a page reads
it and as it read the view the server wrote before.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Game
from hippodrome.core.match import Match, apply_entry, replay

#: table replicas a worker keeps at most (the oldest unused go first; one asked of again is sent whole)
WORKER_TABLES = 2000


@dataclass(eq=False)
class Capture:
    """The state a bot's thought reads, taken under the table's lock: a copy of it, or the
    table's match and how many entries its log had (the match's log is only appended to)."""

    seat: int
    copy: Game | None = None
    match: Match | None = None
    entries: int = 0

    def state(self) -> Game:
        """The state at this position; a logged one is rebuilt from its log (a worker's thought
        that falls back to a thread: rare)."""
        if self.copy is None:
            assert self.match is not None
            self.copy = replay(self.record())
        return self.copy

    def record(self) -> dict[str, Any]:
        """The match up to this position, as a worker rebuilds its replica from: no seed, and the
        rulings it is played under (a log that fits several versions replays under the first: a
        Ready Set Bet game's first race reads the same under version 1, R8)."""
        assert self.match is not None
        return {"game": self.match.game_name, "setup": self.match.setup, "rulings": self.match.rulings,
                "log": self.match.log[:self.entries]}


def copied(match: Match, seat: int) -> Capture:
    return Capture(seat, copy=match.state.clone())


def logged(match: Match, seat: int) -> Capture:
    return Capture(seat, match=match, entries=len(match.log))


def question(state: Game, seat: int, free: bool) -> tuple[Any, tuple[Action, ...]] | None:
    """What the bot of ``seat`` reads at ``state``: its view and its options (its free actions with
    ``free``); None when there is nothing to choose: no free action open, or no decision of this
    seat's."""
    if free:
        options = state.free_options(seat)
    else:
        own = state.decision_for(seat)   # the pending decision, or one of several open at once
        options = own.options if own is not None else ()
    if not options:
        return None
    return state.observation(seat), options


class Replicas:
    """A worker's replicas of tables' matches by key, each at the number of log entries it has
    applied. Used by the worker's main thread only, in the order the questions were sent."""

    def __init__(self, limit: int = WORKER_TABLES):
        self.limit = limit
        self._states: OrderedDict[str, tuple[Game, int]] = OrderedDict()

    def advance(self, key: str, record: dict[str, Any] | None, start: int,
                entries: list[dict[str, Any]]) -> Game | None:
        """The replica of table ``key`` brought up to date: rebuilt from ``record`` when one is
        sent, else ``entries`` applied to the replica that has ``start`` entries. None when there is
        no such replica (never sent, forgotten, or at another length): the server sends the record."""
        if record is not None:
            state, applied = replay(record), len(record["log"])
        else:
            found = self._states.pop(key, None)
            if found is None or found[1] != start:
                return None
            state, applied = found
            try:
                for entry in entries:
                    apply_entry(state, entry)
            except IllegalAction:
                return None
            applied += len(entries)
        self._states[key] = (state, applied)
        while len(self._states) > self.limit:
            self._states.popitem(last=False)
        return state

    def forget(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._states.pop(key, None)

    def keys(self) -> list[str]:
        return list(self._states)

