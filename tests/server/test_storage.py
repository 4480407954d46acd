"""Both storages, SQLite (the embedded default) and PostgreSQL (several processes), keep the same
promises: one test each, run against both (issue 15.4)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from hippodrome.server.storage import DamagedDatabase, Storage, open_storage
from tests.server.services import postgres_url  # noqa: F401  (a fixture)

SEATS = [{"name": "Ana", "kind": "person", "level": None, "token_hash": "a" * 64},
         {"name": "Bo", "kind": "bot", "level": "tactical", "token_hash": "b" * 64}]
LIFECYCLE = {"persons": [0], "ready": [0], "started": True}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A database URL of each kind, empty."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    return request.getfixturevalue("postgres_url")


def entry(n: int) -> dict:
    return {"seat": n % 2, "action": {"type": "card", "card": f"c{n}", "note": "é\u0000\U0001F40E"}}


def test_open_storage_chooses_the_storage_by_the_url_scheme(db):
    storage = open_storage(db)
    try:
        assert type(storage).__name__ == ("Storage" if db.startswith("sqlite") else "PostgresStorage")
    finally:
        storage.close()


def test_a_table_is_read_back_as_it_was_written_after_a_reopen(db):
    storage = open_storage(db)
    storage.create_table("t1", "turfmaster-race", {"course": "oval", "x": [1, 2.5]}, "seed1", SEATS, "h" * 64,
                         {"pace": 2.0})
    assert storage.save_progress("t1", [entry(0), entry(1)], 2, False, False, lifecycle=LIFECYCLE) == 2
    assert storage.save_progress("t1", [entry(0), entry(1), entry(2)], 3, False, True, stored=2) == 3
    storage.close()
    again = open_storage(db)
    try:
        record = again.load("t1")
        assert record["log"] == [entry(0), entry(1), entry(2)]
        assert (record["state_id"], record["paused"], record["over"]) == (3, True, False)
        assert record["lifecycle"] == LIFECYCLE  # kept when a save brings none (COALESCE)
        assert record["setup"] == {"course": "oval", "x": [1, 2.5]} and record["options"] == {"pace": 2.0}
        assert record["seats"] == SEATS and record["host_hash"] == "h" * 64 and record["seed"] == "seed1"
        assert again.load("nope") is None
    finally:
        again.close()


def test_unstored_entries_are_counted_when_the_caller_does_not_know_them(db):
    storage = open_storage(db)
    try:
        storage.create_table("t1", "g", {}, "s", SEATS, "h", {})
        storage.save_progress("t1", [entry(0)], 1, False, False)
        storage.save_progress("t1", [entry(0), entry(1)], 2, False, False)  # stored=None: counted
        assert storage.load("t1")["log"] == [entry(0), entry(1)]
    finally:
        storage.close()


def test_seats_handed_to_bots_and_the_end_are_stored(db):
    storage = open_storage(db)
    try:
        storage.create_table("t1", "g", {}, "s", SEATS, "h", {})
        storage.save_progress("t1", [], 5, True, False, bots={0: "random"})
        record = storage.load("t1")
        assert record["seats"][0]["kind"] == "bot" and record["seats"][0]["level"] == "random"
        assert record["over"] is True
    finally:
        storage.close()


def test_table_ids_in_creation_order_and_only_running(db):
    storage = open_storage(db)
    try:
        for name in ("b", "a", "c"):
            storage.create_table(name, "g", {}, "s", [], "h", {})
        storage.save_progress("a", [], 1, True, False)
        assert storage.table_ids() == ["b", "a", "c"]
        assert storage.table_ids(only_running=True) == ["b", "c"]
    finally:
        storage.close()


def test_list_rows_pages_newest_first_with_their_seats_and_the_over_filter(db):
    storage = open_storage(db)
    try:
        for name in ("t1", "t2", "t3", "t4", "t5"):
            storage.create_table(name, "g", {"n": name}, "s", SEATS, "h", {"pace": 1.0})
        storage.save_progress("t2", [], 4, True, False)
        storage.save_progress("t4", [], 7, True, False)
        newest_first = storage.table_ids()[::-1]
        pages, after = [], None
        while True:
            rows = storage.list_rows(2, after)
            pages += rows
            if len(rows) < 2:
                break
            after = rows[-1]["id"]
        assert [row["id"] for row in pages] == newest_first
        t4 = next(row for row in pages if row["id"] == "t4")
        assert (t4["game"], t4["state_id"], t4["over"]) == ("g", 7, True)
        assert t4["seats"] == [{k: v for k, v in s.items() if k != "token_hash"} for s in SEATS]
        assert [row["id"] for row in storage.list_rows(10, over=True)] == [i for i in newest_first if i in ("t2", "t4")]
        running = storage.list_rows(10, over=False)
        assert [row["id"] for row in running] == storage.table_ids(only_running=True)[::-1]
        assert storage.list_rows(10, after=newest_first[-1]) == []
        with pytest.raises(KeyError):
            storage.list_rows(10, after="nope")
    finally:
        storage.close()


def test_list_rows_leaves_out_the_games_it_is_told_before_the_limit(db):
    storage = open_storage(db)
    try:
        for name, game in (("t1", "g"), ("t2", "lesson"), ("t3", "g"), ("t4", "other"), ("t5", "lesson")):
            storage.create_table(name, game, {}, "s", SEATS, "h", {})
        newest_first = storage.table_ids()[::-1]
        kept = [i for i in newest_first if i in ("t1", "t3")]
        assert [row["id"] for row in storage.list_rows(2, without=("lesson", "other"))] == kept
        assert [row["id"] for row in storage.list_rows(10, without=("lesson",))] == [i for i in newest_first
                                                                                    if i != "t2" and i != "t5"]
        assert [row["id"] for row in storage.list_rows(10, after=kept[0], without=("lesson", "other"))] == kept[1:]
        assert [row["id"] for row in storage.list_rows(10, over=True, without=("lesson",))] == []
        assert [row["id"] for row in storage.list_rows(10, without=())] == newest_first
    finally:
        storage.close()


def test_a_failed_write_stores_nothing(db):
    storage = open_storage(db)
    try:
        storage.create_table("t1", "g", {}, "s", SEATS, "h", {})
        storage.save_progress("t1", [entry(0)], 1, False, False)
        with pytest.raises(Exception):  # entry 0 again: the log's key refuses it, the whole change is undone
            storage.save_progress("t1", [entry(0), entry(1)], 2, True, False, stored=0)
        record = storage.load("t1")
        assert record["log"] == [entry(0)] and record["state_id"] == 1 and record["over"] is False
        with pytest.raises(Exception):
            storage.create_table("t1", "g", {}, "s", SEATS, "h", {})  # the id is taken
        assert storage.table_ids() == ["t1"]
    finally:
        storage.close()


def test_writes_from_several_threads_are_each_whole(db):
    storage = open_storage(db)
    tables = [f"t{n}" for n in range(4)]
    for table_id in tables:
        storage.create_table(table_id, "g", {}, "s", [], "h", {})

    def play(table_id: str) -> None:
        log = []
        for n in range(25):
            log.append(entry(n))
            storage.save_progress(table_id, log, n + 1, False, False, stored=n)

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        for table_id in tables:
            record = storage.load(table_id)
            assert record["state_id"] == 25 and record["log"] == [entry(n) for n in range(25)]
    finally:
        storage.close()


def make_version_1(db: str) -> None:
    """A database as the first schema made it: no ``lifecycle`` column, one table stored."""
    columns = ("id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL, "
               "state_id INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}', paused INTEGER NOT NULL "
               "DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, host_hash TEXT NOT NULL")
    statements = ["CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                  "INSERT INTO meta VALUES ('schema', '1')",
                  f"CREATE TABLE tables ({columns})",
                  "INSERT INTO tables (id, game, setup, seed, created, host_hash) "
                  "VALUES ('old', 'g', '{}', 's', 1.0, 'h')"]
    run_sql(db, statements)


def run_sql(db: str, statements: list[str]) -> None:
    if db.startswith("sqlite:///"):
        with sqlite3.connect(db[len("sqlite:///"):]) as conn:
            for statement in statements:
                conn.execute(statement)
        return
    import psycopg
    with psycopg.connect(db, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def test_a_version_1_database_is_brought_to_version_2_keeping_its_tables(db):
    make_version_1(db)
    storage = open_storage(db)
    try:
        record = storage.load("old")
        assert record["lifecycle"] is None and record["log"] == [] and record["seats"] == []
        storage.save_progress("old", [entry(0)], 1, False, False, lifecycle=LIFECYCLE)
        assert storage.load("old")["lifecycle"] == LIFECYCLE
    finally:
        storage.close()


def test_a_database_that_is_not_ours_is_refused_naming_it(db):
    run_sql(db, ["CREATE TABLE tables (name TEXT, price INTEGER)", "INSERT INTO tables VALUES ('chair', 40)"])
    with pytest.raises(DamagedDatabase) as refusal:
        open_storage(db)
    assert "not a hippodrome database" in str(refusal.value)
    if db.startswith("postgresql"):
        assert "127.0.0.1" in str(refusal.value) and "host_hash" in str(refusal.value)


def test_an_unreachable_postgresql_is_a_clear_refusal():
    from hippodrome.server.storage_pg import DatabaseUnreachable
    pytest.importorskip("psycopg")
    with pytest.raises(DatabaseUnreachable) as refusal:
        open_storage("postgresql://someone:secret@127.0.0.1:1/nothing")
    assert "cannot connect to the database postgresql://someone:***@127.0.0.1:1/nothing" in str(refusal.value)
    assert "secret" not in str(refusal.value)


def test_sqlite_stays_the_default_without_psycopg(tmp_path):
    assert isinstance(open_storage(tmp_path / "x.sqlite3"), Storage)


def test_postgresql_keeps_times_as_doubles_and_state_ids_as_64_bits(postgres_url):
    storage = open_storage(postgres_url)
    try:
        storage.create_table("t1", "g", {}, "s", [], "h", {})
        storage.save_progress("t1", [], 2 ** 40, False, False)
        assert storage.load("t1")["state_id"] == 2 ** 40
        types = dict(storage.conn.execute("SELECT column_name, data_type FROM information_schema.columns "
                                          "WHERE table_schema = current_schema() AND table_name = 'tables'"))
        assert types["created"] == "double precision" and types["state_id"] == "bigint"
    finally:
        storage.close()
