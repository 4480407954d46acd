"""Lobby, hidden information per connection, bots, the clock, and resuming after a restart."""

import pytest
import json
import time

from fastapi.testclient import TestClient

from hippodrome.server import create_app
from hippodrome.server.storage import Storage
from tests.server.conftest import join, make_table, quick_rolls, receive

MEETING = {"players": 3, "horses_per_player": 2, "course": "oval"}


def test_lobby_lists_games_and_tables_and_refuses_bad_setups(client):
    games = client.get("/api/games").json()
    names = {g["name"] for g in games["games"]}
    assert {"turfmaster-race", "turfmaster", "readysetbet"} <= names
    meeting = next(g for g in games["games"] if g["name"] == "turfmaster")
    assert "tactical" in [bot["name"] for bot in meeting["bots"]]
    assert sorted(meeting["data"]["courses"]) == ["oval", "triangle"]
    table = make_table(client)
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    assert "token" not in json.dumps(listed).replace("token_hash", "")  # no token is ever listed
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["name"] == "Ana"
    assert client.get("/api/tables/nope").status_code == 404
    for body, words in (
        ({"game": "chess", "setup": {}, "seats": []}, "unknown game"),
        ({"game": "turfmaster", "setup": MEETING, "seats": [{"name": "a"}, {"name": "b"}]}, "3 seats"),
        ({"game": "turfmaster", "setup": {"players": 9}, "seats": [{"name": "a"}] * 9}, "2 to 8 players"),
        ({"game": "turfmaster", "setup": MEETING,
          "seats": [{"name": "a"}, {"name": "b"}, {"kind": "bot", "level": "genius"}]}, "unknown bot level"),
        ({"game": "readysetbet", "setup": {"players": 2}, "seats": [{"name": "a"}, {"name": "b"}], "pace": 0},
         "pace"),
    ):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400 and words in response.json()["detail"], response.text
    as_json = {"Content-Type": "application/json"}
    assert client.post("/api/tables", content=b"{oops", headers=as_json).status_code == 400
    assert client.post("/api/tables", content=b"x" * 70000, headers=as_json).status_code == 413


def test_each_connection_sees_only_its_own_hands_turfmaster(client):
    """T8/T9 hidden hands: every seat and a spectator connect; each sees its own cards only."""
    table = make_table(client, game="turfmaster", setup=MEETING,
                       seats=[{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}])
    record = Storage(client.app.state.hub.storage.path).load(table["id"])
    decks = {e["action"]["horse"]: e["action"]["deck"] for e in record["log"] if e["action"]["type"] == "shuffle"}
    owners = {}
    for seat in range(3):
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][seat]["token"])
            state = receive(ws)
            view = state["view"]
            mine = {h["id"] for h in view["horses"] if h["owner"] == seat}
            owners[seat] = mine
            assert set(view["hands"]) == mine and all(len(view["hands"][h]) == 10 for h in mine)
            text = json.dumps(state)
            assert record["seed"] not in text
            assert "deck" not in json.dumps(view["horses"]).replace("deck_left", "")
            for horse, deck in decks.items():
                # nobody sees the order of any deck beyond the cards its own horses hold
                assert json.dumps(deck) not in text and json.dumps(deck[10:20]) not in text
            if state["decision"] and state["decision"]["seat"] != seat:
                assert "options" not in state["decision"] and "context" not in state["decision"]
    assert set().union(*owners.values()) == {h for seat_horses in owners.values() for h in seat_horses}
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        state = receive(ws)
        assert state["seat"] is None and state["view"]["hands"] == {}
        assert "options" not in (state["decision"] or {})


def test_each_connection_sees_nothing_of_future_rolls_or_cards_readysetbet(client):
    """R8/R7: no connection learns the seed, the deck orders or anything that predicts rolls."""
    table = make_table(client, game="readysetbet", setup={"players": 2},
                       seats=[{"name": "Ana"}, {"name": "Bo"}], pace=30)
    record = Storage(client.app.state.hub.storage.path).load(table["id"])
    shuffle = record["log"][0]["action"]
    upcoming_props = shuffle["props"][5:]
    for token in (table["seats"][0]["token"], table["seats"][1]["token"], None):
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, token)
            state = receive(ws)
            text = json.dumps(state)
            assert record["seed"] not in text and "seed" not in text
            assert not any(f'"{p}"' in text for p in upcoming_props if p not in state["view"]["props"])
            assert json.dumps(shuffle["vip"]) not in text and json.dumps(shuffle["vip"][:2]) not in text
            assert state["decision"] == {"chance": "roll", "timed": True}


def test_bots_play_a_whole_race(client):
    table = make_table(client, seats=[{"name": "R", "kind": "bot", "level": "tactical"},
                                      {"name": "B", "kind": "bot"}])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        final = receive(ws, predicate=lambda m: m["over"], limit=5000)
        assert sorted(final["view"]["places"] + final["view"]["fallen"]) == ["blue", "red"]


def set_clock(ws, paused):
    """Pause or resume the clock (a seated player may) and return the state that says so."""
    ws.send_json({"v": 1, "type": "pause" if paused else "resume"})
    return receive(ws, predicate=lambda m: m["clock"]["paused"] == paused)


def free_space(state, kind):
    """A space of `kind` that nobody holds yet (the bot bets too, R4: first come, first served)."""
    return next(s["id"] for s in state["view"]["board"]
                if s["id"].startswith(kind + ":") and not s["tokens"] and not s.get("closed"))


def holds(seat, space):
    return lambda m: any(t["seat"] == seat for s in m["view"]["board"] if s["id"] == space for t in s["tokens"])


@pytest.mark.slow
def test_readysetbet_rolls_on_the_clock_and_takes_bets_as_free_actions(client):
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 1},
                       seats=[{"name": "Ana"}, {"name": "Bo", "kind": "bot"}], pace=0.05)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        # paused while this seat bets: the bot, which bets when the clock strikes, cannot take the
        # space between the look and the bet
        state = set_clock(ws, paused=True)
        assert state["free_actions"] == ["bet"]
        space = free_space(state, "win")
        bet = {"type": "bet", "token": "5", "space": space}
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": bet})
        placed = receive(ws, predicate=holds(0, space))
        assert placed["view"]["tokens"][0][4]["used"] is True
        ws.send_json({"v": 1, "type": "act", "state_id": placed["state_id"], "action": bet})
        refusal = receive(ws, "error")
        assert refusal["code"] == "illegal" and "already" in refusal["message"]
        set_clock(ws, paused=False)
        rolled = receive(ws, predicate=lambda m: any(e["event"] == "move" for e in m["view"]["race_log"]))
        # a bet sent against a state the clock has moved on from, within the same race, still counts
        old = placed["state_id"]
        assert rolled["state_id"] > old
        late_space = free_space(set_clock(ws, paused=True), "show")
        ws.send_json({"v": 1, "type": "act", "state_id": old, "action": {"type": "bet", "token": "2", "space": late_space}})
        receive(ws, predicate=holds(0, late_space))
        quick_rolls(client, table)
        set_clock(ws, paused=False)
        final = receive(ws, predicate=lambda m: m["over"], limit=5000)
        settled = final["view"]["history"][0]
        assert any(r for r in settled["results"]), "the race is settled with each bet's result"
        # a bet made in a race that has ended is stale, not placed in what follows
        ws.send_json({"v": 1, "type": "act", "state_id": old, "action": {"type": "bet", "token": "3",
                                                                          "space": "show:8:R"}})
        assert receive(ws, "error")["code"] in ("stale", "illegal")


def test_pause_and_resume_the_clock(client):
    pace = 0.05   # the server's quickest
    table = make_table(client, game="readysetbet", setup={"players": 2},
                       seats=[{"name": "Ana"}, {"name": "Bo"}], pace=pace)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join"})
        receive(ws, "welcome")
        ws.send_json({"v": 1, "type": "pause", "host": table["host_token"]})
        paused = receive(ws, predicate=lambda m: m["clock"]["paused"])
        ws.send_json({"v": 1, "type": "ping"})
        receive(ws, "pong")
        time.sleep(4 * pace)   # four rolls' time: the one wait that proves no roll came
        ws.send_json({"v": 1, "type": "resume", "host": "wrong"})
        assert receive(ws, "error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "resume", "host": table["host_token"]})
        resumed = receive(ws, predicate=lambda m: not m["clock"]["paused"])
        assert resumed["state_id"] == paused["state_id"], "no roll while paused"
        receive(ws, predicate=lambda m: m["state_id"] > paused["state_id"])


def test_a_restarted_server_resumes_every_table_exactly(db):
    with TestClient(create_app(db, bot_delay=0)) as client:
        race = make_table(client)
        meeting = make_table(client, game="turfmaster", setup=MEETING,
                             seats=[{"name": "Ana"}, {"name": "Bo", "kind": "bot"}, {"name": "Cy", "kind": "bot"}])
        with client.websocket_connect(f"/ws/tables/{race['id']}") as ws:
            join(ws, race["seats"][0]["token"])
            state = receive(ws)
            for _ in range(3):  # seat 0 plays while it is its turn
                if not state["decision"] or state["decision"]["seat"] != 0:
                    break
                ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                              "action": state["decision"]["options"][-1]})
                state = receive(ws, predicate=lambda m, s=state["state_id"]: m["state_id"] > s)
        before = {}
        for table in (race, meeting):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                join(ws, table["seats"][0]["token"])
                before[table["id"]] = receive(ws)
    with TestClient(create_app(db, bot_delay=0)) as client:
        assert {t["id"] for t in client.get("/api/tables").json()["tables"]} == {race["id"], meeting["id"]}
        for table in (race, meeting):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                join(ws, table["seats"][0]["token"])
                after = receive(ws)
                assert after["state_id"] == before[table["id"]]["state_id"]
                assert after["view"] == before[table["id"]]["view"]
                assert after["decision"] == before[table["id"]]["decision"]
                if after["decision"] and after["decision"]["seat"] == 0:
                    ws.send_json({"v": 1, "type": "act", "state_id": after["state_id"],
                                  "action": after["decision"]["options"][0]})
                    receive(ws, predicate=lambda m: m["state_id"] > after["state_id"])


def test_bots_play_a_whole_meeting_and_the_final_table_is_sent(client):
    """T9: three races, then the final table, all through the table runner (each next race at once:
    the wait between races is the lifecycle's, test_server_lifecycle.py)."""
    table = make_table(client, game="turfmaster", setup={"players": 2, "horses_per_player": 2},
                       seats=[{"name": "R", "kind": "bot", "level": "tactical"}, {"name": "B", "kind": "bot"}],
                       next_race_seconds=0)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        final = receive(ws, predicate=lambda m: m["over"], limit=100000)
    view = final["view"]
    assert view["phase"] == "over" and len(view["results"]) == 3
    for row in view["standings"]:  # T9: 50, 30, 20, 10 for the first four, added up over the races
        assert row["total"] == sum(race["points"].get(h, 0) for race in view["results"] for h in row["horses"])
    assert view["standings"][0]["total"] >= view["standings"][1]["total"]
    assert final["decision"] is None


def test_live_odds_come_from_the_public_position(client):
    table = make_table(client, game="readysetbet", setup={"players": 2},
                       seats=[{"name": "Ana"}, {"name": "Bo"}], pace=30)
    odds = client.get(f"/api/tables/{table['id']}/odds").json()
    horses = odds["horses"]
    # R1: at the start, 7 (rolled on 6 of 36) is the likeliest winner, 2/3 and 11/12 alike
    assert max(horses, key=lambda h: horses[h]["win"]) in ("6", "7", "8")
    assert abs(sum(h["win"] for h in horses.values()) - 1) < 1e-9  # R2: the race stops at the first horse home
    assert 0 <= odds["spaces"]["win:7:R"] <= 1 and "prop:" in " ".join(odds["spaces"])
    race = make_table(client)
    assert client.get(f"/api/tables/{race['id']}/odds").status_code == 404  # a TurfMaster table has no odds
