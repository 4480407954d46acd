"""Keyboard and screen readers (issue 33, point 8): a TurfMaster race played with the keys alone
(Tab to a card, Enter, the arrows among the lit squares, Enter; the focus shows), each move, dice
round, fall and finish said in a live region in the page's language; and axe-core
(axe-playwright-python) finds no serious or critical violation on the lobby, a table, the rules
page, the puzzles page and the tutorial, at 1280x800 and 390x844."""

import pytest

from tests.browser.conftest import create, open_seat, screenshot, serious_violations

pytestmark = pytest.mark.browser

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
ACTIVE = """() => { const a = document.activeElement; if (!a || a === document.body) return null;
  return { tag: a.tagName.toLowerCase(), cls: a.getAttribute('class') || '', type: a.dataset.type || '',
           outline: getComputedStyle(a).outlineStyle, square: a.dataset.square || null }; }"""


def press_until(page, test, what, most=80):
    """Tab until the focus is on what ``test`` (JS, given the active element's summary) wants."""
    for _ in range(most):
        active = page.evaluate(ACTIVE)
        if active and page.evaluate(f"(a) => ({test})(a)", active):
            return active
        page.keyboard.press("Tab")
    raise AssertionError(f"no {what} reached with Tab")


def test_a_race_played_with_the_keys_alone_and_told_to_a_screen_reader(server, browser):
    """A short race near the finish (T9) against a bot: every decision taken with Tab, the arrows
    and Enter; the live region says each move as it happens, in German once the page is German."""
    setup = {"course": "oval", "seats": 2, "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 0, "square": 96}, {"id": "blue", "lane": 2, "square": 95}],
             "hands": {"red": ["6", "7", "8", "J9"], "blue": ["6", "7", "8", "9"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup,
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size(DESKTOP)
    arrows = squares = 0
    for turn in range(20):
        page.wait_for_function("() => { const t = document.querySelector('#turn');"
                               " return t && (t.dataset.mine === 'yes' || t.dataset.over === 'yes'); }")
        if page.get_attribute("#turn", "data-over") == "yes":
            break
        if turn == 1:   # the page in German from here on: what is said follows
            page.select_option("#lang", "de")
            page.wait_for_function("() => document.documentElement.lang === 'de'")
            page.wait_for_selector("#turn[data-mine=yes]")
        state = page.get_attribute("#app", "data-state-id")
        active = press_until(page, "(a) => a.cls.includes('playable') || a.cls.includes('option') || a.tag === 'polygon'",
                             "card, option or square")
        assert active["outline"] != "none" or active["tag"] == "polygon", active   # the focus shows
        page.keyboard.press("Enter")
        if "card" in active["cls"]:   # a card: its squares take the focus
            page.wait_for_function("() => document.activeElement && document.activeElement.matches('.reach-layer polygon, #decision button')")
            active = page.evaluate(ACTIVE)
            if active["tag"] == "polygon":
                marks = page.locator("#course .reach-layer polygon").count()
                if marks > 1:
                    page.keyboard.press("ArrowRight")
                    assert page.evaluate(ACTIVE)["square"] != active["square"] or marks == 1
                    page.keyboard.press("ArrowLeft")
                    arrows += 1
                page.keyboard.press("Enter")
                squares += 1
            else:
                page.keyboard.press("Enter")   # "Play it anyway"
        page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
        if page.locator("#confirm-fall").count():
            press_until(page, "(a) => a.cls.includes('danger')", "the fall's confirmation")
            page.keyboard.press("Enter")
    assert page.get_attribute("#turn", "data-over") == "yes", "the race was played to its end with the keys"
    print("squares chosen with the keys:", squares, "with the arrows:", arrows)
    assert squares >= 2 and arrows >= 1
    # the live region said the moves, the last ones in German
    said = page.text_content("#announcer")
    lines = page.eval_on_selector_all("#log li:not(.separator)", "ls => ls.map(l => l.textContent)")
    assert said and any(line in said for line in lines), (said, lines[:5])
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    assert " moves " not in said, "said in German"
    screenshot(page, "keyboard-race-over-de")
    assert not errors, errors
    page.close()


def test_axe_finds_no_serious_violation_on_the_pages(server, browser):
    table = create(server, {"game": "turfmaster", "setup": {"players": 2, "steeplechase": True},
                            "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot", "level": "random"}]})
    lesson = create(server, {"game": "turfmaster-tutorial", "setup": {}, "seats": [{"name": "Ana", "kind": "person"}]})
    pages = {"lobby": ("/", ".seat-row"), "table": (table["seats"][0]["link"], "#course g.horse"),
             "rules": ("/rules/turfmaster", "figure svg"), "puzzles": ("/puzzles/turfmaster#1", "#puzzle .board-view"),
             "tutorial": (lesson["seats"][0]["link"], "#tutorial:not([hidden])")}
    found = serious_violations(browser, server, pages, (DESKTOP, PHONE))
    assert not found, found
