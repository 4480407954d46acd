"""One server process among several on one PostgreSQL database (``hippodrome serve --db
postgresql://... --bus redis://...``): the leases it holds, its loop, and the way a connection
reaches a table another process runs.

- The process runs (loads, drives, writes) only the tables whose lease it holds
  (:mod:`hippodrome.server.lease`). A thread renews them every
  :data:`~hippodrome.server.lease.RENEW` seconds (a busy event loop does not lose them); every
  :data:`LOOK` seconds the loop stops any table whose lease was lost (its connections are closed with
  1012, "service restart"; pages reconnect by themselves) and takes over orphaned tables (a
  lease that expired: its process was killed): the table is replayed from the database and
  runs on. A process that could not renew for most of a lease's life stops all its tables.
- A websocket for a table another process runs is relayed to that process (:mod:`relay`): the
  owner holds every connection of its tables, so presence, the clock and every message are as
  with one process. When the owner goes away, the relay waits for the table's new owner (which
  may be this process) and joins again with the client's own join message, without the client
  noticing more than a new ``welcome``.
- The lobby of every process lists every table, through the bus (:mod:`hippodrome.server.bus`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import TYPE_CHECKING, Any

from hippodrome.i18n import Message
from hippodrome.server.bus import Bus
from hippodrome.server.lease import Holder, Leases, Renewer, new_owner_id

if TYPE_CHECKING:
    from hippodrome.server.storage_pg import PostgresStorage

log = logging.getLogger(__name__)

#: header a relaying process sends the owner: the cluster's secret (the connection was counted
#: against the client's address by the relaying process already)
RELAY_HEADER = "x-hippodrome-relay"
#: seconds between two looks for lost leases and orphaned tables (a takeover comes this long at
#: most after a lease expired, plus the replays)
LOOK = 0.25
#: tables taken over per round of the loop at most (a round replays them on the event loop)
TAKEOVER_BATCH = 200


class Cluster:
    def __init__(self, storage: "PostgresStorage", bus_url: str | None, address: str = "http://127.0.0.1:8765"):
        self.owner = new_owner_id()
        storage.owner = self.owner
        self.leases = Leases(storage.url, self.owner, address)
        self.secret = self.leases.cluster_secret()
        self.bus = Bus(bus_url, bus_name(self.secret), self.owner) if bus_url else None
        self.renewer = Renewer(self.leases)
        self._acquired: dict[str, float] = {}   # table -> when this process took its lease
        self._task: asyncio.Task | None = None
        self.hub: Any = None

    @property
    def address(self) -> str:
        return self.leases.address

    @address.setter
    def address(self, url: str) -> None:
        """Where the other processes reach this one (``http://host:port``), known once it listens."""
        self.leases.address = url.rstrip("/")

    # -- the hub's hooks ---------------------------------------------------------------
    def may_run(self, table_id: str) -> bool:
        """Take (or keep) the table's lease: whether this process may load and run it."""
        now = time.monotonic()
        if not self.leases.acquire(table_id):
            return False
        self._acquired.setdefault(table_id, now)
        return True

    def release(self, table_id: str) -> None:
        """Give up the lease of a table stopped here for good (archived): any process may open it."""
        self._acquired.pop(table_id, None)
        self.leases.release([table_id])

    def remote_summary(self, table_id: str) -> dict[str, Any] | None:
        """The table's lobby summary as its owner last published it (None: not heard of)."""
        return self.bus.summary_of(table_id) if self.bus is not None else None

    def changed(self, room: Any) -> None:
        """A stored change of a table we run: the other processes' lobbies hear of it."""
        if self.bus is not None:
            self.bus.changed(room.id, room.table.state_id, room.summary())

    def remote_summaries(self, local: set[str]) -> list[dict[str, Any]]:
        return self.bus.remote_summaries(local) if self.bus is not None else []

    def is_relay(self, headers: Any) -> bool:
        return headers.get(RELAY_HEADER) == self.secret

    async def holder(self, table_id: str) -> Holder | None:
        return await asyncio.to_thread(self.leases.holder, table_id)

    # -- the loop ----------------------------------------------------------------------
    async def start(self, hub: Any) -> None:
        self.hub = hub
        if self.bus is not None:
            await self.bus.start()
            self.bus.on_release = lambda table_ids: self._wake.set()
        self._wake = asyncio.Event()
        await asyncio.to_thread(self.renewer.start)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def hand_over(self) -> list[str]:
        """Drain (``server/drain.py``): take no more tables, stop running ours (their connections
        are closed with 1012 and reconnect elsewhere), let the saves already queued finish, then
        give their leases up and announce it, so that the other processes take each one at once.
        The tables handed over."""
        await self._stop_looking()
        held = list(self.hub.rooms)
        for table_id in held:
            self._acquired.pop(table_id, None)
            await self.hub.unload(table_id)
        await self.hub.writer.call(lambda: None)   # the writer runs in order: every save before this is done
        await asyncio.to_thread(self.leases.release, held)
        if self.bus is not None and held:
            try:
                await self.bus.released(held)
            except Exception:
                log.warning("bus: release of %d tables not published", len(held), exc_info=True)
        return held

    async def _stop_looking(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    async def stop(self) -> None:
        await self._stop_looking()
        held = list(self.hub.rooms) if self.hub is not None else []
        await self.hub.stop()
        await asyncio.to_thread(self.renewer.stop)
        await asyncio.to_thread(self.leases.release)  # the others take our tables over at once
        if self.bus is not None:
            try:
                await self.bus.released(held)
            except Exception:
                log.warning("bus: release of %d tables not published", len(held), exc_info=True)
            await self.bus.stop()
        self.leases.close()

    async def _run(self) -> None:
        while True:
            try:
                await self._round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease round failed")
            try:
                await asyncio.wait_for(self._wake.wait(), LOOK)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()

    async def _round(self) -> None:
        running = {table_id: self._acquired.get(table_id, 0.0) for table_id in self.hub.rooms}
        await self._drop(self.renewer.lost(running))
        for table_id in await asyncio.to_thread(self.leases.orphans, TAKEOVER_BATCH):
            await asyncio.sleep(0)  # a replay at a time: connections are served in between
            if self.hub.load(table_id) is not None:
                log.info("took table %s over", table_id)
                if self.bus is not None:
                    self.bus.forget(table_id)

    async def _drop(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            log.warning("lease of table %s lost: the table is stopped here", table_id)
            self._acquired.pop(table_id, None)
            await self.hub.unload(table_id)


def bus_name(secret: str) -> str:
    """The database's name on the bus: derived from its secret, which it does not give away."""
    return hashlib.sha256(f"bus:{secret}".encode()).hexdigest()[:16]


def cluster_for(storage: Any, bus_url: str | None) -> Cluster | None:
    """The cluster of a PostgreSQL storage (None for SQLite: one process alone)."""
    if not hasattr(storage, "owner"):
        if bus_url:
            raise ValueError(Message("--bus needs a PostgreSQL --db (postgresql://...): SQLite is for one process"))
        return None
    return Cluster(storage, bus_url)
