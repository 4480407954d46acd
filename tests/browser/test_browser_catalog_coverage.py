"""Every message the pages show has a translation: the lobby, a TurfMaster race played to the end,
a Ready Set Bet race bet on and settled, and the race caller, in Spanish, French, Dutch and German.

The pages' i18n.js keeps `missing`, the msgids a page asked t()/tn() for that the language's
catalog lacks (they show in English). The set lives as long as the page, so reading it once the
page has shown its screens covers every message drawn on the way. The languages play side by side
(one browser context each, moved forward in turn) to keep the run short.
"""

import time

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_browser_turfmaster import ACTIONABLE, play_one_decision

pytestmark = pytest.mark.browser

LANGUAGES = ["es", "fr", "nl", "de"]
SHOT_LANGUAGES = {"fr", "nl"}
READ_MISSING = 'async () => [...(await import("/static/i18n.js")).missing].sort()'
# what a TurfMaster page asks of its seat now: "over", "mine" (something to click) or null
TURN = ("(actionable) => { const t = document.querySelector('#turn'); if (!t) return null;"
        " if (t.dataset.over === 'yes') return 'over';"
        " if (t.dataset.mine === 'yes' && document.querySelector(actionable)) return 'mine'; return null; }")
RSB_SPACES = ["win:7:R", "win:6:R", "win:8:R", "place:5:R", "place:6:R", "show:7:R"]


def new_context(browser, lang):
    return browser.new_context(viewport={"width": 1366, "height": 800}, locale=lang,
                               extra_http_headers={"Accept-Language": lang})


def untranslated(page, lang, what):
    """The problems of one page: its language, and the msgids it showed in English."""
    problems = []
    shown = page.evaluate("() => document.documentElement.lang")
    if shown != lang:
        problems.append(f"{what} [{lang}]: <html lang={shown!r}>, not {lang!r}")
    missing = page.evaluate(READ_MISSING)
    if missing:
        problems.append(f"{what} [{lang}]: no translation for " + ", ".join(map(repr, missing)))
    return problems


def open_lobby(context, server, game):
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    return page


def create_in_lobby(page, link_selector):
    page.click("#create-button")
    page.wait_for_selector(link_selector)
    page.wait_for_selector("#tables td")  # the open tables, listed in the language too
    return page.get_attribute(link_selector, "href")


def test_turfmaster_and_the_lobby_show_no_english(server, browser):
    problems, pages, contexts = [], {}, []
    for lang in LANGUAGES:
        context = new_context(browser, lang)
        contexts.append(context)
        lobby = open_lobby(context, server, "turfmaster-race")
        lobby.check("#steeplechase")     # fences, and perhaps a fall
        link = create_in_lobby(lobby, "#created .play-link >> nth=0")
        problems += untranslated(lobby, lang, "lobby (TurfMaster)")
        lobby.close()
        page = context.new_page()
        page.goto(server.url + link)
        page.wait_for_selector("#course svg polygon")
        pages[lang] = page
    # the races side by side: whoever has a decision takes it, until every race is over
    over, shot, decisions = set(), set(), 0
    deadline = time.time() + 40
    while len(over) < len(pages):
        assert time.time() < deadline, f"the races did not end in time (over: {sorted(over)})"
        moved = False
        for lang, page in pages.items():
            if lang in over:
                continue
            now = page.evaluate(TURN, ACTIONABLE)
            if now == "over":
                over.add(lang)
            elif now == "mine":
                if lang in SHOT_LANGUAGES and lang not in shot and page.locator(".card.playable").count():
                    page.locator(".card.playable").first.click()
                    page.wait_for_selector(".reach-layer polygon, #play-anyway")
                    screenshot(page, f"turfmaster-{lang}-card-chosen")
                    shot.add(lang)
                play_one_decision(page)
                decisions += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    assert decisions >= 4 * len(pages)
    for lang, page in pages.items():
        page.wait_for_selector("#race-table tr, #no-places")   # the race's places (or: every horse fell)
        page.wait_for_selector("#log li[data-event=roll]")  # a dice round was played
        if lang in SHOT_LANGUAGES:
            screenshot(page, f"turfmaster-{lang}-race-over")
        problems += untranslated(page, lang, "TurfMaster table")
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


def test_ready_set_bet_and_the_race_caller_show_no_english(server, browser):
    problems, seats, callers, contexts = [], {}, {}, []
    for lang in LANGUAGES:
        context = new_context(browser, lang)
        contexts.append(context)
        lobby = open_lobby(context, server, "readysetbet")
        lobby.fill("#races", "1")
        # quicker than the form allows (0.5 s steps): the server takes it
        lobby.evaluate("() => { const pace = document.querySelector('#pace'); pace.removeAttribute('min'); pace.step = 'any'; }")
        lobby.fill("#pace", "0.15")
        seat_link = create_in_lobby(lobby, "#created .play-link >> nth=0")
        caller_link = lobby.get_attribute("#created .caller-link", "href")
        problems += untranslated(lobby, lang, "lobby (Ready Set Bet)")
        lobby.close()
        # the caller pauses the race at once: the bets are placed in peace, and the pages show "paused"
        callers[lang] = context.new_page()
        callers[lang].goto(server.url + caller_link)
        callers[lang].wait_for_selector("#track .horse")
        callers[lang].click("#pause")
        callers[lang].wait_for_function("() => document.querySelector('#resume').disabled === false")
        seats[lang] = page = context.new_page()
        page.goto(server.url + seat_link)
        page.wait_for_selector("#board .space")
        page.wait_for_function("() => document.querySelector('#turn').textContent.includes(' · ')")
        page.click("#tokens .token:not([disabled]) >> nth=0")
        for space in RSB_SPACES:   # the bot may have taken a space first (R4): try the next
            page.click(f'[data-space="{space}"]')
            try:
                page.wait_for_selector(f'[data-space="{space}"].mine', timeout=1500)
                break
            except Exception:
                continue
        page.check("#odds-toggle")   # the live odds on the board
        page.wait_for_selector("#board .odds")
        if lang in SHOT_LANGUAGES:
            screenshot(page, f"readysetbet-{lang}-board")
    for page in callers.values():
        page.click("#resume")
    for lang, page in seats.items():
        page.wait_for_function("() => document.querySelector('#turn').dataset.over === 'yes'", timeout=30000)
        page.wait_for_selector("#settlement tr")
        # a settled board shows no odds any more (they were the finished race's)
        page.wait_for_function("() => !document.querySelector('#board .odds')", timeout=5000)
        if lang in SHOT_LANGUAGES:
            screenshot(page, f"readysetbet-{lang}-settled")
        problems += untranslated(page, lang, "Ready Set Bet table")
        problems += untranslated(callers[lang], lang, "race caller")
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)
