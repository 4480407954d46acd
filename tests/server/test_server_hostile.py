"""Hostile input is refused with a clear 4xx and nothing stored (issue "Server: hostile input
refused", part 1; docs/protocol.md, "Limits and refusals")."""

import asyncio
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

import hippodrome

from hippodrome.core.errors import InvalidSetup
from hippodrome.core.registry import game_class
from hippodrome.core.registry import descriptions
from hippodrome.server import create_app
from hippodrome.server.context import MAX_CREATE_BODY
from hippodrome.server.guard import DRAIN_BYTES, allowed_origins, origin_of
from hippodrome.server.quota import Quota, SlidingWindow
from hippodrome.server.setup_form import checked_setup
from hippodrome.server.storage import Storage
from hippodrome.server.strict_json import MAX_DEPTH, StrictJSONError, check_value, loads
from tests.server.conftest import join, make_table, receive

AS_JSON = {"Content-Type": "application/json"}
RACE = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}
SEATS = [{"name": "Ana"}, {"name": "Bo"}]


def body(setup=None, seats=None, game="turfmaster-race") -> dict:
    return {"game": game, "setup": RACE if setup is None else setup, "seats": SEATS if seats is None else seats}


def stored(client) -> list[str]:
    return Storage(client.app.state.hub.storage.path).table_ids()


def refused(client, content: str | bytes, status: int, words: str, headers=AS_JSON, path="/api/tables"):
    response = client.post(path, content=content, headers=headers)
    assert response.status_code == status, response.text
    assert words in response.json()["detail"], response.json()
    return response.json()


# -- strict JSON -----------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ('{"x": NaN}', "not finite"),
    ('{"x": [Infinity]}', "not finite"),
    ('{"x": -Infinity}', "not finite"),
    ('{"x": 1e999}', "not finite"),
    ('{"x": "\\ud800"}', "lone surrogate"),
    ('{"\\udfff": 1}', "lone surrogate"),
    ('{"x": 1, "x": 2}', "appears twice"),
    ('{"x": 9007199254740992}', "out of range: from -9007199254740991 to 9007199254740991"),
    ('{"x": -9007199254740992}', "out of range: from -9007199254740991 to 9007199254740991"),
    ("[" * 1500 + "]" * 1500, "at most 16 levels"),
    ('{"x": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', None),  # brackets inside a string are text
    (b'{"x": "\xff"}', "not valid UTF-8"),
    ("{oops", "not JSON"),
])
def test_strict_json_refuses_what_json_does_not_hold(text, words):
    if words is None:
        assert loads(text) == {"x": "[" * 36}
        return
    with pytest.raises(StrictJSONError) as refusal:
        loads(text)
    assert words in str(refusal.value)


def test_strict_json_says_where_and_checks_decoded_values_at_any_depth():
    with pytest.raises(StrictJSONError, match="/setup/horses/1/owner"):
        loads('{"setup": {"horses": [{}, {"owner": NaN}]}}')
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    deep: list = []
    for _ in range(5000):  # deeper than the interpreter's stack: refused, not a RecursionError
        deep = [deep]
    with pytest.raises(StrictJSONError, match="at most 16 levels"):
        check_value(deep)
    check_value({"fine": [1, 2.5, "é", True, None]})


@pytest.mark.parametrize("content, words", [
    ('{"game": "turfmaster-race", "setup": {"horses": [{"id": "red", "owner": NaN}]}, "seats": []}', "not finite"),
    (json.dumps(body(seats=[{"name": "\ud800"}, {"name": "Bo"}])), "lone surrogate"),
    ('{"game": "turfmaster-race", "setup": ' + "[" * 1500 + "]" * 1500 + "}", "16 levels"),
    ('{"game": "turfmaster-race", "game": "turfmaster"}', "appears twice"),
])
def test_a_create_request_that_is_not_strict_json_is_refused_and_nothing_is_stored(client, content, words):
    answer = refused(client, content, 400, words)
    assert answer["error"] == "bad_request" and answer["message_i18n"]["msgid"]
    assert stored(client) == []
    assert client.get("/api/tables").status_code == 200


# -- content type and size ---------------------------------------------------------------
@pytest.mark.parametrize("headers, status", [
    ({"Content-Type": "text/plain"}, 415),
    ({}, 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"Content-Type": "application/json; charset=latin-1"}, 415),
    ({"Content-Type": "application/json; charset=UTF-8"}, 200),
    ({"Content-Type": "Application/JSON"}, 200),
])
def test_only_a_json_body_is_read(client, headers, status):
    response = client.post("/api/tables", content=json.dumps(body()), headers=headers)
    assert response.status_code == status, response.text
    if status == 415:
        assert "Content-Type: application/json" in response.json()["detail"]
        assert response.json()["error"] == "unsupported_media_type" and stored(client) == []
        check = client.post("/api/games/turfmaster/check", content='{"setup": {}}', headers=headers)
        assert check.status_code == 415


def test_a_body_is_refused_once_past_its_limit_without_reading_the_rest(client):
    """A chunked body is read piece by piece and the server stops at the limit (413): it never
    holds the whole body (a 500 MiB body once took 1 GiB of memory)."""
    app = client.app
    piece, pieces, consumed = b" " * 4096, 10_000, []  # 40 MB if it were all read

    async def receive():
        consumed.append(1)
        return {"type": "http.request", "body": piece, "more_body": len(consumed) < pieces}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/tables", "raw_path": b"/api/tables",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"transfer-encoding", b"chunked")]}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    # past the limit, at most DRAIN_BYTES more are read and dropped (so the client gets its answer)
    assert len(consumed) <= (MAX_CREATE_BODY + DRAIN_BYTES) // len(piece) + 2, f"read {len(consumed)} pieces"
    assert len(consumed) < pieces // 10
    assert (b"connection", b"close") in sent[0]["headers"]   # and the connection ends
    declared = client.post("/api/tables", content=b"{}", headers={**AS_JSON, "Content-Length": "999999999"})
    assert declared.status_code in (413, 400)  # refused on its word, before any of it is read


# -- Origin ------------------------------------------------------------------------------
def test_posts_and_websockets_from_another_site_are_refused(client):
    evil = {**AS_JSON, "Origin": "http://evil.example"}
    answer = refused(client, json.dumps(body()), 403, "http://evil.example", headers=evil)
    assert answer["error"] == "forbidden_origin" and "--allow-origin" in answer["detail"]
    refused(client, '{"setup": {}}', 403, "evil", headers=evil, path="/api/games/turfmaster/check")
    for origin in ("null", "http://testserver.evil.example", "https://testserver", "http://testserver:8080"):
        assert client.post("/api/tables", content=json.dumps(body()),
                           headers={**AS_JSON, "Origin": origin}).status_code == 403, origin
    assert stored(client) == []
    assert client.get("/api/tables", headers={"Origin": "http://evil.example"}).status_code == 200  # reading is free
    table = make_table(client)  # no Origin (a script, curl): passes
    with pytest.raises(WebSocketDenialResponse) as denied:
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"Origin": "http://evil.example"}):
            pass
    assert denied.value.status_code == 403 and denied.value.json()["error"] == "forbidden_origin"
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"Origin": "http://testserver"}) as ws:
        assert join(ws)["seat"] is None


def test_the_servers_own_origin_passes_on_any_host_and_port(db):
    """The pages are served on 127.0.0.1 with a random port: a request whose Origin is the
    address in its Host header is the server's own page."""
    with TestClient(create_app(db, bot_delay=0), base_url="http://127.0.0.1:43127") as client:
        own = {**AS_JSON, "Origin": "http://127.0.0.1:43127"}
        assert client.post("/api/tables", content=json.dumps(body()), headers=own).status_code == 200
        other_port = {**AS_JSON, "Origin": "http://127.0.0.1:43128"}
        assert client.post("/api/tables", content=json.dumps(body()), headers=other_port).status_code == 403


def test_allowed_origins_pass(db):
    with TestClient(create_app(db, bot_delay=0, allowed_origins=["https://Games.example:443/"])) as client:
        ok = client.post("/api/tables", content=json.dumps(body()),
                         headers={**AS_JSON, "Origin": "https://games.example"})
        assert ok.status_code == 200, ok.text
        with client.websocket_connect(f"/ws/tables/{ok.json()['id']}", headers={"Origin": "https://games.example"}):
            pass
        assert client.post("/api/tables", content=json.dumps(body()),
                           headers={**AS_JSON, "Origin": "http://games.example"}).status_code == 403


def test_an_allowed_origin_must_be_an_origin():
    assert origin_of("HTTP://[::1]:80") == "http://[::1]" and origin_of("https://a.example:8443") == \
        "https://a.example:8443"
    for wrong in ("games.example", "ftp://games.example", "https://games.example/lobby", "https://u@games.example",
                  "https://games.example:99999", "https://games.example?x=1"):
        with pytest.raises(ValueError, match="--allow-origin takes a site's origin"):
            allowed_origins([wrong])


# -- the setup ----------------------------------------------------------------------------
def test_unknown_setup_keys_are_refused_naming_the_accepted_ones(client):
    answer = refused(client, json.dumps(body(setup={**RACE, "junk": "x" * 60000})), 400, "no key 'junk'")
    assert "course, steeplechase, players, horses_per_player, horses, positions" in answer["detail"]
    assert len(answer["detail"]) < 400, "the refusal does not echo what it refuses"
    refused(client, json.dumps(body(setup={**RACE, "j" * 60000: 1})), 400, "'jjjj")
    refused(client, json.dumps(body(game="readysetbet", setup={"players": 2, "pace": 2})), 400, "no key 'pace'")
    assert stored(client) == []
    check = client.post("/api/games/turfmaster/check", json={"setup": {"players": 2, "colour": "red"}}).json()
    assert check["seats"] is None and "no key 'colour'" in check["error"]["message"]
    # the keys a script may give besides the form's (description.extra_setup_keys) still pass
    make_table(client, setup={**RACE, "first_round": "dice", "first_roller": 1, "seats": 2})
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert games["turfmaster"]["extra_setup_keys"] == ["horses"]


def test_setup_names_are_as_short_as_seat_names(client):
    names = {"players": 2, "horses_per_player": 2, "names": ["A" * 40, "B"]}
    make_table(client, game="turfmaster", setup=names)
    for wrong in (["A" * 41, "B"], "Ana and Bo", ["Ana", 7]):
        answer = refused(client, json.dumps(body(game="turfmaster", setup={**names, "names": wrong})), 400,
                         "'names' must list the seats' names, each text of at most 40 characters")
        assert answer["error"] == "invalid_setup"
    assert len(stored(client)) == 1


def test_names_holding_control_characters_are_refused(client):
    """A NUL or a line break in a name would garble the pages' and the terminal's lines."""
    for name in ("A\u0000B", "Ana\nBo", "\u0007", "Ana\u202eoB", "\u2066Ana\u2069", "\u200fBo"):
        answer = refused(client, json.dumps(body(seats=[{"name": name}, {"name": "B"}])), 400,
                         "seat 1: a name is text of at most 40 characters, without control characters")
        assert answer["error"] == "invalid_setup"
        refused(client, json.dumps(body(game="turfmaster", setup={"players": 2, "names": [name, "B"]})), 400,
                "without control characters such as a line break")
    assert stored(client) == []
    make_table(client, seats=[{"name": "Ana Bo ü 🐎"}, {"name": "B"}])   # any printable text passes
    make_table(client, seats=[{"name": "\u0622\u0646\u0627 \U0001f3f3\ufe0f\u200d\U0001f308"}, {"name": "B"}])   # right-to-left letters, joined emoji


def test_a_refusal_quotes_json_values_as_json():
    """A request is JSON: its true, false and null are quoted so, not as Python's True or None."""
    from hippodrome.core.errors import given
    assert [given(v) for v in (True, False, None, "2", 2.5, [1, "a"], {"k": None})] == [
        "true", "false", "null", "'2'", "2.5", '[1, "a"]', '{"k": null}']
    assert given(list(range(100))).endswith("...") and len(given(list(range(100)))) == 63
    with pytest.raises(InvalidSetup, match="from 2 to 8, not true$"):
        game_class("turfmaster").new({"players": True})


SETUP_READ = re.compile(r"""setup(?:\.get\(|\[)"([a-z_]+)"|"([a-z_]+)" in setup\b""")


def test_every_setup_key_a_game_reads_is_declared_in_its_description():
    """The server refuses keys a description does not list: a key an engine starts to read must be
    declared (a field, or description.extra_setup_keys), else scripts can no longer send it."""
    for package in ("turfmaster", "readysetbet"):
        declared = {key for description in descriptions()
                    if game_class(description.name).__module__.split(".")[1] == package
                    for key in description.setup_keys()}
        for path in (Path(hippodrome.__file__).parent / package).glob("*.py"):
            read = {a or b for a, b in SETUP_READ.findall(path.read_text())}
            assert read <= declared, f"{path.name} reads setup keys no description declares: {sorted(read - declared)}"


def test_every_games_examples_pass_the_setup_check():
    for description in descriptions():
        for example in description.examples:
            assert checked_setup(description, example) == example
            game_class(description.name).new(example)


# -- the table's messages -------------------------------------------------------------------
@pytest.mark.parametrize("raw, code", [
    ('{"v": true, "type": "ping"}', "bad_version"),
    ('{"v": 1.0, "type": "ping"}', "bad_version"),
    ('{"v": "1", "type": "ping"}', "bad_version"),
    ('{"v": 1, "type": "join", "x": NaN}', "bad_message"),
    ('{"v": 1, "type": "join", "token": "\\ud800"}', "bad_message"),
    ('{"v": 1, "type": "join", "x": ' + "[" * 1500 + "]" * 1500 + "}", "bad_message"),
    ('{"v": 1, "type": "ping", "type": "join"}', "bad_message"),
])
def test_messages_that_are_not_strict_json_or_version_1_are_refused_and_the_socket_stays(client, raw, code):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(raw)
        refusal = ws.receive_json()  # the answer to that message, before anything else
        assert refusal["type"] == "error" and refusal["code"] == code and refusal["message"], refusal
        ws.send_json({"v": 1, "type": "ping"})
        assert receive(ws, "pong")["v"] == 1


@pytest.mark.parametrize("raw, code, words", [
    ('{"type": "ping"}', "bad_version", 'this server speaks protocol version 1: a message says so with "v": 1, and this one has no "v"'),
    ('[1, 2]', "bad_message", 'a message must be a JSON object such as {"v": 1, "type": "join"}, not [1, 2]'),
    ('{"v": 1, "type": "act", "state_id": NaN}', "bad_message",
     'the number at /state_id is not finite: JSON has no NaN or Infinity; a message is a JSON object such as'),
    ('{"v": 1, "type": true}', "bad_message", "unknown message type true; types: join, act"),
])
def test_a_refused_message_says_what_was_wrong_first(client, raw, code, words):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(raw)
        refusal = ws.receive_json()
        assert refusal["code"] == code and refusal["message"].startswith(words), refusal


def test_an_action_whose_type_is_not_text_is_refused_and_the_socket_stays(client):
    """Found by the fuzz: a list as an action's type reached the table's free-action check (a set)
    and closed the socket with 1011."""
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 1}, pace=30)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        state = receive(ws)
        for kind in ("act", "preview"):
            ws.send_json({"v": 1, "type": kind, "state_id": state["state_id"],
                          "action": {"type": ["bet"], "token": "5", "space": "win:7:R"}})
            assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"v": 1, "type": "ping"})
        receive(ws, "pong")


# -- quotas -------------------------------------------------------------------------------
def test_tables_per_address_are_limited_in_a_sliding_window(db):
    with TestClient(create_app(db, bot_delay=0, table_quota=Quota(2, 3600))) as client:
        make_table(client)
        refused(client, json.dumps(body(setup={"junk": 1})), 400, "no key")  # a refused table does not count
        make_table(client)
        response = client.post("/api/tables", json=body())
        assert response.status_code == 429 and response.json()["error"] == "too_many"
        assert "at most 2 in 3,600 s" in response.json()["detail"] and "try again in" in response.json()["detail"]
        assert 3590 <= int(response.headers["Retry-After"]) <= 3600
        assert len(stored(client)) == 2 and client.get("/api/tables").status_code == 200


def test_connections_per_address_are_limited(db):
    with TestClient(create_app(db, bot_delay=0, connection_quota=Quota(2, 60))) as client:
        table = make_table(client, start=False)  # its people's connections would count
        for _ in range(2):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                join(ws)
        with pytest.raises(WebSocketDenialResponse) as denied:
            with client.websocket_connect(f"/ws/tables/{table['id']}"):
                pass
        assert denied.value.status_code == 429 and "too many connections" in denied.value.json()["detail"]


def test_a_sliding_window_forgets_events_as_they_leave_it():
    now = [0.0]
    window = SlidingWindow(Quota(2, 10), clock=lambda: now[0])
    assert window.take("a") is None and window.take("b") is None
    now[0] = 4
    assert window.take("a") is None
    assert window.take("a") == 6  # the first of a's two leaves the window at 10
    window.give_back("a")  # the second is forgotten: room for one more
    assert window.take("a") is None
    now[0] = 10
    assert window.take("a") is None and window.take("a") == 4
    for n in range(SlidingWindow.SWEEP_EVERY):
        window.take(f"passer-by {n}")
    now[0] = 100
    for n in range(SlidingWindow.SWEEP_EVERY):
        window.take("a")
    assert set(window.events) == {"a"}, "addresses whose events all expired are forgotten"


# -- tables stored by an older server -------------------------------------------------------
def test_a_table_stored_with_nan_by_an_older_server_is_listed_as_damaged_and_the_lobby_answers(db):
    storage = Storage(db)
    storage.create_table("poisoned01", "turfmaster-race", {**RACE, "x": float("nan")}, "seed", [
        {"name": "Ana", "kind": "person", "level": None, "token_hash": "0"},
        {"name": "Bo", "kind": "person", "level": None, "token_hash": "1"}], "host", {})
    storage.close()
    with TestClient(create_app(db, bot_delay=0)) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["status"]) for t in listed] == [("poisoned01", "damaged")]
        assert client.get("/api/tables/poisoned01").json()["status"] == "damaged"
        make_table(client)
        assert len(client.get("/api/tables").json()["tables"]) == 2
