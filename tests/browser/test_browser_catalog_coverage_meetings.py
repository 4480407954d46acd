"""More screens with no English on them: a whole TurfMaster meeting of eight horses (bonus cards
claimed, cards given up between races, the meeting table and the final table), Ready Set Bet with
VIP cards and both House variants, the spectator's view, and the error boxes of refused messages.

How the pages are read is in tests/browser/i18n_pages.py. Here the seats play themselves: a
small script in the page clicks whatever the seat is asked (as a person would, through the page's
own buttons), so the tables run without a round trip per move. Each table is played once, each
page sweeping itself through the languages at each new kind of screen (TurfMaster: whenever it
shows new words), before its seat acts on it. The refused messages go through the page's own
WebSocket (caught by SWEEPING), so the page draws the server's answer in its error box exactly
as it draws a refused click; TurfMaster's are refused once in each language.
"""

import pytest

from tests.browser.conftest import create
from tests.browser.i18n_pages import (
    LANGUAGES, READYSETBET_AUTOPLAY, TURFMASTER_AUTOPLAY, new_context, open_lobby, open_lobby_in_every_language,
    in_every_language, open_page, refuse, refuse_in_every_language, state_id, stop_autoplay, sweep, swept,
    wait_all_over,
)

pytestmark = pytest.mark.browser


def test_a_meeting_of_eight_horses_its_spectator_and_refused_moves_show_no_english(server, browser):
    problems = []
    context = new_context(browser, LANGUAGES[0])
    # the lobby's meeting form, eight players (one horse each)
    lobby = open_lobby(context, server, "turfmaster")

    def players(n):
        lobby.fill("#players", str(n))
        lobby.dispatch_event("#players", "change")
        lobby.wait_for_function(f"() => document.querySelectorAll('.seat-row').length === {n}")

    def eight_players():   # from two players with two horses each: the form's passing note on the way too
        players(2)
        lobby.select_option("#horses-per-player", "2")
        players(8)

    players(8)   # the same way in every language, from eight players
    in_every_language(lobby, "8 players", eight_players)
    problems += swept(lobby, "lobby (TurfMaster meeting, 8 players)", every_msgid=True)
    lobby.close()
    # one seat of ours, seven bots: all eight horses (the page names them t("Red") ... t("Purple"))
    table = create(server, {
        "game": "turfmaster", "setup": {"players": 8, "horses_per_player": 1, "steeplechase": True},
        "seats": [{"name": "Ana"}] + [{"name": f"Bot{n}", "kind": "bot", "level": "random"} for n in range(1, 8)]})
    page = open_page(context, server.url + table["seats"][0]["link"], "#hands .hand")
    errors = []   # a script error of the page, on a language switch say
    page.on("pageerror", lambda error: errors.append(f"TurfMaster page: {error}"))
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === 'yes'")
    # refused messages, each answered in the error box: a move too late, one that is not an
    # option, a preview of something that is not a card, an unknown message, another version
    now = state_id(page)
    refuse_in_every_language(page, "refused", [
        ({"type": "act", "state_id": now - 1, "action": {"type": "card", "card": "1"}}, "stale"),
        ({"type": "act", "state_id": now, "action": {"type": "card", "card": "99"}}, "illegal"),
        ({"type": "preview", "action": {"type": "square", "lane": 0, "square": 0}}, "illegal"),
        ({"type": "shout"}, "bad_message"),
        ({"type": "act", "v": 2}, "bad_version")])
    page.evaluate(TURFMASTER_AUTOPLAY)   # the meeting runs from here, swept at each new screen
    wait_all_over([page])
    stop_autoplay(page)
    clicked = page.evaluate("() => window.__auto.clicked")
    page.wait_for_selector("#meeting-table tr >> nth=8")   # the final table: a row per player
    horses = set(page.eval_on_selector_all("#horses tr[data-horse]", "rows => rows.map(r => r.dataset.horse)"))
    assert len(horses) == 8, (horses, errors)
    # the meeting's own decisions were on screen in every language: the bonus cards (T8), a hand
    # cut to its limit (T8), the results between races with the Next race button, the final table
    for kind in ("claim_bonus", "keep", "next_race"):
        assert clicked.get(kind), (kind, clicked)
    # ("end": the final screen, swept last by swept())
    kinds = ["refused", "claim_bonus", "keep", "giving up", "between_races", "card", "card chosen", "end"]
    problems += swept(page, "TurfMaster meeting (seat)", kinds=kinds, every_msgid=True)
    # a spectator: hands hidden, the final table; and it may not play
    spectator = open_page(context, server.url + table["spectator_link"], "#meeting-table tr")
    sweep(spectator, "watching")
    refuse_in_every_language(spectator, "refused", [
        ({"type": "act", "state_id": state_id(spectator), "action": {"type": "card", "card": "1"}}, "forbidden"),
        ({"type": "preview", "action": {"type": "card", "card": "1"}}, "forbidden")])
    problems += swept(spectator, "TurfMaster meeting (spectator)", kinds=["watching", "refused"], every_msgid=True)
    context.close()
    assert not problems + errors, "\n".join(problems + errors)


def test_ready_set_bet_vip_cards_and_the_house_show_no_english(server, browser):
    problems = []
    context = new_context(browser, LANGUAGES[0])
    # the rotating House, two races: both seats ours, so whoever holds the House places its
    # tokens and is asked to stay; after race 1 the players keep one of two VIP cards
    rotating = create(server, {"game": "readysetbet",
                               "setup": {"players": 2, "variant": "rotating_house", "races": 2, "vip": True},
                               "seats": [{"name": "Ana"}, {"name": "Bo"}], "pace": 0.05})
    # House bets: our seat is the House (a seat of its own), two bots bet
    house = create(server, {"game": "readysetbet",
                            "setup": {"players": 2, "variant": "house_bets", "races": 1, "vip": True},
                            "seats": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"}, {"name": "House"}],
                            "pace": 0.05})
    # the lobby, with these tables open, and its House bets form: the House's seat row
    lobby = open_lobby_in_every_language(context, server, LANGUAGES[0], problems)
    lobby.select_option("#game", "readysetbet")
    lobby.select_option("#variant", "house_bets")
    lobby.wait_for_function("() => document.querySelectorAll('.seat-row').length === 3")
    problems += swept(lobby, "lobby (Ready Set Bet, House bets)", kinds=["opened", "end"])
    lobby.close()
    pages = {f"rotating House, seat {n}": open_page(context, server.url + rotating["seats"][n]["link"], "#board .space")
             for n in range(2)}
    pages["House bets, the House"] = open_page(context, server.url + house["seats"][2]["link"], "#board .space")
    # refused: a bet with a token that does not exist
    seat = pages["rotating House, seat 0"]
    refuse(seat, {"type": "act", "state_id": state_id(seat), "action": {"type": "bet", "token": "nope", "space": "win:7:R"}}, "illegal")
    sweep(seat, "refused")
    for page in pages.values():   # the tables run from here, each seat played (and swept) by its page
        page.evaluate(READYSETBET_AUTOPLAY)
    wait_all_over(pages.values())
    clicked, shown = {}, {}
    for what, page in pages.items():
        page.wait_for_selector("#standings .player-row")
        for kind, n in page.evaluate("() => window.__auto.clicked").items():
            clicked[kind] = clicked.get(kind, 0) + n
        for kind, languages in page.evaluate("() => window.__i18n.shown").items():
            shown.setdefault(kind, set()).update(languages)
        problems += swept(page, f"Ready Set Bet ({what})", kinds=["screen"] + (["refused"] if page is seat else []))
    # a spectator of the rotating House's table: no tokens, the standings; it may neither bet nor pause
    spectator = open_page(context, server.url + rotating["spectator_link"], "#standings .player-row")
    refuse(spectator, {"type": "act", "state_id": state_id(spectator), "action": {"type": "bet", "token": "2", "space": "win:7:R"}}, "forbidden")
    sweep(spectator, "refused bet")
    refuse(spectator, {"type": "pause"}, "forbidden")
    sweep(spectator, "refused pause")
    problems += swept(spectator, "Ready Set Bet (spectator)", kinds=["refused bet", "refused pause"])
    context.close()
    # on screen in every language: the House's tokens (and the page's own refusal), a VIP card kept, a House
    # question, the results between races with the Next race button
    for kind in ("house_token", "house-refused", "vip", "house"):
        assert clicked.get(kind), (kind, clicked)
        assert shown.get(kind) == set(LANGUAGES), (kind, shown)
    assert clicked.get("next_race") and shown.get("between_races") == set(LANGUAGES), (clicked, shown)
    assert not problems, "\n".join(problems)
