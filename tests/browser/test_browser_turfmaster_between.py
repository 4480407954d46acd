"""TurfMaster between races (issue 33, points 3 and 4), the page fed the states of a real seeded
steeplechase meeting brought to the end of race 1, as the server would send them, with the
table's lifecycle panel between races: the header says where the meeting is, the result lists
every horse, the fallen ones with the fence they fell at (T11), the board shows the next race's
horses in their stalls (T10) and none of the fallen, and the panel covers nothing of the choice
asked, on a laptop and on a phone."""

import json
import random

import pytest

from hippodrome.core.game import decision_view
from hippodrome.core.match import Match
from hippodrome.server.app import json_default
from tests.browser.conftest import open_seat, screenshot

pytestmark = pytest.mark.browser

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
