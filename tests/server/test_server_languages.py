"""The server speaks each person's language: errors on the table's websocket in the seat's language
(the `lang` of `join`, else the `lang` cookie, else Accept-Language), lobby errors in the request's,
and the pages served with one shared head and `<html lang>` set. Errors stay machine-readable:
`code`, the error's class, and `allowed`."""

import re

from fastapi.testclient import TestClient

from hippodrome.i18n import Message, localize_text, message_from_json, translate
from hippodrome.server import create_app
from hippodrome.server.localize import HEAD_INCLUDE, WEB_DIR

from tests.server.conftest import join, make_table, receive

NOT_IN_HAND = "{horse} must play one of its cards: {cards}; {card} is not in its hand"


def illegal_card(ws):
    """T7: TurfMaster's deck has no 5s, so playing one is refused."""
    state = receive(ws, "state", lambda m: m.get("decision") and m["decision"].get("options"))
    ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                  "action": {"type": "card", "horse": "red", "card": "5"}})
    return receive(ws, "error")


def test_an_illegal_move_is_refused_in_the_seats_language(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "token": table["seats"][0]["token"], "lang": "de"})
        assert receive(ws, "welcome")["lang"] == "de"
        refusal = illegal_card(ws)
    assert refusal["code"] == "illegal" and refusal["error"] == "IllegalAction"
    assert refusal["allowed"], "the refusal still lists what would have been allowed"
    message = refusal["message_i18n"]
    assert message["msgid"] == NOT_IN_HAND
    assert refusal["message"].endswith("'5' ist nicht auf seiner Hand"), refusal["message"]


def test_the_language_follows_the_cookie_and_may_change_on_join(db):
    with TestClient(create_app(db, bot_delay=0), cookies={"lang": "es"}) as client:
        table = make_table(client)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            spanish = illegal_card(ws)["message"]
            ws.send_json({"v": 1, "type": "join", "token": table["seats"][0]["token"], "lang": "en-GB"})
            assert receive(ws, "welcome")["lang"] == "en"
            english = illegal_card(ws)["message"]
    assert english.endswith("'5' is not in its hand") and spanish != english


def test_an_unknown_language_in_join_is_refused_and_changes_nothing(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "lang": "tlh"})
        refusal = receive(ws, "error")
    assert refusal["code"] == "bad_message" and "en, es, fr, nl, de" in refusal["message"]


def test_notes_come_translated_and_as_messages(client):
    """T6: a card above the handicap limit carries a note; the seat reads it in its language."""
    table = make_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "token": table["seats"][0]["token"], "lang": "fr"})
        state = receive(ws, "state", lambda m: m.get("decision") and m["decision"].get("options"))
    decision = state["decision"]
    assert len(decision["notes"]) == len(decision["notes_i18n"]) == len(decision["options"])
    for note, message in zip(decision["notes"], decision["notes_i18n"]):
        assert (message is None) == (note == "")


def test_the_deciding_seat_reads_the_notes_in_its_language(client):
    """T8: the notes on claiming the bonus cards come in French to a seat that joined in French."""
    table = make_table(client, game="turfmaster", setup={"players": 2, "horses_per_player": 2})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "token": table["seats"][0]["token"], "lang": "fr"})
        state = receive(ws, "state", lambda m: m.get("decision") and m["decision"].get("options"))
    decision = state["decision"]
    assert decision["kind"] == "claim_bonus" and decision["bot"] is False and decision["horse"]
    messages = [message_from_json(message) for message in decision["notes_i18n"]]
    assert decision["notes"] == [localize_text(message, "fr") for message in messages]
    assert decision["notes"][0] != str(messages[0]), "the note is in French, not in English"


def test_lobby_errors_answer_in_the_requests_language(client):
    body = {"game": "turfmaster-race", "setup": {"course": "oval"}, "seats": "everyone"}
    response = client.post("/api/tables", json=body, headers={"Accept-Language": "nl-BE,nl;q=0.9"})
    assert response.status_code == 400
    data = response.json()
    assert data["error"] == "invalid_setup" and data["kind"] == "InvalidSetup"
    assert data["detail"] == Message(data["message_i18n"]["msgid"], **data["message_i18n"]["params"]).translate("nl")
    client.cookies.set("lang", "de")
    missing = client.get("/api/tables/nope")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert missing.json()["detail"] == translate("de", "no table {id}; open tables are listed at /api/tables",
                                                 id="'nope'")


def test_pages_share_one_head_and_say_their_language(client):
    head = (WEB_DIR / "head.html").read_text().strip()
    for path in ("/", "/play/abc", "/call/abc"):
        page = client.get(path, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}).text
        assert head in page and HEAD_INCLUDE not in page, path
        assert re.search(r'<html lang="de">', page), path
    for name in ("index.html", "play.html", "caller.html"):
        source = (WEB_DIR / name).read_text()
        assert source.count(HEAD_INCLUDE) == 1 and "<meta charset" not in source, name
    client.cookies.set("lang", "fr")
    assert '<html lang="fr">' in client.get("/").text
