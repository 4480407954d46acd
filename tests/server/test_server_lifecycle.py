"""The table lifecycle through the server (issue 11, points 1 and 6): status in the lobby and in
every state, ready, the host's start handing absent seats to bots, a table made for its host,
Next race between races, a restart, and bots thinking off the event loop."""

import pytest
import threading

from fastapi.testclient import TestClient

from hippodrome.core.bot import RandomBot
from hippodrome.server import create_app

from tests.server.conftest import join, make_table, quick_rolls, ready_all, receive

RSB_TWO = {"game": "readysetbet", "setup": {"players": 2, "races": 2, "vip": False}, "pace": 0.05}


def status(client, table):
    return client.get(f"/api/tables/{table['id']}").json()["status"]


def test_a_table_of_people_waits_for_each_to_be_ready(client):
    table = make_table(client, start=False, **{k: v for k, v in RSB_TWO.items() if k != "game"}, game="readysetbet")
    assert table["status"] == "waiting" and status(client, table) == "waiting"
    assert client.get("/api/tables").json()["tables"][0]["status"] == "waiting"
    ana, bo = table["seats"][0], table["seats"][1]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, ana["token"])
        state = receive(ws)
        assert state["status"] == "waiting" and state["lifecycle"]["ready"] == []
        assert state["lifecycle"]["present"] == [0] and state["lifecycle"]["absent"] == [1]
        # nothing is played while waiting: a bet is refused, the race has not rolled
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                      "action": {"type": "bet", "token": "t5", "space": "win:7:R"}})
        refusal = receive(ws, "error")
        assert refusal["code"] == "illegal" and "not started" in refusal["message"]
        ws.send_json({"v": 1, "type": "ready"})
        state = receive(ws, predicate=lambda m: m["lifecycle"]["ready"] == [0])
        assert state["status"] == "waiting" and not state["view"]["race_log"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as other:
            join(other, bo["token"])
            other.send_json({"v": 1, "type": "ready"})
            assert receive(other, predicate=lambda m: m["status"] == "playing")["lifecycle"]["ready"] == [0, 1]
    assert status(client, table) == "playing"


def test_a_spectator_cannot_be_ready_and_a_table_of_bots_starts_at_once(client):
    table = make_table(client, start=False)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        ws.send_json({"v": 1, "type": "ready"})
        assert receive(ws, "error")["code"] == "forbidden"
    bots = make_table(client, start=False, seats=[{"name": "R", "kind": "bot"}, {"name": "B", "kind": "bot"}])
    assert bots["status"] == "playing"


def test_the_host_starts_without_an_absent_seat_and_a_bot_takes_it(client, db):
    table = make_table(client, start=False, game="readysetbet", setup={"players": 3, "races": 1}, pace=30,
                       seats=[{"name": name, "kind": "person"} for name in ("Ana", "Bo", "Cy")])
    assert table["play_host_link"] == f"/play/{table['id']}#seat={table['seats'][0]['token']}&host={table['host_token']}"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        ws.send_json({"v": 1, "type": "ready"})
        ws.send_json({"v": 1, "type": "start"})
        assert receive(ws, "error")["code"] == "forbidden"  # a seat is not the host
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"], "level": "grandmaster"})
        assert "random" in receive(ws, "error")["message"]  # the levels are named
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"], "level": "random"})
        state = receive(ws, predicate=lambda m: m["status"] == "playing")
        assert [s["kind"] for s in state["seats"]] == ["person", "bot", "bot"]
        assert state["seats"][1]["level"] == "random" and state["lifecycle"]["handed"] == [1, 2]
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"]})
        assert "already started" in receive(ws, "error")["message"]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:  # the seat's old link plays no more
        join(ws, table["seats"][1]["token"])
        state = receive(ws)
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                      "action": {"type": "bet", "token": "t5", "space": "win:7:R"}})
        assert "bot plays this seat" in receive(ws, "error")["message"]
    client.__exit__(None, None, None)
    with TestClient(create_app(db, bot_delay=0)) as again:  # the hand-over is stored
        summary = again.get(f"/api/tables/{table['id']}").json()
        assert summary["status"] == "playing" and [s["kind"] for s in summary["seats"]] == ["person", "bot", "bot"]


def test_the_host_s_start_keeps_the_people_who_are_here_and_hands_over_the_empty_seats(client):
    """The button says "Start now, bots take empty seats": the host who did not press Ready, and a
    friend connected but not ready, keep their seats; the seat nobody opened goes to a bot."""
    table = make_table(client, start=False, game="readysetbet", setup={"players": 3, "races": 1}, pace=30,
                       seats=[{"name": name, "kind": "person"} for name in ("Ana", "Bo", "Cy")])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ana, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as bo:
        join(ana, table["seats"][0]["token"])
        join(bo, table["seats"][1]["token"])
        receive(ana, predicate=lambda m: m["lifecycle"]["present"] == [0, 1])
        ana.send_json({"v": 1, "type": "start", "host": table["host_token"], "level": "random"})
        state = receive(ana, predicate=lambda m: m["status"] == "playing")
        assert [s["kind"] for s in state["seats"]] == ["person", "person", "bot"]
        assert state["lifecycle"]["handed"] == [2] and state["lifecycle"]["persons"] == [0, 1]
        assert receive(bo, predicate=lambda m: m["status"] == "playing")["seats"][1]["kind"] == "person"


def test_a_table_made_for_its_host_waits_for_the_host_start(client):
    seats = [{"name": "R", "kind": "bot"}, {"name": "B", "kind": "bot"}]
    table = make_table(client, start=False, game="readysetbet", setup={"players": 2, "races": 1}, seats=seats,
                       pace=30, wait_for_host=True)
    assert table["status"] == "waiting" and table["play_host_link"] == f"/play/{table['id']}#host={table['host_token']}"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"]})
        assert receive(ws, predicate=lambda m: m["status"] == "playing")["lifecycle"]["handed"] == []
    response = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2}, "seats": seats,
                                                "wait_for_host": "yes"})
    assert response.status_code == 400 and "wait_for_host" in response.json()["detail"]


@pytest.mark.slow
def test_between_races_the_next_race_waits_for_everyone_present_and_survives_a_restart(client, db):
    table = make_table(client, game="readysetbet", setup=RSB_TWO["setup"], pace=0.05, next_race_seconds=600)
    ana, bo = table["seats"][0], table["seats"][1]
    # Bo's connection closes last: with Ana gone and Bo not ready, the next race still waits
    with client.websocket_connect(f"/ws/tables/{table['id']}") as other, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(other, bo["token"])
        join(ws, ana["token"])
        ws.send_json({"v": 1, "type": "next_race"})
        assert "no race is waiting" in receive(ws, "error")["message"]
        quick_rolls(client, table)
        state = receive(ws, predicate=lambda m: m["status"] == "between_races", limit=5000)
        assert state["view"]["race_no"] == 2 and state["lifecycle"]["countdown"] > 590
        ws.send_json({"v": 1, "type": "next_race"})
        state = receive(ws, predicate=lambda m: m["lifecycle"]["next"] == [0])
        assert state["status"] == "between_races" and not state["view"]["race_log"]
    client.__exit__(None, None, None)
    with TestClient(create_app(db, bot_delay=0)) as again:
        assert again.get(f"/api/tables/{table['id']}").json()["status"] == "between_races"
        with again.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, bo["token"])
            state = receive(ws)
            assert state["lifecycle"]["next"] == [0] and state["status"] == "between_races"
            ws.send_json({"v": 1, "type": "next_race"})  # the one person present: the gate opens
            receive(ws, predicate=lambda m: m["status"] == "playing")
            receive(ws, predicate=lambda m: any(e["event"] == "move" for e in m["view"]["race_log"]))


@pytest.mark.slow
def test_the_host_calls_the_next_race(client):
    table = make_table(client, game="readysetbet", setup=RSB_TWO["setup"], pace=0.05)
    quick_rolls(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        receive(ws, predicate=lambda m: m["status"] == "between_races", limit=5000)
        ws.send_json({"v": 1, "type": "next_race"})
        assert receive(ws, "error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "next_race", "host": table["host_token"]})
        receive(ws, predicate=lambda m: m["status"] == "playing")


def test_a_table_stored_before_lifecycles_resumes_playing(db):
    with TestClient(create_app(db, bot_delay=0)) as client:
        table = make_table(client, start=False)
    from hippodrome.server.storage import Storage
    storage = Storage(db)
    storage.conn.execute("UPDATE tables SET lifecycle = NULL")
    storage.close()
    with TestClient(create_app(db, bot_delay=0)) as client:
        assert status(client, table) == "playing"


def test_a_bot_thinking_blocks_no_ping(client, monkeypatch):
    thinking, release, returned = threading.Event(), threading.Event(), threading.Event()
    choose = RandomBot.choose

    def slow_choose(self, observation, options):
        thinking.set()
        release.wait(30)
        returned.set()
        return choose(self, observation, options)

    monkeypatch.setattr(RandomBot, "choose", slow_choose)
    table = make_table(client, seats=[{"name": "R", "kind": "bot", "level": "random"},
                                      {"name": "B", "kind": "bot", "level": "random"}])
    assert thinking.wait(30)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        assert not returned.is_set(), "the pong came while the bot was still thinking"
        release.set()
    ready_all(client, table)  # a table of bots: nobody to be ready, nothing to do


@pytest.mark.slow
def test_a_table_for_the_box_made_for_its_host_waits_for_start_and_for_next_race(client):
    """The box's races (no seats) with ``wait_for_host``: the race caller's host link starts them
    and calls each next race; without the flag the box runs straight through (test_server_box)."""
    table = make_table(client, start=False, game="readysetbet-box", setup={"races": 2}, seats=[], pace=0.05,
                       wait_for_host=True)
    assert table["status"] == "waiting" and "play_host_link" not in table
    quick_rolls(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        assert receive(ws)["status"] == "waiting"
        ws.send_json({"v": 1, "type": "start", "host": table["host_token"]})
        receive(ws, predicate=lambda m: m["status"] == "playing")
        state = receive(ws, predicate=lambda m: m["status"] == "between_races", limit=5000)
        assert state["lifecycle"]["countdown"] > 0 and len(state["view"]["history"]) == 1
        ws.send_json({"v": 1, "type": "next_race", "host": table["host_token"]})
        receive(ws, predicate=lambda m: m["status"] == "playing")
        assert receive(ws, predicate=lambda m: m["over"], limit=5000)["status"] == "over"


# -- the host hands the seat of a person who left to a bot while the game runs ----------------------
def hand(ws, table, seat, **extra):
    ws.send_json({"v": 1, "type": "hand", "host": table["host_token"], "seat": seat, **extra})


def play_until_seat(ws, state, seat):
    """Take the joined seat's decisions (the first option) until ``seat`` is to decide; that state."""
    while state["decision"]["seat"] != seat:
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": state["decision"]["options"][0]})
        state = receive(ws, predicate=lambda m, s=state["state_id"]: m["state_id"] > s)
    return state


def test_the_host_hands_an_absent_seat_mid_game_its_bot_plays_on_and_that_survives_a_restart(client, db):
    table = make_table(client)   # Ana and Bo said ready, then closed their tabs
    ana, bo = table["seats"][0], table["seats"][1]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, ana["token"])
        state = play_until_seat(ws, receive(ws), 1)   # the table waits for Bo, who is gone
        assert state["status"] == "playing" and state["lifecycle"]["absent"] == [1]
        hand(ws, table, 1, level="random")
        state = receive(ws, predicate=lambda m: m["lifecycle"]["handed"] == [1])
        assert [s["kind"] for s in state["seats"]] == ["person", "bot"] and state["seats"][1]["level"] == "random"
        assert state["lifecycle"]["persons"] == [0] and state["lifecycle"]["absent"] == []
        waited_at = state["state_id"]
        # the bot plays Bo's turn: the game moves on, back to Ana
        state = receive(ws, predicate=lambda m: m["state_id"] > waited_at and (m["decision"] or {}).get("seat") == 0)
        assert state["decision"]["bot"] is False
    client.__exit__(None, None, None)
    with TestClient(create_app(db, bot_delay=0)) as again:   # the hand-over is stored
        summary = again.get(f"/api/tables/{table['id']}").json()
        assert [s["kind"] for s in summary["seats"]] == ["person", "bot"] and summary["status"] == "playing"
        with again.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, bo["token"])   # Bo's old link watches, and cannot act
            state = receive(ws)
            assert state["lifecycle"]["handed"] == [1] and state["lifecycle"]["persons"] == [0]
            ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                          "action": {"type": "card", "horse": "blue", "card": "6"}})
            assert "bot plays this seat" in receive(ws, "error")["message"]
        with again.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, ana["token"])   # and the bot still plays Bo's turns after the restart
            state = play_until_seat(ws, receive(ws), 1)
            receive(ws, predicate=lambda m, s=state["state_id"]: m["state_id"] > s and (m["decision"] or {}).get("seat") == 0)


def test_a_hand_is_refused_in_words_and_changes_nothing(client):
    table = make_table(client, seats=[{"name": "Ana", "kind": "person"}, {"name": "Bo", "kind": "person"},
                                      {"name": "Cy", "kind": "bot", "level": "random"}],
                       setup={"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1},
                                                           {"id": "green", "owner": 2}]})
    ana, bo = table["seats"][0], table["seats"][1]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as other:
        join(ws, ana["token"])
        join(other, bo["token"])
        before = receive(ws, predicate=lambda m: m["lifecycle"]["present"] == [0, 1])
        refusals = [
            ({"type": "hand", "seat": 1}, "forbidden", "only the table's host"),              # no host token
            ({"type": "hand", "seat": 1, "host": "not-the-host"}, "forbidden", "only the table's host"),
            ({"type": "hand", "host": table["host_token"], "seat": 3}, "bad_message", "from 0 to 2"),
            ({"type": "hand", "host": table["host_token"], "seat": "1"}, "bad_message", "from 0 to 2"),
            ({"type": "hand", "host": table["host_token"], "seat": True}, "bad_message", "from 0 to 2"),
            ({"type": "hand", "host": table["host_token"]}, "bad_message", "from 0 to 2"),
            ({"type": "hand", "host": table["host_token"], "seat": 1, "level": "grandmaster"}, "bad_message",
             "random, tactical, search"),
            ({"type": "hand", "host": table["host_token"], "seat": 0}, "illegal", "your own seat"),
            ({"type": "hand", "host": table["host_token"], "seat": 2}, "illegal", "is played by a bot already"),
            ({"type": "hand", "host": table["host_token"], "seat": 1}, "illegal",
             "player 2 is connected: only a seat nobody is connected to can be handed to a bot"),
        ]
        for message, code, words in refusals:
            ws.send_json({"v": 1, **message})
            error = receive(ws, "error")
            assert error["code"] == code and words in error["message"], (message, error)
            assert error["message_i18n"]["msgid"], error
        ws.send_json({"v": 1, "type": "hand", "host": table["host_token"], "seat": 1})
        assert receive(ws, "error")["message_i18n"]["params"] == {"seat": {"seat": 1}}   # a page names the player
        after = receive(ws)   # nothing changed
        assert after["lifecycle"] == before["lifecycle"] and after["seats"] == before["seats"]
    # a waiting table: that is what "start" is for; an over table: nothing left to hand
    waiting = make_table(client, start=False)
    with client.websocket_connect(f"/ws/tables/{waiting['id']}") as ws:
        join(ws)
        hand(ws, waiting, 1)
        error = receive(ws, "error")
        assert error["code"] == "illegal" and '"type": "start"' in error["message"]
        assert status(client, waiting) == "waiting"
    bots = make_table(client, seats=[{"name": "R", "kind": "bot", "level": "random"},
                                     {"name": "B", "kind": "bot", "level": "random"}])
    with client.websocket_connect(f"/ws/tables/{bots['id']}") as ws:
        join(ws)
        receive(ws, predicate=lambda m: m["over"], limit=5000)
        hand(ws, bots, 1)
        assert "the game is over" in receive(ws, "error")["message"]


@pytest.mark.slow
def test_a_seat_handed_between_races_makes_its_vip_choice_at_once(client):
    """Ready Set Bet between races (R8): Bo left before choosing his VIP card; the host hands his seat,
    its bot chooses at once, Ana chooses hers, and the next race still waits for the gate."""
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 2, "vip": True}, pace=0.05,
                       next_race_seconds=600)
    quick_rolls(client, table)
    ana = table["seats"][0]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, ana["token"])
        state = receive(ws, predicate=lambda m: m["status"] == "between_races" and m["decision"]
                        and m["decision"].get("kind") == "vip", limit=5000)
        state = play_until_seat(ws, state, 1)
        assert state["lifecycle"]["absent"] == [1] and state["status"] == "between_races"
        hand(ws, table, 1)
        state = receive(ws, predicate=lambda m: m["decision"] and m["decision"].get("seat") != 1)
        assert state["status"] == "between_races" and len(state["view"]["vip_cards"][1]) == 1
        assert state["seats"][1]["level"] == "board"   # the default: the game's strongest bot, its last level
        if state["decision"].get("seat") == 0:
            ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": state["decision"]["options"][0]})
            state = receive(ws, predicate=lambda m, s=state["state_id"]: m["state_id"] > s)
        assert state["status"] == "between_races" and not state["view"]["race_log"]
