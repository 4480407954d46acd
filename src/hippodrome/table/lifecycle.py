"""A table's life around the game: waiting for its people, playing, standing between races, over.

The game says only whether it stands between two races (``Game.between_races``); this module
decides what the table does about it, for any game:

* ``waiting``: a table with person seats waits until each of them has said it is ready (or the
  host starts it: the empty seats, those nobody is connected to and that are not ready, are
  handed to bots; a person who is here keeps the seat, ready or not, and so does the host's own
  seat). Nothing is drawn on the clock and no bot moves. A table of bots only starts at once; a
  table made for the host alone (``hold``: a race called for the box, no person seat) waits for
  the host's start.
* ``playing``: the game runs. A person seat nobody is connected to (a person who left) may be
  handed to a bot by the host (``hand``), as the host's start hands the empty seats; so may it
  between races.
* ``between_races``: a race is over and the next has not begun. The clock stops and no move of
  the next race is made; the seats' own choices between races (VIP cards, cards to keep) are
  still taken, people's and bots' alike. The gate to the
  next race opens when every present person seat has pressed "Next race", when the host presses
  it, or when the countdown (``next_race_seconds``; 0: none) runs out.
* ``over``: the game is over.

:class:`Lifecycle` holds the state of all this, as JSON for storage (``to_json`` /
``from_json``). Who plays each seat (a person, a bot, a seat handed to a bot) it reads from the
table's :class:`~hippodrome.table.table.Player` records, the one record of it. The countdown runs on an injectable monotonic clock and is not stored: a table
resumed after a restart counts down afresh.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from hippodrome.table.table import Player

WAITING, PLAYING, BETWEEN_RACES, OVER = "waiting", "playing", "between_races", "over"
STATUSES = (WAITING, PLAYING, BETWEEN_RACES, OVER)
#: the default countdown between races, in seconds
NEXT_RACE_SECONDS = 30


class Lifecycle:
    def __init__(self, players: list["Player"], *, next_race_seconds: float = NEXT_RACE_SECONDS,
                 hold: bool = False, started: bool | None = None, now: Callable[[], float] = time.monotonic):
        self.players = players                        # the table's (read, never changed here)
        self.next_race_seconds = float(next_race_seconds)
        self.hold = hold                              # waits for the host even with no person seat
        self.started = (not self.persons and not hold) if started is None else started
        self.ready: set[int] = set()
        self.between = False                          # the game stood between races at the last look
        self.gate_open = False                        # ... and the next race may begin
        self.races_between = 0                        # how many times the game came between races
        self.next: set[int] = set()                   # seats that pressed "Next race" this time
        self.present: set[int] = set()                # person seats with a connection now (not stored)
        self.now = now
        self.deadline: float | None = None            # when the countdown runs out (monotonic)
        self.paused = False                           # the table's clock is paused: so is the countdown
        self.frozen: float | None = None              # seconds left then
        # seats still making a choice everyone makes at once (Ready Set Bet's VIP cards, R8): the
        # table stays between races for them, its gate open or not (the runner says, not stored)
        self.waiting_for: list[int] = []

    # -- reading ------------------------------------------------------------------
    @property
    def persons(self) -> set[int]:
        """The seats people play (a seat handed to a bot is a bot's)."""
        return {seat for seat, player in enumerate(self.players) if player.is_person}

    @property
    def handed(self) -> list[int]:
        """The seats the host handed to bots (at the start or later)."""
        return [seat for seat, player in enumerate(self.players) if player.handed]

    def status(self, over: bool) -> str:
        if over:
            return OVER
        if not self.started:
            return WAITING
        if self.between and (not self.gate_open or self.waiting_for):
            return BETWEEN_RACES
        return PLAYING

    def countdown(self) -> float | None:
        """Seconds left before the next race starts by itself (None: no countdown running)."""
        if self.paused:
            return self.frozen if self.between and not self.gate_open else None
        if self.deadline is None or not self.between or self.gate_open:
            return None
        return max(0.0, self.deadline - self.now())

    def snapshot(self, over: bool) -> dict[str, Any]:
        """The ``lifecycle`` object of the protocol's ``state`` message."""
        left, persons = self.countdown(), self.persons   # (persons: read off the players, once)
        return {"ready": sorted(self.ready), "next": sorted(self.next), "persons": sorted(persons),
                "present": sorted(self.present & persons), "absent": sorted(persons - self.present),
                "handed": list(self.handed), "countdown": None if left is None else round(left, 1),
                "next_race_seconds": self.next_race_seconds, "race": self.races_between,
                "waiting_for": list(self.waiting_for)}

    # -- changes (each returns True when the status may have changed) ---------------
    def mark_ready(self, seat: int) -> bool:
        self.ready.add(seat)
        return self._start_if_all_ready()

    def empty_seats(self, host_seat: int | None = None) -> set[int]:
        """The person seats the host's start hands to bots: not ready, nobody connected to them,
        not the host's own seat (``host_seat``)."""
        return self.persons - self.ready - self.present - {host_seat}

    def start(self) -> None:
        """The host starts (the empty seats handed to bots already)."""
        self.ready &= self.persons
        self.started = True

    def may_hand(self, seat: int) -> bool:
        """Whether the host may hand ``seat`` to a bot now that the game runs: a person seat nobody
        is connected to (the table's status, its host's own seat, are the caller's to check)."""
        return self.started and seat in self.persons and seat not in self.present

    def hand(self, seat: int) -> bool:
        """The host hands the person seat ``seat`` (its person gone) to a bot while the game runs;
        True when that opened the gate between races (everyone left had pressed Next race); the
        seat's player is handed to its bot already."""
        self.ready.discard(seat)
        self.next.discard(seat)
        return self._open_if_everyone_pressed()

    def press_next(self, seat: int | None) -> bool:
        """A person seat (or the host: None) presses "Next race"; True when the gate opens."""
        if seat is None:
            return self._open_gate()
        self.next.add(seat)
        return self._open_if_everyone_pressed()

    def set_present(self, seats: Iterable[int]) -> bool:
        """Who is connected now; True when that opened the gate (the last one not pressing left)."""
        self.present = set(seats)
        return self._open_if_everyone_pressed()

    def observe(self, between_races: bool) -> None:
        """After every change: notice the game coming between races (a new wait, countdown from now)
        or leaving them."""
        if between_races and not self.between:
            self.between, self.gate_open, self.next = True, False, set()
            self.races_between += 1
            self._restart_countdown()
            if not self.persons and not self.hold:
                self.gate_open = True  # bots only: nobody to wait for
        elif not between_races and self.between:
            self.between, self.gate_open, self.next, self.deadline, self.frozen = False, False, set(), None, None

    def pause(self, paused: bool) -> None:
        """The table's clock is paused (or resumed): the countdown stands still meanwhile."""
        if paused and not self.paused:
            self.frozen = self.countdown()
        elif not paused and self.paused:
            self.deadline = None if self.frozen is None else self.now() + self.frozen
            self.frozen = None
        self.paused = paused

    def countdown_ran_out(self) -> bool:
        left = self.countdown()
        return not self.paused and left is not None and left <= 0 and self._open_gate()

    def resumed(self) -> None:
        """After a restart: the countdown starts again."""
        self._restart_countdown()

    # -- inside -------------------------------------------------------------------
    def _restart_countdown(self) -> None:
        seconds = self.next_race_seconds if self.between and self.next_race_seconds > 0 else None
        if self.paused:  # the full countdown waits for the resume
            self.frozen, self.deadline = seconds, None
        else:
            self.deadline = None if seconds is None else self.now() + seconds

    def _start_if_all_ready(self) -> bool:
        if self.started or not self.persons or not self.persons <= self.ready:
            return False
        self.started = True
        return True

    def _open_if_everyone_pressed(self) -> bool:
        present = self.present & self.persons
        if not present or not present <= self.next:
            return False
        return self._open_gate()

    def _open_gate(self) -> bool:
        if not self.between or self.gate_open:
            return False
        self.gate_open, self.deadline, self.frozen = True, None, None
        return True

    # -- storage ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"persons": sorted(self.persons), "hold": self.hold, "started": self.started,
                "ready": sorted(self.ready), "handed": list(self.handed), "between": self.between,
                "gate_open": self.gate_open, "races_between": self.races_between, "next": sorted(self.next),
                "next_race_seconds": self.next_race_seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any], players: list["Player"],
                  now: Callable[[], float] = time.monotonic) -> "Lifecycle":
        """The stored lifecycle of a table of ``players`` (its ``persons`` and ``handed`` are the
        players' own, restored with them)."""
        lifecycle = cls(players, next_race_seconds=data["next_race_seconds"], hold=data["hold"],
                        started=data["started"], now=now)
        lifecycle.ready = set(data["ready"])
        lifecycle.between, lifecycle.gate_open = data["between"], data["gate_open"]
        lifecycle.races_between, lifecycle.next = data["races_between"], set(data["next"])
        lifecycle.resumed()
        return lifecycle
