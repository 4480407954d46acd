"""TurfMaster in the browser: a whole race by clicking, hidden hands, a server killed mid-game."""

import re

import pytest

from hippodrome.i18n import translate
from tests.browser.conftest import create, open_seat, screenshot

pytestmark = pytest.mark.browser


def race_table(server, people=1, bots=1, level="random"):
    seats = [{"name": f"P{n}", "kind": "person"} for n in range(people)]
    seats += [{"name": f"Bot{n}", "kind": "bot", "level": level} for n in range(bots)]
    colours = ["red", "blue", "yellow", "green"]
    setup = {"course": "oval", "horses": [{"id": colours[n], "owner": n} for n in range(len(seats))],
             "seats": len(seats)}
    return create(server, {"game": "turfmaster-race", "setup": setup, "seats": seats})


ACTIONABLE = ".card.playable, .reach-layer polygon, #decision button.option, #play-anyway"
# what the page asks of its seat now: {over: true}, {over: false, what, state} or null (not yet)
MY_TURN = """(actionable) => {
  const turn = document.querySelector('#turn');
  if (!turn) return null;
  if (turn.dataset.over === 'yes') return { over: true };
  if (document.querySelector("#lifecycle[data-status=between_races] .lifecycle-mine:not([disabled]):not([hidden])")) return { over: false, what: 'next_race' };
  if (turn.dataset.mine !== 'yes' || !document.querySelector(actionable)) return null;
  const what = document.querySelector('.reach-layer polygon') ? 'square' : document.querySelector('#play-anyway') ? 'anyway'
    : document.querySelector('.card.playable') ? 'card' : 'option';
  return { over: false, what, state: Number(document.querySelector('#app').dataset.stateId) };
}"""


def next_turn(page, timeout=60.0):
    """Wait until this seat has something to click or the game is over (see MY_TURN)."""
    return page.wait_for_function(MY_TURN, arg=ACTIONABLE, timeout=timeout * 1000).json_value()


def wait_for_my_turn_or_end(page, timeout=60.0):
    """True when this seat has something to click, False when the game is over."""
    return not next_turn(page, timeout)["over"]


def confirm_a_fall(page):
    """A square where the horse falls (T11) asks for a confirmation first: say yes."""
    if page.locator("#confirm-fall").count():
        page.click("#confirm-fall", timeout=3000)


def play_one_decision(page, turn=None):
    """Take the decision in front of this seat by clicking, as a person would."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    turn = turn or next_turn(page)
    if turn["over"]:
        return
    try:
        if turn["what"] == "next_race":  # between races: ready for the next one
            page.click("#lifecycle .lifecycle-mine", timeout=3000)
            page.wait_for_selector("#lifecycle .lifecycle-mine[disabled], #lifecycle[hidden]", state="attached")
            return
        if turn["what"] == "card":
            page.locator(".card.playable").first.click(timeout=3000)
            # its squares light up (or the page offers to play it anyway): the first of them
            page.wait_for_selector(".reach-layer polygon, #play-anyway", timeout=5000).click(timeout=3000)
            confirm_a_fall(page)
        elif turn["what"] == "square":
            page.locator(".reach-layer polygon").first.click(timeout=3000)
            confirm_a_fall(page)
        elif turn["what"] == "anyway":
            page.click("#play-anyway", timeout=3000)
        else:
            page.locator("#decision button.option").first.click(timeout=3000)
    except PlaywrightTimeout:
        return  # the state moved on under the pointer: look again
    # the page changes when the server has taken the move
    page.wait_for_function(f"() => Number(document.querySelector('#app').dataset.stateId) > {turn['state']}",
                           timeout=30000)


def test_a_person_plays_a_whole_race_against_bots_by_clicking(server, browser):
    table = race_table(server, people=1, bots=2)
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#course svg polygon")
    decisions = 0
    shot = False
    while not (turn := next_turn(page))["over"]:
        if not shot and turn["what"] == "card":
            page.locator(".card.playable").first.click()
            page.wait_for_selector(".reach-layer polygon, #play-anyway")
            screenshot(page, "turfmaster-laptop-card-chosen")
            shot = True
            turn = next_turn(page)
        play_one_decision(page, turn)
        decisions += 1
        assert decisions < 200, "the race should end well before 200 decisions"
    assert "The race is over." in page.text_content("#turn")
    places = page.locator("#race-table tr")
    assert places.count() == 3, "T9: every horse that did not fall is ranked"
    assert decisions >= 10
    assert not errors, errors
    screenshot(page, "turfmaster-laptop-race-over")
    page.close()


def test_two_people_each_see_only_their_own_hand(server, browser):
    table = create(server, {"game": "turfmaster", "setup": {"players": 2, "horses_per_player": 2,
                                                            "names": ["Ana", "Bo"]},
                            "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    pages = []
    for seat in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(server.url + table["seats"][seat]["link"])
        pages.append(page)
    spectator = browser.new_page()
    spectator.goto(server.url + table["spectator_link"])
    hands = []
    for page in pages:
        page.wait_for_selector("#hands .hand")
        hands.append(set(page.eval_on_selector_all("#hands .hand", "rows => rows.map(r => r.dataset.horse)")))
    # seat 0 runs red and blue, seat 1 yellow and green (the meeting's allocation); each sees its own
    assert hands == [{"red", "blue"}, {"yellow", "green"}]
    for page, mine in zip(pages, hands):
        shown = page.eval_on_selector_all("#hands .card", "cards => cards.map(c => c.dataset.horse)")
        assert set(shown) == mine and len(shown) == 20
    spectator.wait_for_selector("#hands p")
    assert spectator.locator("#hands .card").count() == 0
    assert "hidden" in spectator.text_content("#hands")
    screenshot(pages[0], "turfmaster-phone-seat0")
    for page in pages + [spectator]:
        page.context.close() if page is not spectator else page.close()


def test_the_page_survives_a_server_killed_mid_game(own_server, browser):
    server = own_server
    table = race_table(server, people=1, bots=1)
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#course svg polygon")
    assert wait_for_my_turn_or_end(page)
    play_one_decision(page)
    assert wait_for_my_turn_or_end(page)
    log_before = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    state_before = int(page.get_attribute("#app", "data-state-id"))
    assert log_before
    server.kill()  # kill -9: nothing is flushed on the way out
    page.wait_for_function("() => document.querySelector('#connection').dataset.status !== 'online'")
    server.start()
    # the page tries again after growing pauses (up to 5 s): the bound only matters if it never does
    page.wait_for_function("() => document.querySelector('#connection').dataset.status === 'online'",
                           timeout=60000)
    assert wait_for_my_turn_or_end(page)
    log_after = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    assert log_after == log_before, "the table resumed exactly where it was"
    assert int(page.get_attribute("#app", "data-state-id")) == state_before
    play_one_decision(page)  # and the game goes on
    assert int(page.get_attribute("#app", "data-state-id")) > state_before
    page.close()


def test_a_person_plays_a_steeplechase_race_by_clicking_and_goes_on_to_the_next(server, browser):
    """T8, T10, T11: the bonus cards before the race, falls at fences, the race's end, the cards to
    keep and Next race, all clicked through by Playwright as a person clicks (the control must be
    on screen and not covered), until the second race of the meeting is on. (Whole meetings to
    their final table: the whole-meeting test of test_browser_turfmaster_table.py, and the
    8-horse steeplechase meeting of test_browser_catalog_coverage_meetings.py.)"""
    table = create(server, {"game": "turfmaster", "setup": {"players": 2, "horses_per_player": 2, "steeplechase": True},
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "tactical"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#course svg polygon.fence")
    decisions = 0
    while "Race 2 of 3" not in page.text_content("#stage"):
        turn = next_turn(page)
        assert not turn["over"]
        play_one_decision(page, turn)
        decisions += 1
        assert decisions < 400
    assert page.locator("#log li.separator").count() >= 1   # race 1's heading in the log (T10)
    assert not errors, errors


# -- languages and the move log -----------------------------------------------------------------
TABLE_LABELS = ["Your hand", "Horses", "Moves", "Horse", "Owner", "Where", "Cards"]


def test_a_turfmaster_table_speaks_german_and_switches_without_reload(server, browser):
    table = create(server, {"game": "turfmaster", "setup": {"players": 2, "horses_per_player": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "tactical"}]})
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale="de-DE",
                                  extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#hands .hand")
    page.wait_for_selector("#turn[data-mine=yes]")
    text = page.inner_text("body")
    for english in TABLE_LABELS:
        german = translate("de", english)
        assert german != english and german in text, english
        assert not re.search(rf"\b{re.escape(english)}\b", text), f"English {english!r} on a German page"
    # where the meeting is: before race 1, its owners asked about their bonus cards (T8)
    assert page.inner_text("#stage") == translate("de", "Race {n} of 3 – before the start", n=1)
    assert translate("de", "Red") in page.inner_text("#horses")
    assert page.title().startswith(translate("de", "Table {id}", id=table["id"]))
    screenshot(page, "turfmaster-german")
    page.select_option("#lang", "es")   # everything on screen follows, without a reload
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg=translate("es", "Your hand"))
    assert translate("es", "Red") in page.inner_text("#horses")
    assert page.inner_text("#connection") == translate("es", "online")
    context.close()


def test_the_move_log_is_in_the_order_things_happened(server, browser):
    """T8: bonus cards given up before a race come before its moves; a claim during the race sits
    where it happened; a fall (T11) follows its move; the newest line is at the top."""
    page = browser.new_page()
    page.goto(server.url + "/")
    card = lambda horse, n: {"event": "card", "horse": horse, "card": n}
    move = lambda horse, **extra: {"event": "move", "horse": horse, "steps": 3, "to": {"lane": 0, "square": 4}, **extra}
    view = {"phase": "race", "race_no": 2, "results": [{}],
            "events": [{"race": 1, "event": "claim_bonus", "horse": "red"},
                       {"race": 2, "event": "bonus_discard", "horse": "red", "cards": 2},
                       {"race": 2, "event": "claim_bonus", "horse": "blue", "during_race": True}]}
    race = {"history": [card("red", "4"), move("red", fell=True), card("blue", "5"), move("blue")]}
    order = page.evaluate("""async ([view, race]) => {
        const m = await import('/static/turfmaster.js');
        return m.timeline(view, race, {2: 2}).map((e) => `${e.event}:${e.horse}`);
    }""", [view, race])
    assert order == ["claim_bonus:red", "bonus_discard:red", "card:red", "move:red", "fall:red",
                     "claim_bonus:blue", "card:blue", "move:blue"]
    between = dict(view, phase="prepare", race_no=3, results=[{}, {}],
                   events=view["events"] + [{"race": 3, "event": "bonus_dealt", "horse": "red"}])
    order = page.evaluate("""async ([view, race]) => {
        const m = await import('/static/turfmaster.js');
        return m.timeline(view, race, {2: 2}).map((e) => e.event);
    }""", [between, race])
    assert order[-1] == "bonus_dealt", "an event before race 3 follows race 2's moves"
    page.close()


def test_the_log_on_screen_shows_the_newest_move_first(server, browser):
    table = race_table(server, people=1, bots=1)
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + table["seats"][0]["link"])
    for _ in range(3):
        if not wait_for_my_turn_or_end(page):
            break
        play_one_decision(page)
    page.wait_for_selector("#log li")
    wait_for_my_turn_or_end(page)   # the bots have moved: the page is still until this seat acts
    events = page.eval_on_selector_all("#log li", "items => items.map(i => i.dataset.event)")
    assert page.get_attribute("#log", "data-order") == "newest-first"
    assert events[-1] in ("card", "roll"), "the oldest line, at the bottom, is the race's first event"
    page.close()


def test_switching_the_language_keeps_the_course_on_screen(server, browser):
    """The page redraws everything in the new language, the course included (it used to vanish),
    and mid-race the seat still plays there: a card chosen lights its squares, one is clicked."""
    table = race_table(server, people=1, bots=1)
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#course svg polygon")
    squares = page.locator("#course svg polygon").count()
    play_one_decision(page)   # mid-race: a move of this seat made
    for lang in ("de", "es"):
        page.select_option("#lang", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        page.wait_for_function("(n) => document.querySelectorAll('#course svg polygon').length >= n", arg=squares)
    for _ in range(3):   # the next card played in Spanish (or the game ended first: a move of the bot's)
        turn = next_turn(page)
        if turn["over"] or turn["what"] == "card":
            break
        play_one_decision(page, turn)
    if not turn["over"]:
        page.locator(".card.playable").first.click()
        page.wait_for_selector(".reach-layer polygon, #play-anyway")
        screenshot(page, "turfmaster-es-after-switching")
        play_one_decision(page, dict(turn, what="square" if page.locator(".reach-layer polygon").count() else "anyway"))
    assert not errors, errors
    page.close()
