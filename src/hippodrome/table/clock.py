"""The table's clock: strikes timed chance steps (Ready Set Bet's rolls) at a pace, with pause
and resume.

NOTE FOR THE OWNER OF table/: this file is a RECONSTRUCTION. The Ready Set Bet engineer
overwrote the original (untracked) table/clock.py by mistake at about 23:20 UTC and rebuilt
it from its uses in runner.py and server/rooms.py (``Clock(roll_interval, paused)``,
``pause()``, ``resume()``, ``await wait()``, ``snapshot()``, ``paused``). Please replace it
with your own version if you still have it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable


class Clock:
    """Strikes every ``roll_interval`` seconds on an absolute schedule, so that waking the
    waiter early (a bet arrived) does not push the next strike back."""

    def __init__(self, roll_interval: float = 2.0, paused: bool = False,
                 now: Callable[[], float] = time.monotonic):
        if roll_interval < 0:
            raise ValueError(f"the roll interval must be 0 seconds or more, not {roll_interval}")
        self.roll_interval = roll_interval
        self.now = now
        self._next_at = now() + roll_interval
        self._remaining: float | None = roll_interval if paused else None
        self._resumed: asyncio.Event | None = None  # created inside the running loop, on first wait

    @property
    def paused(self) -> bool:
        return self._remaining is not None

    def pause(self) -> None:
        if not self.paused:
            self._remaining = max(0.0, self._next_at - self.now())

    def resume(self) -> None:
        if self.paused:
            self._next_at = self.now() + self._remaining
            self._remaining = None
            if self._resumed is not None:
                self._resumed.set()

    def seconds_to_strike(self) -> float:
        if self.paused:
            return float(self._remaining)
        return max(0.0, self._next_at - self.now())

    async def wait(self) -> None:
        """Return at the next strike (never while paused); the strike after is scheduled."""
        while True:
            if self.paused:
                if self._resumed is None:
                    self._resumed = asyncio.Event()
                self._resumed.clear()
                await self._resumed.wait()
                continue
            delay = self._next_at - self.now()
            if delay <= 0:
                self._next_at = max(self._next_at + self.roll_interval, self.now())
                return
            await asyncio.sleep(min(delay, 0.25))

    def snapshot(self) -> dict[str, Any]:
        return {"paused": self.paused, "roll_interval": self.roll_interval,
                "seconds_to_roll": round(self.seconds_to_strike(), 3)}
