"""Replays (issue 35.3): every finished table watched again from its stored log, a step at a time:
spectators see what a spectator saw, a signed-in player its own hand in its own games."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.bot import RandomBot
from hippodrome.core.match import Match
from hippodrome.server import create_app
from hippodrome.server.replays import CHECKPOINT_EVERY, build
from tests.conformance.leaks import secrets_in
from tests.server.conftest import join, make_table, receive
from tests.server.test_accounts_security import as_guest, settings, sign_up
from tests.server.test_ratings import written


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, accounts=settings())) as test_client:
        yield test_client


def bots_race(client, signed_in_seat: bool = False):
    """A TurfMaster race played to its end by bots; with ``signed_in_seat`` seat 0 is a person
    seat the signed-in client holds, handed to a bot by the host's start (T1-T9 played out)."""
    seats = [{"name": "Ana", "kind": "person"} if signed_in_seat else {"name": "R", "kind": "bot", "level": "tactical"},
             {"name": "B", "kind": "bot", "level": "random"}]
    table = make_table(client, seats=seats, start=False)
    with ExitStack() as sockets:
        with as_guest(client):   # the host's own device: no account (else it would sit at the account's seat)
            ws = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
        join(ws)
        if signed_in_seat:
            client.post("/api/me/seats", json={"table": table["id"], "token": table["seats"][0]["token"]})
            ws.send_json({"v": 1, "type": "start", "host": table["host_token"], "level": "random"})
        receive(ws, predicate=lambda m: m["over"], limit=5000)
    written(client)
    return table, client.app.state.hub.rooms[table["id"]]


def replay(client, table_id, step):
    answer = client.get(f"/api/tables/{table_id}/replay?step={step}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_finished_table_replays_step_by_step_to_what_its_spectators_saw_last(client):
    table, room = bots_race(client)
    first = replay(client, table["id"], 0)
    steps = first["steps"]
    assert first["step"] == 0 and first["seat"] is None and steps > 10 and first["races"] == [0]
    assert first["view"] != replay(client, table["id"], 1)["view"]
    last = replay(client, table["id"], steps)
    assert last["view"] == room.table.state.view(None) and last["decision"] is None
    assert [(s["name"], s["kind"]) for s in last["seats"]] == [("R", "bot"), ("B", "bot")]
    middle = replay(client, table["id"], steps // 2)
    assert middle["decision"] is None or "options" not in middle["decision"]   # nobody acts in a replay
    # T7/T8: a spectator is never shown a hand
    record = client.app.state.hub.storage.load(table["id"])
    state = build(record).state_at(steps // 2)
    assert secrets_in(middle["view"], state.secrets(None)) == []


def test_a_step_past_a_checkpoint_is_the_same_reached_from_the_start():
    """The copies kept every CHECKPOINT_EVERY steps change nothing: each step replayed from the
    first state gives the same game."""
    match = Match("turfmaster-race", {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                  {"id": "blue", "owner": 1}]}, seed="s")
    bot = RandomBot(seed=1)
    while (pending := match.pending()) is not None:
        match.act(pending.seat, bot.choose(match.state.observation(pending.seat), pending.options))
    replay = build(match.record())
    assert replay.steps > CHECKPOINT_EVERY
    step = CHECKPOINT_EVERY + 3
    state = replay.state_at(step)
    fresh = build({**match.record(), "log": match.log[:replay.ends[step]]})
    assert fresh.state_at(fresh.steps).to_json() == state.to_json()
    assert replay.state_at(replay.steps).to_json() == match.state.to_json()


def test_a_signed_in_player_sees_its_own_hand_in_its_own_game_and_no_one_else_does(client):
    sign_up(client)
    table, room = bots_race(client, signed_in_seat=True)
    mine = replay(client, table["id"], 1)
    assert mine["seat"] == 0
    record = client.app.state.hub.storage.load(table["id"])
    state = build(record).state_at(1)
    own = state.secrets(1)   # what seat 0 may know that seat 1 must not: its hand (T8)
    assert own and secrets_in(mine["view"], [s for s in state.secrets(1) if s not in state.secrets(0)])
    client.delete("/api/session")
    theirs = replay(client, table["id"], 1)
    assert theirs["seat"] is None and secrets_in(theirs["view"], state.secrets(None)) == []


def test_replays_refuse_in_words(client):
    assert client.get("/api/tables/nope/replay").status_code == 404
    running = make_table(client, start=False)
    refused = client.get(f"/api/tables/{running['id']}/replay")
    assert refused.status_code == 409 and f"/play/{running['id']}" in refused.json()["detail"]
    table, _room = bots_race(client)
    steps = replay(client, table["id"], 0)["steps"]
    past = client.get(f"/api/tables/{table['id']}/replay?step={steps + 1}")
    assert past.status_code == 400 and str(steps) in past.json()["detail"]
    assert client.get(f"/api/tables/{table['id']}/replay?step=-1").status_code == 400
    page = client.get(f"/replay/{table['id']}")
    assert page.status_code == 200 and "/static/replay.js" in page.text


def test_a_deleted_accounts_seat_replays_as_a_former_player(client):
    sign_up(client, name="Zoltan")
    table, _room = bots_race(client, signed_in_seat=True)
    client.request("DELETE", "/api/me", json={"password": "a long horse-race phrase 7"})
    seat = replay(client, table["id"], 0)["seats"][0]
    assert seat["former"] is True and seat["name"] == "" and seat["account"] is False
