"""SQLite storage for tables: setup, seed, seats and the action log (standard library sqlite3).

Schema (version 2):

* ``tables``: id, game, setup (JSON), seed, created, state_id, options (JSON: pace, bot delay),
  paused, over, host_hash, lifecycle (JSON: ``Lifecycle.to_json()``, the table's people ready,
  seats handed to bots, between races and the gate; NULL in a table stored before version 2,
  which was playing from its creation).
* ``seats``: table id, seat number, name, kind (``person`` | ``bot``), bot level, token_hash.
* ``actions``: table id, number, entry (JSON: one Match log entry).

A database of version 1 is brought to version 2 when opened (the ``lifecycle`` column added).

Seat and host tokens are stored only as SHA-256 hex digests: a copy of the database does not
let anyone act for a seat. The log is appended and the state id stored in one transaction
after every accepted change, so a server killed at any moment resumes exactly at the last
change any client was told of.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from hippodrome.i18n import Message

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL,
    state_id INTEGER NOT NULL DEFAULT 0,
    options TEXT NOT NULL DEFAULT '{}',
    paused INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    host_hash TEXT NOT NULL,
    lifecycle TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX IF NOT EXISTS tables_newest ON tables (created, id);
CREATE INDEX IF NOT EXISTS tables_running ON tables (over, created, id);
"""
SCHEMA_VERSION = "2"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/hippodrome/hippodrome.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hippodrome" / "hippodrome.sqlite3"


def db_path_from(db: str | os.PathLike | None) -> str:
    """A path, ``sqlite:///path`` URL, ``:memory:`` or None (the default file)."""
    if db is None:
        path = default_db_path()
    else:
        text = str(db)
        if text == ":memory:" or text == "sqlite://" or text == "sqlite:///:memory:":
            return ":memory:"
        if text.startswith("sqlite:///"):
            text = text[len("sqlite:///"):]
            if not text.startswith("/"):
                text = text  # sqlite:///relative.db
        elif text.startswith("sqlite://"):
            raise ValueError(Message("unsupported database URL {url}: use sqlite:///path/to/file.sqlite3 or a path",
                                     url=repr(text)))
        elif "://" in text:
            raise ValueError(Message("unsupported database URL {url}: only SQLite is supported (sqlite:///path)",
                                     url=repr(text)))
        path = Path(text).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


class DamagedDatabase(ValueError):
    """The database file is not a hippodrome database, or SQLite finds it damaged: the server does
    not start on it (the message names the file and the fault)."""


#: how many of SQLite's integrity complaints a refusal quotes
FAULTS_QUOTED = 3


class Storage:
    def __init__(self, db: str | os.PathLike | None = None):
        self.path = db_path_from(db)
        self._lock = threading.Lock()
        self.conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._open()
        except sqlite3.DatabaseError as error:
            self.conn.close()
            raise DamagedDatabase(Message("the database {file} is damaged or is not a hippodrome database: {fault}; "
                                          "move it aside (a new one is made) or restore a copy",
                                          file=self.path, fault=str(error))) from None
        if self.path != ":memory:":
            with _suppress():
                os.chmod(self.path, 0o600)

    def _open(self) -> None:
        """Check the file (SQLite's quick_check reads every page), then create what is missing."""
        faults = [row[0] for row in self.conn.execute("PRAGMA quick_check")]
        if faults != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(faults[:FAULTS_QUOTED]))
        self.conn.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        with self._lock:
            self._migrate()
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))

    def _migrate(self) -> None:
        """Bring a database of an older schema to this one (columns added, nothing lost)."""
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(tables)")}
        if "lifecycle" not in columns:
            self.conn.execute("ALTER TABLE tables ADD COLUMN lifecycle TEXT")

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    # -- writing ------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, setup: dict, seed: str, seats: list[dict[str, Any]],
                     host_hash: str, options: dict[str, Any]) -> None:
        with self._lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN")
            try:
                cur.execute("INSERT INTO tables (id, game, setup, seed, created, options, host_hash) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (table_id, game, json.dumps(setup), seed, time.time(), json.dumps(options), host_hash))
                for number, seat in enumerate(seats):
                    cur.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                                (table_id, number, seat["name"], seat["kind"], seat.get("level"),
                                 seat["token_hash"]))
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def save_progress(self, table_id: str, log: list[dict[str, Any]], state_id: int, over: bool,
                      paused: bool, stored: int | None = None, lifecycle: dict[str, Any] | None = None,
                      bots: dict[int, str] | None = None) -> int:
        """Append the log entries not stored yet and store the state id and the lifecycle, in one
        transaction; ``bots``: seats now played by a bot (seat -> level).

        ``stored``: how many entries are known to be stored already (None: count them).
        Returns the number of entries stored now."""
        with self._lock:
            cur = self.conn.cursor()
            if stored is None:
                stored = cur.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0]
            cur.execute("BEGIN")
            try:
                cur.executemany("INSERT INTO actions VALUES (?, ?, ?)",
                                [(table_id, n, json.dumps(log[n])) for n in range(stored, len(log))])
                cur.execute("UPDATE tables SET state_id = ?, over = ?, paused = ?, "
                            "lifecycle = COALESCE(?, lifecycle) WHERE id = ?",
                            (state_id, int(over), int(paused),
                             None if lifecycle is None else json.dumps(lifecycle), table_id))
                cur.executemany("UPDATE seats SET kind = 'bot', level = ? WHERE table_id = ? AND seat = ?",
                                [(level, table_id, seat) for seat, level in (bots or {}).items()])
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        return len(log)

    # -- reading ------------------------------------------------------------------
    def table_ids(self, only_running: bool = False) -> list[str]:
        with self._lock:
            query = "SELECT id FROM tables" + (" WHERE over = 0" if only_running else "") + " ORDER BY created"
            return [row[0] for row in self.conn.execute(query)]

    def list_rows(self, limit: int, after: str | None = None, over: bool | None = None) -> list[dict[str, Any]]:
        """Up to ``limit`` tables, newest first, from just after the table ``after`` (None: the
        newest), only finished ones or only unfinished ones when ``over`` says so: their lobby
        columns and seats (no log: nothing is replayed). Raises KeyError for an unknown ``after``."""
        where, params = [], []
        with self._lock:
            if after is not None:
                row = self.conn.execute("SELECT created FROM tables WHERE id = ?", (after,)).fetchone()
                if row is None:
                    raise KeyError(after)
                where.append("(created, id) < (?, ?)")
                params += [row[0], after]
            if over is not None:
                where.append("over = ?")
                params.append(int(over))
            rows = self.conn.execute(
                "SELECT id, game, setup, state_id, options, over FROM tables"
                + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created DESC, id DESC LIMIT ?",
                (*params, limit)).fetchall()
            ids = [row[0] for row in rows]
            seats: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in ids}
            for table_id, name, kind, level in self.conn.execute(
                    "SELECT table_id, name, kind, level FROM seats WHERE table_id IN (%s) ORDER BY table_id, seat"
                    % ",".join("?" * len(ids)), ids):
                seats[table_id].append({"name": name, "kind": kind, "level": level})
        return [{"id": row[0], "game": row[1], "setup": row[2], "state_id": row[3], "options": row[4],
                 "over": bool(row[5]), "seats": seats[row[0]]} for row in rows]

    def load(self, table_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self.conn.execute("SELECT id, game, setup, seed, created, state_id, options, paused, over, "
                                    "host_hash, lifecycle FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = [{"name": r[0], "kind": r[1], "level": r[2], "token_hash": r[3]} for r in self.conn.execute(
                "SELECT name, kind, level, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
            log = [json.loads(r[0]) for r in self.conn.execute(
                "SELECT entry FROM actions WHERE table_id = ? ORDER BY n", (table_id,))]
        return {"id": row[0], "game": row[1], "setup": json.loads(row[2]), "seed": row[3], "created": row[4],
                "state_id": row[5], "options": json.loads(row[6]), "paused": bool(row[7]), "over": bool(row[8]),
                "host_hash": row[9], "lifecycle": None if row[10] is None else json.loads(row[10]),
                "seats": seats, "log": log}


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], OSError)
