"""`hippodrome serve`: prints its address, serves the lobby, stores tables where --db says."""

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from hippodrome.i18n import translate
from hippodrome.server.storage import Storage, db_path_from, default_db_path


def test_the_command_line_loads_the_web_framework_only_to_serve():
    """A command at the table (a replay, a move checked) starts without the server's web framework
    (half a second of imports): `hippodrome.server` imports `create_app` on first use."""
    probe = ("import sys; from hippodrome.cli.main import app; "
             "print(sorted(m for m in ('fastapi', 'starlette', 'uvicorn', 'hippodrome.server.app') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded
    served = subprocess.run([sys.executable, "-c", "from hippodrome.server import create_app; print(create_app.__module__)"],
                            capture_output=True, text=True, check=True).stdout
    assert served.strip() == "hippodrome.server.app"


def test_serve_prints_its_address_and_serves_the_lobby(tmp_path):
    db = tmp_path / "served.sqlite3"
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0",
                                "--db", f"sqlite:///{db}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        url = match.group(0)
        assert "hippodrome" in urllib.request.urlopen(url, timeout=10).read().decode()
        body = json.dumps({"game": "turfmaster-race",
                           "setup": {"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                           "seats": [{"name": "A"}, {"name": "B", "kind": "bot"}]}).encode()
        request = urllib.request.Request(url + "api/tables", data=body, headers={"Content-Type": "application/json"})
        created = json.loads(urllib.request.urlopen(request, timeout=10).read())
    finally:
        process.terminate()
        process.wait(10)
    assert Storage(db).table_ids() == [created["id"]]


def test_serve_refuses_a_database_it_cannot_use():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--db", "mysql://h/db"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "use sqlite:///path or postgresql://" in result.stderr


def test_default_database_is_under_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "hippodrome" / "hippodrome.sqlite3"
    assert db_path_from(None) == str(tmp_path / "hippodrome" / "hippodrome.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "hippodrome" / "hippodrome.sqlite3"


def test_serve_speaks_the_language_of_lang():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--lang", "de",
                             "--db", "mysql://h/db"], capture_output=True, text=True, timeout=30)
    reason = translate("de", "unsupported database URL {url}: use sqlite:///path or postgresql://user@host/database",
                       url="'mysql://h/db'")
    assert result.returncode == 2
    assert result.stderr.strip() == translate("de", "cannot open the database: {error}", error=reason)
    help_text = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--help"], capture_output=True,
                               text=True, timeout=30, env={**os.environ, "LANGUAGE": "de", "COLUMNS": "200"}).stdout
    assert translate("de", "Do not open the lobby in a browser.") in help_text


def post(url: str, body: dict, origin: str | None = None) -> int:
    headers = {"Content-Type": "application/json", **({"Origin": origin} if origin else {})}
    request = urllib.request.Request(url + "api/tables", data=json.dumps(body).encode(), headers=headers)
    try:
        return urllib.request.urlopen(request, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def test_serve_lets_pages_of_allowed_origins_in_and_no_others(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0",
                                "--db", str(tmp_path / "served.sqlite3"), "--allow-origin", "https://games.example",
                                "--allow-origin", "http://localhost:9000"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(0)
        own = url.rstrip("/")
        body = {"game": "turfmaster-race", "setup": {"players": 2}, "seats": [{"name": "A"}, {"name": "B"}]}
        assert [post(url, body, origin) for origin in (None, own, "https://games.example", "http://localhost:9000",
                                                       "http://evil.example")] == [200, 200, 200, 200, 403]
        table = Storage(tmp_path / "served.sqlite3").table_ids()[0]
        socket_url = f"ws://127.0.0.1:{url.rsplit(':', 1)[1].rstrip('/')}/ws/tables/{table}"
        with connect(socket_url, additional_headers={"Origin": own}) as ws:
            ws.send(json.dumps({"v": 1, "type": "ping"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
        with pytest.raises(InvalidStatus) as refused:
            connect(socket_url, additional_headers={"Origin": "http://evil.example"})
        assert refused.value.response.status_code == 403
        assert json.loads(refused.value.response.body)["error"] == "forbidden_origin"
    finally:
        process.terminate()
        process.wait(10)


def test_serve_refuses_an_allowed_origin_that_is_not_one():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--allow-origin",
                             "games.example/lobby"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "--allow-origin takes a site's origin such as https://games.example:8443, not 'games.example/lobby'" \
        in result.stderr
