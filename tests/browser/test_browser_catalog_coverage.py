"""Every message the pages show has a translation: the lobby, a TurfMaster race played to the end,
a Ready Set Bet race bet on and settled, and the race caller, in Spanish, French, Dutch and German.

How the pages are read is in tests/browser/i18n_pages.py. Each table is played once: the
TurfMaster race by a script in its seat's page that sweeps the page through the languages
whenever it shows new words, before it acts; the Ready Set Bet seat and race caller are swept at
each kind of screen they show (paused with a bet placed and the odds shown, the race running,
bets closed, settled).
"""

import pytest

from tests.browser.conftest import place_bet, set_clock
from tests.browser.i18n_pages import (
    LANGUAGES, TURFMASTER_AUTOPLAY, choose_game, create_in_lobby, new_context, open_lobby_in_every_language,
    open_page, press_ready, start_lobby, stop_autoplay, sweep, swept, untranslated, wait_all_over,
)

pytestmark = pytest.mark.browser

RSB_SPACES = ["win:7:R", "win:6:R", "win:8:R", "place:5:R", "place:6:R", "show:7:R"]


def test_turfmaster_and_the_lobby_show_no_english(server, browser):
    problems = []
    # the lobby opens in the browser's language: a browser of each language, the four lobbies loading at once
    contexts = {lang: new_context(browser, lang) for lang in LANGUAGES}
    lobbies = {lang: start_lobby(context, server) for lang, context in contexts.items()}
    for lang in LANGUAGES[1:]:
        problems += untranslated(choose_game(lobbies[lang], "turfmaster-race"), lang, "lobby (TurfMaster)")
        contexts[lang].close()
    context = contexts[LANGUAGES[0]]
    lobby = choose_game(lobbies[LANGUAGES[0]], "turfmaster-race")
    problems += untranslated(lobby, LANGUAGES[0], "lobby (TurfMaster)")
    lobby.check("#steeplechase")     # fences, and perhaps a fall
    link = create_in_lobby(lobby, "#created .play-link >> nth=0")
    problems += swept(lobby, "lobby (TurfMaster)", every_msgid=True)
    lobby.close()
    page = open_page(context, server.url + link, "#course svg polygon")
    errors = []   # a script error of the page, on a language switch say
    page.on("pageerror", lambda error: errors.append(f"TurfMaster page: {error}"))
    sweep(page, "waiting")   # the table waits for its player
    press_ready(page)
    page.locator(".card.playable").first.click()   # a card chosen: its squares light up
    page.wait_for_selector(".reach-layer polygon, #play-anyway")
    sweep(page, "card chosen", shots="turfmaster-{lang}-card-chosen")
    page.evaluate(TURFMASTER_AUTOPLAY)   # the race runs from here, swept at each new screen
    wait_all_over([page])
    stop_autoplay(page)
    clicked = page.evaluate("() => window.__auto.clicked")
    decisions = sum(n for what, n in clicked.items() if what != "card")   # a card is played by its square
    page.wait_for_selector("#race-table tr, #no-places")   # the race's places (or: every horse fell)
    page.wait_for_selector("#log li[data-event=roll]")  # a dice round was played
    sweep(page, "race over", shots="turfmaster-{lang}-race-over")
    problems += swept(page, "TurfMaster table", kinds=["waiting", "card chosen", "race over"], every_msgid=True)
    context.close()
    assert decisions >= 4, clicked
    assert not problems + errors, "\n".join(problems + errors)


def test_ready_set_bet_and_the_race_caller_show_no_english(server, browser):
    problems = []
    context = new_context(browser, LANGUAGES[0])
    lobby = open_lobby_in_every_language(context, server, LANGUAGES[0], problems)
    lobby.select_option("#game", "readysetbet")
    lobby.fill("#races", "1")
    # quicker than the form allows (0.5 s steps): the server takes it, down to its least pace
    lobby.evaluate("() => { const pace = document.querySelector('#pace'); pace.removeAttribute('min'); pace.step = 'any'; }")
    lobby.fill("#pace", "0.05")
    seat_link = create_in_lobby(lobby, "#created .play-link >> nth=0")
    caller_link = lobby.get_attribute("#created .caller-link", "href")
    # paused at once by its host: the bets are placed in peace, and the pages show "paused"
    set_clock(server, {"id": caller_link.split("/call/", 1)[1].split("#", 1)[0], "host_link": caller_link}, paused=True)
    sweep(lobby, "the table made")
    problems += swept(lobby, "lobby (Ready Set Bet)", kinds=["opened", "the table made"])
    lobby.close()
    caller = open_page(context, server.url + caller_link, "#track .horse")
    caller.wait_for_function("() => document.querySelector('#resume').disabled === false")
    seat = open_page(context, server.url + seat_link, "#board .space")
    sweep(seat, "waiting")   # the table waits for its people: who is ready, the Ready button
    press_ready(seat)
    seat.wait_for_function("() => document.querySelector('#turn').textContent.includes(' · ')")
    seat.click("#tokens .token:not([disabled]) >> nth=0")
    place_bet(seat, RSB_SPACES)
    seat.check("#odds-toggle")   # the live odds on the board
    seat.wait_for_selector("#board .odds:not(:empty)")
    sweep(seat, "paused", shots="readysetbet-{lang}-board")
    sweep(caller, "paused")
    for page in (seat, caller):   # from here each new kind of screen is shown in every language
        page.evaluate("() => window.__watchScreens()")
    caller.click("#resume")
    seat.wait_for_function("() => document.querySelector('#turn').dataset.over === 'yes'", timeout=300000)
    seat.wait_for_selector("#settlement tr")
    # a settled board shows no odds any more (they were the finished race's)
    seat.wait_for_function("() => !document.querySelector('#board .odds:not(:empty)')")
    sweep(seat, "settled", shots="readysetbet-{lang}-settled")
    problems += swept(seat, "Ready Set Bet table", kinds=["waiting", "paused", "screen", "settled"])
    problems += swept(caller, "race caller", kinds=["paused", "screen"])
    context.close()
    assert not problems, "\n".join(problems)
