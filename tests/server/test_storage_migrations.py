"""The schema's versions: a database of today's version 2 (and the first, version 1) is brought to
version 4 in place, its tables kept, in SQLite and PostgreSQL alike; accounts, sessions and seats
held by accounts are then stored (issue 35.6)."""

from __future__ import annotations

import pytest

from hippodrome.server.accounts import store
from hippodrome.server.reviews import store_review, table_and_review
from hippodrome.server.storage import SCHEMA_VERSION, DamagedDatabase, open_storage
from tests.server.services import postgres_url  # noqa: F401  (a fixture)
from tests.server.test_storage import db, make_version_1, run_sql  # noqa: F401  (db: a fixture)

#: the schema of version 2 as the server wrote it before version 3 (in SQLite's words; PostgreSQL's
#: said DOUBLE PRECISION for ``created`` and BIGINT for ``state_id``)
VERSION_2 = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seed TEXT NOT NULL, "
    "created {real} NOT NULL, state_id {bigint} NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{{}}', "
    "paused INTEGER NOT NULL DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, host_hash TEXT NOT NULL, lifecycle TEXT)",
    "CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL, "
    "kind TEXT NOT NULL, level TEXT, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, entry TEXT NOT NULL, "
    "PRIMARY KEY (table_id, n))",
    "CREATE INDEX tables_newest ON tables (created, id)",
    "CREATE INDEX tables_running ON tables (over, created, id)",
    "INSERT INTO meta VALUES ('schema', '2')",
    "INSERT INTO tables (id, game, setup, seed, created, state_id, over, host_hash, lifecycle) "
    "VALUES ('old', 'turfmaster', '{{\"players\": 2}}', 's', 1.5, 3, 1, 'h', '{{\"persons\": [0]}}')",
    "INSERT INTO seats VALUES ('old', 0, 'Ana', 'person', NULL, 'a'), ('old', 1, 'Bo', 'bot', 'tactical', 'b')",
    "INSERT INTO actions VALUES ('old', 0, '{{\"by\": 0, \"action\": {{\"type\": \"go\"}}}}')",
]


def make_version_2(db: str) -> None:
    sqlite = db.startswith("sqlite")
    run_sql(db, [s.format(real="REAL" if sqlite else "DOUBLE PRECISION", bigint="INTEGER" if sqlite else "BIGINT")
                 for s in VERSION_2])


def schema_of(storage) -> str:
    return storage.read(lambda sql: sql.one("SELECT value FROM meta WHERE key = 'schema'")[0])


def test_a_version_2_database_is_brought_to_version_4_in_place_keeping_its_tables(db):
    make_version_2(db)
    storage = open_storage(db)
    try:
        assert schema_of(storage) == SCHEMA_VERSION == "4"
        record = storage.load("old")
        assert record["setup"] == {"players": 2} and record["state_id"] == 3 and record["over"] is True
        assert record["log"] == [{"by": 0, "action": {"type": "go"}}]
        assert [s["name"] for s in record["seats"]] == ["Ana", "Bo"] and record["lifecycle"] == {"persons": [0]}
        assert record["rulings"] is None   # played before rulings had versions: its log tells which
        # the new tables and columns work
        assert storage.write(lambda sql: store.create_account(sql, "acc1", "Ana", "ana", "$argon2id$x", 2.0))
        assert storage.write(lambda sql: store.claim_seat(sql, "old", "a", "acc1")) == 0
        assert storage.read(lambda sql: store.seats_held(sql, "acc1", "old")) == [0]
        storage.write(lambda sql: store_review(sql, "old", '{"decisions": []}', 3.0))   # version 4's reviews
        assert storage.read(lambda sql: table_and_review(sql, "old")) == ("turfmaster", True, '{"decisions": []}')
    finally:
        storage.close()
    again = open_storage(db)   # opening again changes nothing
    try:
        assert schema_of(again) == "4" and again.read(lambda sql: store.seats_held(sql, "acc1", "old")) == [0]
    finally:
        again.close()


def test_a_version_1_database_is_brought_to_version_4(db):
    make_version_1(db)
    storage = open_storage(db)
    try:
        assert schema_of(storage) == "4"
        record = storage.load("old")
        assert record["lifecycle"] is None and record["rulings"] is None
        storage.create_table("new", "g", {}, "s", [{"name": "Cy", "kind": "person", "token_hash": "c",
                                                    "account": None}], "h", {})
        assert storage.load("new")["seats"][0]["name"] == "Cy"
    finally:
        storage.close()


def test_a_database_of_a_newer_schema_is_refused_by_either_storage(db):
    run_sql(db, ["CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                 "INSERT INTO meta VALUES ('schema', '99')"])
    with pytest.raises(DamagedDatabase) as refusal:
        open_storage(db)
    assert "'99'" in str(refusal.value) and "version 4 at most" in str(refusal.value)


def test_a_taken_name_is_refused_whatever_its_case_and_nothing_is_written(db):
    storage = open_storage(db)
    try:
        assert storage.write(lambda sql: store.create_account(sql, "a1", "Ana", "ana", "h1", 1.0))
        assert not storage.write(lambda sql: store.create_account(sql, "a2", "ANA", "ana", "h2", 2.0))
        assert storage.read(lambda sql: store.account_named(sql, "ana")) == store.Account("a1", "Ana", "h1")
    finally:
        storage.close()


def test_sessions_expire_and_a_deleted_account_leaves_no_name_behind(db):
    storage = open_storage(db)
    try:
        storage.create_table("t", "g", {}, "s", [{"name": "Ana", "kind": "person", "token_hash": "x"},
                                                 {"name": "Bo", "kind": "person", "token_hash": "y"}], "h", {})
        storage.write(lambda sql: store.create_account(sql, "a1", "Ana", "ana", "h1", 1.0))
        storage.write(lambda sql: store.claim_seat(sql, "t", "x", "a1"))
        storage.write(lambda sql: store.create_session(sql, "s1", "a1", 10.0, 20.0))
        assert storage.read(lambda sql: store.session_account(sql, "s1", 15.0)).name == "Ana"
        assert storage.read(lambda sql: store.session_account(sql, "s1", 20.0)) is None   # expired
        assert storage.write(lambda sql: store.claim_seat(sql, "t", "x", "other")) is None  # held by a1
        storage.write(lambda sql: store.delete_account(sql, "a1"))
        assert storage.read(lambda sql: store.account_named(sql, "ana")) is None
        assert storage.read(lambda sql: store.session_account(sql, "s1", 15.0)) is None
        assert [s["name"] for s in storage.load("t")["seats"]] == ["", "Bo"]
        assert storage.read(lambda sql: sql.rows("SELECT seat FROM seats WHERE table_id = ? AND former = 1",
                                                 ("t",))) == [(0,)]
        names = storage.read(lambda sql: sql.rows("SELECT name FROM accounts") + sql.rows("SELECT name FROM seats"))
        assert ("Ana",) not in names
    finally:
        storage.close()
