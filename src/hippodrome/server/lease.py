"""Which server process runs which table, when several share one PostgreSQL database.

A table is run (loaded, its clock and bots driven, its changes written) by exactly one process:
the holder of its lease, a row of ``leases`` (table id, owner, the owner's address, expiry).
The owner renews all its leases every :data:`RENEW` seconds, each for :data:`TTL` seconds; a
lease not renewed (its process was killed, hung or cut off) expires, and any process may then
take it: it replays the table from the database and runs it on. Expiry is read on the
database's clock (``clock_timestamp()``), so the processes' own clocks do not matter.

A process that lost a lease stops the table at once, and its storage refuses any write for a
table whose lease another process holds (``PostgresStorage.owner``): a process that was cut off
for a while never writes over its successor's changes.

:class:`Leases` is synchronous, with its own connection (renewals are never queued behind a
table's write) and a lock: call it from a worker thread.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from dataclasses import dataclass

from hippodrome.server.storage_pg import connect

log = logging.getLogger(__name__)

#: seconds between two renewals of a process's leases
RENEW = 1.0
#: seconds a lease lasts without renewal: a killed process's tables are taken over after at most
#: this plus one look of the survivor's loop (cluster.LOOK) and the replays
TTL = 3.0

#: our lease rows, locked in the order of their ids. Every statement that locks several leases
#: (these, and a save's check in storage_pg.LOCK_LEASES) locks them in that order, so a renewal and
#: a save of several tables never deadlock.
MINE = "SELECT table_id FROM leases WHERE owner = %s{also} ORDER BY table_id FOR UPDATE"


@dataclass(frozen=True)
class Holder:
    """Who holds a table's lease: the process id, where it serves, and whether the lease is live."""

    owner: str
    address: str
    live: bool


def new_owner_id() -> str:
    return secrets.token_hex(6)


class Leases:
    def __init__(self, url: str, owner: str, address: str, ttl: float = TTL):
        self.owner = owner
        self.address = address
        self.ttl = ttl
        self._lock = threading.Lock()
        self.conn = connect(url)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def cluster_secret(self) -> str:
        """The database's own random id, made by the first process: it names the bus's channel and
        lets the processes of this database recognize each other's relayed connections."""
        with self._lock:
            self.conn.execute("INSERT INTO meta VALUES ('cluster', %s) ON CONFLICT (key) DO NOTHING",
                              (secrets.token_hex(16),))
            return self.conn.execute("SELECT value FROM meta WHERE key = 'cluster'").fetchone()[0]

    def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it, it expired, or it is already ours."""
        with self._lock:
            row = self.conn.execute(
                "INSERT INTO leases AS l (table_id, owner, address, expires) "
                "SELECT id, %s, %s, clock_timestamp() + make_interval(secs => %s) FROM tables WHERE id = %s "
                "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, address = EXCLUDED.address, "
                "expires = EXCLUDED.expires WHERE l.owner = EXCLUDED.owner OR l.expires < clock_timestamp() "
                "RETURNING table_id", (self.owner, self.address, self.ttl, table_id)).fetchone()
        return row is not None

    def renew(self) -> set[str]:
        """Renew every lease of ours; returns the tables we still hold."""
        with self._lock:
            rows = self.conn.execute(
                f"WITH mine AS ({MINE.format(also='')}) "
                "UPDATE leases l SET expires = clock_timestamp() + make_interval(secs => %s) "
                "FROM mine WHERE l.table_id = mine.table_id RETURNING l.table_id", (self.owner, self.ttl)).fetchall()
        return {row[0] for row in rows}

    def orphans(self, limit: int = 100) -> list[str]:
        """Unfinished tables nobody holds a live lease on, oldest first."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id "
                "WHERE t.over = 0 AND (l.table_id IS NULL OR l.expires < clock_timestamp()) "
                "ORDER BY t.created, t.id LIMIT %s", (limit,)).fetchall()
        return [row[0] for row in rows]

    def table_exists(self, table_id: str) -> bool:
        with self._lock:
            return self.conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone() is not None

    def holder(self, table_id: str) -> Holder | None:
        """Who holds the table's lease (None: nobody ever did)."""
        with self._lock:
            row = self.conn.execute("SELECT owner, address, expires > clock_timestamp() FROM leases "
                                    "WHERE table_id = %s", (table_id,)).fetchone()
        return None if row is None else Holder(row[0], row[1], bool(row[2]))

    def release(self, table_ids: list[str] | None = None) -> None:
        """Give up our leases (all of them by default), so another process takes them at once."""
        with self._lock:
            only = "" if table_ids is None else " AND table_id = ANY(%s)"
            params = (self.owner,) if table_ids is None else (self.owner, table_ids)
            self.conn.execute(f"WITH mine AS ({MINE.format(also=only)}) DELETE FROM leases l USING mine "
                              "WHERE l.table_id = mine.table_id", params)


class Renewer:
    """Renews a process's leases every :data:`RENEW` seconds from a thread of its own, so that an
    event loop busy for a while (a long replay, a burst of load) does not lose them.

    ``held`` is what the last renewal found ours, ``round_started`` when that renewal began (a
    table acquired after it is ours even if ``held`` lacks it), ``renewed_at`` when it ended."""

    def __init__(self, leases: Leases, every: float = RENEW):
        self.leases = leases
        self.every = every
        self.held: set[str] = set()
        self.round_started = self.renewed_at = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hippodrome-leases", daemon=True)

    def start(self) -> None:
        self._renew()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self._renew()
            except Exception:  # the database away for a moment: the next round tries again
                log.exception("leases not renewed")

    def _renew(self) -> None:
        started = time.monotonic()
        held = self.leases.renew()
        self.held, self.round_started, self.renewed_at = held, started, time.monotonic()

    def lost(self, running: dict[str, float]) -> set[str]:
        """Of the tables ``running`` here (id -> when acquired), those whose lease is no longer
        ours: all of them once the leases have not been renewed for most of a lease's life."""
        if time.monotonic() - self.renewed_at > self.leases.ttl * 0.8:
            return set(running)
        return {table_id for table_id, since in running.items()
                if table_id not in self.held and since < self.round_started}
