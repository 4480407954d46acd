"""Finished tables watched again, played back from their stored log (never from a second copy).

A replay's *steps* are the changes people saw: step 0 is the game as it began (its first untimed
draws made: the deal, the shuffles), and each further step is one entry of the log (a decision, a
free action such as a bet, a timed roll) with the untimed draws that followed it at once. The
replay keeps a copy of the state every :data:`CHECKPOINT_EVERY` steps, so a step is reached by
playing at most that many entries from the nearest copy; the replays of the latest tables asked
for are kept (:data:`KEPT`), built in a worker thread. ``races`` lists the step at which each
race begins (race 1 at step 0; then the first step out of ``between_races()``). Names no game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from hippodrome.core.game import Chance, Game, decision_view
from hippodrome.core.match import CHANCE, apply_numbered, initial_state

CHECKPOINT_EVERY = 64
KEPT = 16


@dataclass
class Replay:
    game: str
    log: list[dict[str, Any]]
    #: ``ends[k]``: how many log entries step k has played
    ends: list[int] = field(default_factory=list)
    checkpoints: dict[int, Game] = field(default_factory=dict)
    races: list[int] = field(default_factory=list)

    @property
    def steps(self) -> int:
        """The last step (a finished table's end)."""
        return len(self.ends) - 1

    def state_at(self, step: int) -> Game:
        """The game after ``step`` changes (a copy of its own)."""
        start = step - step % CHECKPOINT_EVERY
        state = self.checkpoints[start].clone()
        for number in range(self.ends[start], self.ends[step]):
            apply_numbered(state, number + 1, self.log[number])
        return state

    def shown(self, step: int, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is shown at ``step``: its view, and the pending step
        as a spectator sees it (who decides; no options: nobody acts in a replay)."""
        state = self.state_at(step)
        return {"view": state.view(seat),
                "decision": decision_view(state.pending(), None, state.public_decision_context)}


def build(record: dict[str, Any]) -> Replay:
    """A replay of a stored table's record (its game, setup and log); IllegalAction names the log
    entry that does not replay."""
    state = initial_state(record)   # under the rulings it was played with
    log = record["log"]
    replay = Replay(record["game"], log)
    done = _absorb(state, log, 0)
    replay.ends.append(done)
    replay.checkpoints[0] = state.clone()
    replay.races.append(0)
    between = state.between_races()
    while done < len(log):
        apply_numbered(state, done + 1, log[done])
        done = _absorb(state, log, done + 1)
        replay.ends.append(done)
        step = len(replay.ends) - 1
        if step % CHECKPOINT_EVERY == 0:
            replay.checkpoints[step] = state.clone()
        now = state.between_races()
        if between and not now:
            replay.races.append(step)
        between = now
    return replay


def _absorb(state: Game, log: list[dict[str, Any]], done: int) -> int:
    """Play the untimed draws that follow at once (they are part of the step before)."""
    while done < len(log) and log[done].get("by") == CHANCE:
        pending = state.pending()
        if not isinstance(pending, Chance) or pending.timed:
            break
        apply_numbered(state, done + 1, log[done])
        done += 1
    return done


class Replays:
    """The replays of the latest tables asked for, by table id (a finished table never changes)."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str, record: dict[str, Any]) -> Replay:
        """The table's replay, built from ``record`` unless it is kept (may run in a worker thread)."""
        with self._lock:
            replay = self._replays.get(table_id)
            if replay is not None:
                self._replays.move_to_end(table_id)
                return replay
        replay = build(record)
        with self._lock:
            self._replays[table_id] = replay
            while len(self._replays) > self.kept:
                self._replays.popitem(last=False)
        return replay

    def kept_one(self, table_id: str) -> Replay | None:
        with self._lock:
            return self._replays.get(table_id)
