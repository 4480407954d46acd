"""What the operator reads (issue 37.9): a sentence and exit 2 for a folder given as --db, one log
line for a damaged table, the table named when saving it fails, one line with the address and the
reason for a refused websocket handshake."""

import json
import sqlite3

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from hippodrome.server import create_app
from tests.server.conftest import make_table
from tests.server.refusals import refused_serve, said_and_exited_2
from tests.server.live import log_lines, served
from tests.server.test_server_durable import fail_writes, wait_until


def test_a_folder_as_db_is_one_sentence_and_exit_2(tmp_path):
    said = said_and_exited_2(refused_serve("--db", str(tmp_path))).strip()
    assert len(said.splitlines()) == 1 and "Traceback" not in said, said
    assert f"{tmp_path} is a folder" in said and str(tmp_path / "hippodrome.sqlite3") in said


def test_a_damaged_table_is_one_line_naming_it(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        bad = make_table(client)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE actions SET entry = '{oops' WHERE table_id = ? AND n = 0", (bad["id"],))
    with log_lines() as lines, TestClient(create_app(db, bot_delay=0)):
        pass
    about = [line for line in lines if bad["id"] in line]
    assert len(about) == 1, lines
    assert "damaged" in about[0] and f"table={bad['id']}" in about[0] and "Traceback" not in about[0]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_failed_save_names_its_table(client, fmt):
    table = make_table(client, start=False)
    room, disk = fail_writes(client, table)
    with log_lines(fmt) as lines:
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"v": 1, "type": "join", "token": table["seats"][0]["token"]})
            ws.receive_json()
            disk.fail()
            ws.send_json({"v": 1, "type": "ready"})   # any change: its save fails
            wait_until(lambda: disk.failures >= 1)
            disk.failing.clear()
    failed = [line for line in lines if "disk is full" in line]
    assert failed, lines
    for line in failed:
        if fmt == "json":
            assert json.loads(line)["table"] == table["id"]
        else:
            assert f"table={table['id']}" in line


def test_a_refused_handshake_is_one_line_with_the_address_and_the_reason(tmp_path):
    app = create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)
    with log_lines() as lines, served(app) as url:
        with pytest.raises(InvalidStatus) as refusal:
            connect(url.replace("http", "ws") + "/ws/tables/abc", origin="https://elsewhere.example", open_timeout=10)
    assert refusal.value.response.status_code == 403
    assert not [line for line in lines if "without completing handshake" in line], lines
    refused = [line for line in lines if "refused" in line]
    assert len(refused) == 1, lines
    assert "127.0.0.1" in refused[0] and "403" in refused[0] and "elsewhere.example" in refused[0]
