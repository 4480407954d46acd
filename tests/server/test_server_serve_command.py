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
from tests.server.refusals import refused_serve, said_and_exited_2


def test_the_command_line_loads_the_web_framework_only_to_serve():
    """A command at the table (a replay, a move checked) starts without the server's web framework
    (half a second of imports): `hippodrome.server` imports `create_app` on first use. A server on
    SQLite loads neither the drivers of several processes (psycopg, redis-py) nor `webauthn`, which
    its passkey routes import when first asked."""
    probe = ("import sys; from hippodrome.cli.main import app; "
             "print(sorted(m for m in ('fastapi', 'starlette', 'uvicorn', 'hippodrome.server.app') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded
    served = subprocess.run([sys.executable, "-c", "import sys; from hippodrome.server import create_app; "
                             "create_app(':memory:'); print(create_app.__module__, "
                             "sorted(m for m in ('psycopg', 'redis', 'webauthn') if m in sys.modules))"],
                            capture_output=True, text=True, check=True).stdout
    assert served.strip() == "hippodrome.server.app []", served


@pytest.mark.slow
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
    assert "use sqlite:///path or postgresql://" in said_and_exited_2(refused_serve("--db", "mysql://h/db"))


def test_default_database_is_under_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "hippodrome" / "hippodrome.sqlite3"
    assert db_path_from(None) == str(tmp_path / "hippodrome" / "hippodrome.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "hippodrome" / "hippodrome.sqlite3"


@pytest.mark.slow
def test_serve_speaks_the_language_of_lang():
    said = said_and_exited_2(refused_serve("--lang", "de", "--db", "mysql://h/db"))
    reason = translate("de", "unsupported database URL {url}: use sqlite:///path or postgresql://user@host/database",
                       url="'mysql://h/db'")
    assert said.strip() == translate("de", "cannot open the database: {error}", error=reason)
    # the help's texts are translated as the command's module is imported: a new process
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
    said = said_and_exited_2(refused_serve("--allow-origin", "games.example/lobby"))
    assert "--allow-origin takes a site's origin such as https://games.example:8443, not 'games.example/lobby'" in said



def _send_then_read(port: int, request: bytes) -> bytes:
    """Send ``request`` whole, then read the answer until the server closes the connection."""
    import socket
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        while data := conn.recv(65536):
            answer += data
    return answer


def _sent_before_cut_off(port: int, head: bytes, bound: int = 64 * 1024 * 1024) -> int:
    """Send ``head``, then a chunked body without end, 64 KiB at a time: the bytes of body sent
    when the server cut the connection off (``bound`` if it went on reading)."""
    import socket
    chunk = b"%x\r\n" % 65536 + b" " * 65536 + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head)
        try:
            while sent < bound:
                conn.sendall(chunk)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
    return sent


def test_a_refused_body_is_answered_and_its_connection_closed_rather_than_read_on(tmp_path):
    """Issue #15: a refused body (413 past its 64 KiB, 415, 403 for another site) is answered and
    the connection closed: a client streaming a body without end was read and thrown away,
    gigabytes of it, for as long as it kept sending. A body somewhat too long (300 KiB) is read to
    its end first, so that its client gets the answer and not a reset connection."""
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0",
                                "--db", str(tmp_path / "served.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(1))
        start = b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        body = b"[" + b" " * 300_000 + b"]"
        for headers, status in ((b"Content-Type: application/json\r\n", b"413"), (b"Content-Type: text/plain\r\n", b"415"),
                                (b"Content-Type: application/json\r\nOrigin: http://evil.example\r\n", b"403")):
            answer = _send_then_read(port, start + headers + b"Content-Length: %d\r\n\r\n" % len(body) + body)
            assert answer.startswith(b"HTTP/1.1 " + status), answer[:200]
            assert b"connection: close" in answer.lower(), answer[:300]
            sent = _sent_before_cut_off(port, start + headers + b"Transfer-Encoding: chunked\r\n\r\n")
            assert sent < 64 * 1024 * 1024, f"the server read {sent} bytes of a refused body"
    finally:
        process.terminate()
        process.wait(10)
