"""Refusals and notes name their ruling ("rule", for the pages' links to the rules page), and the
private "why" look-up answers only the seat deciding the move (docs/protocol.md)."""

from hippodrome.readysetbet.rules import ANCHORS as RSB_ANCHORS
from hippodrome.turfmaster.rules import ANCHORS as TM_ANCHORS
from tests.server.conftest import join, make_table, receive


def test_R4_a_refused_bet_on_a_taken_space_names_its_ruling_and_its_holder(client):
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 1, "vip": False}, pace=30)
    ana, bo = table["seats"][0], table["seats"][1]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as first, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as second:
        join(first, ana["token"])
        state = receive(first, predicate=lambda m: m["status"] == "playing")
        token = state["view"]["tokens"][0][0]["id"]
        first.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                         "action": {"type": "bet", "token": token, "space": "win:7:R"}})
        receive(first, predicate=lambda m: any(t["seat"] == 0 for s in m["view"]["board"]
                                               if s["id"] == "win:7:R" for t in s["tokens"]))
        join(second, bo["token"])
        state = receive(second, predicate=lambda m: m["status"] == "playing")
        theirs = state["view"]["tokens"][1][0]["id"]
        second.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                          "action": {"type": "bet", "token": theirs, "space": "win:7:R"}})
        refusal = receive(second, "error")
        assert refusal["code"] == "illegal" and refusal["rule"] == "R4" and refusal["rule"] in RSB_ANCHORS
        assert refusal["message_i18n"]["params"]["holder"] == {"seat": 0}, "the holder is a seat the page names"
        assert "player 1" in refusal["message"], "1-based in the text; the page writes the name"
        # R4: with only 2 players the leftmost column is closed; a tap on it is refused with that ruling
        second.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                          "action": {"type": "bet", "token": theirs, "space": "win:7:L"}})
        closed = receive(second, "error")
        assert closed["rule"] == "R4" and "leftmost column" in closed["message"]


def test_T6_notes_carry_their_ruling_beside_the_existing_fields(client):
    setup = {"course": "oval", "first_round": "card",
             "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 0, "square": 20}, {"id": "blue", "lane": 0, "square": 5}],
             "hands": {"red": ["10", "7"], "blue": ["3"]}}
    table = make_table(client, setup=setup)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        decision = receive(ws)["decision"]
        assert decision["kind"] == "card" and decision["context"]["limit"] == 8
        by_card = {o["card"]: i for i, o in enumerate(decision["options"])}
        spent = by_card["10"]
        assert decision["notes_i18n"][spent]["msgid"].startswith("above this horse's limit")
        assert set(decision["notes_i18n"][spent]) == {"msgid", "params"}, "the message's own fields, unchanged"
        assert decision["note_rules"][spent] == "T6" and decision["note_rules"][by_card["7"]] is None
        # a card the horse does not hold: refused with the ruling of the card round
        ws.send_json({"v": 1, "type": "act", "state_id": 0, "action": {"type": "card", "horse": "red", "card": "12"}})
        refusal = receive(ws, "error")
        assert refusal["rule"] in TM_ANCHORS and "allowed" in refusal


def test_the_why_look_up_answers_the_deciding_seat_only(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as other, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
        join(ws, table["seats"][0]["token"])
        state = receive(ws)
        assert state["decision"]["seat"] == 0 and state["decision"]["kind"] == "card"
        option = next(o for o in state["decision"]["options"] if not o["card"].startswith("J"))
        far = int(option["card"]) + 3
        asked = {"action": option, "square": {"lane": 0, "square": far}}
        ws.send_json({"v": 1, "type": "why", **asked})
        answer = receive(ws, "why")
        assert answer["state_id"] == state["state_id"] and answer["square"] == asked["square"]
        assert answer["reachable"] is False and answer["reason"] == "too_far" and answer["rule"] == "T5"
        assert answer["message"]["msgid"].startswith("This square is {needed} points away")
        assert answer["message"]["params"]["needed"] == far
        # the other seat is not moving a horse: refused; a spectator: forbidden
        join(other, table["seats"][1]["token"])
        receive(other)
        other.send_json({"v": 1, "type": "why", **asked})
        assert receive(other, "error")["code"] == "illegal"
        join(watcher)
        receive(watcher)
        watcher.send_json({"v": 1, "type": "why", **asked})
        assert receive(watcher, "error")["code"] == "forbidden"
        # nothing was played
        ws.send_json({"v": 1, "type": "why", "action": option, "square": "far away"})
        assert receive(ws, "error")["code"] == "illegal"
        ws.send_json({"v": 1, "type": "ping"})
        receive(ws, "pong")


def test_a_game_without_the_look_up_says_so(client):
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 1, "vip": False}, pace=30)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        receive(ws)
        ws.send_json({"v": 1, "type": "why", "square": {"lane": 0, "square": 3}})
        error = receive(ws, "error")
        assert error["code"] == "bad_message" and "why" in error["message"]
