"""The table's clock: it strikes every ``interval`` seconds unless paused (Ready Set Bet's pace).

Pausing freezes the time left until the next strike; resuming continues from there.
:meth:`Clock.restart` starts a full interval from now: the runner calls it when the game comes
back to the clock after a decision, so the first roll of a race (or the one after a choice)
never follows at once. The clock knows nothing of games: a driver awaits :meth:`Clock.wait`
and then calls ``Table.tick()``. Only asyncio; the time source can be injected for tests.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable


class Clock:
    def __init__(self, interval: float = 2.0, paused: bool = False, now: Callable[[], float] = time.monotonic):
        if interval <= 0:
            raise ValueError(f"a clock interval must be more than 0 seconds, not {interval}")
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

    def restart(self) -> None:
        """A full interval from now (paused: a full interval once resumed)."""
        self._left = self.interval
        self._since = None if self.paused else self.now()
        self._poke()

    def set_interval(self, interval: float) -> None:
        if interval <= 0:
            raise ValueError(f"a clock interval must be more than 0 seconds, not {interval}")
        self.interval = float(interval)
        self._left = min(self.time_left(), self.interval)
        self._since = None if self.paused else self.now()
        self._poke()

    # -- reading ------------------------------------------------------------------
    def time_left(self) -> float:
        if self.paused or self._since is None:
            return self._left
        return max(0.0, self._left - (self.now() - self._since))

    def snapshot(self) -> dict[str, Any]:
        return {"paused": self.paused, "interval": self.interval, "next_in": round(self.time_left(), 3)}

    # -- waiting ------------------------------------------------------------------
    async def wait(self) -> None:
        """Return when the clock strikes (its time ran out while not paused); the next
        interval starts then. Cancelling a wait changes nothing."""
        if self._changed is None:
            self._changed = asyncio.Event()
        while True:
            if not self.paused and self.time_left() <= 0:
                self._left = self.interval
                self._since = self.now()
                return
            self._changed.clear()
            timeout = None if self.paused else self.time_left()
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except asyncio.TimeoutError:
                pass

    def _poke(self) -> None:
        if self._changed is not None:
            self._changed.set()
