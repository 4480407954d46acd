"""A property-based fuzz of the lobby and the table protocol (Hypothesis): whatever a client
sends, the server answers 2xx or 4xx, never 5xx; a table's socket answers every frame and is
never closed with 1006 or 1011 (the test client re-raises any exception of the app); the lobby
keeps answering 200, also after a restart on the same database.

Bounded to a few seconds and derandomized, so the suite is repeatable. For a longer hunt:
``HIPPODROME_FUZZ_EXAMPLES=2000 pytest tests/server/test_server_fuzz.py``.
"""

import json
import os

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings, strategies as st

from hippodrome.core.registry import game_class
from hippodrome.core.registry import descriptions
from hippodrome.server import create_app
from hippodrome.server.quota import Quota
from tests.server.conftest import join, make_table

EXAMPLES = int(os.environ.get("HIPPODROME_FUZZ_EXAMPLES", "0"))
FUZZ = settings(deadline=None, derandomize=True, database=None, max_examples=EXAMPLES or 150, report_multiple_bugs=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])
UNLIMITED = Quota(10 ** 9, 1.0)
GAMES = {description.name: description for description in descriptions()}
SETUP_KEYS = sorted({key for description in GAMES.values() for key in description.setup_keys()})
ERROR_CODES = {"bad_message", "bad_version", "too_large", "not_joined", "forbidden", "stale", "illegal", "not_found"}

# -- values: JSON, and what JSON lacks (NaN, infinities, lone surrogates, huge numbers) ------------------
surrogates = st.text(st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010, exclude_categories=()), max_size=3)
texts = st.text(max_size=12) | surrogates | st.sampled_from(["", "x" * 60, "red", "oval", "win:7:R", "5", "J9"])
numbers = (st.integers(-3, 12) | st.integers() | st.floats()
           | st.sampled_from([float("nan"), float("inf"), -float("inf"), 2 ** 53, 10 ** 30, 1e308, -0.0]))
scalars = st.none() | st.booleans() | numbers | texts
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(texts, inner, max_size=4), max_leaves=12)


def encoded(value) -> str:
    """As a careless client writes it: NaN and Infinity as such, lone surrogates as \\ud800."""
    return json.dumps(value, allow_nan=True)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def mostly(usual, unusual):
    """Three draws in four from ``usual``: near-valid input reaches the game's own checks.
    (Hypothesis favours the simplest draw, 0, so 0 to 2 mean ``usual``.)"""
    return st.integers(0, 3).flatmap(lambda n: unusual if n == 3 else usual)


# -- the lobby ------------------------------------------------------------------------------
LOBBY_GAMES = [description for description in GAMES.values() if description.lobby]
HORSE_IDS = [horse["id"] for horse in GAMES["turfmaster"].data["horses"]]
names = st.text(max_size=41) | surrogates
horses = st.lists(st.fixed_dictionaries({"id": st.sampled_from(HORSE_IDS), "owner": st.integers(0, 3)},
                                        optional={"x": scalars}), min_size=2, max_size=4, unique_by=lambda h: h["id"])
plausible = (st.integers(-1, 9) | st.booleans() | st.floats(0, 10)
             | st.sampled_from(["oval", "triangle", "standard", "app", "house_bets", "rotating_house", "card", "dice",
                                "4=3,7=2"])
             | st.lists(names, min_size=2, max_size=4) | horses)
seat = st.fixed_dictionaries({"name": mostly(names, values)},
                             optional={"kind": mostly(st.sampled_from(["person", "bot"]), values),
                             "level": mostly(st.sampled_from(["random", "tactical", "value"]), values)})


def seat_count(name: str, setup: dict) -> int | None:
    try:
        return GAMES[name].seats(game_class(name).new(dict(setup))).count
    except Exception:  # the game refuses this setup: any count will do
        return None


@st.composite
def near_valid_bodies(draw):
    """A create request from one of a game's example setups with up to two keys changed, and
    usually as many seats as that setup makes."""
    description = draw(st.sampled_from(LOBBY_GAMES))
    setup = dict(draw(st.sampled_from(description.examples)))
    keys = description.setup_keys()   # none for a tutorial: its position is its own
    for _ in range(draw(st.integers(0, 2))):
        setup[draw(mostly(st.sampled_from(keys), texts) if keys else texts)] = draw(mostly(plausible, values))
    count = seat_count(description.name, setup)
    anything = st.lists(seat, max_size=9) | values
    seats = draw(anything if count is None else mostly(st.lists(seat, min_size=count, max_size=count), anything))
    request = {"game": description.name, "setup": setup, "seats": seats}
    if description.table_options():  # a slow clock: the tables made here roll a few times at most
        request[description.table_options()[0].key] = draw(mostly(st.floats(20, 30), values))
    return request


any_bodies = st.fixed_dictionaries({"game": st.sampled_from([*GAMES, "chess"]) | values,
                                    "setup": st.dictionaries(st.sampled_from(SETUP_KEYS) | texts, values) | values},
                                   optional={"seats": values, "pace": values})
documents = mostly(near_valid_bodies().map(encoded),
                   any_bodies.map(encoded) | values.map(encoded) | st.integers(17, 3000).map(deep)
                   | st.text(max_size=40) | st.binary(max_size=40))
content_types = mostly(st.just("application/json"),
                       st.sampled_from(["application/json; charset=utf-8", "text/plain", None,
                                        "application/json; charset=latin-1", "multipart/form-data"]))
origins = mostly(st.sampled_from([None, "http://testserver"]), st.sampled_from(["http://evil.example", "null", "x"]))


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3")
    with TestClient(create_app(db, bot_delay=30, table_quota=UNLIMITED, connection_quota=UNLIMITED)) as client:
        yield client, db


@FUZZ
@given(document=documents, content_type=content_types, origin=origins,
       path=st.sampled_from(["/api/tables", *(f"/api/games/{name}/check" for name in sorted(GAMES))]))
def test_the_lobby_never_answers_5xx(fuzzed, document, content_type, origin, path):
    client, _ = fuzzed
    headers = {name: value for name, value in (("Content-Type", content_type), ("Origin", origin)) if value}
    response = client.post(path, content=document.encode("utf-8", "surrogatepass") if isinstance(document, str)
                           else document, headers=headers)
    assert response.status_code < 500, response.text
    event(f"{path} {response.status_code} {response.json().get('error') or ''}")
    if response.status_code >= 400:
        assert response.json()["detail"] and response.json()["error"]
    elif path == "/api/tables":
        assert client.get(f"/api/tables/{response.json()['id']}").status_code == 200
    assert client.get("/api/tables").status_code == 200


# -- the table's messages ----------------------------------------------------------------------
def sessions(tokens: list[str], others: list[str], options: list[dict]):
    """The frames of one connection: usually a join with a real token first, then messages near
    the real ones (the protocol's types, real options with one field changed or added, state ids
    near the tables'), and anything at all in their place."""
    option = st.sampled_from(options)
    changed = st.tuples(option, st.sampled_from(sorted({k for o in options for k in o}) + ["seat", "x"]),
                        mostly(plausible, values)).map(lambda t: {**t[0], t[1]: t[2]})
    message = st.fixed_dictionaries(
        {"v": mostly(st.just(1), st.sampled_from([True, 1.0, "1", 2, None])),
         "type": mostly(st.sampled_from(["act", "act", "preview", "join", "pause", "resume", "ping"]), texts),
         "state_id": mostly(st.integers(0, 12), values), "action": mostly(option | changed, values)},
        optional={"token": mostly(st.sampled_from(tokens), st.sampled_from(others) | values),
                  "lang": st.sampled_from(["de", "xx"]) | values, "host": mostly(st.sampled_from(tokens), values)})
    frame = mostly(message.map(encoded), values.map(encoded) | st.text(max_size=30) | st.binary(max_size=20)
                   | st.integers(17, 3000).map(lambda n: '{"v": 1, "type": "act", "action": ' + deep(n) + "}"))
    join_first = st.sampled_from(tokens[:-1]).map(lambda token: [encoded({"v": 1, "type": "join", "token": token})])
    return st.tuples(mostly(join_first, st.just([])), st.lists(frame, min_size=1, max_size=5)).map(
        lambda parts: parts[0] + parts[1])


@pytest.fixture(scope="module")
def tables(fuzzed):
    """A single race, a meeting and a Ready Set Bet game, each with its seats' and host's tokens,
    and the options their first states offer (and a bet)."""
    client, _ = fuzzed
    made = [make_table(client),
            make_table(client, game="turfmaster", setup={"players": 2, "horses_per_player": 2}),
            make_table(client, game="readysetbet", setup={"players": 2, "races": 1}, pace=30)]
    options = [{"type": "bet", "token": "5", "space": "win:7:R"}]
    for table in made:
        table["tokens"] = [seat["token"] for seat in table["seats"]] + [table["host_token"]]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            state = ws.receive_json()
            options += (state["decision"] or {}).get("options", [])[:20]
    return made, options


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_a_tables_socket_answers_every_frame_and_stays_open(fuzzed, tables, data):
    client, _ = fuzzed
    made, options = tables
    table = data.draw(st.sampled_from(made))
    others = [token for other in made if other is not table for token in other["tokens"]]
    frames = data.draw(sessions(table["tokens"], others, options))
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        for frame in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
        ws.send_json({"v": 1, "type": "ping"})
        for _ in range(200):  # every answer up to the pong: states, welcomes, previews, errors
            answer = ws.receive_json()
            assert answer["v"] == 1
            event(f"{answer['type']} {answer.get('code', '')}")
            if answer["type"] == "error":
                assert answer["code"] in ERROR_CODES and answer["message"], answer
            if answer["type"] == "pong":
                break
        else:
            raise AssertionError("no pong after 200 messages")
    assert client.get(f"/api/tables/{table['id']}").status_code == 200


def test_the_lobby_answers_after_the_fuzz_and_after_a_restart(fuzzed, tables):
    client, db = fuzzed
    listed = client.get("/api/tables")
    assert listed.status_code == 200 and len(listed.json()["tables"]) >= 3
    for table in listed.json()["tables"]:
        assert client.get(f"/api/tables/{table['id']}").status_code == 200
    with TestClient(create_app(db, bot_delay=30)) as restarted:
        again = restarted.get("/api/tables")
        assert again.status_code == 200 and {t["id"] for t in again.json()["tables"]} == \
            {t["id"] for t in listed.json()["tables"]}
