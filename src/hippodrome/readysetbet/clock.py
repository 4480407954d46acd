"""A synchronous roll clock for Ready Set Bet run from a terminal or a simulation.

``RollClock(table, seconds_per_roll)`` calls ``table.tick()`` each time ``seconds_per_roll``
have passed on its time source, can be paused and resumed, and calls ``between_rolls(table)``
before every roll so that bots (or anything else) can act in the gap. It never sleeps by
itself: :meth:`poll` does the work that is due now, :meth:`run` loops over ``poll`` with an
injectable ``sleep``. Tests pass their own ``now`` and never wait for real time.

While a decision is pending (nothing timed to draw, e.g. a player choosing a VIP card) the
clock waits; the next roll comes a full interval after the decision is made.
"""

from __future__ import annotations

import time
from typing import Any, Callable


class RollClock:
    def __init__(self, table: Any, seconds_per_roll: float, now: Callable[[], float] = time.monotonic,
                 between_rolls: Callable[[Any], None] | None = None):
        if seconds_per_roll < 0:
            raise ValueError(f"the pace must be 0 seconds per roll or more, not {seconds_per_roll}")
        self.table = table
        self.seconds_per_roll = seconds_per_roll
        self.now = now
        self.between_rolls = between_rolls
        self._next_at = now() + seconds_per_roll
        self._paused_remaining: float | None = None
        self.rolls = 0

    @property
    def paused(self) -> bool:
        return self._paused_remaining is not None

    def pause(self) -> None:
        if not self.paused:
            self._paused_remaining = max(0.0, self._next_at - self.now())

    def resume(self) -> None:
        if self.paused:
            self._next_at = self.now() + self._paused_remaining
            self._paused_remaining = None

    def toggle(self) -> bool:
        """Pause if running, resume if paused; returns True when now paused."""
        if self.paused:
            self.resume()
        else:
            self.pause()
        return self.paused

    def set_pace(self, seconds_per_roll: float) -> None:
        if seconds_per_roll < 0:
            raise ValueError("the pace must be 0 seconds per roll or more")
        self._next_at += seconds_per_roll - self.seconds_per_roll
        self.seconds_per_roll = seconds_per_roll

    def seconds_to_next_roll(self) -> float:
        if self.paused:
            return float(self._paused_remaining)
        return max(0.0, self._next_at - self.now())

    def poll(self, max_rolls: int = 1_000_000) -> int:
        """Do every roll that is due now; returns how many were drawn."""
        done = 0
        while not self.paused and not self.table.over and done < max_rolls and self.now() >= self._next_at:
            if self.between_rolls is not None:
                self.between_rolls(self.table)
            if not self.table.tick():
                self._next_at = self.now() + self.seconds_per_roll  # a decision is pending: wait for it
                break
            done += 1
            self.rolls += 1
            self._next_at += self.seconds_per_roll
        return done

    def run(self, sleep: Callable[[float], None] = time.sleep, on_poll: Callable[["RollClock"], None] | None = None,
            step: float = 0.05) -> None:
        """Poll until the game is over (or waits on a person's decision while paused forever)."""
        while not self.table.over:
            self.poll()
            if on_poll is not None:
                on_poll(self)
            if self.table.over:
                break
            sleep(min(step, self.seconds_to_next_roll()) if not self.paused else step)
