"""Ready Set Bet at a real table (issue 11, points 3, 4 and 7): no click is lost while the race
runs, refusals are toasts in words that move nothing, and the track stays on screen."""

import json
import re

import pytest

from tests.browser.conftest import create, screenshot

pytestmark = pytest.mark.browser

CLICKS = 100
PRESS_MS = 100     # each click holds the button 100 ms: an update during the press must not lose it
PACE = 1.0         # seconds between rolls
#: counts, in the page, every click that reached a space and every toast shown
COUNTERS = """
window.__spaceClicks = 0;
window.__toasts = [];
document.addEventListener("click", (e) => { if (e.target.closest && e.target.closest(".space")) window.__spaceClicks++; }, true);
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes)
    if (node.classList && node.classList.contains("error-box")) window.__toasts.push(node.textContent);
}).observe(document, { childList: true, subtree: true });
"""
#: ids, rule codes or 0-based seat numbers a person must never read
FORBIDDEN = re.compile(r"(win|place|show|colour|prop|exotic):\S|bonus-\d|house-\d|\(R\d+\)|\b[Ss]eat \d")


def states_of(frames):
    return [m for m in map(json.loads, frames) if m.get("type") == "state"]


def my_bets(state):
    """My bets so far: the settled ones of past races and the ones on the board now."""
    seat, view = state["seat"], state["view"]
    settled = sum(1 for race in view["history"] for r in race["results"] if r["seat"] == seat)
    current = [e for e in view["race_log"] if e["event"] == "bet" and e["seat"] == seat]
    if view["history"] and view["history"][-1]["race"] == view["race_no"]:
        current = []   # the race on the board is settled: its bets are in the history
    return settled + len(current)


def test_every_click_is_placed_or_refused_with_a_toast(server, browser):
    bots = [{"name": name, "kind": "bot", "level": level}
            for name, level in (("Bea", "value"), ("Cy", "random"), ("Di", "value"), ("Ed", "random"), ("Flo", "value"))]
    table = create(server, {"game": "readysetbet", "setup": {"players": 6, "races": 2, "vip": False},
                            "seats": [{"name": "Ana"}, *bots], "pace": PACE})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.add_init_script(COUNTERS)
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#board .space")
    page.check("#odds-toggle")
    page.wait_for_selector("#bets-state.open", timeout=120000)   # the race is running
    targets = [f"{kind}:{horse}:R" for horse in ("2/3", "4", "5", "6", "7", "8", "9", "10", "11/12")
               for kind in ("win", "place", "show")]
    track_top = page.locator("#track").bounding_box()["y"]
    for n in range(CLICKS):
        space = page.locator(f'[data-space="{targets[n % len(targets)]}"]')
        space.scroll_into_view_if_needed()
        box = space.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_timeout(PRESS_MS)   # the paced clicking itself
        page.mouse.up()
        if n == 30:
            screenshot(page, "rsb-clicks-laptop")
    # R7: wherever the board was clicked, the track, bets open/closed and the red line stayed in view
    for selector in ("#track", "#bets-state", "#redline"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (selector, box)
    assert page.locator("#track").bounding_box()["y"] <= track_top
    assert page.evaluate("window.__spaceClicks") == CLICKS, "every click reached its space"
    # every click is answered: its bet placed, or a toast saying why not
    placed = refused = 0
    for _ in range(600):   # an upper bound that only matters when something is broken
        states = states_of(frames)
        placed, refused = my_bets(states[-1]), len(page.evaluate("window.__toasts"))
        if placed + refused >= CLICKS:
            break
        page.wait_for_timeout(100)
    assert placed + refused == CLICKS, (placed, refused)
    assert placed >= 3, "some of the clicks placed a bet"
    toasts = page.evaluate("window.__toasts")
    assert toasts and not [text for text in toasts if FORBIDDEN.search(text)], toasts
    # the placed bets of the race on the board show on their spaces
    last = states_of(frames)[-1]
    if not last["view"]["history"] or last["view"]["history"][-1]["race"] != last["view"]["race_no"]:
        mine = sum(1 for e in last["view"]["race_log"] if e["event"] == "bet" and e["seat"] == 0)
        page.wait_for_function(f"() => document.querySelectorAll('#board .space.mine').length === {mine}")
    assert not errors, errors
    page.close()


def test_a_refusal_is_a_toast_in_words_that_moves_nothing(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 3, "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cy", "kind": "bot"}], "pace": 30})
    ana, _ = open_page(browser, server, table["seats"][0]["link"], 1280, 800)
    bea, _ = open_page(browser, server, table["seats"][1]["link"], 390, 844)
    for page in (ana, bea):
        page.wait_for_selector("#bets-state.open", timeout=120000)
    space = next(s for s in ("win:7:R", "win:6:R", "win:8:R", "place:5:R")
                 if not ana.locator(f'[data-space="{s}"].taken').count())
    ana.click(f'[data-space="{space}"]')
    ana.wait_for_selector(f'[data-space="{space}"].mine')
    bea.wait_for_selector(f'[data-space="{space}"].taken')
    bea.locator(f'[data-space="{space}"]').scroll_into_view_if_needed()
    box = bea.locator(f'[data-space="{space}"]').bounding_box()
    bea.click(f'[data-space="{space}"]')
    toast = bea.wait_for_selector(".error-box")
    text = toast.text_content()
    words = {"win": "Win on horse", "place": "Place on horse"}[space.split(":")[0]]
    assert f"{words} {space.split(':')[1]} is taken by Ana's token" in text, text
    assert not FORBIDDEN.search(text), text
    assert bea.locator(f'[data-space="{space}"]').bounding_box() == box, ("the toast moves nothing", box)
    assert bea.evaluate("getComputedStyle(document.querySelector('#messages')).position") == "fixed"
    screenshot(bea, "rsb-toast-phone")
    # R7 on a phone: the track stays pinned above the board while the board scrolls
    bea.locator('[data-space="win:11/12:R"]').scroll_into_view_if_needed()
    track = bea.locator("#track").bounding_box()
    assert track["y"] >= 0 and track["y"] + track["height"] <= 844
    board_row = bea.locator('[data-space="win:11/12:R"]').bounding_box()
    assert board_row["y"] >= track["y"] + track["height"], "the track is above the board, not over it"
    screenshot(bea, "rsb-board-scrolled-phone")
    for page in (ana, bea):
        page.close()


def open_page(browser, server, link, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + link)
    page.wait_for_selector("#board .space")
    return page, errors
