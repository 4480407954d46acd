"""Play again, everyone (issue 35.5): "Play again" makes the next table and takes every person
still at the finished table to its own new seat; each hears only of its own seat."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from hippodrome.server import create_app
from tests.server.conftest import join, make_table, quick_rolls, receive
from tests.server.test_accounts_security import as_guest, settings, sign_up
from tests.server.test_ratings import written

SEATS = [{"name": "Ana", "kind": "person"}, {"name": "Bo", "kind": "person"},
         {"name": "Rob", "kind": "bot", "level": "random"}]


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, accounts=settings())) as test_client:
        yield test_client


@pytest.mark.slow
def test_play_again_takes_every_person_still_at_the_table_to_its_own_new_seat(client):
    sign_up(client)
    table = make_table(client, game="readysetbet", setup={"players": 3, "races": 1}, pace=0.05, seats=SEATS)
    quick_rolls(client, table)
    ana, bo = table["seats"][0]["token"], table["seats"][1]["token"]
    client.post("/api/me/seats", json={"table": table["id"], "token": ana})
    with ExitStack() as sockets:
        with as_guest(client):   # Bo's device and a spectator's: no account
            bo_ws = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
            watcher = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
        join(bo_ws, bo)
        join(watcher)
        receive(bo_ws, predicate=lambda m: m["over"], limit=5000)
        receive(watcher, predicate=lambda m: m["over"], limit=5000)
        early = client.post(f"/api/tables/{table['id']}/again", json={"token": "not a seat"})
        assert early.status_code == 403 and "seated" in early.json()["detail"]
        answer = client.post(f"/api/tables/{table['id']}/again", json={"token": ana})
        assert answer.status_code == 200, answer.text
        new_id, ana_link = answer.json()["table"], answer.json()["link"]
        assert new_id != table["id"] and ana_link.startswith(f"/play/{new_id}#seat=")
        bo_state = receive(bo_ws, predicate=lambda m: "again" in m)
        seen = receive(watcher, predicate=lambda m: "again" in m)
    bo_link = bo_state["again"]["link"]
    assert bo_state["again"]["table"] == new_id and bo_link.startswith(f"/play/{new_id}#seat=") and bo_link != ana_link
    assert ana_link.split("#seat=")[1] not in json.dumps(bo_state)            # Bo hears only of his own seat
    assert seen["again"] == {"table": new_id, "watch": f"/play/{new_id}"}     # a spectator, of no seat
    new, old = client.get(f"/api/tables/{new_id}").json(), client.get(f"/api/tables/{table['id']}").json()
    assert (new["game"], new["setup"], new["options"]) == (old["game"], old["setup"], old["options"])
    assert [(s["name"], s["kind"], s["level"]) for s in new["seats"]] == \
        [(s["name"], s["kind"], s["level"]) for s in old["seats"]]
    assert new["status"] == "waiting"   # the new table waits for its people, as any new table
    again = client.post(f"/api/tables/{table['id']}/again", json={"token": bo})
    assert again.json() == {"table": new_id, "link": bo_link}   # asked again: the same table
    mine = client.post(f"/api/tables/{table['id']}/again", json={})   # Ana, by her account, from any device
    assert mine.json() == {"table": new_id, "link": ana_link}
    written(client)
    assert [g["table"] for g in client.get("/api/players/Ana").json()["games"]][0] == new_id   # Ana's seat follows


def test_play_again_waits_for_the_end_of_the_game(client):
    table = make_table(client, start=False)
    refused = client.post(f"/api/tables/{table['id']}/again", json={"token": table["seats"][0]["token"]})
    assert refused.status_code == 409 and "not over" in refused.json()["detail"]
    assert client.post("/api/tables/nope/again", json={"token": "x"}).status_code == 404
