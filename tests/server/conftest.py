from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from hippodrome.server import create_app


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def client(db):
    with TestClient(create_app(db, bot_delay=0)) as test_client:
        yield test_client


def make_table(client, game="turfmaster-race", setup=None, seats=None, pace=None, start=True, **options):
    """A table made through the lobby API; ``start``: every person seat says it is ready (over the
    websocket), so the game is under way when this returns (else it waits for its people)."""
    if setup is None:
        setup = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}
    if seats is None:
        seats = [{"name": "Ana", "kind": "person"}, {"name": "Bo", "kind": "person"}]
    body = {"game": game, "setup": setup, "seats": seats}
    if pace is not None:
        body["pace"] = pace
    response = client.post("/api/tables", json={**body, **options})
    assert response.status_code == 200, response.text
    table = response.json()
    if start:
        ready_all(client, table)
    return table


#: seconds between two rolls of a table whose pace the test does not check: the pace's lowest is
#: 0.05 s, which makes a race's rolls last seconds of waiting
QUICK_ROLLS = 0.001


def quick_rolls(client, table):
    """From its next roll on, the table's clock strikes every :data:`QUICK_ROLLS` seconds: for a
    test that waits for races rolled on the clock and checks nothing of their pace."""
    client.app.state.hub.rooms[table["id"]].runner.clock.interval = QUICK_ROLLS


def ready_all(client, table):
    """Each person seat joins and says it is ready, one after the other; returns the last state,
    in which the game has started."""
    people = [seat for seat in table["seats"] if seat["kind"] == "person"]
    state = None
    for seat in people:
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, seat["token"])
            ws.send_json({"v": 1, "type": "ready"})
            state = receive(ws, predicate=lambda m: seat["seat"] in m["lifecycle"]["ready"] or m["status"] != "waiting")
    if not people and table["status"] == "waiting":  # a table without seats waits for its host's start
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws)
            ws.send_json({"v": 1, "type": "start", "host": table["host_token"]})
            state = receive(ws, predicate=lambda m: m["status"] != "waiting")
    if state is not None:
        assert state["status"] != "waiting", state["lifecycle"]
    return state


def join(ws, token=None):
    ws.send_json({"v": 1, "type": "join", **({"token": token} if token else {})})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def receive(ws, kind="state", predicate=lambda m: True, limit=500):
    """The next message of ``kind`` that satisfies ``predicate`` (other messages are skipped)."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind and predicate(message):
            return message
        if kind != "error" and message["type"] == "error":
            raise AssertionError(f"unexpected error: {message}")
    raise AssertionError(f"no {kind} message matched in {limit} messages")


def act(ws, state, action):
    """Send ``action`` as the answer to ``state`` and return the first state after it."""
    ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": action})
    return receive(ws, predicate=lambda message: message["state_id"] > state["state_id"])


@contextmanager
def seated(client, table_id, token):
    """The websocket of table ``table_id`` joined with a seat's ``token``: (ws, the first state)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        join(ws, token)
        yield ws, receive(ws)


@contextmanager
def resumed(db, table_id, token, view):
    """A server started again on the database ``db``, the seat of ``token`` back at table
    ``table_id``: (ws, its first state), checked to show the ``view`` it showed before the restart,
    the table still playing."""
    with TestClient(create_app(db, bot_delay=0)) as client, seated(client, table_id, token) as (ws, state):
        assert state["view"] == view and state["status"] == "playing"
        yield ws, state
