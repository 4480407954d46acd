"""The storages' schema (SQLite and PostgreSQL alike): its tables, its version, and the steps that
bring an older database to it in place."""

from __future__ import annotations

from typing import Callable

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
    lifecycle TEXT,
    rulings INTEGER
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    token_hash TEXT NOT NULL,
    account TEXT,
    former INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS passkeys (
    credential_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    public_key TEXT NOT NULL,
    sign_count INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE TABLE IF NOT EXISTS results (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    game TEXT NOT NULL,
    finished REAL NOT NULL,
    places TEXT NOT NULL,
    rated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    review TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_newest ON tables (created, id);
CREATE INDEX IF NOT EXISTS tables_running ON tables (over, created, id);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account_id);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, ordinal);
CREATE INDEX IF NOT EXISTS results_finished ON results (finished, table_id);
"""
#: what needs the columns a migration adds: made once every step has run
LATE_SCHEMA = """
CREATE INDEX IF NOT EXISTS seats_account ON seats (account, table_id);
"""
SCHEMA_VERSION = "4"
#: each version's step from the one before: (version, statements); a table added (``reviews``, in
#: version 4) is made by :data:`SCHEMA` itself (``CREATE TABLE IF NOT EXISTS``); a column added by ``ALTER``
#: in both SQLite and PostgreSQL (which says ``ADD COLUMN IF NOT EXISTS``, SQLite does not:
#: :func:`migration_statements` leaves out what a database has already)
MIGRATIONS: tuple[tuple[int, tuple[tuple[str, str, str], ...]], ...] = (
    (2, (("tables", "lifecycle", "TEXT"),)),
    (3, (("tables", "rulings", "INTEGER"), ("seats", "account", "TEXT"),
         ("seats", "former", "INTEGER NOT NULL DEFAULT 0"))),
    (4, ()),   # the reviews table
)
#: the columns of ``tables`` a hippodrome database has had since version 1
REQUIRED_COLUMNS = {"id", "game", "setup", "seed", "created", "state_id", "options", "paused", "over", "host_hash"}


def migration_statements(columns: Callable[[str], set[str]]) -> list[str]:
    """The ``ALTER TABLE`` statements that bring a database to :data:`SCHEMA_VERSION`, in order:
    every column of :data:`MIGRATIONS` that ``columns(table)`` (the table's columns now) lacks."""
    statements, known = [], {}
    for _version, steps in MIGRATIONS:
        for table, column, kind in steps:
            have = known.setdefault(table, columns(table))
            if column not in have:
                statements.append(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                have.add(column)
    return statements


def newer_schema(version: str | None) -> str | None:
    """The fault of a database written by a newer schema than this server's (None: not newer)."""
    if version is not None and (not version.isdigit() or int(version) > int(SCHEMA_VERSION)):
        return f"schema version {version!r}; this server knows version {SCHEMA_VERSION} at most"
    return None


def missing_columns(columns: set[str]) -> str:
    """What a ``tables`` table of these columns lacks to be ours (a fault, as a database names it)."""
    return f"table 'tables' lacks the columns {', '.join(sorted(REQUIRED_COLUMNS - columns))}"


def split_script(script: str) -> list[str]:
    """A script's statements (none of ours holds a ``;`` in a string)."""
    return [statement.strip() for statement in script.split(";") if statement.strip()]
