"""The table's clock: it strikes every ``interval`` seconds unless paused (Ready Set Bet's pace).

Pausing freezes the time left until the next strike; resuming continues from there.
:meth:`Clock.restart` starts a full interval from now: a driver calls it when the game comes
back to the clock after a decision, so the first roll of a race (or the one after a choice)
never follows at once. The clock knows nothing of games; it has two kinds of drivers:

- the server's runner (asyncio) awaits :meth:`Clock.until_due` (with other news), then takes the
  strike with :meth:`Clock.strike_due` under its lock and calls ``Table.tick()``;
- a synchronous loop (the terminal race caller, bot simulations) calls :func:`strike_if_due`
  now and then, which ticks the table when the clock has struck, and sleeps
  :meth:`Clock.time_left` in between.

The time source can be injected, so tests never wait for real time. An interval of 0 strikes
whenever asked (a terminal race called as fast as it can be read).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable


class Clock:
    def __init__(self, interval: float = 2.0, paused: bool = False, now: Callable[[], float] = time.monotonic):
        _check_interval(interval)
        self.interval = float(interval)
        self.now = now
        self.paused = paused
        self._left = self.interval         # seconds left, counted from _since (or frozen when paused)
        self._since = None if paused else now()
        self._changed: asyncio.Event | None = None  # made inside the running loop, on first wait

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

    async def until_due(self) -> None:
        """Return when the clock's time has run out while not paused, taking nothing: the driver
        then takes the strike with :meth:`strike_due`. Cancelling it changes nothing, so a driver
        may wait for this and for other news at once."""
        if self._changed is None:
            self._changed = asyncio.Event()
        while not self.due():
            self._changed.clear()
            timeout = None if self.paused else self.time_left()
            try:   # (asyncio.timeout: no task of its own for the wait, as wait_for makes)
                async with asyncio.timeout(timeout):
                    await self._changed.wait()
            except TimeoutError:
                pass

    async def wait(self) -> None:
        """Return when the clock strikes; the next interval starts then."""
        while True:
            await self.until_due()
            if self.strike_due():
                return

    def _poke(self) -> None:
        if self._changed is not None:
            self._changed.set()


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
