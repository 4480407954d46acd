"""Games describe themselves: GET /api/games, the lobby's setup check, and a third game that the
server plays without knowing it (issue "One shape for every game")."""

import gzip
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.middleware.gzip import GZipResponder

from hippodrome.core.bot import RandomBot
from hippodrome.core.description import INTEGER, BotLevel, GameDescription, Lookup, SeatPlan, SetupField
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import _GAMES, description_of, descriptions, register_game
from hippodrome.i18n import LANGUAGES, Message, plural_rule, web_catalog
from hippodrome.server import create_app
from hippodrome.server.views import PROTOCOL_VERSION
from tests.server.conftest import join, make_table, receive


def test_every_game_serves_its_description_in_every_language(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert {"turfmaster", "turfmaster-race", "readysetbet", "readysetbet-race"} <= set(games)
    for game in games.values():
        assert set(game["title"]) == set(LANGUAGES) and all(game["title"].values())
        for entry in game["setup"] + game["table_options"]:
            assert set(entry["label"]) == set(LANGUAGES)
        assert client.get(f"/api/games/{game['name']}").json() == game
    meeting = games["turfmaster"]
    assert meeting["seats"] == {"min": 2, "max": 8}  # T7: 2 to 8 players
    players = next(e for e in meeting["setup"] if e["key"] == "players")
    assert (players["minimum"], players["maximum"], players["default"]) == (2, 8, 2)
    assert [b["name"] for b in meeting["bots"]] == ["random", "tactical", "search"]
    assert games["turfmaster"]["title"]["es"] != games["turfmaster"]["title"]["en"]
    # the public data the pages draw with: courses with their squares, the eight horses, T6's limits
    data = meeting["data"]
    assert data["handicaps"] == {"1": 8, "2": 9, "3": 10}
    assert [h["id"] for h in data["horses"]][:2] == ["red", "blue"] and data["horses"][0]["name"]["de"] == "Rot"
    oval = data["courses"]["oval"]
    assert oval["finish"] == [113 + 2 * k for k in range(8)] and oval["steeplechase"]  # T12
    assert not data["courses"]["triangle"]["steeplechase"] and len(oval["fences"]) == 6  # T11
    rsb = games["readysetbet"]["data"]
    assert rsb["race"]["finish"] == 15 and rsb["race"]["red_line"] == 10  # R2
    assert rsb["board"]["columns"][-1] == "win:R" and len(rsb["board"]["rows"]) == 9  # R5
    assert [o["key"] for o in games["readysetbet"]["table_options"]] == [
        "pace", "bot_free_delay_min", "bot_free_delay_max", "next_race_seconds"]
    # every game of several races offers the wait before the next race; a single race does not
    assert [o["key"] for o in games["turfmaster"]["table_options"]] == ["next_race_seconds"]
    assert games["turfmaster-race"]["table_options"] == []
    assert not games["readysetbet-race"]["lobby"] and games["readysetbet"]["caller"]
    assert client.get("/api/games/chess").status_code == 404


@pytest.mark.parametrize("accepted", ["gzip, deflate, br", "identity", ""])
def test_the_answers_that_never_change_are_answered_gzipped_as_written_once_or_as_text(client, monkeypatch, accepted):
    """GET /api/games and /api/games/NAME (written at the server's start), a game's rules diagrams
    and the pages' catalogs (written at their first request): a client that accepts gzip gets the
    text gzipped once (the middleware compresses nothing again), any other the text; both say
    that the answer varies with Accept-Encoding. Asked twice, the same."""
    def compressed_again(*_args):
        raise AssertionError("the GZip middleware compressed an answer again")

    monkeypatch.setattr(GZipResponder, "_compress_body", compressed_again)
    described = {description.name: description.to_json() for description in descriptions()}
    expected = {"/api/games": {"protocol": PROTOCOL_VERSION, "games": list(described.values())},
                **{f"/api/games/{name}": entry for name, entry in described.items()},
                "/api/games/turfmaster/rules": json.loads(json.dumps(description_of("turfmaster").rules.data())),
                **{f"/i18n/{lang}.json": {"lang": lang, "plural": plural_rule(lang), "messages": web_catalog(lang)}
                   for lang in ("es", "de")}}
    for path, data in [*expected.items(), *expected.items()]:
        with client.stream("GET", path, headers={"Accept-Encoding": accepted}) as answer:
            sent = b"".join(answer.iter_raw())
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        assert answer.headers["vary"] == "Accept-Encoding" and answer.headers["content-length"] == str(len(sent))
        if "gzip" in accepted:
            assert answer.headers["content-encoding"] == "gzip" and len(sent) < len(json.dumps(data)) / 3
            sent = gzip.decompress(sent)
        else:
            assert "content-encoding" not in answer.headers
        assert json.loads(sent) == data, path


def check(client, game, setup):
    response = client.post(f"/api/games/{game}/check", json={"setup": setup})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_race_position_that_is_not_text_is_refused_in_words(client):
    """The Ready Set Bet race's "positions" is text ("4=3,7=2"); a number, list or object is
    refused with the form it takes (it was a 500)."""
    for value in (5, True, 1.5, [0, 1], {"x": 1}):
        error = check(client, "readysetbet-race", {"positions": value})["error"]
        assert error and "4=3,7=2" in error["message"], (value, error)
    assert check(client, "readysetbet-race", {"positions": "4=3,7=2"})["error"] is None


def test_the_setup_check_gives_seats_limits_and_refusals(client):
    # T7: horses per player depend on the number of players
    assert check(client, "turfmaster", {"players": 2})["fields"]["horses_per_player"]["choices"] == [2, 3, 4]
    assert check(client, "turfmaster", {"players": 3})["fields"]["horses_per_player"]["choices"] == [2]
    assert check(client, "turfmaster", {"players": 4})["fields"]["horses_per_player"]["choices"] == [1, 2]
    answer = check(client, "turfmaster", {"players": 3, "horses_per_player": 2})
    assert len(answer["seats"]) == 3 and answer["error"] is None
    # T11/T12: a steeplechase is run on the oval only
    assert check(client, "turfmaster", {"players": 2, "course": "triangle"})["fields"]["steeplechase"]["hidden"]
    assert "steeplechase" not in check(client, "turfmaster", {"players": 2, "course": "oval"})["fields"]
    # ... and with the steeplechase ticked, the form offers only the courses with fences
    assert check(client, "turfmaster", {"players": 2, "steeplechase": True})["fields"]["course"]["choices"] == ["oval"]
    assert "course" not in check(client, "turfmaster-race", {"players": 2, "steeplechase": False})["fields"]
    refused = check(client, "turfmaster", {"players": 3, "horses_per_player": 3})
    assert refused["seats"] is None and "at least 4 horses race" in refused["error"]["message"]
    # R9: House bets adds the House's own seat, named as such
    seats = check(client, "readysetbet", {"players": 3, "variant": "house_bets"})["seats"]
    assert len(seats) == 4 and seats[3]["role"]["en"] == "House" and seats[0]["role"] is None
    assert len(check(client, "readysetbet", {"players": 3, "variant": "rotating_house"})["seats"]) == 3
    # a single race from the lobby's shorthand: players and horses per player, T7's as in a meeting
    assert len(check(client, "turfmaster-race", {"players": 3, "horses_per_player": 2})["seats"]) == 3
    assert check(client, "turfmaster-race", {"players": 3})["fields"]["horses_per_player"]["choices"] == [2]
    assert check(client, "turfmaster-race", {"players": 2})["fields"]["horses_per_player"]["choices"] == [2, 3, 4]
    assert check(client, "turfmaster-race", {"players": 5})["fields"]["horses_per_player"]["choices"] == [1]
    # ... while a setup made some other way keeps the engine's reach: one horse per lane
    assert check(client, "turfmaster-race", {"players": 1})["fields"]["horses_per_player"]["choices"] == list(range(1, 9))
    assert client.post("/api/games/turfmaster/check", content=b"[1]",
                       headers={"Content-Type": "application/json"}).status_code == 400


def test_a_refused_table_option_names_its_limits(client):
    response = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2}, "pace": 31,
                                                "seats": [{"name": "a"}, {"name": "b"}]})
    assert response.status_code == 400 and "'pace' (Seconds between rolls) must be a number from 0.05 to 30" \
        in response.json()["detail"]


def test_a_key_a_new_table_does_not_have_is_refused_and_makes_no_table(client):
    """Options nested under a key of their own, or misspelt, were left out unseen (the table got
    the default 2 s between rolls); now they are refused, naming the keys a table has."""
    before = len(client.get("/api/tables").json()["tables"])
    for body in ({"options": {"pace": 0.2}}, {"Pace": 0.2}, {"next_race": 3}):
        response = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2},
                                                    "seats": [{"name": "a"}, {"name": "b"}], **body})
        key = next(iter(body))
        assert response.status_code == 400 and response.json()["error"] == "invalid_setup"
        detail = response.json()["detail"]
        assert f"a new readysetbet table has no key '{key}'; its keys are: game, setup, seats, wait_for_host, pace" \
            in detail and "next_race_seconds" in detail
    assert len(client.get("/api/tables").json()["tables"]) == before
    made = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2}, "pace": 0.2,
                                            "seats": [{"name": "a"}, {"name": "b"}]})
    assert made.status_code == 200 and client.get(f"/api/tables/{made.json()['id']}").json()["options"]["pace"] == 0.2


def test_a_seat_with_a_key_it_does_not_have_is_refused(client):
    """{"name": "Bo", "type": "bot"} made a person's seat (no 'kind': a person), which waited for a
    Bo who never came; now it is refused, naming a seat's keys."""
    response = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2},
                                                "seats": [{"name": "Ana"}, {"name": "Bo", "type": "bot"}]})
    assert response.status_code == 400 and response.json()["error"] == "invalid_setup"
    assert "seat 2 has no key 'type'; a seat's keys are: name, kind, level" in response.json()["detail"]
    # a person's row of the lobby's form carries the level its bot would have: read past, as before
    made = client.post("/api/tables", json={"game": "readysetbet", "setup": {"players": 2}, "seats": [
        {"name": "Ana", "kind": "person", "level": "value"}, {"name": "Bo", "kind": "bot", "level": "value"}]})
    assert made.status_code == 200 and [s["kind"] for s in made.json()["seats"]] == ["person", "bot"]


def test_the_lobby_s_single_race_starts_as_a_race_of_the_meeting(client):
    """The lobby's first single race is a real TurfMaster race (T7: at least 4 horses): 2 players
    with 2 horses each, the form bounded to 2 to 8 players like the meeting's."""
    race = {game["name"]: game for game in client.get("/api/games").json()["games"]}["turfmaster-race"]
    fields = {field["key"]: field for field in race["setup"]}
    assert (fields["players"]["default"], fields["players"]["minimum"], fields["players"]["maximum"]) == (2, 2, 8)
    assert fields["horses_per_player"]["default"] == 2
    defaults = {key: field["default"] for key, field in fields.items()}
    answer = check(client, "turfmaster-race", defaults)
    assert answer["error"] is None and defaults["horses_per_player"] in answer["fields"]["horses_per_player"]["choices"]
    table = make_table(client, setup=defaults, seats=[{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        assert len(receive(ws)["view"]["horses"]) == 4


def test_a_single_race_from_players_and_horses_per_player(client):
    table = make_table(client, setup={"players": 2, "horses_per_player": 2},
                       seats=[{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "tactical"}])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        view = receive(ws)["view"]
    assert [(h["id"], h["owner"]) for h in view["horses"]] == [("red", 0), ("blue", 0), ("yellow", 1), ("green", 1)]


# -- a third game, which the server has never heard of --------------------------------------
class Countdown(Game):
    """Seats take turns saying 1 or 2; whoever reaches the target wins. A die sets the target."""

    name = "test-countdown"

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Countdown":
        players = setup.get("players", 2)
        if players not in (2, 3):
            raise InvalidSetup(Message("'players' must be from {low} to {high}", low=2, high=3))
        game = cls.__new__(cls)
        game.players, game.total, game.target, game.turn = players, 0, None, 0
        return game

    def pending(self):
        if self.target is None:
            return Chance("target", lambda rng: {"type": "target", "value": rng.randint(5, 10)},
                          lambda a: a.get("type") == "target" and a.get("value") in range(5, 11))
        if self.total >= self.target:
            return None
        return Decision(self.turn, "say", ({"type": "say", "n": 1}, {"type": "say", "n": 2}))

    def apply(self, action):
        pending = self.step_answered_by(action, Message("the game is over; no more actions are taken"))
        if isinstance(pending, Chance):
            self.target = action["value"]
            return
        if action not in pending.options:
            raise IllegalAction(Message("not one of the options for {kind}", kind="say"), pending.options)
        self.total += action["n"]
        self.turn = (self.turn + 1) % self.players

    def view(self, seat):
        return {"total": self.total, "target": self.target}

    def to_json(self):
        return {"game": self.name, "state": vars(self).copy()}

    @classmethod
    def from_json(cls, data):
        game = cls.__new__(cls)
        vars(game).update(data["state"])
        return game

    def clone(self):
        return self.from_json(self.to_json())


def left(state, seat, params):
    return {"left": state.target - state.total}


Countdown.description = GameDescription(
    name="test-countdown", title=Message("Countdown"), summary=Message("Say 1 or 2"), min_seats=2, max_seats=3,
    setup=(SetupField("players", INTEGER, Message("Players"), default=2, minimum=2, maximum=3),),
    bots=(BotLevel("random", Message("Random bot"), Message("Plays any legal move"), "hippodrome.core.bot:RandomBot"),),
    seats=lambda state: SeatPlan((None,) * state.players), page="countdown",
    lookups=(Lookup("left", f"{__name__}:left", public=True),),
    examples=({"players": 2},))


@pytest.fixture
def third_game():
    register_game(Countdown)
    yield Countdown
    del _GAMES[Countdown.name]


def test_a_third_game_is_listed_created_and_played_without_touching_the_server(third_game, db):
    with TestClient(create_app(db, bot_delay=0)) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert listed["test-countdown"]["page"] == "countdown"
        assert len(check(client, "test-countdown", {"players": 3})["seats"]) == 3
        table = make_table(client, game="test-countdown", setup={"players": 2},
                           seats=[{"name": "Ana"}, {"name": "Bot", "kind": "bot", "level": "random"}])
        assert "host_link" not in table  # no race caller for this game
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            while True:
                state = receive(ws)
                if state["over"]:
                    break
                if state["decision"] and state["decision"]["seat"] == 0 and "options" in state["decision"]:
                    ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                                  "action": state["decision"]["options"][0]})
        assert client.get(f"/api/tables/{table['id']}/left").json()["left"] <= 0
        assert client.get(f"/api/tables/{table['id']}/odds").status_code == 404
        assert isinstance(third_game.description.bot("random").make(1), RandomBot)


def test_the_callers_service_worker_is_served_from_the_callers_pages_folder(client):
    """Issue 34, point 5: /call/sw.js is the caller's service worker (its scope: /call/), not a table."""
    answer = client.get("/call/sw.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert "hippodrome-caller" in answer.text and "caches.open" in answer.text
