"""How much one client address may do: a sliding window per address (tables created, connections).

``Quota(count, seconds)``: at most ``count`` events in any ``seconds`` from one address.
``SlidingWindow.take(address)`` records an event, or answers how many seconds remain until one is
allowed again (the event is then not recorded); ``give_back`` forgets the latest one. The defaults of ``create_app`` are far beyond what
a person does; a test sets small ones.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Quota:
    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0:
            raise ValueError(f"a quota allows at least 1 event in more than 0 seconds, not {self}")  # i18n: programming error


#: a person opens a few tables an hour; a page reconnects at most every 0.3 s
TABLES = Quota(100, 3600.0)
CONNECTIONS = Quota(600, 60.0)


class SlidingWindow:
    """The times of each address's recent events, forgotten once they leave the window."""

    #: sweep addresses whose events have all expired after this many calls
    SWEEP_EVERY = 1000

    def __init__(self, quota: Quota, clock: Callable[[], float] = time.monotonic):
        self.quota = quota
        self.clock = clock
        self.events: dict[str, deque[float]] = {}
        self.calls = 0

    def take(self, address: str) -> float | None:
        """Record an event for ``address``: None if allowed, else the seconds to wait."""
        now = self.clock()
        self.calls += 1
        if self.calls % self.SWEEP_EVERY == 0:
            self._sweep(now)
        times = self.events.setdefault(address, deque())
        self._expire(times, now)
        if len(times) >= self.quota.count:
            return max(times[0] + self.quota.seconds - now, 0.0)
        times.append(now)
        return None

    def wait(self, address: str) -> float | None:
        """The seconds before ``address`` may have an event again (None: it may now); records nothing."""
        times = self.events.get(address)
        if not times:
            return None
        now = self.clock()
        self._expire(times, now)
        return max(times[0] + self.quota.seconds - now, 0.0) if len(times) >= self.quota.count else None

    def give_back(self, address: str) -> None:
        """Forget the latest event of ``address`` (a request that was then refused)."""
        times = self.events.get(address)
        if times:
            times.pop()

    def _expire(self, times: deque[float], now: float) -> None:
        while times and times[0] <= now - self.quota.seconds:
            times.popleft()

    def _sweep(self, now: float) -> None:
        for address in list(self.events):
            self._expire(self.events[address], now)
            if not self.events[address]:
                del self.events[address]


def whole_seconds(wait: float) -> int:
    """A wait as people read it: whole seconds, at least 1."""
    return max(1, math.ceil(wait))
