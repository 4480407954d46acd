"""The rules pages: GET /rules/{game} serves the generic page for any game whose description names
one, its diagrams' data at GET /api/games/{game}/rules, and a 404 in words (in the reader's
language) for a game that does not exist or has no rules page."""

import html

from fastapi.testclient import TestClient

from hippodrome.server import create_app
from tests.server.test_server_games import third_game  # noqa: F401  (a fixture)


def test_every_game_with_rules_serves_its_page_and_its_diagrams(client):
    games = client.get("/api/games").json()["games"]
    with_rules = [game for game in games if game["rules"]]
    assert {game["rules"]["page"] for game in with_rules} == {"turfmaster", "readysetbet"}
    for game in with_rules:
        page = client.get(f"/rules/{game['name']}", headers={"accept-language": "fr"})
        assert page.status_code == 200 and '<html lang="fr">' in page.text and "/static/rules.js" in page.text
        data = client.get(f"/api/games/{game['name']}/rules").json()
        assert data["anchors"] == game["rules"]["anchors"] and data["diagrams"]
        for lang in ("en", "es", "fr", "nl", "de"):
            assert client.get(f"/static/rules/{game['rules']['page']}.{lang}.json").status_code == 200
    # a ruling's anchor, for a page that links a refusal to its paragraph
    turfmaster = next(game for game in games if game["name"] == "turfmaster")
    assert turfmaster["rules"]["anchors"]["T4"] == "blocking"


def test_an_unknown_game_has_no_rules_page_and_is_told_so_in_words(client):
    page = client.get("/rules/chess", headers={"accept-language": "de"})
    assert page.status_code == 404
    assert "Für 'chess' gibt es keine Regeln" in html.unescape(page.text) and "/rules/turfmaster" in page.text
    assert "Zurück zur Lobby" in page.text and '<html lang="de">' in page.text
    # what the address asked for is shown as text, never as markup
    assert "<b>" not in client.get("/rules/<b>x</b>").text
    answer = client.get("/api/games/chess/rules")
    assert answer.status_code == 404 and answer.json()["error"] == "not_found"


def test_a_game_without_a_rules_page_answers_404(third_game, db):  # noqa: F811
    with TestClient(create_app(db, bot_delay=0)) as client:
        assert client.get("/api/games/test-countdown").json()["rules"] is None
        page = client.get("/rules/test-countdown")
        assert page.status_code == 404 and "There are no rules for 'test-countdown'" in html.unescape(page.text)
        assert client.get("/api/games/test-countdown/rules").status_code == 404
