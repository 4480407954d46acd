"""Slow clients, connections per address, proxies and a websocket's messages (issue 37.1, 37.2,
37.3), on real sockets against the server as `serve` runs it (server/serving.py), with short limits
so that nothing waits long. Each refusal is one line of the log with the address and the reason."""

import json
import socket
import threading

import pytest
from websockets.sync.client import connect

from hippodrome.server import create_app
from hippodrome.server.limits import Limits
from hippodrome.server.quota import Quota
from tests.server.live import RACE, log_lines, post_json, served

SHORT = Limits(head=0.3, body=0.3, join=0.3, keep_alive=0.3, per_address=3)
#: how long a test waits for the server to close a connection before it counts as held (a bound
#: that only matters when the limit is broken: the limits above are a fraction of a second)
HELD = 15


@pytest.fixture
def app(tmp_path):
    return create_app(str(tmp_path / "db.sqlite3"), bot_delay=0, limits=SHORT, table_quota=Quota(1, 3600))


def raw(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=HELD)
    return sock


def closed_by_server(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout fails the test)."""
    received = b""
    while True:
        chunk = sock.recv(65536)   # socket.timeout: the server held the connection
        if not chunk:
            return received
        received += chunk


def refusals(lines: list[str]) -> list[str]:
    return [line for line in lines if "hippodrome.server.refusals" in line]


def test_a_connection_that_sends_nothing_or_half_a_head_is_closed(app):
    with log_lines() as lines, served(app) as url:
        silent, half = raw(url), raw(url)
        half.sendall(b"GET / HT")
        assert closed_by_server(silent) == b"" and closed_by_server(half) == b""
        trickle = raw(url)
        for _ in range(200):   # a byte at a time keeps no connection open (slowloris)
            try:
                trickle.sendall(b"X-Slow: 1\r\n"[:1])
            except OSError:
                break
            trickle.settimeout(0.05)
            try:
                if trickle.recv(100) == b"":
                    break
            except socket.timeout:
                continue
            except ConnectionResetError:   # closed with the trickled bytes unread: a reset, not an end
                break
        else:
            pytest.fail("a trickled request head held its connection")
    said = refusals(lines)
    assert len(said) == 3, lines
    assert all("refused 127.0.0.1" in line and "head did not arrive within 0.3 s" in line for line in said), said


def test_a_body_shorter_than_its_length_is_cut_off_and_idle_keep_alive_closed(app):
    with log_lines() as lines, served(app) as url:
        short = raw(url)
        short.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"game\":")
        closed_by_server(short)
        idle = raw(url)
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /api/languages HTTP/1.1\r\nHost: x\r\n\r\n")
        answers = closed_by_server(idle)   # both answered on the kept-alive connection, which then closes
        assert answers.count(b"HTTP/1.1 ") == 2
    assert [line for line in refusals(lines) if "body did not arrive within 0.3 s" in line], lines


def test_connections_per_address_are_capped_and_a_closed_one_frees_its_place(tmp_path):
    app = create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)
    limits = Limits(per_address=3, head=HELD * 2)
    with log_lines() as lines, served(app, limits=limits) as url:
        held = [raw(url) for _ in range(3)]
        extra = raw(url)
        assert closed_by_server(extra).startswith(b"HTTP/1.1 429 ")
        held.pop().close()
        for _ in range(500):   # a place is free again once the server has seen the close
            status, _ = post_json(url + "/api/tables", RACE)
            if status != 429:
                break
            threading.Event().wait(0.01)
        assert status == 200
    said = refusals(lines)
    assert said and all("3 connections open from this address already (at most 3)" in line for line in said), lines


def test_a_websocket_that_does_not_join_in_time_is_told_and_closed(app):
    with log_lines() as lines, served(app) as url:
        status, table = post_json(url + "/api/tables", RACE)
        with connect(url.replace("http", "ws") + f"/ws/tables/{table['id']}", open_timeout=HELD) as ws:
            told = json.loads(ws.recv(timeout=HELD))
            assert told["type"] == "error" and told["code"] == "join_timeout"
            assert told["message"] == "a connection joins its table within 0.3 seconds of opening; this one is closed"
            with pytest.raises(Exception):
                ws.recv(timeout=HELD)
            assert ws.close_code == 1008
    assert [line for line in refusals(lines) if "no join within 0.3 s" in line], lines


def test_a_websocket_over_its_message_rate_is_told_in_words_and_closed(tmp_path):
    app = create_app(str(tmp_path / "db.sqlite3"), bot_delay=0, limits=Limits(messages=Quota(5, 3600)))
    with log_lines() as lines, served(app) as url:
        status, table = post_json(url + "/api/tables", RACE)
        with connect(url.replace("http", "ws") + f"/ws/tables/{table['id']}", open_timeout=HELD) as ws:
            ws.send(json.dumps({"v": 1, "type": "join", "lang": "fr"}))
            for _ in range(10):
                ws.send(json.dumps({"v": 1, "type": "join", "lang": "fr"}))   # each join sends every watcher news
            replies = []
            with pytest.raises(Exception):
                while True:
                    replies.append(json.loads(ws.recv(timeout=HELD)))
            assert ws.close_code == 1008
        errors = [reply for reply in replies if reply["type"] == "error"]
        assert [error["code"] for error in errors] == ["too_many"]
        assert errors[0]["message"].startswith("trop de messages")   # in the connection's language
        assert sum(reply["type"] == "welcome" for reply in replies) == 5
    assert [line for line in refusals(lines) if "over 5 messages in 3600 s" in line], lines


def test_forwarded_headers_are_believed_only_from_the_proxies_named(tmp_path):
    """By default no client can claim another address: after its quota, a made-up
    X-Forwarded-For is refused as well (issue 37: it got 200). Behind a proxy named with
    --forwarded-allow-ips the quota counts each client the proxy names."""
    made_up = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    app = create_app(str(tmp_path / "a.sqlite3"), bot_delay=0, table_quota=Quota(1, 3600))
    with served(app) as url:
        assert post_json(url + "/api/tables", RACE)[0] == 200
        assert post_json(url + "/api/tables", RACE, made_up)[0] == 429
        assert "strict-transport-security" not in raw_headers(url, made_up)
    app = create_app(str(tmp_path / "b.sqlite3"), bot_delay=0, table_quota=Quota(1, 3600))
    with served(app, forwarded_allow_ips=["127.0.0.1"], limits=Limits(per_address=1)) as url:
        assert post_json(url + "/api/tables", RACE, made_up)[0] == 200
        assert post_json(url + "/api/tables", RACE, made_up)[0] == 429   # the same client again
        assert post_json(url + "/api/tables", RACE, {"X-Forwarded-For": "203.0.113.10"})[0] == 200
        assert "strict-transport-security" in raw_headers(url, made_up)   # the proxy speaks TLS to the client
        held = [raw(url) for _ in range(3)]   # the proxy's own connections are not capped
        assert post_json(url + "/api/tables", RACE, {"X-Forwarded-For": "203.0.113.11"})[0] == 200
        for sock in held:
            sock.close()


def raw_headers(url: str, headers: dict) -> str:
    sock = raw(url)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                 + b"".join(f"{k}: {v}\r\n".encode() for k, v in headers.items()) + b"\r\n")
    return closed_by_server(sock).split(b"\r\n\r\n", 1)[0].decode().lower()


def test_a_request_that_is_not_http_is_refused_in_one_line_with_the_address(app):
    with log_lines() as lines, served(app) as url:
        garbage = raw(url)
        garbage.sendall(b"\x16\x03\x01 this is not HTTP\r\n\r\n")   # a TLS hello to a plain port, say
        assert closed_by_server(garbage).startswith(b"HTTP/1.1 400 ")
    assert not [line for line in lines if "Invalid HTTP request received" in line], lines
    said = refusals(lines)
    assert len(said) == 1 and "refused 127.0.0.1: not an HTTP/1.1 request" in said[0], lines
