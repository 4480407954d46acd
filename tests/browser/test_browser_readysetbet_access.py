"""Ready Set Bet with a keyboard and a screen reader (issue 34, point 9): a bet placed with the
keys alone (Tab to a token, Enter, Tab to a space, Enter); rolls and red-line crossings said in a
polite live region, "No more bets!" in an assertive one (R2); axe-core finds no serious or
critical violation on the table, the race caller, the rules page and the guided race, at 1280x800
and 390x844."""

import pytest

from tests.browser.conftest import create, screenshot, serious_violations, set_clock

pytestmark = pytest.mark.browser

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
ACTIVE = """() => { const a = document.activeElement; if (!a || a === document.body) return null;
  return { token: a.dataset.token || null, space: a.dataset.space || null, outline: getComputedStyle(a).outlineStyle }; }"""


def tab_to(page, want, most=200):
    for _ in range(most):
        active = page.evaluate(ACTIVE)
        if active and active.get(want):
            return active
        page.keyboard.press("Tab")
    raise AssertionError(f"no {want} reached with Tab")


def test_R2_a_bet_with_the_keys_and_the_race_told_to_a_screen_reader(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot"}], "pace": 0.05})
    set_clock(server, table, paused=True)
    page = browser.new_page(viewport=DESKTOP)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#board .space")
    token = tab_to(page, "token")
    assert token["outline"] != "none", "the focus shows"
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#tokens [data-token="{token["token"]}"].selected')
    for _ in range(60):   # on to a free space of the board
        space = tab_to(page, "space")
        if not page.locator(f'[data-space="{space["space"]}"].taken, [data-space="{space["space"]}"].closed').count():
            break
        page.keyboard.press("Tab")
    assert space["outline"] != "none"
    page.keyboard.press("Enter")
    page.wait_for_selector(f'[data-space="{space["space"]}"].mine')
    assert page.locator(f'#tokens [data-token="{token["token"]}"]').is_disabled()
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert page.get_attribute("#alert", "aria-live") == "assertive"
    set_clock(server, table, paused=False)
    page.wait_for_function("() => document.querySelector('#turn').dataset.over === 'yes'", timeout=300000)
    crossings = int(page.get_attribute("#redline", "data-crossings"))
    assert (page.text_content("#alert") == "No more bets!") == (crossings >= 3), crossings
    assert page.text_content("#announce").strip(), "the last event is said"
    screenshot(page, "readysetbet-keyboard-over")
    assert not errors, errors
    page.close()


def test_axe_finds_no_serious_violation_on_the_ready_set_bet_pages(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "house_bets", "races": 1},
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot"}, {"name": "House", "kind": "bot"}],
                            "pace": 30})
    box = create(server, {"game": "readysetbet-box", "setup": {"races": 1}, "seats": [], "pace": 30}, start=False)
    lesson = create(server, {"game": "readysetbet-tutorial", "setup": {}, "seats": [{"name": "Ana", "kind": "person"}]})
    pages = {"table": (table["seats"][0]["link"], "#board .space"), "caller": (box["host_link"], "#track .horse"),
             "rules": ("/rules/readysetbet", "figure svg"), "tutorial": (lesson["seats"][0]["link"], "#tutorial:not([hidden])")}
    found = serious_violations(browser, server, pages, (DESKTOP, PHONE))
    assert not found, found
