"""The websocket protocol (docs/protocol.md): join, act, stale and invalid messages, tokens."""

import json
import re
from pathlib import Path

import pytest

from hippodrome.core.registry import descriptions, load_games
from hippodrome.server.messages import HANDLERS
from tests.server.conftest import join, make_table, receive

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_message_types_the_server_handles_are_those_docs_protocol_lists():
    """One table of handlers (server/messages.py) mirrors docs/protocol.md's "Client to server":
    each type listed there is handled, as a handler or a game's private look-up, and nothing else."""
    text = PROTOCOL.read_text()
    section = text[text.index("### Client to server"):text.index("### Server to client")]
    sent = [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| `{")]   # the table's first column
    listed = {kind for message in sent for kind in re.findall(r'"type": "([a-z_]+)"', message)}
    load_games()
    lookups = {name for description in descriptions() for name in description.private_lookups()}
    assert listed == set(HANDLERS) | lookups
    assert not set(HANDLERS) & lookups, "a look-up named as a message type of the table's own"


def first_state(ws):
    return receive(ws, predicate=lambda m: True)


def test_join_as_seat_and_act_moves_the_state_on(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        welcome = join(ws, table["seats"][0]["token"])
        assert welcome["seat"] == 0 and welcome["protocol"] == 1
        state = first_state(ws)
        assert state["v"] == 1 and state["seat"] == 0
        decision = state["decision"]
        assert decision["seat"] == 0 and decision["kind"] == "card"  # T1: red, inner stall, plays first
        option = decision["options"][0]
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": option})
        after = receive(ws, predicate=lambda m: m["state_id"] > state["state_id"])
        assert after["state_id"] == state["state_id"] + 1
        played = [e for e in after["view"]["history"] if e["event"] == "card"]
        assert played and played[0]["card"] == option["card"]


def test_stale_state_is_refused_and_nothing_changes(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        state = first_state(ws)
        option = state["decision"]["options"][0]
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"] - 1, "action": option})
        refusal = receive(ws, "error")
        assert refusal["code"] == "stale"
        assert "state" in refusal["message"] and refusal["state_id"] == state["state_id"]
        again = receive(ws)
        assert again["state_id"] == state["state_id"]
        assert again["view"]["history"] == state["view"]["history"]


def test_illegal_action_is_refused_with_the_reason(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        state = first_state(ws)
        bad = {"type": "card", "horse": "red", "card": "5"}  # T7: there are no 5s
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": bad})
        refusal = receive(ws, "error")
        assert refusal["code"] == "illegal"
        assert "'5' is not in its hand" in refusal["message"]
        assert refusal["allowed"], "the refusal lists what would have been allowed"


def test_a_seat_cannot_act_for_another_seat(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][1]["token"])  # Bo holds seat 1; red (seat 0) is to play
        state = first_state(ws)
        assert state["decision"]["seat"] == 0 and "options" not in state["decision"]
        action = {"type": "card", "horse": "red", "card": "7", "seat": 0}  # a 'seat' field is ignored
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": action})
        refusal = receive(ws, "error")
        assert refusal["code"] == "illegal" and "player 1's turn" in refusal["message"] and refusal["message_i18n"]["params"]["seat"] == {"seat": 0}


def test_unknown_token_and_spectators_cannot_act(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "token": "not-a-seat-token"})
        assert receive(ws, "error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "act", "state_id": 0, "action": {"type": "card"}})
        assert receive(ws, "error")["code"] == "not_joined"
        join(ws)  # a spectator
        state = first_state(ws)
        assert state["seat"] is None and state["view"]["hands"] == {}
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                      "action": {"type": "card", "horse": "red", "card": "7"}})
        assert receive(ws, "error")["code"] == "forbidden"
        ws.send_json({"v": 1, "type": "pause"})
        assert receive(ws, "error")["code"] == "forbidden"


@pytest.mark.parametrize("raw, code", [
    ("{not json", "bad_message"),
    ("[1, 2, 3]", "bad_message"),
    (json.dumps({"type": "join"}), "bad_version"),
    (json.dumps({"v": 2, "type": "join"}), "bad_version"),
    (json.dumps({"v": 1, "type": "dance"}), "bad_message"),
    (json.dumps({"v": 1, "type": "join", "token": 12}), "bad_message"),
    (json.dumps({"v": 1, "type": "join", "token": "x" * 5000}), "bad_message"),
    (json.dumps({"v": 1, "type": "join", "pad": "x" * 17000}), "too_large"),
])
def test_malformed_and_oversized_messages_are_refused_without_harm(client, raw, code):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(raw)
        refusal = receive(ws, "error")
        assert refusal["code"] == code and refusal["message"]
        # the connection still works, and the table is untouched
        welcome = join(ws, table["seats"][0]["token"])
        assert welcome["seat"] == 0
        state = first_state(ws)
        assert state["state_id"] == 0


def test_binary_frames_and_bad_act_shapes_are_refused(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_bytes(b"\x00\x01")
        assert receive(ws, "error")["code"] == "bad_message"
        join(ws, table["seats"][0]["token"])
        state = first_state(ws)
        for message in ({"v": 1, "type": "act", "action": {"type": "card"}},
                        {"v": 1, "type": "act", "state_id": "0", "action": {}},
                        {"v": 1, "type": "act", "state_id": True, "action": {}},
                        {"v": 1, "type": "act", "state_id": state["state_id"], "action": ["card"]}):
            ws.send_json(message)
            assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"v": 1, "type": "ping"})
        assert receive(ws, "pong")["type"] == "pong"


def test_unknown_table_is_reported(client):
    with client.websocket_connect("/ws/tables/nope") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "not_found"


def test_preview_shows_the_squares_a_card_reaches_without_playing_it(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        state = first_state(ws)
        option = next(o for o in state["decision"]["options"] if o["card"] not in ("J9", "J10", "J11", "J12"))
        ws.send_json({"v": 1, "type": "preview", "action": option})
        preview = receive(ws, "preview")
        value = int(option["card"])
        assert preview["squares"], "a card from the start always moves the horse"
        # T3: from the start square a move of N ends N squares on, in this lane or a neighbour's
        assert all(abs(s["lane"] - 0) <= 1 for s in preview["squares"])
        assert {s["square"] for s in preview["squares"]} <= {value, value + 1}
        ws.send_json({"v": 1, "type": "ping"})
        receive(ws, "pong")
        # nothing was played
        ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": option})
        after = receive(ws, predicate=lambda m: m["state_id"] > state["state_id"])
        decision = after["decision"]
        if decision and decision.get("kind") == "square" and decision["seat"] == 0:
            assert [{"lane": o["lane"], "square": o["square"], "falls": False} for o in decision["options"]] \
                == preview["squares"]
        else:
            move = [e for e in after["view"]["history"] if e["event"] == "move"][-1]
            assert [{**move["to"], "falls": False}] == preview["squares"]
        assert preview["points"] == value and not preview["spent"], "no handicap in the first round"


def test_preview_refuses_what_would_reveal_hidden_cards(client):
    table = make_table(client, game="turfmaster", setup={"players": 2, "horses_per_player": 2},
                       seats=[{"name": "Ana"}, {"name": "Bo"}])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        state = first_state(ws)
        assert state["decision"]["kind"] == "claim_bonus"
        ws.send_json({"v": 1, "type": "preview", "action": state["decision"]["options"][0]})
        assert receive(ws, "error")["code"] == "illegal"
