"""PostgreSQL storage for tables (psycopg 3, the ``scale`` extra): the same public methods and
semantics as the SQLite :class:`~hippodrome.server.storage.Storage`, so several server processes
can share one database (docs/architecture.md, "Several processes").

Schema (version 3), as SQLite's: ``tables``, ``seats`` and ``actions`` (JSON kept as text, so
what is read back is exactly what was written), the accounts' tables, plus ``meta`` (the schema
version) and ``leases`` (which process runs a table: :mod:`hippodrome.server.lease`). A database
of an older version is brought to this one when opened, by the same steps as SQLite's
(``storage.MIGRATIONS``). The schema is made under an advisory lock, so processes started
together do not race.

A database that is not a hippodrome database (a ``tables`` table without our columns) or was
written by a newer schema is refused at start (:class:`~hippodrome.server.storage.DamagedDatabase`,
naming the database and the fault); a server that cannot be reached is refused with
:class:`DatabaseUnreachable`. Both are ``ValueError`` s: ``hippodrome serve`` says so and exits 2.

One connection per storage, in autocommit mode, behind a lock: the methods are synchronous and
may be called from any thread (one call at a time). Every write is one transaction.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Sequence

from hippodrome.i18n import Message
from hippodrome.server.storage import (
    INSERT_SEAT, INSERT_TABLE, LATE_SCHEMA, REQUIRED_COLUMNS, SCHEMA as SQLITE_SCHEMA, SCHEMA_VERSION, SEAT_COLUMNS,
    TABLE_COLUMNS, DamagedDatabase, Save, Sql, list_rows, migration_statements, missing_columns, newer_schema,
    save_rows, seat_rows, table_record,
)

if TYPE_CHECKING:
    import psycopg

#: SQLite's schema in PostgreSQL's types (a float is REAL there, DOUBLE PRECISION here; SQLite's
#: INTEGER is 64 bits, PostgreSQL's 32), plus the leases of the processes sharing the database
SCHEMA = re.sub(r"\bREAL\b", "DOUBLE PRECISION", SQLITE_SCHEMA).replace(
    "state_id INTEGER", "state_id BIGINT").replace("sign_count INTEGER", "sign_count BIGINT") + """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    owner TEXT NOT NULL,
    address TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases (owner);
"""
#: seconds the lease a new table is written with lasts (its process renews it at once, with its
#: address: Leases.acquire)
NEW_LEASE_SECONDS = 3.0
#: an advisory lock id for making the schema (any constant; "hippodrome" in ASCII, cut to 63 bits)
SCHEMA_LOCK = 0x6869707064726F6D


class DatabaseUnreachable(ValueError):
    """The PostgreSQL server cannot be reached or refuses the connection."""


class LeaseLost(RuntimeError):
    """A write for a table that another process runs now (it took the lease over): refused, so a
    process that was cut off for a while never writes over its successor."""


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[-1]}"))


def connect(url: str) -> "psycopg.Connection":
    """An autocommit connection, or :class:`DatabaseUnreachable` saying which database and why."""
    # imported here, not with the module: a server on SQLite (the cluster's code imports this
    # module) never loads the driver
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the base install (SQLite) does without it
        raise DatabaseUnreachable(Message(
            "PostgreSQL storage needs psycopg: install hippodrome with its scale extra (pip install -e '.[scale]')")) from None
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as error:
        raise DatabaseUnreachable(Message("cannot connect to the database {url}: {fault}", url=safe_url(url),
                                          fault=str(error).strip().splitlines()[0] if str(error).strip() else
                                          type(error).__name__)) from None


#: a write's lease rows, locked in the order every locker of several leases uses (lease.py)
LOCK_LEASES = "SELECT table_id, owner FROM leases WHERE table_id = ANY(%s) ORDER BY table_id FOR UPDATE"


class PostgresStorage:
    def __init__(self, url: str):
        self.url = url
        #: the process whose writes this storage makes (:mod:`hippodrome.server.lease`); a write
        #: for a table whose lease another owner holds is refused (LeaseLost). None: no check.
        self.owner: str | None = None
        self.path = safe_url(url)   # what messages name, as Storage.path does
        self._lock = threading.Lock()
        self.conn = connect(url)
        import psycopg   # connect() imported it
        try:
            self._open()
        except (psycopg.DataError, psycopg.ProgrammingError, DamagedDatabase) as error:
            self.conn.close()
            raise DamagedDatabase(Message("the database {file} is damaged or is not a hippodrome database: {fault}; "
                                          "use an empty database (the tables are made) or restore a copy",
                                          file=self.path, fault=str(error).strip())) from None

    def _open(self) -> None:
        """Check what is there, then create what is missing and migrate, under an advisory lock."""
        with self._lock, self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            self._check_existing()
            self.conn.execute(SCHEMA)
            for statement in migration_statements(self._columns):
                self.conn.execute(statement)
            self.conn.execute(LATE_SCHEMA)
            self.conn.execute("INSERT INTO meta VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE SET value = "
                              "EXCLUDED.value", (SCHEMA_VERSION,))

    def _columns(self, table: str) -> set[str]:
        return {row[0] for row in self.conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = %s", (table,))}

    def _check_existing(self) -> None:
        columns = self._columns("tables")
        if columns and not REQUIRED_COLUMNS <= columns:
            raise DamagedDatabase(missing_columns(columns))
        has_meta = self.conn.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                                     "AND table_name = 'meta'").fetchone()
        if has_meta is None:
            return
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        fault = newer_schema(row and row[0])
        if fault:
            raise DamagedDatabase(fault)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    # -- writing ------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, setup: dict, seed: str, seats: list[dict[str, Any]],
                     host_hash: str, options: dict[str, Any], rulings: int | None = None) -> None:
        with self._lock, self.conn.transaction(), self.conn.cursor() as cur:
            cur.execute(INSERT_TABLE.replace("?", "%s"), (table_id, game, json.dumps(setup), seed, time.time(),
                                                          json.dumps(options), host_hash, rulings))
            cur.executemany(INSERT_SEAT.replace("?", "%s"), seat_rows(table_id, seats))
            if self.owner is not None:  # ours from the start: no other process takes it for an orphan
                cur.execute("INSERT INTO leases VALUES (%s, %s, '', clock_timestamp() + make_interval(secs => %s))",
                            (table_id, self.owner, NEW_LEASE_SECONDS))

    def save_progress(self, table_id: str, log: list[dict[str, Any]], state_id: int, over: bool,
                      paused: bool, stored: int | None = None, lifecycle: dict[str, Any] | None = None,
                      bots: dict[int, str] | None = None) -> int:
        """As :meth:`Storage.save_progress`: the new log entries, the state id, the lifecycle and
        the seats handed to bots, in one transaction; returns the number of entries stored."""
        return self.save_many([Save(table_id, log, state_id, over, paused, stored, lifecycle, bots)])[0]

    def save_many(self, saves: Sequence[Save]) -> list[int]:
        """As :meth:`Storage.save_many`: several tables' progress in one transaction (a table whose
        lease is lost fails them all: the writer then stores each alone)."""
        with self._lock, self.conn.transaction(), self.conn.cursor() as cur:
            self._check_leases(cur, [save.table_id for save in saves])
            return [save_rows(cur, "%s", save) for save in saves]

    def _check_leases(self, cur: "psycopg.Cursor", table_ids: list[str]) -> None:
        """Inside a write's transaction: the tables' lease rows, locked until the commit (a takeover
        waits for it), must be ours or absent. They are locked in the order of their ids, as the
        renewals and releases lock them: two transactions never wait for each other's rows."""
        if self.owner is None:
            return
        for table_id, owner in cur.execute(LOCK_LEASES, (table_ids,)).fetchall():
            if owner != self.owner:
                raise LeaseLost(f"table {table_id} is run by process {owner} now")  # i18n: logged, never shown

    def write(self, work: Callable[[Sql], Any]) -> Any:
        """As :meth:`Storage.write`: ``work(sql)`` in one transaction; its result."""
        with self._lock, self.conn.transaction(), self.conn.cursor() as cur:
            return work(Sql(cur, "%s"))

    # -- reading ------------------------------------------------------------------
    def read(self, work: Callable[[Sql], Any]) -> Any:
        """As :meth:`Storage.read`: ``work(sql)`` in one snapshot (a repeatable-read transaction)."""
        with self._lock, self.conn.transaction(), self.conn.cursor() as cur:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return work(Sql(cur, "%s"))

    def table_ids(self, only_running: bool = False) -> list[str]:
        query = "SELECT id FROM tables" + (" WHERE over = 0" if only_running else "") + " ORDER BY created, id"
        with self._lock:
            return [row[0] for row in self.conn.execute(query)]

    def list_rows(self, limit: int, after: str | None = None, over: bool | None = None,
                  without: Sequence[str] = ()) -> list[dict[str, Any]]:
        """As :meth:`Storage.list_rows <hippodrome.server.storage.Storage.list_rows>`: a page of
        tables, newest first (KeyError for an unknown ``after``)."""
        with self._lock:
            return list_rows(lambda sql, params: self.conn.execute(sql, params).fetchall(), "%s",
                             limit, after, over, without)

    def load(self, table_id: str) -> dict[str, Any] | None:
        # one statement, so one snapshot (a concurrent change is seen whole or not at all) and
        # one round trip: a process taking hundreds of tables over loads them one after another
        with self._lock:
            row = self.conn.execute(
                f"SELECT {TABLE_COLUMNS}, "
                f"(SELECT array_agg(ARRAY[{SEAT_COLUMNS}] ORDER BY seat) FROM seats WHERE table_id = t.id), "
                "(SELECT array_agg(entry ORDER BY n) FROM actions WHERE table_id = t.id) "
                "FROM tables t WHERE id = %s", (table_id,)).fetchone()
        if row is None:
            return None
        seats, entries = row[-2] or [], row[-1] or []
        return table_record(row[:-2], seats, entries)
