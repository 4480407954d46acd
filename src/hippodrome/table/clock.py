"""The table's clock: it strikes every ``interval`` seconds unless paused (Ready Set Bet's pace).

Pausing freezes the time left until the next strike; resuming continues from there.
:meth:`Clock.restart` starts a full interval from now: a driver calls it when the game comes
back to the clock after a decision, so the first roll of a race (or the one after a choice)
never follows at once. The clock knows nothing of games; it has two kinds of drivers:

- the server's runner (asyncio) sleeps :meth:`Clock.wait_seconds` unless news wakes it first (the
  clock's own changes are news: ``on_change``), then takes the strike with
  :meth:`Clock.strike_due` under its lock and calls ``Table.tick()``;
- a synchronous loop (the terminal race caller, bot simulations) calls :func:`strike_if_due`
  now and then, which ticks the table when the clock has struck, and sleeps
  :meth:`Clock.time_left` in between.

The time source can be injected, so tests never wait for real time. An interval of 0 strikes
whenever asked (a terminal race called as fast as it can be read).
"""

from __future__ import annotations

import time
from typing import Any, Callable


class Clock:
    """``on_change()`` is called whenever the clock is paused, resumed or restarted (its driver's
    wait is then out of date)."""

    def __init__(self, interval: float = 2.0, paused: bool = False, now: Callable[[], float] = time.monotonic,
                 on_change: Callable[[], None] | None = None):
        _check_interval(interval)
        self.interval = float(interval)
        self.now = now
        self.paused = paused
        self.on_change = on_change
        self._left = self.interval         # seconds left, counted from _since (or frozen when paused)
        self._since = None if paused else now()

    # -- control ------------------------------------------------------------------
    def pause(self) -> None:
        if not self.paused:
            self._left = self.time_left()
            self._since = None
            self.paused = True
            self._poke()

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            self._since = self.now()
            self._poke()

    def toggle(self) -> bool:
        """Pause if running, resume if paused; True when now paused."""
        if self.paused:
            self.resume()
        else:
            self.pause()
        return self.paused

    def restart(self) -> None:
        """A full interval from now (paused: a full interval once resumed)."""
        self._left = self.interval
        self._since = None if self.paused else self.now()
        self._poke()

    # -- reading ------------------------------------------------------------------
    def time_left(self) -> float:
        if self.paused or self._since is None:
            return self._left
        return max(0.0, self._left - (self.now() - self._since))

    def wait_seconds(self) -> float | None:
        """Seconds until the clock strikes; None while it is paused (it strikes only once resumed)."""
        return None if self.paused else self.time_left()

    def snapshot(self) -> dict[str, Any]:
        return {"paused": self.paused, "interval": self.interval, "next_in": round(self.time_left(), 3)}

    # -- striking -----------------------------------------------------------------
    def due(self) -> bool:
        """Whether the clock's time ran out while not paused (the strike is not taken yet)."""
        return not self.paused and self.time_left() <= 0

    def strike_due(self) -> bool:
        """For a synchronous driver: True when the clock strikes now (its time ran out while not
        paused); the next interval starts then."""
        if not self.due():
            return False
        self._left = self.interval
        self._since = self.now()
        return True

    def _poke(self) -> None:
        if self.on_change is not None:
            self.on_change()


def strike_if_due(clock: Clock, table: Any, between_strikes: Callable[[Any], Any] | None = None) -> bool:
    """One step of a synchronous driver: when ``clock`` strikes, ``between_strikes(table)`` acts
    first (bots betting in the gap between two rolls), then the table ticks. Returns True when a
    timed step (a roll) was drawn. While the game waits on a decision nothing is drawn and the
    clock restarts: the next roll comes a full interval after the decision."""
    if not clock.strike_due():
        return False
    if between_strikes is not None:
        between_strikes(table)
    if table.tick():
        return True
    clock.restart()
    return False


def _check_interval(interval: float) -> None:
    if interval < 0:
        raise ValueError(f"a clock interval is 0 seconds or more, not {interval}")  # i18n: programming error; callers check their input
