"""A table for the box (issue 11, point 2): the program rolls and calls every race while people
bet on the physical board. Through the server it has no seats, the host link opens the race
caller, and the table plays all its races with no decision for anybody (nothing can stall it)."""

import pytest
from tests.server.conftest import join, make_table, quick_rolls, receive


def box_table(client, races=2, pace=0.05):
    return make_table(client, game="readysetbet-box", setup={"races": races}, seats=[], pace=pace)


def test_the_lobby_offers_the_box_and_its_answer_links_the_race_caller(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    box = games["readysetbet-box"]
    assert box["lobby"] and box["caller"] and box["seats"] == {"min": 0, "max": 0}
    assert box["summary"]["en"] == "For the box: the program calls the races, you bet on your own board"
    assert all(box["summary"][lang] and box["title"][lang] for lang in box["summary"])
    assert [f["key"] for f in box["setup"]] == ["races"] and box["setup"][0]["default"] == 4
    assert [f["key"] for f in box["table_options"]] == ["pace"]
    answer = client.post("/api/games/readysetbet-box/check", json={"setup": {"races": 3}}).json()
    assert answer == {"fields": {}, "seats": [], "error": None}
    table = box_table(client)
    assert table["seats"] == []
    assert table["host_link"] == f"/call/{table['id']}#host={table['host_token']}"
    assert table["spectator_link"] == f"/call/{table['id']}"  # nothing to play: watch the caller
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["watch"] == f"/call/{table['id']}" and summary["seats"] == []
    assert client.get(table["spectator_link"]).status_code == 200


def test_a_box_table_waits_for_its_host_before_the_first_roll(client):
    """Issue 11.1: nothing rolls before anybody opened the caller; the host link's Start begins."""
    table = make_table(client, game="readysetbet-box", setup={"races": 1}, seats=[], pace=0.05, start=False)
    assert table["status"] == "waiting"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        first = receive(ws)
        assert first["status"] == "waiting" and first["view"]["race_log"] == []
        ws.send_json({"v": 1, "type": "start"})
        assert receive(ws, kind="error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"]})
        assert receive(ws, predicate=lambda m: m["status"] == "playing")


def test_a_box_table_refuses_seats_saying_it_has_none(client):
    response = client.post("/api/tables", json={"game": "readysetbet-box", "setup": {},
                                                "seats": [{"name": "Ana", "kind": "person"}]})
    assert response.status_code == 400
    assert "readysetbet-box has no seats" in response.json()["detail"]
    no_list = client.post("/api/tables", json={"game": "readysetbet-box", "setup": {}, "pace": 0.05})
    assert no_list.status_code == 200 and no_list.json()["seats"] == []


@pytest.mark.slow
def test_the_table_plays_every_race_with_no_decision_for_anybody(client):
    """The stall of issue 11: after race 1 the caller waited for seat 0's VIP choice. A box table
    runs all its races on the clock and its host's Next race; no state ever asks a decision."""
    table = box_table(client, races=2)
    quick_rolls(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        seen = []

        def record(message):
            seen.append(message)
            if message["status"] == "between_races" and not message["lifecycle"]["next"]:
                # people settle their bets on the board; the host starts the next race
                ws.send_json({"v": 1, "type": "next_race", "host": table["host_token"]})
            return message["over"]

        final = receive(ws, predicate=record, limit=5000)
    assert all(m["decision"] is None or set(m["decision"]) == {"chance", "timed"} for m in seen)
    assert all(m["decision"] is None or m["decision"]["chance"] == "roll" for m in seen)
    view = final["view"]
    assert [race["race"] for race in view["history"]] == [1, 2] and view["phase"] == "over"
    assert {m["view"]["race_no"] for m in seen} >= {2}
    moves = [e for e in view["race_log"] if e["event"] == "move"]
    assert moves and all(len(m["dice"]) == 2 for m in moves)  # the page draws both dice
    assert view["caller"]["race"] == 2 and view["caller"]["lines"][0]["msgid"] == "They're off!"


def test_only_the_host_link_pauses_a_box_table(client):
    table = box_table(client, races=1, pace=0.5)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        ws.send_json({"v": 1, "type": "pause"})
        assert receive(ws, kind="error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "pause", "host": table["host_token"]})
        paused = receive(ws, predicate=lambda m: m["clock"]["paused"])
        ws.send_json({"v": 1, "type": "resume", "host": table["host_token"]})
        resumed = receive(ws, predicate=lambda m: not m["clock"]["paused"])
        assert resumed["state_id"] >= paused["state_id"]
