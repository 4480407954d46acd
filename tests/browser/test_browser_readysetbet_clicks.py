"""Ready Set Bet at a real table (issue 11, points 3, 4 and 7): no click is lost while the race
runs, refusals are toasts in words that move nothing, and the track stays on screen."""

import json
import re

import pytest

from tests.browser.conftest import assert_pair_labels_fit, create, screenshot, send_as, states_of

pytestmark = pytest.mark.browser

CLICKS = 60
PRESS_MS = 100     # each click holds the button 100 ms: an update during the press must not lose it
PACE = 0.6         # seconds between rolls: about a roll every four clicks
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
#: the panels R7 keeps in view while the race runs
KEPT_IN_VIEW = ("track", "bets-state", "redline")
#: an element scrolled into view if it is not (to the middle of the window, as chromium's
#: scrollIntoViewIfNeeded does), its box in the window, and then the boxes of the panels R7 keeps in
#: view (null where one is not shown: the bets badge between races and once the game is over)
SCROLLED_INTO_VIEW = """(node) => {
  node.scrollIntoViewIfNeeded(true);
  const r = node.getBoundingClientRect();
  const panels = {};
  for (const id of %s) {
    const p = document.getElementById(id).getBoundingClientRect();
    panels[id] = p.width && p.height ? { y: p.y, height: p.height } : null;
  }
  return { x: r.x, y: r.y, width: r.width, height: r.height, panels };
}""" % json.dumps(KEPT_IN_VIEW)
#: ids, rule codes or 0-based seat numbers a person must never read
FORBIDDEN = re.compile(r"(win|place|show|colour|prop|exotic):\S|bonus-\d|house-\d|\(R\d+\)|\b[Ss]eat \d")
#: whether the toast on screen leaves the race's commentary (the caller's last line, over the
#: track) and the status line above it uncovered, and what the commentary says
COMMENTARY_AND_TOAST = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const toast = box(".error-box");
  const apart = (r) => r.bottom <= toast.top || toast.bottom <= r.top || r.right <= toast.left || toast.right <= r.left;
  return { said: document.querySelector("#announce").textContent.trim(), commentary: apart(box("#announce")), status: apart(box(".rsb-status")) };
}"""


def assert_commentary_in_sight(page):
    """A refusal's toast covers neither the race's commentary nor the status line above it."""
    seen = page.evaluate(COMMENTARY_AND_TOAST)
    assert seen["said"] and seen["commentary"] and seen["status"], seen


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
    board_top = "() => document.querySelector('#board').getBoundingClientRect().top + scrollY"
    board_at = page.evaluate(board_top)
    out_of_view, racing, window_height = [], 0, page.viewport_size["height"]
    for n in range(CLICKS):
        # scrolled into view where needed, as scroll_into_view_if_needed() does, and its box: one round trip
        box = page.eval_on_selector(f'[data-space="{targets[n % len(targets)]}"]', SCROLLED_INTO_VIEW)
        # R7: wherever the board is clicked while the race runs, the track, bets open/closed and the
        # red line stay in view (the race may end while a slow machine clicks: then the badge goes)
        shown = {name: panel for name, panel in box["panels"].items() if panel is not None}
        racing += len(shown) == len(KEPT_IN_VIEW)
        out_of_view += [(n, name, panel) for name, panel in shown.items()
                        if panel["y"] < 0 or panel["y"] + panel["height"] > window_height]
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_timeout(PRESS_MS)   # the paced clicking itself
        page.mouse.up()
        if n == 30:
            screenshot(page, "rsb-clicks-laptop")
    assert racing >= 10, f"only {racing} of {CLICKS} clicks made while the race ran"
    assert not out_of_view, out_of_view
    assert page.locator("#track").bounding_box()["y"] <= track_top
    assert page.evaluate(board_top) == board_at, "nothing pushed the board down while the race ran"
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
    print(f"{CLICKS} clicks: {placed} bets placed, {refused} refused with a toast")
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
    ana, _ = open_page(browser, server, table["seats"][0]["link"], 1280, 800, lang="es")
    bea, _ = open_page(browser, server, table["seats"][1]["link"], 390, 844)
    for page in (ana, bea):
        page.wait_for_selector("#bets-state.open", timeout=120000)
    free = [s for s in ("win:7:R", "win:6:R", "win:8:R", "place:5:R", "place:9:R", "win:9:R", "win:5:R")
            if not ana.locator(f'[data-space="{s}"].taken').count()]
    space = free[0]
    ana.click(f'[data-space="{space}"]')
    ana.wait_for_selector(f'[data-space="{space}"].mine')
    # R4: one token per space; the engine's refusal starts in lower case ("ya tienes una ficha en
    # ..."), as it may stand inside another sentence: the toast reads it as a sentence
    ana.click(f'[data-space="{space}"]')
    refusal = ana.wait_for_selector(".error-box").text_content()
    assert refusal.startswith("Ya tienes una ficha en "), refusal
    assert_commentary_in_sight(ana)   # the toast stood over the commentary's line
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
    # over the track's panel, never over the board (issue 34): out of the flow, it moves nothing
    assert bea.evaluate("getComputedStyle(document.querySelector('#messages')).position") == "absolute"
    assert bea.evaluate("document.querySelector('.p-track').contains(document.querySelector('#messages'))")
    assert_commentary_in_sight(bea)
    screenshot(bea, "rsb-toast-phone")
    # a new bet clears the refusal at once (it stayed 8 seconds over the bets that followed)
    good = next(s for s in free[1:] if not bea.locator(f'[data-space="{s}"].taken').count())
    assert bea.locator(".error-box").count() == 1
    bea.click(f'[data-space="{good}"]')
    bea.wait_for_selector(".error-box", state="detached", timeout=2500)
    bea.wait_for_selector(f'[data-space="{good}"].mine')
    # a horse of two numbers keeps its label inside its circle, on a phone's track and a laptop's
    # (where "11/12" on one line ran over its circle's edge)
    assert_pair_labels_fit(bea)
    assert_pair_labels_fit(ana)
    # R7 on a phone: the track stays pinned above the board while the board scrolls
    bea.locator('[data-space="win:11/12:R"]').scroll_into_view_if_needed()
    track = bea.locator("#track").bounding_box()
    assert track["y"] >= 0 and track["y"] + track["height"] <= 844
    board_row = bea.locator('[data-space="win:11/12:R"]').bounding_box()
    assert board_row["y"] >= track["y"] + track["height"], "the track is above the board, not over it"
    screenshot(bea, "rsb-board-scrolled-phone")
    for page in (ana, bea):
        page.close()


def place_the_house_tokens(server, table):
    """R9: whoever chance made the House of race 1 puts the 6 House tokens on free spaces, over the
    table's WebSocket as its page would; returns the House's seat once the race is on."""
    from websockets.sync.client import connect

    watching = send_as(server, table, {"type": "ping"}, until=lambda m: m["view"]["house_seat"] is not None)
    house = watching["view"]["house_seat"]
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "token": table["seats"][house]["token"]}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            # an act on a state the table has left ("stale") is answered by the state that follows
            assert message["type"] != "error" or message["code"] == "stale", message
            if message["type"] != "state":
                continue
            if message["view"]["phase"] == "race":
                return house
            decision = message["decision"]
            if decision and decision.get("seat") == house and decision.get("options"):
                ws.send(json.dumps({"v": 1, "type": "act", "state_id": message["state_id"], "action": decision["options"][0]}))


def test_the_rotating_house_is_told_it_bets_with_the_house_tokens_only(server, browser):
    """R9 (Rotating House): the House of a race bets only with the House tokens it placed before
    the race. Its page says so, offers none of its own tokens (none chosen, none to click) and
    answers a click on the board with the same words, not a bet refused by the server."""
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "rotating_house", "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}], "pace": 30})
    house = place_the_house_tokens(server, table)
    page, errors = open_page(browser, server, table["seats"][house]["link"], 1366, 800)
    page.wait_for_selector("#bets-state.open")   # the others bet
    assert page.text_content("#mine .hint") == "You are the House this race: you bet with the House tokens only."
    tokens = page.locator("#tokens .token")
    assert tokens.count() == 5 and all(tokens.nth(n).is_disabled() for n in range(5)), "R9: the House's own tokens wait"
    assert page.locator("#tokens .token.selected").count() == 0
    page.click('[data-space="win:7:R"]')
    toast = page.wait_for_selector(".error-box").text_content()
    assert toast.startswith("You are the House this race: the House bets only with its house tokens, before the race"), toast
    assert "Rule" in toast and not FORBIDDEN.search(toast), toast
    screenshot(page, "rsb-rotating-house-laptop")
    # the other player bets as usual
    bettor, _ = open_page(browser, server, table["seats"][1 - house]["link"], 390, 844)
    bettor.wait_for_selector("#bets-state.open")
    assert bettor.text_content("#mine .hint") == "Choose a token, then click a space on the board."
    assert bettor.get_attribute("#tokens .token.selected", "data-token") == "5"
    assert not errors, errors
    page.close()
    bettor.close()


def open_page(browser, server, link, width, height, lang=None):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if lang:   # the page's language menu, as chosen on an earlier visit
        page.add_init_script(f"localStorage.setItem('hippodrome.lang', '{lang}')")
    page.goto(server.url + link)
    page.wait_for_selector("#board .space")
    return page, errors


#: the VIP cards dealt after race 1 (R8): Ana draws the first two, the bot the next two
VIP_ON_TOP = ["bonus-4-black", "last-call-1", "bonus-2-white", "lucky-9"]


def deal_vip_cards_on_top(server, table_id, cards):
    """Put these VIP cards on top of a stopped server's stored shuffle (the game replays its log
    when the server starts: the same game, with the deck in this order)."""
    import sqlite3

    with sqlite3.connect(server.db) as db:
        for n, entry in db.execute("SELECT n, entry FROM actions WHERE table_id = ?", (table_id,)).fetchall():
            entry = json.loads(entry)
            if entry["action"].get("type") == "shuffle":
                deck = entry["action"]["vip"]
                entry["action"]["vip"] = cards + [card for card in deck if card not in cards]
                db.execute("UPDATE actions SET entry = ? WHERE table_id = ? AND n = ?", (json.dumps(entry), table_id, n))
                return
    raise AssertionError("the table has no shuffle in its log")


#: the Keep buttons of the VIP choice and the between-races panel: their boxes in the window, and
#: whether the panel's content is cut
CHOICE_AND_PANEL = """() => {
  const box = (node) => { const r = node.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  const panel = document.querySelector('#lifecycle');
  return { buttons: [...document.querySelectorAll("#decision [data-type='vip']")].map(box), panel: box(panel),
           cut: panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1,
           width: innerWidth, height: innerHeight };
}"""


def assert_choice_and_panel_in_view(page):
    """The VIP card to keep (R8) and the between-races panel are both whole in the window, the one
    never over the other."""
    seen = page.evaluate(CHOICE_AND_PANEL)
    inside = lambda r: r["left"] >= 0 and r["top"] >= 0 and r["right"] <= seen["width"] and r["bottom"] <= seen["height"]
    apart = lambda a, b: a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
    assert len(seen["buttons"]) == 2 and inside(seen["panel"]) and not seen["cut"], seen
    for button in seen["buttons"]:
        assert inside(button) and apart(button, seen["panel"]), (button, seen)


def test_vip_cards_bonus_tokens_results_and_the_final_screen(own_server, browser):
    """R8: the VIP choice says what each card does and is in view with the between-races panel, the
    kept bonus token looks different in the tray and on the board and is never chosen for the
    player, other players' cards are public; results explain each bet and tell one horse's spaces
    apart; the end shows every race in a table and a chart."""
    from tests.browser.conftest import place_bet, set_clock

    server = own_server
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bea", "kind": "bot", "level": "value"}], "pace": 0.05})
    set_clock(server, table, paused=True)
    server.stop()
    deal_vip_cards_on_top(server, table["id"], VIP_ON_TOP)
    server.start()
    page, errors = open_page(browser, server, table["seats"][0]["link"], 1280, 800)
    page.wait_for_selector("#tokens [data-token='5']")
    # all five tokens on the board (each click bets the highest free one), two of them on the
    # middle and right Win spaces of one horse (R5: the same multiplier, other red circles)
    free = lambda space: not page.locator(f'[data-space="{space}"].taken, [data-space="{space}"].mine').count()
    horse = next(h for h in ("7", "6", "8") if free(f"win:{h}:M") and free(f"win:{h}:R"))
    spaces = [f"win:{horse}:M", f"win:{horse}:R"]
    spaces += [space for space in ("place:5:R", "place:9:R", "show:4:R", "show:10:R", "place:4:R", "place:10:R")
               if free(space)][:3]
    for space in spaces:
        page.click(f'[data-space="{space}"]')
        page.wait_for_selector(f'[data-space="{space}"].mine')
    printed = {space: (page.text_content(f'[data-space="{space}"] .pay'), page.text_content(f'[data-space="{space}"] .pen'))
               for space in spaces[:2]}
    # R4: every token placed: the tray says so, instead of asking for a token
    assert page.text_content("#mine .hint") == "All your tokens are on the board this race; placed tokens never move."
    # a VIP card's payout in words that need no article before the number ("a 11")
    effect = "async () => (await import('/static/readysetbet.js')).vipEffect('lucky-11')"
    assert page.evaluate(effect) == "$1 for every roll of 11"
    set_clock(server, table, paused=False)
    page.wait_for_selector("#decision [data-type='vip']", timeout=300000)   # race 1 is settled: keep a card
    set_clock(server, table, paused=True)   # race 2 waits for the bonus token's bet
    options = page.locator("#decision [data-type='vip']").all_text_contents()
    assert any("Bonus Token: black 4" in o and "a bonus token 4; when it loses, it costs $1 more" in o for o in options), options
    assert any("Last Call" in o and "No more bets" in o for o in options), options
    rows = page.locator("#settlement tr.settled[data-seat='0']")
    assert rows.count() == 5 and all(re.search(r"= \$\d+|-\$\d+ for the space|nothing to pay", rows.nth(n).text_content())
                                     for n in range(5))
    # one horse's two Win spaces, told apart as the board prints them: "Win on horse 7 (×3, -$3)"
    named = [page.text_content(f"#settlement tr.settled[data-seat='0'][data-space='{space}'] td") for space in spaces[:2]]
    assert named[0] != named[1], named
    for space, text in zip(spaces[:2], named):
        pay, pen = printed[space]
        assert text == (f"Win on horse {horse} ({pay}, {pen})" if pen else f"Win on horse {horse} ({pay})"), (text, pay, pen)
    assert page.locator("#settlement tr.player").count() == 2, "the results are grouped by player"
    assert "→" in page.text_content("#settlement tr.player[data-seat='0']"), "money before and after"
    assert page.locator("#board .space.winning").count() >= 5, "the winning spaces are marked on the board"
    # the choice to make and the between-races panel, both whole on a laptop (the page as it comes)
    # and on a phone (the choice scrolled up to the top)
    page.wait_for_selector("#lifecycle[data-status=between_races]")
    page.set_viewport_size({"width": 1366, "height": 800})
    page.evaluate("() => window.scrollTo(0, 0)")
    assert_choice_and_panel_in_view(page)
    screenshot(page, "rsb-results-vip-choice-laptop")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#settlement").scroll_into_view_if_needed()
    screenshot(page, "rsb-results-laptop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => document.querySelector('#decision-box').scrollIntoView({ block: 'start' })")
    assert_choice_and_panel_in_view(page)
    screenshot(page, "rsb-vip-choice-phone")
    page.locator("#settlement").scroll_into_view_if_needed()
    screenshot(page, "rsb-results-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#decision [data-type='vip']", has_text="Bonus Token").click()
    page.wait_for_selector("#tokens [data-token='bonus-4-black'].bonus-black")
    page.wait_for_selector("#lifecycle[data-status=between_races] .lifecycle-mine:not([hidden])")
    page.click("#lifecycle .lifecycle-mine")   # Next race: the results stay until it is pressed
    page.wait_for_function("() => document.querySelector('#bets-state').classList.contains('open')")
    assert page.text_content("#announce") == "They're off: place your bets!"
    # between races the bonus token was the only free one; with the new race the page chooses
    # again: the highest plain token, never a bonus token that costs $1 more when it loses (R8)
    assert page.get_attribute("#tokens .token.selected", "data-token") == "5"
    assert "a bonus token 4" in page.text_content("#my-vip")
    # the bot kept one of its two cards: it is public at the table
    page.wait_for_selector("#players .player-row[data-seat='1'] .vip")
    assert re.search(r"Bonus Token: white 2|Lucky Number: 9", page.text_content("#players"))
    page.locator("#players").scroll_into_view_if_needed()
    screenshot(page, "rsb-players-vip-laptop")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click("#tokens [data-token='bonus-4-black']")
    screenshot(page, "rsb-bonus-token-tray-laptop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#mine").scroll_into_view_if_needed()
    screenshot(page, "rsb-bonus-token-tray-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    space = place_bet(page, ["win:9:R", "win:10:R", "win:5:R", "place:9:R"])
    assert page.locator(f'[data-space="{space}"] .chip.bonus-black').count() == 1, "a bonus token looks different on the board"
    screenshot(page, "rsb-bonus-token-board-laptop")
    set_clock(server, table, paused=False)
    page.wait_for_selector("#final:not([hidden]) #money-chart", timeout=300000)
    # the final screen shows every race: a column per race, a line per player, each race's results
    assert page.locator("#race-table tr[data-seat]").count() == 2
    assert page.locator("#race-table th").all_text_contents()[-2:] == ["Race 1", "Race 2"]
    assert page.locator("#money-chart g.series").count() == 2
    assert page.locator("#money-chart g.series circle").count() == 2 * 3
    assert page.locator("#final details.race-details").count() == 2
    bonus_line = page.locator("#race-2 tr.settled[data-seat='0']", has_text="black bonus token 4")
    assert bonus_line.count() == 1 and re.search(r"4 × \d+ = \$\d+|-\$1 for the bonus token", bonus_line.text_content())
    screenshot(page, "rsb-final-laptop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "rsb-final-phone")
    assert not errors, errors
    page.close()
