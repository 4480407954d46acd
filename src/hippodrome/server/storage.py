"""SQLite storage for tables: setup, seed, seats and the action log (standard library sqlite3).

Schema (version 3):

* ``tables``: id, game, setup (JSON), seed, created, state_id, options (JSON: pace, bot delay),
  paused, over, host_hash, lifecycle (JSON: ``Lifecycle.to_json()``, the table's people ready,
  seats handed to bots, between races and the gate; NULL in a table stored before version 2,
  which was playing from its creation), rulings (the version of the game's rulings the table is
  played under, ``Match.rulings``; NULL for a table stored before version 3: its log tells,
  ``core.match.replayed``).
* ``seats``: table id, seat number, name, kind (``person`` | ``bot``), bot level, token_hash,
  account (the id of the account that holds the seat; NULL: a guest or a bot), former (1: the
  account was deleted, the seat is "a former player").
* ``actions``: table id, number, entry (JSON: one Match log entry).
* ``accounts``, ``passkeys``, ``sessions``, ``ratings``, ``results``: the people who come back
  (:mod:`hippodrome.server.accounts.store` reads and writes them; passwords only as argon2id
  hashes, sessions only as SHA-256 digests of their ids).

A database of an older version is brought to this one when opened, in place, step by step
(:data:`MIGRATIONS`: version 1 -> 2 adds ``lifecycle``; 2 -> 3 adds ``rulings``, the seats'
``account`` and ``former``, and the new tables); one of a newer version is refused.

Writes and reads go through two connections of their own (one for ``:memory:``): a write waiting
for a lock another process holds (the server writes on one thread, ``server/writer.py``) never
keeps a read waiting, since SQLite's WAL lets readers read meanwhile.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from hippodrome.i18n import Message
from hippodrome.server.schema import (  # noqa: F401 (the storages' schema, read from here too)
    LATE_SCHEMA, MIGRATIONS, REQUIRED_COLUMNS, SCHEMA, SCHEMA_VERSION, migration_statements, missing_columns,
    newer_schema, split_script,
)

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
            raise ValueError(Message("unsupported database URL {url}: use sqlite:///path or postgresql://user@host/database",
                                     url=repr(text)))
        path = Path(text).expanduser()
    if path.is_dir():
        # NOTE: {path} is the folder given as --db; {example} a database file's path in it.
        raise ValueError(Message("{path} is a folder; give --db the path of a database file, such as {example}",
                                 path=str(path), example=str(path / "hippodrome.sqlite3")))
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


class DamagedDatabase(ValueError):
    """The database file is not a hippodrome database, or SQLite finds it damaged: the server does
    not start on it (the message names the file and the fault)."""


#: how many of SQLite's integrity complaints a refusal quotes
FAULTS_QUOTED = 3



def list_rows(execute: Callable[[str, Sequence[Any]], list[tuple]], mark: str, limit: int, after: str | None,
              over: bool | None, without: Sequence[str] = ()) -> list[dict[str, Any]]:
    """:meth:`Storage.list_rows` through ``execute(sql, params)`` (rows), placeholders ``mark``
    (``?`` for SQLite, ``%s`` for PostgreSQL): the one query of both storages."""
    where: list[str] = []
    params: list[Any] = []
    if after is not None:
        row = execute(f"SELECT created FROM tables WHERE id = {mark}", (after,))
        if not row:
            raise KeyError(after)
        where.append(f"(created, id) < ({mark}, {mark})")
        params += [row[0][0], after]
    if over is not None:
        where.append(f"over = {mark}")
        params.append(int(over))
    if without:
        where.append(f"game NOT IN ({', '.join([mark] * len(without))})")
        params += without
    rows = execute("SELECT id, game, setup, state_id, options, over FROM tables"
                   + (" WHERE " + " AND ".join(where) if where else "")
                   + f" ORDER BY created DESC, id DESC LIMIT {mark}", (*params, limit))
    ids = [row[0] for row in rows]
    seats: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in ids}
    if ids:
        for table_id, name, kind, level in execute(
                "SELECT table_id, name, kind, level FROM seats WHERE table_id IN (%s) ORDER BY table_id, seat"
                % ",".join([mark] * len(ids)), ids):
            seats[table_id].append({"name": name, "kind": kind, "level": level})
    return [{"id": row[0], "game": row[1], "setup": row[2], "state_id": row[3], "options": row[4],
             "over": bool(row[5]), "seats": seats[row[0]]} for row in rows]


@dataclass(frozen=True)
class Save:
    """One table's progress to store: :meth:`Storage.save_progress`'s arguments."""

    table_id: str
    log: list[dict[str, Any]]
    state_id: int
    over: bool
    paused: bool
    stored: int | None = None
    lifecycle: dict[str, Any] | None = None
    bots: dict[int, str] | None = None


def save_rows(cur: Any, mark: str, save: Save) -> int:
    """One table's save, inside the caller's transaction, through a DB-API cursor whose driver
    writes parameters as ``mark`` (``?`` for SQLite, ``%s`` for PostgreSQL): the log entries not
    stored yet, the state id and lifecycle, the seats handed to bots. Returns the entries stored."""
    def sql(text: str) -> str:
        return text.replace("?", mark)
    stored = save.stored
    if stored is None:
        stored = cur.execute(sql("SELECT COUNT(*) FROM actions WHERE table_id = ?"), (save.table_id,)).fetchone()[0]
    cur.executemany(sql("INSERT INTO actions VALUES (?, ?, ?)"),
                    [(save.table_id, n, json.dumps(save.log[n])) for n in range(stored, len(save.log))])
    cur.execute(sql("UPDATE tables SET state_id = ?, over = ?, paused = ?, lifecycle = COALESCE(?, lifecycle) "
                    "WHERE id = ?"),
                (save.state_id, int(save.over), int(save.paused),
                 None if save.lifecycle is None else json.dumps(save.lifecycle), save.table_id))
    cur.executemany(sql("UPDATE seats SET kind = 'bot', level = ? WHERE table_id = ? AND seat = ?"),
                    [(level, save.table_id, seat) for seat, level in (save.bots or {}).items()])
    return len(save.log)


class Storage:
    def __init__(self, db: str | os.PathLike | None = None):
        self.path = db_path_from(db)
        self._lock = threading.Lock()
        try:
            self.conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:   # a file it may not read, a folder it may not write in
            raise ValueError(Message("SQLite cannot open {file}: {fault}", file=self.path, fault=str(error))) from None
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
            self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._read_lock = threading.Lock()
        else:  # a database in memory is one connection's own
            self._reader, self._read_lock = self.conn, self._lock

    def _open(self) -> None:
        """Check the file (SQLite's quick_check reads every page), then create what is missing."""
        faults = [row[0] for row in self.conn.execute("PRAGMA quick_check")]
        if faults != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(faults[:FAULTS_QUOTED]))
        columns = self._columns("tables")
        if columns and not REQUIRED_COLUMNS <= columns:  # another program's database: nothing written
            raise sqlite3.DatabaseError(missing_columns(columns))
        if self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            fault = newer_schema(row and row[0])
            if fault:
                raise sqlite3.DatabaseError(fault)
        self.conn.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
        self.conn.execute("PRAGMA synchronous=FULL")
        with self._lock:
            self.conn.execute("BEGIN IMMEDIATE")  # one step: made, migrated and marked, or nothing
            try:
                for statement in split_script(SCHEMA):
                    self.conn.execute(statement)
                for statement in migration_statements(self._columns):
                    self.conn.execute(statement)
                for statement in split_script(LATE_SCHEMA):
                    self.conn.execute(statement)
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}

    def close(self) -> None:
        with self._lock:
            self.conn.close()
        with self._read_lock:
            self._reader.close()

    # -- writing ------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, setup: dict, seed: str, seats: list[dict[str, Any]],
                     host_hash: str, options: dict[str, Any], rulings: int | None = None) -> None:
        with self._lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN")
            try:
                cur.execute(INSERT_TABLE, (table_id, game, json.dumps(setup), seed, time.time(), json.dumps(options),
                                           host_hash, rulings))
                cur.executemany(INSERT_SEAT, seat_rows(table_id, seats))
                cur.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                    cur.execute("ROLLBACK")
                raise

    def save_progress(self, table_id: str, log: list[dict[str, Any]], state_id: int, over: bool,
                      paused: bool, stored: int | None = None, lifecycle: dict[str, Any] | None = None,
                      bots: dict[int, str] | None = None) -> int:
        """Append the log entries not stored yet and store the state id and the lifecycle, in one
        transaction; ``bots``: seats now played by a bot (seat -> level).

        ``stored``: how many entries are known to be stored already (None: count them).
        Returns the number of entries stored now."""
        return self.save_many([Save(table_id, log, state_id, over, paused, stored, lifecycle, bots)])[0]

    def save_many(self, saves: Sequence[Save]) -> list[int]:
        """Several tables' :meth:`save_progress` in one transaction (one sync to the disk for all
        of them); raises if it failed, and then nothing of them is stored."""
        with self._lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN")
            try:
                done = [save_rows(cur, "?", save) for save in saves]
                cur.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                    cur.execute("ROLLBACK")
                raise
        return done

    def write(self, work: Callable[["Sql"], Any]) -> Any:
        """``work(sql)`` in one write transaction (rolled back if it raises); its result."""
        with self._lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN")
            try:
                result = work(Sql(cur, "?"))
                cur.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    cur.execute("ROLLBACK")
                raise
        return result

    # -- reading ------------------------------------------------------------------
    def read(self, work: Callable[["Sql"], Any]) -> Any:
        """``work(sql)`` on the reading connection, in one snapshot; its result."""
        with self._read_lock:
            reader = self._reader
            reader.execute("BEGIN")
            try:
                return work(Sql(reader.cursor(), "?"))
            finally:
                if reader.in_transaction:
                    reader.execute("COMMIT")

    def table_ids(self, only_running: bool = False) -> list[str]:
        with self._read_lock:
            query = "SELECT id FROM tables" + (" WHERE over = 0" if only_running else "") + " ORDER BY created, id"
            return [row[0] for row in self._reader.execute(query)]

    def list_rows(self, limit: int, after: str | None = None, over: bool | None = None,
                  without: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Up to ``limit`` tables, newest first, from just after the table ``after`` (None: the
        newest), only finished ones or only unfinished ones when ``over`` says so, none of the
        games named in ``without``: their lobby columns and seats (no log: nothing is replayed).
        Raises KeyError for an unknown ``after``."""
        with self._read_lock:
            return list_rows(lambda sql, params: self._reader.execute(sql, params).fetchall(), "?",
                             limit, after, over, without)

    def load(self, table_id: str) -> dict[str, Any] | None:
        with self._read_lock:
            reader = self._reader
            reader.execute("BEGIN")  # one snapshot for the table, its seats and its log
            try:
                row = reader.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    return None
                seats = reader.execute(f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
                                       (table_id,)).fetchall()
                entries = [r[0] for r in reader.execute(
                    "SELECT entry FROM actions WHERE table_id = ? ORDER BY n", (table_id,))]
            finally:
                if reader.in_transaction:
                    reader.execute("COMMIT")
        return table_record(row, seats, entries)


#: a new table's row (``rulings``: the version of the rulings it is played under)
INSERT_TABLE = ("INSERT INTO tables (id, game, setup, seed, created, options, host_hash, rulings) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
#: a seat's row, as :func:`seat_rows` gives it (with ``?`` for each value)
INSERT_SEAT = "INSERT INTO seats (table_id, seat, name, kind, level, token_hash, account) VALUES (?, ?, ?, ?, ?, ?, ?)"


def seat_rows(table_id: str, seats: list[dict[str, Any]]) -> list[tuple]:
    """A new table's seats as :data:`INSERT_SEAT` writes them (``account``: who holds a seat, if anyone)."""
    return [(table_id, number, seat["name"], seat["kind"], seat.get("level"), seat["token_hash"], seat.get("account"))
            for number, seat in enumerate(seats)]


class Sql:
    """A DB-API cursor of either storage, its statements written with ``?`` (turned into the
    driver's ``mark``): what :meth:`Storage.write` and :meth:`Storage.read` hand their work."""

    def __init__(self, cursor: Any, mark: str):
        self.cursor = cursor
        self.mark = mark

    def _run(self, statement: str, params: Sequence[Any]) -> Any:
        if self.mark != "?":
            statement = statement.replace("?", self.mark)
        return self.cursor.execute(statement, tuple(params))

    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[tuple]:
        self._run(statement, params)
        return list(self.cursor.fetchall())

    def one(self, statement: str, params: Sequence[Any] = ()) -> tuple | None:
        self._run(statement, params)
        return self.cursor.fetchone()

    def run(self, statement: str, params: Sequence[Any] = ()) -> int:
        """A statement that changes rows: how many it changed."""
        self._run(statement, params)
        return self.cursor.rowcount

    def many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if self.mark != "?":
            statement = statement.replace("?", self.mark)
        self.cursor.executemany(statement, [tuple(row) for row in rows])


#: the columns of ``tables`` that :func:`table_record` reads, in its order
TABLE_COLUMNS = "id, game, setup, seed, created, state_id, options, paused, over, host_hash, lifecycle, rulings"
#: the columns of ``seats`` a stored table's seats are read from, in seat order
SEAT_COLUMNS = "name, kind, level, token_hash"


class UnreadableRow(ValueError):
    """A stored row whose JSON does not decode (the file was changed by something other than the
    server): says which row, and carries the table's game when its row was read."""

    def __init__(self, message: str, game: str | None = None):
        super().__init__(message)
        self.game = game


def decoded(text: str, what: str, game: str | None) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise UnreadableRow(f"{what} is not JSON ({reason})", game) from None


def table_record(row: tuple, seats: list[tuple], entries: Sequence[str]) -> dict[str, Any]:
    """A stored table as ``load`` answers it, from its ``tables`` row (:data:`TABLE_COLUMNS`), its
    seats' rows (:data:`SEAT_COLUMNS`) and its log's entries as stored (JSON text): shared by
    every storage. UnreadableRow names a row whose JSON does not decode (log entries counted
    from 1, as a replay counts them)."""
    game = row[1]
    return {"id": row[0], "game": game, "setup": decoded(row[2], "the table's setup", game), "seed": row[3],
            "created": row[4], "state_id": row[5], "options": decoded(row[6], "the table's options", game),
            "paused": bool(row[7]), "over": bool(row[8]), "host_hash": row[9],
            "lifecycle": None if row[10] is None else decoded(row[10], "the table's lifecycle", game),
            "rulings": row[11],
            "seats": [{"name": s[0], "kind": s[1], "level": s[2], "token_hash": s[3]} for s in seats],
            "log": [decoded(entry, f"log entry {n}", game) for n, entry in enumerate(entries, 1)]}


def is_postgres_url(db: str | os.PathLike | None) -> bool:
    return db is not None and str(db).startswith(("postgresql://", "postgres://"))


def open_storage(db: str | os.PathLike | None = None):
    """The storage a ``--db`` names: ``postgresql://...`` (or ``postgres://``) opens
    :class:`~hippodrome.server.storage_pg.PostgresStorage` (the ``scale`` extra's psycopg);
    anything else is SQLite (:class:`Storage`: a path, ``sqlite:///path``, ``:memory:``, None)."""
    if is_postgres_url(db):
        from hippodrome.server.storage_pg import PostgresStorage
        return PostgresStorage(str(db))
    return Storage(db)


def describe_db(db: str | os.PathLike | None) -> str:
    """The database as the server names it to people: a file path, or a PostgreSQL URL without
    its password."""
    if is_postgres_url(db):
        from hippodrome.server.storage_pg import safe_url
        return safe_url(str(db))
    return db_path_from(db)


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], OSError)
