"""Ratings (issue 35.2): OpenSkill's Plackett-Luce model per rated game, moved when a table with at
least two rated seats ends (people with accounts, and bots under their level's name), provisional
until 5 games; the players' and the ladder's API."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.game import competition_places
from hippodrome.server import create_app
from hippodrome.server.accounts import players, ratings, store
from hippodrome.server.storage import open_storage
from tests.server.conftest import join, make_table, quick_rolls, receive
from tests.server.services import postgres_url  # noqa: F401  (a fixture)
from tests.server.test_accounts_security import PASSWORD, settings, sign_up
from tests.server.test_storage import db  # noqa: F401  (a fixture)


def test_places_are_a_competition_ranking():
    assert competition_places([30, 50, 30, 10]) == [2, 1, 2, 4]


def test_the_winner_gains_the_loser_loses_and_a_shared_place_moves_both_alike():
    after = ratings.new_ratings({}, {"a": 1, "b": 2, "c": 2})
    assert after["a"][0] > 25 > after["b"][0] == after["c"][0]
    assert all(sigma < 25 / 3 for _, sigma in after.values())   # less uncertain after a game


def seat(name, kind="person", level=None, token=None):
    return {"name": name, "kind": kind, "level": level, "token_hash": token or name}


@pytest.fixture
def storage(db):
    opened = open_storage(db)
    yield opened
    opened.close()


def result(storage, table_id, places, rated=True):
    return storage.write(lambda sql: ratings.record_result(sql, table_id, "turfmaster", 100.0, places, rated))


def ladder(storage):
    return {row[0]: row[1:] for row in storage.read(lambda sql: sql.rows(
        "SELECT player, games, ordinal FROM ratings WHERE game = 'turfmaster'"))}


def test_a_table_moves_the_ratings_of_its_accounts_and_bot_levels_once(storage):
    storage.create_table("t", "turfmaster", {}, "s", [seat("Ana"), seat("Guest"), seat("Bot", "bot", "tactical"),
                                                       seat("Bot 2", "bot", "tactical")], "h", {})
    storage.write(lambda sql: store.create_account(sql, "acc", "Ana", "ana", "x", 1.0))
    storage.write(lambda sql: store.claim_seat(sql, "t", "Ana", "acc"))
    assert result(storage, "t", [2, 1, 4, 3]) is True
    rated = ladder(storage)
    assert set(rated) == {"acc", "bot:tactical"}   # the guest is not rated
    assert rated["acc"][0] == rated["bot:tactical"][0] == 1   # the bot, at two seats, once (at 3rd)
    assert rated["acc"][1] > rated["bot:tactical"][1]
    assert result(storage, "t", [2, 1, 4, 3]) is False and ladder(storage) == rated   # stored once
    ana = players.Player("acc", "Ana", "person")
    (game,) = storage.read(lambda sql: players.games_of(sql, ana, 10))
    assert (game["table"], game["place"], [p["place"] for p in game["players"]]) == ("t", 2, [2, 1, 4, 3])
    bot = players.Player("bot:tactical", "tactical", "bot")
    assert storage.read(lambda sql: players.games_of(sql, bot, 10))[0]["place"] == 3
    page, more = storage.read(lambda sql: players.ladder(sql, "turfmaster", 0, 1))
    assert [(r["rank"], r["name"], r["kind"]) for r in page] == [(1, "Ana", "person")] and more


def test_a_table_with_fewer_than_two_rated_players_or_an_unrated_game_moves_nothing(storage):
    storage.create_table("t", "turfmaster", {}, "s", [seat("Ana"), seat("Guest")], "h", {})
    storage.create_table("u", "turfmaster", {}, "s", [seat("B1", "bot", "random"), seat("B2", "bot", "search")],
                         "h", {})
    assert result(storage, "t", [1, 2]) and result(storage, "u", [1, 2], rated=False)
    assert ladder(storage) == {}
    assert storage.read(lambda sql: sql.rows("SELECT table_id, rated FROM results ORDER BY table_id")) == \
        [("t", 0), ("u", 0)]


def test_a_rating_is_provisional_until_five_games():
    assert ratings.rating_json(25.0, 8.0, 4)["provisional"] and not ratings.rating_json(25.0, 8.0, 5)["provisional"]


# -- through the server ---------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, accounts=settings())) as test_client:
        yield test_client


def play_a_rated_race(client):
    """A one-race Ready Set Bet game between Ana (signed in, holding her seat) and a random bot."""
    table = make_table(client, game="readysetbet", setup={"players": 2, "races": 1}, pace=0.05, start=False,
                       seats=[{"name": "Ana", "kind": "person"}, {"name": "Rob", "kind": "bot", "level": "random"}])
    quick_rolls(client, table)
    client.post("/api/me/seats", json={"table": table["id"], "token": table["seats"][0]["token"]})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws, table["seats"][0]["token"])
        ws.send_json({"v": 1, "type": "ready"})
        final = receive(ws, predicate=lambda m: m["over"], limit=5000)
    return table, final


@pytest.mark.slow
def test_a_finished_table_shows_in_the_profile_and_on_the_ladder(client):
    sign_up(client, name="Ana", password=PASSWORD)
    assert client.get("/api/players/ana").json() == {"name": "Ana", "kind": "person", "games": [], "ratings": {}}
    table, final = play_a_rated_race(client)
    written(client)
    profile = client.get("/api/players/Ana").json()
    (game,) = profile["games"]
    money = final["view"]["money"]
    assert game["table"] == table["id"] and game["game"] == "readysetbet" and game["finished"] > 0
    assert game["place"] == competition_places(money)[0]
    assert [(p["name"], p["kind"], p["account"]) for p in game["players"]] == \
        [("Ana", "person", True), ("Rob", "bot", False)]
    rating = profile["ratings"]["readysetbet"]
    assert rating["games"] == 1 and rating["provisional"] is True
    board = client.get("/api/ratings/readysetbet").json()
    assert {(r["name"], r["kind"]) for r in board["ratings"]} == {("Ana", "person"), ("random", "bot")}
    assert [r["rank"] for r in board["ratings"]] == [1, 2] and board["next"] is None
    assert board["ratings"][0]["rating"] >= board["ratings"][1]["rating"]
    bot = client.get("/api/players/random").json()
    assert bot["kind"] == "bot" and bot["ratings"]["readysetbet"]["games"] == 1 and len(bot["games"]) == 1


def written(client) -> None:
    """Once the writer has run what was queued before (a table's result is queued with its end)."""
    client.portal.call(client.app.state.hub.writer.call, lambda: None)


def test_the_profile_and_the_leaderboard_pages_are_served(client):
    for path, script in (("/players/Ana", "/static/profile.js"), ("/ratings/turfmaster", "/static/leaderboard.js")):
        page = client.get(path, headers={"Accept-Language": "de"})
        assert page.status_code == 200 and script in page.text and '<html lang="de">' in page.text


def test_a_tables_players_name_their_accounts_for_the_pages_links(client):
    sign_up(client, name="Ana", password=PASSWORD)
    table = make_table(client, start=False, seats=[{"name": "typed", "kind": "person"},
                                                   {"name": "Rob", "kind": "bot", "level": "tactical"}])
    client.post("/api/me/seats", json={"table": table["id"], "token": table["seats"][0]["token"]})
    players = client.get(f"/api/tables/{table['id']}/players").json()["players"]
    assert [(p["name"], p["kind"], p["level"], p["account"]) for p in players] == \
        [("Ana", "person", None, True), ("Rob", "bot", "tactical", False)]
    assert client.get("/api/tables/nope/players").status_code == 404


def test_players_and_ladders_refuse_what_does_not_exist_in_words(client):
    missing = client.get("/api/players/Nobody")
    assert missing.status_code == 404 and "Nobody" in missing.json()["detail"]
    assert client.get("/api/ratings/turfmaster-race").status_code == 404
    assert client.get("/api/ratings/turfmaster?limit=0").status_code == 400
    page = client.get("/api/ratings/turfmaster?start=0&limit=10").json()
    assert page == {"game": "turfmaster", "ratings": [], "next": None}
