"""A damaged database is refused at start with the file and the fault (exit 2); a table whose
stored rows do not make a table is listed as damaged, and the others play on (issue 15.2)."""

import json
import sqlite3

from fastapi.testclient import TestClient

from hippodrome.server import create_app
from hippodrome.server.storage import DamagedDatabase, Storage
from tests.server.conftest import make_table
from tests.server.refusals import refused_serve, said_and_exited_2

import pytest


def serve(db) -> str:
    """What `hippodrome serve --db DB` said as it refused the database with exit 2."""
    return said_and_exited_2(refused_serve("--db", str(db)))


def test_a_file_that_is_not_a_database_is_refused_with_its_name_and_exit_2(tmp_path):
    db = tmp_path / "notes.sqlite3"
    db.write_bytes(b"these are my notes, not a database\n" * 200)
    said = serve(db)
    assert str(db) in said and "damaged" in said and "Traceback" not in said
    assert db.read_bytes().startswith(b"these are my notes")  # nothing written over it


def test_garbage_in_the_middle_of_a_database_is_found_at_start(tmp_path):
    db = tmp_path / "tables.sqlite3"
    storage = Storage(db)
    for n in range(40):
        storage.create_table(f"t{n}", "turfmaster-race", {"course": "oval"}, "seed", [], "host", {})
        storage.save_progress(f"t{n}", [{"seat": 0, "action": {"type": "card", "card": "x" * 300}}] * 5, 5, False, False)
    storage.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    storage.close()
    data = bytearray(db.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 4096] = b"\x07" * 4096
    db.write_bytes(bytes(data))
    with pytest.raises(DamagedDatabase) as refusal:
        Storage(db)
    assert str(db) in str(refusal.value)
    said = serve(db)
    assert str(db) in said and "Traceback" not in said


def test_a_table_whose_rows_do_not_replay_is_listed_as_damaged_and_the_others_play_on(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        bad = make_table(client)
        good = make_table(client)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO actions VALUES (?, ?, ?)", (bad["id"], 999, json.dumps({"seat": 0, "action": {"type": "nonsense"}})))
        conn.execute("UPDATE actions SET entry = '{oops' WHERE table_id = ? AND n = 0", (bad["id"],))
    with TestClient(create_app(db, bot_delay=0)) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[bad["id"]]["status"] == "damaged" and listed[bad["id"]]["fault"]
        # the row at fault named, as a replay counts entries, and the table's game still known
        assert listed[bad["id"]]["fault"].startswith("log entry 1 is not JSON (")
        assert listed[bad["id"]]["game"] == bad["game"] != "?"
        assert "token" not in json.dumps(listed[bad["id"]])
        assert client.get(f"/api/tables/{bad['id']}").json()["status"] == "damaged"
        assert client.get(f"/api/tables/{good['id']}").status_code == 200
        with client.websocket_connect(f"/ws/tables/{bad['id']}") as ws:
            refusal = ws.receive_json()
            assert refusal["type"] == "error" and refusal["code"] == "damaged" and "damaged" in refusal["message"]
        with client.websocket_connect(f"/ws/tables/{good['id']}") as ws:
            ws.send_json({"v": 1, "type": "join", "token": good["seats"][0]["token"]})
            assert ws.receive_json()["type"] == "welcome"
