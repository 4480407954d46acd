"""What the server measures, for Prometheus (``GET /metrics``, prometheus-client's text format).

Measured as it happens, once per process (a process is one server):

* ``hippodrome_act_to_spectator_seconds``: from a seat's ``act`` reaching the server to its new
  state going out to the table's spectators (stored first: every change is committed before it is
  shown), per act that has a spectator (:class:`ActClock`);
* ``hippodrome_commit_seconds``: a table's save, from queued to stored (the writer's thread, the
  transaction and the disk's sync);
* ``hippodrome_storage_failures_total``: saves that failed (a full disk, a locked or unreachable
  database; the log names each table);
* ``hippodrome_bot_think_seconds``: a bot's thought, from asked to answered (in a worker
  process or a thread).

Read from the hub when scraped: ``hippodrome_tables{status}`` (the tables in memory by status,
damaged ones included) and ``hippodrome_connections`` (websockets open on tables).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

#: this process's measurements
REGISTRY = CollectorRegistry()
#: from a millisecond to ten seconds
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
ACT_TO_SPECTATOR = Histogram("hippodrome_act_to_spectator_seconds",
                             "Seconds from a seat's act reaching the server to its state sent to the spectators",
                             buckets=LATENCY_BUCKETS, registry=REGISTRY)
COMMIT = Histogram("hippodrome_commit_seconds", "Seconds a table's save takes, from queued to stored",
                   buckets=LATENCY_BUCKETS, registry=REGISTRY)
STORAGE_FAILURES = Counter("hippodrome_storage_failures", "Saves of a table that failed", registry=REGISTRY)
BOT_THINK = Histogram("hippodrome_bot_think_seconds", "Seconds a bot thinks, from asked to answered",
                      buckets=LATENCY_BUCKETS + (30.0, 60.0), registry=REGISTRY)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class ActClock:
    """The acts of one table waiting for their state to reach a spectator: (when, state id before)."""

    #: acts remembered at most (a table without spectators forgets the oldest)
    KEEP = 64

    def __init__(self) -> None:
        self.waiting: deque[list[Any]] = deque()

    def acted(self, state_id: int) -> list[Any]:
        """An act came in on the state ``state_id``: its entry (for :meth:`refused`)."""
        entry = [time.perf_counter(), state_id]
        self.waiting.append(entry)
        if len(self.waiting) > self.KEEP:
            self.waiting.popleft()
        return entry

    def refused(self, entry: list[Any]) -> None:
        """The act was refused: it changes no state, and is not measured."""
        try:
            self.waiting.remove(entry)
        except ValueError:
            pass

    def shown(self, state_id: int) -> None:
        """The spectators are sent the state ``state_id``: every act before it is measured."""
        now = time.perf_counter()
        while self.waiting and self.waiting[0][1] < state_id:
            ACT_TO_SPECTATOR.observe(now - self.waiting.popleft()[0])


def commit_timer(saved: Any) -> None:
    """Measure the save ``saved`` (an asyncio future) when it settles."""
    started = time.perf_counter()

    def settled(future: Any) -> None:
        if future.cancelled():
            return
        if future.exception() is not None:
            STORAGE_FAILURES.inc()
        else:
            COMMIT.observe(time.perf_counter() - started)

    saved.add_done_callback(settled)


class TimedThinker:
    """A thinker (``table/thinking.py``) whose thoughts are timed; anything else is the thinker's."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def think(self, *args: Any, **kwargs: Any) -> Any:
        with BOT_THINK.time():
            return await self.inner.think(*args, **kwargs)

    async def think_at(self, *args: Any, **kwargs: Any) -> Any:
        with BOT_THINK.time():
            return await self.inner.think_at(*args, **kwargs)


class HubCollector:
    """The tables and connections of one hub, read when scraped."""

    def __init__(self, hub: Any):
        self.hub = hub

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily("hippodrome_tables", "Tables in this process's memory, by status", labels=["status"])
        counts: dict[str, int] = {}
        for room in list(self.hub.rooms.values()):
            status = "paused_saving" if room.runner.saving_failed else room.status
            counts[status] = counts.get(status, 0) + 1
        if self.hub.damaged:
            counts["damaged"] = len(self.hub.damaged)
        for status, count in sorted(counts.items()):
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("hippodrome_connections", "Websocket connections open on this process's tables",
                                value=sum(len(room.connections) for room in list(self.hub.rooms.values())))


def exposition(hub: Any) -> bytes:
    """The text Prometheus scrapes: this process's measurements and ``hub``'s tables."""
    tables = CollectorRegistry(auto_describe=False)
    tables.register(HubCollector(hub))
    return generate_latest(REGISTRY) + generate_latest(tables)
