"""The puzzles (issue 13): GET /puzzles/{game} serves the generic page for a game whose description
names a puzzle book; GET /api/games/{game}/puzzles lists them and /puzzles/{n} shows one as its
deciding seat sees it, in the request's language, without the solution; POST .../answer checks a
move. Bad input is refused in words and changes nothing."""

import html

from hippodrome.turfmaster.puzzles import WORDS, load_puzzles, position


def test_the_lobby_description_names_the_puzzles_and_the_page_is_served(client):
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert games["turfmaster"]["puzzles"] == {"count": len(load_puzzles()), "page": "turfmaster_puzzle"}
    assert games["turfmaster-race"]["puzzles"] is None and games["readysetbet"]["puzzles"] is None
    page = client.get("/puzzles/turfmaster", headers={"accept-language": "nl"})
    assert page.status_code == 200 and '<html lang="nl">' in page.text and "/static/puzzles.js" in page.text
    assert client.get("/static/turfmaster_puzzle.js").status_code == 200


def test_the_list_and_a_puzzle_in_the_request_language_without_the_solution(client):
    listing = client.get("/api/games/turfmaster/puzzles", headers={"accept-language": "es"}).json()
    first = load_puzzles()[0]
    assert listing["count"] == len(load_puzzles()) >= 20
    assert listing["puzzles"][0] == {"number": 1, "theme": first.theme, "title": WORDS[first.key].title.translate("es")}
    assert listing["themes"]["fence"] == "Vallas"
    shown = client.get("/api/games/turfmaster/puzzles/1", headers={"cookie": "lang=de"}).json()
    assert shown["question"] == WORDS[first.key].question.translate("de") != WORDS[first.key].question.msgid
    assert shown["view"]["pending"]["seat"] == first.seat and shown["view"]["pending"]["options"]
    # the seat's own hands only, and nothing that says which option is right
    race = position(first)
    assert set(shown["view"]["hands"]) == {h for h in race.ids if race.owner[h] == first.seat}
    assert "solution" not in shown and "explanation" not in shown and "correct" not in str(shown)


def test_an_answer_is_checked_with_its_explanation(client):
    first = load_puzzles()[0]
    url = "/api/games/turfmaster/puzzles/1/answer"
    right = client.post(url, json={"action": first.solution[0]}, headers={"accept-language": "fr"}).json()
    assert right == {"correct": True, "message": "Bravo\u00a0!",
                     "explanation": WORDS[first.key].explanation.translate("fr")}
    wrong = next(o for o in position(first).pending().options if o not in first.solution)
    answer = client.post(url, json={"action": wrong}).json()
    assert answer["correct"] is False and answer["message"] == "Not this one." and answer["explanation"]


def test_bad_input_is_refused_in_words(client):
    unknown = client.get("/api/games/turfmaster/puzzles/999", headers={"accept-language": "de"})
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    assert "999" in unknown.json()["detail"] and str(len(load_puzzles())) in unknown.json()["detail"]
    assert client.get("/api/games/turfmaster/puzzles/abc").status_code == 404
    assert client.get("/api/games/turfmaster/puzzles/0").status_code == 404
    url = "/api/games/turfmaster/puzzles/1/answer"
    illegal = client.post(url, json={"action": {"type": "card", "horse": "red", "card": "99"}})
    assert illegal.status_code == 400 and "not one of the puzzle's options" in illegal.json()["detail"]
    shapeless = client.post(url, json={"move": 3})
    assert shapeless.status_code == 400 and "'action'" in shapeless.json()["detail"]
    not_json = client.post(url, content=b'{"action": NaN}', headers={"content-type": "application/json"})
    assert not_json.status_code == 400
    no_book = client.get("/api/games/readysetbet/puzzles")
    assert no_book.status_code == 404 and "/puzzles/turfmaster" in no_book.json()["detail"]
    page = client.get("/puzzles/chess", headers={"accept-language": "fr"})
    assert page.status_code == 404 and "chess" in html.unescape(page.text) and '<html lang="fr">' in page.text
