"""TurfMaster at the table: every consequence shown before a card is played (falls coloured and
confirmed, T11), whose turn for everyone, the keep-cards screen in one go (T8), the move log with
race separators and the draws (T10), and the final screen (T9) with "Play again"."""

import json
import random
import urllib.request

import pytest

from hippodrome.core.game import decision_view
from hippodrome.core.match import Match
from hippodrome.server.views import json_default
from tests.browser.conftest import TURFMASTER_SEAT_AUTOPLAY, create, open_seat, screenshot

pytestmark = pytest.mark.browser


def get(server, path):
    return json.loads(urllib.request.urlopen(server.url + path).read())


def wait_text(page, selector, text, timeout=30000):
    page.wait_for_function("([s, t]) => { const n = document.querySelector(s); return n && n.innerText.includes(t); }",
                           arg=[selector, text], timeout=timeout)


def phone(browser, server, link):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server.url + link)
    return page


def test_a_fall_is_coloured_named_and_confirmed_and_others_see_whose_turn(server, browser):
    """T11: red, two squares before fence 1 with a 6, cannot complete the jump in a round of cards."""
    setup = {"course": "oval", "steeplechase": True, "seats": 2,
             "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 2, "square": 6}, {"id": "blue", "lane": 4, "square": 3}],
             "hands": {"red": ["6", "J12"], "blue": ["3", "4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup,
                            "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size({"width": 1280, "height": 800})
    watcher = phone(browser, server, table["spectator_link"])
    wait_text(watcher, "#turn", "Ana to play")
    assert watcher.text_content("#turn") == "Ana to play: play a card for Red"
    page.wait_for_selector("#turn[data-mine=yes]")
    page.click(".card.playable[data-card='6']")
    page.wait_for_selector(".reach-layer polygon.falls")
    marks = page.eval_on_selector_all(".reach-layer polygon", "ps => ps.map(p => p.dataset.falls)")
    assert marks and set(marks) == {"yes"}
    said = page.inner_text("#decision")
    assert "Red falls at fence 1" in said and "out of this race" in said
    screenshot(page, "tm-table-falls-desktop")
    state = page.get_attribute("#app", "data-state-id")
    page.locator(".reach-layer polygon").first.click()
    page.wait_for_selector("#confirm-box")
    assert "fence 1" in page.inner_text("#confirm-box")
    assert page.locator(".reach-layer polygon").count() == 0, "only the square waiting for a yes is shown"
    screenshot(page, "tm-table-fall-confirm-desktop")
    assert page.get_attribute("#app", "data-state-id") == state, "nothing is played before the confirmation"
    page.click("#cancel-fall")
    page.wait_for_selector(".reach-layer polygon.falls")
    page.locator(".reach-layer polygon").first.click()
    page.click("#confirm-fall")
    page.wait_for_selector("#log li[data-event=fall]")
    assert "Red falls at fence 1" in page.inner_text("#log")
    watcher.wait_for_selector("#log li[data-event=fall]")
    wait_text(watcher, "#turn", "Bo to play")
    assert "play a card for Blue" in watcher.text_content("#turn")
    screenshot(watcher, "tm-table-spectator-phone")
    assert not errors, errors
    watcher.context.close()
    page.close()


#: each disabled card's opacity and the contrast of its number against its face (WCAG's ratio)
DISABLED_CARDS = """() => [...document.querySelectorAll('#hands .card:disabled')].map((card) => {
  const style = getComputedStyle(card);
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
  return { card: card.dataset.card, opacity: Number(style.opacity), contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
})"""


def test_a_hand_waiting_for_its_turn_stays_legible(server, browser):
    """While another seat plays a card (T1), a player reads its own hand: its cards cannot be
    pressed, yet their numbers keep a contrast of at least 4.5:1 (WCAG AA), not faded."""
    setup = {"course": "oval", "seats": 2, "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 2, "square": 6}, {"id": "blue", "lane": 4, "square": 3}],
             "hands": {"red": ["6", "J12"], "blue": ["3", "4", "J11"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    page, errors = open_seat(browser, server, table["seats"][1]["link"])
    page.set_viewport_size({"width": 1280, "height": 800})
    wait_text(page, "#turn", "Ana to play")
    cards = page.evaluate(DISABLED_CARDS)
    assert sorted(c["card"] for c in cards) == ["3", "4", "J11"]
    for card in cards:
        assert card["opacity"] == 1 and card["contrast"] >= 4.5, card
    screenshot(page, "tm-table-hand-waiting")
    # the Horses' table says why a handicap may not follow the position shown beside it (T6)
    assert page.inner_text("#handicap-note").startswith("Handicaps are fixed at the start of each round")
    assert page.get_attribute("#handicap-note a.rule-link", "href") == "/rules/turfmaster-race#handicap"   # a single race
    assert errors == []


def test_a_card_above_the_handicap_says_why_it_does_not_move(server, browser):
    """T6: the leader's limit is 8; a 10 is spent without moving. T5: a boxed-in move says so."""
    setup = {"course": "oval", "seats": 2,
             "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 0, "square": 10}, {"id": "blue", "lane": 4, "square": 3}],
             "hands": {"red": ["10", "7"], "blue": ["3", "4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn[data-mine=yes]")
    assert "limit of 8" in page.get_attribute(".card[data-card='10']", "title")
    page.click(".card.playable[data-card='10']")
    page.wait_for_selector("#play-anyway")
    assert "above Red's limit of 8: the card is spent and Red does not move" in page.inner_text("#decision")
    assert "(T6)" not in page.inner_text("#decision")
    page.click(".card.playable[data-card='7']")
    wait_text(page, "#decision", "Red moves 7 points")
    assert not errors, errors
    page.close()


def test_a_whole_meeting_its_log_and_the_final_screen_with_play_again(server, browser):
    """T10: the draws open the log, each race under its heading; T9: the final screen; Play again
    makes a table with the same game, setup and seats and takes the player to its new seat."""
    table = create(server, {"game": "turfmaster", "setup": {"players": 4, "horses_per_player": 1,
                                                            "names": ["Ana", "Bo", "Cy", "Di"]},
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "tactical"},
                                      {"name": "Cy", "kind": "bot", "level": "random"},
                                      {"name": "Di", "kind": "bot", "level": "tactical"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector("#course svg polygon")
    assert "Race 1 of 3" in page.text_content("#stage")
    page.wait_for_selector("#log li[data-event=stall_roll]")
    page.wait_for_selector("#log li[data-event=roller_roll]")
    page.evaluate(TURFMASTER_SEAT_AUTOPLAY)   # a keep-cards screen, if one comes, is confirmed as proposed
    page.wait_for_selector("#turn[data-over=yes]", state="attached", timeout=300000)
    # the final screen
    page.wait_for_selector("#final:not([hidden]) #winner")
    assert "wins the meeting" in page.text_content("#winner") or "share the win" in page.text_content("#winner")
    assert page.locator("#podium li").count() == 3
    assert page.locator("#final-table tr").count() == 5
    assert page.get_attribute("#to-lobby", "href") == "/"
    # the log: the whole meeting, newest race on top, under its heading
    races = page.eval_on_selector_all("#log li.separator", "ls => ls.map(l => l.dataset.race)")
    assert races == ["3", "2", "1"]
    page.wait_for_function("() => document.querySelectorAll('#log li[data-event=move]').length > 30")
    events = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.dataset.event)")
    assert events[-1] in ("stall_roll",) and "roller_roll" in events
    assert events.index("stalls") > events.index("race")
    screenshot(page, "tm-table-final-desktop")
    # the meeting's table ("Clasificación final" in Spanish, the longest words) fits its side
    # panel: every column in sight, "Puntos" included
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es' && document.querySelector('#meeting-table')")
    assert page.eval_on_selector(".p-tables", "p => p.scrollWidth <= p.clientWidth"), \
        page.eval_on_selector(".p-tables", "p => [p.scrollWidth, p.clientWidth]")
    assert "Puntos" in page.inner_text("#meeting-table")
    screenshot(page, "tm-table-final-desktop-es")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, "tm-table-final-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#play-again")   # everyone still here goes to its own new seat (issue 35.5): this page too
    page.wait_for_url(lambda url: "/play/" in url and table["id"] not in url and "#seat=" in url)
    link = page.url
    new_id = link.split("/play/")[1].split("#")[0]
    old, new = get(server, f"/api/tables/{table['id']}"), get(server, f"/api/tables/{new_id}")
    assert new["game"] == old["game"] and new["setup"] == old["setup"]
    assert [(s["name"], s["kind"], s["level"]) for s in new["seats"]] == \
        [(s["name"], s["kind"], s["level"]) for s in old["seats"]]
    screenshot(page, "tm-table-play-again-desktop")
    page.wait_for_selector("#lifecycle[data-status=waiting] .lifecycle-mine:not([hidden])")
    page.click("#lifecycle .lifecycle-mine")   # the new table waits for its people: Ready
    page.wait_for_selector("#turn[data-mine=yes]")
    assert "Race 1 of 3" in page.text_content("#stage")
    assert not errors, errors
    page.close()


# -- keeping cards between races (T8) --------------------------------------------------------------
# A keep decision is rare in play (a horse seldom has cards left after a race), so the page is fed
# the states of a real meeting, brought to one: its hand before race 2 holds the two cards left from
# race 1 and ten new ones, two over the limit. The page's acts go to the engine, and its next states
# back to the page, as the server would.
PAGE_ALONE = """async () => {
  const m = await import('/static/turfmaster.js');
  const { gameDescription } = await import('/static/games.js');
  const description = await gameDescription('turfmaster');
  document.getElementById('messages').hidden = true;   // "there is no table none": the page is ours
  window.__acts = [];
  const page = new m.Page(document.getElementById('app'), { id: 'none', game: 'turfmaster', setup: {}, seats: [] }, description);
  page.connection = { act: (action) => { window.__acts.push(action); return true; }, preview: () => true };
  window.__page = page;
}"""


def meeting_before_race_2():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": ["Ana", "Bo"]}, seed=1)
    rng = random.Random(1)
    while not (match.state.phase == "prepare" and match.state.race_no == 2):
        match.resolve_chance()
        pending = match.state.pending()   # bonus cards kept for later: asked again before race 2
        match.act(pending.seat, rng.choice([o for o in pending.options if o["type"] != "claim_bonus"]))
    match.resolve_chance()
    state = match.state
    state.race.hands["red"] = ["9", "12"]   # left in race 1's hand
    state.hands["red"] = ["9", "12", "3", "4", "7", "7", "8", "9", "10", "10", "11", "J10"]
    state.claim_queue, state.limit["red"] = [], 10
    state._pending_cache = None
    return match


def state_message(match, state_id):
    state = match.state
    message = {"type": "state", "game": "turfmaster", "state_id": state_id, "seat": 0, "view": state.view(0),
               "decision": decision_view(state.pending(), 0, state.public_decision_context, "en"),
               "over": False, "seats": [{"seat": 0, "name": "Ana", "kind": "person"},
                                        {"seat": 1, "name": "Bo", "kind": "person"}]}
    return json.loads(json.dumps(message, default=json_default))


def test_the_cards_to_keep_are_chosen_in_one_go_and_given_up_one_by_one(server, browser):
    match = meeting_before_race_2()
    assert match.state.pending().kind == "keep" and match.state.pending().context["to_discard"] == 2
    page, errors = open_seat(browser, server, "/play/none")   # the play page's frame, no table
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector("#messages .error-box")
    page.evaluate(PAGE_ALONE)
    page.evaluate("(msg) => window.__page.update(msg)", state_message(match, 1))
    page.wait_for_selector("#keep")
    assert page.text_content("#stage") == "Race 2 of 3 – before the start"
    assert page.locator(".keep-card").count() == 12
    assert page.eval_on_selector_all(".keep-card.carried", "cs => cs.map(c => c.dataset.card)") == ["9", "12"]
    assert page.locator("#hands .hand[data-horse=red]").count() == 0, "the hand is shown once, to choose from"
    # the keep screen names one horse: Blue's hand waits for its own turn (issue 33)
    assert page.locator("#hands .hand").count() == 0 and page.text_content("#keep-horse").endswith("Red: the cards to keep")
    # proposed: the two lowest cards; the player gives up the 4 and a 7 instead
    assert page.eval_on_selector_all(".keep-card.given-up", "cs => cs.map(c => c.dataset.card)") == ["3", "4"]
    assert page.text_content("#keep-confirm") == "Keep these 10 cards"
    # a mouse is told to click (a touch screen is told to tap, as on every page)
    assert page.locator("#keep p.muted").text_content().startswith("Click the cards to give up.")
    page.click(".keep-card[data-card='3']")
    assert page.is_disabled("#keep-confirm") and "1 more card to choose" in page.inner_text("#keep-help")
    page.locator(".keep-card[data-card='7']").first.click()
    page.locator(".keep-card[data-card='8']").click()
    assert page.is_disabled("#keep-confirm") and "1 card too many" in page.inner_text("#keep-help")
    page.locator(".keep-card[data-card='8']").click()
    # an update that changes nothing the player touches keeps the choice (a spectator joined, say)
    page.evaluate("(msg) => window.__page.update(msg)", state_message(match, 1))
    assert page.eval_on_selector_all(".keep-card.given-up", "cs => cs.map(c => c.dataset.card)") == ["4", "7"]
    # so does a switch of language (the page is drawn anew: the keep screen used to vanish with the
    # rest of the page behind it)
    for lang, keep in (("de", "Diese 10 Karten behalten"), ("en", "Keep these 10 cards")):
        page.evaluate("""async (lang) => {
            await (await import('/static/i18n.js')).loadLanguage(lang);
            window.__page.rerender();
        }""", lang)
        page.wait_for_function("(keep) => (document.querySelector('#keep-confirm') || {}).textContent === keep", arg=keep)
        assert page.eval_on_selector_all(".keep-card.given-up", "cs => cs.map(c => c.dataset.card)") == ["4", "7"]
        assert page.locator("#horses tr[data-horse]").count() == 4, "the rest of the page is drawn too"
    screenshot(page, "tm-table-keep-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#keep").scroll_into_view_if_needed()
    screenshot(page, "tm-table-keep-phone")
    # on a phone the hand is pinned at the bottom while a race runs; between races the lifecycle
    # panel is, and the hand (with the cards to keep) scrolls with the page, never under the panel
    hand = "() => getComputedStyle(document.querySelector('.p-hand')).position"
    assert page.evaluate(hand) == "sticky"
    page.evaluate("() => { document.body.dataset.tableStatus = 'between_races'; }")   # as web/lifecycle.js marks it
    assert page.evaluate(hand) == "static"
    page.evaluate("() => { document.body.dataset.tableStatus = ''; }")
    page.click("#keep-confirm")
    state_id = 1
    for _ in range(2):   # the engine takes one discard at a time; the page sends the next by itself
        page.wait_for_function("(n) => window.__acts.length >= n", arg=state_id)
        action = page.evaluate("(i) => window.__acts[i]", state_id - 1)
        match.act(0, action)
        state_id += 1
        page.evaluate("(msg) => window.__page.update(msg)", state_message(match, state_id))
    assert [a["card"] for a in page.evaluate("() => window.__acts")] == ["4", "7"]
    assert sorted(match.state.hand("red")) == sorted(["9", "12", "3", "7", "8", "9", "10", "10", "11", "J10"])
    page.wait_for_selector("#keep", state="detached")
    assert page.evaluate("() => window.__acts.length") == 2
    assert not errors, errors
    page.close()


# -- between races (issue 33, points 3 and 4) ------------------------------------------------------
# TurfMaster between races (issue 33, points 3 and 4), the page fed the states of a real seeded
# steeplechase meeting brought to the end of race 1, as the server would send them, with the
# table's lifecycle panel between races: the header says where the meeting is, the result lists
# every horse, the fallen ones with the fence they fell at (T11), the board shows the next race's
# horses in their stalls (T10) and none of the fallen, and the panel covers nothing of the choice
# asked, on a laptop and on a phone.
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
# the page alone, as test_browser_turfmaster_table.py makes it, with the lifecycle panel beside it
PAGE_AND_PANEL = """async () => {
  const m = await import('/static/turfmaster.js');
  const { LifecyclePanel } = await import('/static/lifecycle.js');
  const { gameDescription } = await import('/static/games.js');
  const description = await gameDescription('turfmaster');
  document.getElementById('messages').hidden = true;   // "there is no table none": the page is ours
  const page = new m.Page(document.getElementById('app'), { id: 'none', game: 'turfmaster', setup: {}, seats: [] }, description);
  page.connection = { act: () => true, preview: () => true };
  window.__page = page;
  window.__panel = new LifecyclePanel(document.getElementById('lifecycle'), { send: () => true });
}"""
SHOW = """(msg) => { window.__panel.update(msg); window.__page.update(msg); }"""


def race_1_run():
    """A seeded steeplechase meeting of two players at the end of race 1: Blue and Yellow placed,
    Green and Red fallen; seat 0 is asked about Red's bonus cards before race 2."""
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": ["Ana", "Bo"], "steeplechase": True}, seed=1)
    rng = random.Random(1)
    while not (match.state.phase == "prepare" and match.state.race_no == 2):
        match.resolve_chance()
        pending = match.state.pending()
        match.act(pending.seat, rng.choice([o for o in pending.options if o["type"] != "claim_bonus"]))
    match.resolve_chance()
    assert match.state.results[0]["fallen"] == ["green", "red"] and match.state.pending().seat == 0
    return match


def fence_fallen_at(match, horse):
    """T11: the fence a horse fell at in race 1, as the engine has it: the fence on the line just
    ahead of the square its falling move ended on."""
    course = match.state.race.course
    move = next(e for e in reversed(match.state.histories[0]) if e["event"] == "move" and e["horse"] == horse and e.get("fell"))
    line = course.line_of[course.square(move["to"]["lane"], move["to"]["square"] + 1)]
    return next(f["number"] for f in course.data["fences"] if f["line"] == line)


def message(match, state_id):
    state = match.state
    return json.loads(json.dumps({
        "type": "state", "game": "turfmaster", "state_id": state_id, "seat": 0, "status": "between_races",
        "view": state.view(0), "decision": decision_view(state.pending(), 0, state.public_decision_context, "en"),
        "over": False, "seats": [{"seat": 0, "name": "Ana", "kind": "person"}, {"seat": 1, "name": "Bo", "kind": "person"}],
        "lifecycle": {"countdown": 25, "next_race_seconds": 30, "persons": [0, 1], "present": [0, 1],
                      "ready": [0, 1], "next": [1], "handed": [], "absent": []}}, default=json_default))


def overlap(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_between_races_the_result_the_stalls_the_header_and_the_choice_in_sight(server, browser):
    match = race_1_run()
    page, errors = open_seat(browser, server, "/play/none")
    page.set_viewport_size(DESKTOP)
    page.wait_for_selector("#messages .error-box")
    page.evaluate(PAGE_AND_PANEL)
    page.evaluate(SHOW, message(match, 1))
    page.wait_for_selector("#decision button[data-type=claim_bonus]")
    # the header: race 1 is over, race 2 comes next (not "under way")
    assert page.text_content("#stage") == "Race 1 of 3 is over – race 2 comes next"
    # every horse of race 1: the placed ones, then the fallen with their fences
    rows = page.eval_on_selector_all("#race-table tr", "rs => rs.map(r => [r.dataset.horse, r.innerText.replace(/\\s+/g, ' ').trim()])")
    assert [horse for horse, _ in rows] == ["blue", "yellow", "green", "red"]
    for horse, text in rows[2:]:
        assert text.endswith(f"fell at fence {fence_fallen_at(match, horse)}"), rows
    # T10: the next race's horses in their stalls, inner stall first; nobody faded on the track
    stalls = match.state.stalls
    tokens = page.eval_on_selector_all("#course g.horse", "gs => gs.map(g => [g.dataset.horse, g.dataset.lane, g.dataset.square])")
    assert sorted(tokens) == sorted([[h, str(i), "0"] for i, h in enumerate(stalls)])
    assert page.locator("#course g.horse.fallen").count() == 0
    # the panel between races covers nothing of the choice asked
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_function("() => !document.getElementById('lifecycle').hidden")
        panel = page.locator("#lifecycle").bounding_box()
        for button in page.locator("#decision button").all():
            assert not overlap(panel, button.bounding_box()), (name, panel, button.bounding_box())
        assert page.evaluate("getComputedStyle(document.getElementById('lifecycle')).position") == "fixed"
        if size == PHONE:   # the bonus cards are Red's: Blue's hand is a line
            assert page.eval_on_selector_all("#hands .hand[data-horse=blue] .card", "cs => cs.filter(c => c.offsetParent).length") == 0
            assert page.eval_on_selector_all("#hands .hand[data-horse=red] .card", "cs => cs.filter(c => c.offsetParent).length") > 0
        screenshot(page, f"tm-between-races-{name}")
    # in Spanish: the header and the fall in the language
    page.evaluate("""async () => { await (await import('/static/i18n.js')).loadLanguage('es');
                                   window.__panel.rerender(); window.__page.rerender(); }""")
    page.wait_for_function("() => document.querySelector('#stage') && document.querySelector('#stage').textContent.startsWith('La carrera 1')")
    assert page.locator("#race-table tr.fallen .fell").first.text_content().startswith("se cayó en la valla")
    screenshot(page, "tm-between-races-phone-es")
    assert not errors, errors
    page.close()


def test_between_races_with_the_next_race_set_up_the_result_is_the_race_run(server, browser):
    """No choice before race 2: the engine has started it, the table waits for Next race. The page
    still shows race 1's result (from the view's results and the races look-up's history)."""
    match = race_1_run()
    while True:   # the bonus cards kept for later: race 2 starts
        match.resolve_chance()
        if match.state.phase == "race":
            break
        pending = match.state.pending()
        match.act(pending.seat, next(o for o in pending.options if o["type"] != "claim_bonus"))
    page, errors = open_seat(browser, server, "/play/none")
    page.set_viewport_size(DESKTOP)
    page.wait_for_selector("#messages .error-box")
    page.evaluate(PAGE_AND_PANEL)
    history = json.loads(json.dumps(match.state.histories[0], default=json_default))
    page.evaluate("(h) => { window.__page.pastRaces = [{ race: 1, stalls: [], history: h }]; window.__page.pastAsked = 1; }", history)
    page.evaluate(SHOW, message(match, 1))
    page.wait_for_selector("#race-table tr.fallen")
    assert page.text_content("#stage") == "Race 1 of 3 is over – race 2 comes next"
    assert "Race 1: result" in page.inner_text("#tables")
    fell = page.eval_on_selector_all("#race-table tr.fallen .fell", "cs => cs.map(c => c.textContent)")
    assert fell == [f"fell at fence {fence_fallen_at(match, h)}" for h in ("green", "red")]
    assert not errors, errors
    page.close()
