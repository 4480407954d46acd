"""TurfMaster at the table: every consequence shown before a card is played (falls coloured and
confirmed, T11), whose turn for everyone, the keep-cards screen in one go (T8), the move log with
race separators and the draws (T10), and the final screen (T9) with "Play again"."""

import json
import urllib.request

import pytest

from tests.browser.conftest import create, open_seat, screenshot

pytestmark = pytest.mark.browser

# Take this seat's decisions by clicking the page's own controls, as a person would; a fall is
# confirmed; `window.__auto.stop` names a screen to stop at ("keep") and leave to the test.
AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { stop: null, stopped: false, clicked: {} };
  let actedOn = null, actedAt = 0, cardOn = null, cardAt = 0;
  const click = (node, what) => { node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
                                  auto.clicked[what] = (auto.clicked[what] || 0) + 1; };
  setInterval(() => {
    const turn = document.querySelector("#turn");
    if (!turn || turn.dataset.mine !== "yes") return;
    if (auto.stop === "keep" && document.querySelector("#keep")) { auto.stopped = true; return; }
    const state = document.querySelector("#app").dataset.stateId;
    if (actedOn === state && Date.now() - actedAt < 2000) return;
    const act = (node, what) => { click(node, what); actedOn = state; actedAt = Date.now(); };
    const q = (s) => document.querySelector(s);
    if (q("#confirm-fall")) act(q("#confirm-fall"), "fall");
    else if (q("#keep-confirm") && !q("#keep-confirm").disabled) act(q("#keep-confirm"), "keep");
    else if (q(".reach-layer polygon")) click(q(".reach-layer polygon"), "square");
    else if (q("#play-anyway")) act(q("#play-anyway"), "anyway");
    else if (q("#decision button.option:not(.square-option)")) act(q("#decision button.option:not(.square-option)"), "option");
    else if (q(".card.playable") && (cardOn !== state || Date.now() - cardAt > 1500)) {
      click(q(".card.playable"), "card"); cardOn = state; cardAt = Date.now();
    }
  }, 30);
}"""


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
    """T11: red, two squares before fence 1 with a 6, cannot complete the jump in a card round."""
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


def test_a_card_above_the_handicap_says_why_it_does_not_move(server, browser):
    """T6: the leader's limit is 8; a 10 is spent without moving. T5: a boxed-in move says so."""
    setup = {"course": "oval", "seats": 2,
             "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}],
             "positions": [{"id": "red", "lane": 0, "square": 10}, {"id": "blue", "lane": 4, "square": 3}],
             "hands": {"red": ["10", "7"], "blue": ["3", "4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn[data-mine=yes]")
    assert "handicap of 8" in page.get_attribute(".card[data-card='10']", "title")
    page.click(".card.playable[data-card='10']")
    page.wait_for_selector("#play-anyway")
    assert "above Red's handicap of 8: the card is spent and Red does not move" in page.inner_text("#decision")
    assert "(T6)" not in page.inner_text("#decision")
    page.click(".card.playable[data-card='7']")
    wait_text(page, "#decision", "Red moves 7 points")
    assert not errors, errors
    page.close()


def test_a_whole_meeting_keep_cards_in_one_go_the_log_and_the_final_screen(server, browser):
    """T8: before race 2 the owner picks every card to give up at once and the page sends them one
    by one; T10: the draws open the log; T9: the final screen; Play again makes the same table."""
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
    page.evaluate(AUTOPLAY)
    page.evaluate("() => { window.__auto.stop = 'keep'; }")
    page.wait_for_function("() => window.__auto.stopped", timeout=120000)
    # the keep-cards screen, before race 2
    assert page.text_content("#stage") == "Race 2 of 3 – before the start"
    hand = page.eval_on_selector_all(".keep-card", "cs => cs.map(c => c.dataset.card)")
    kept = page.locator(".keep-card.carried").count()
    assert len(hand) > 10 and kept == len(hand) - 10 - (2 if len(hand) > 12 else 0) or kept > 0
    given = page.locator(".keep-card.given-up").count()
    assert given == len(hand) - int(page.inner_text("#keep-help").split("may keep ")[1].split(":")[0])
    assert not page.is_disabled("#keep-confirm")
    page.locator(".keep-card:not(.given-up)").first.click()   # one too many: the confirmation waits
    assert page.is_disabled("#keep-confirm")
    page.locator(".keep-card.given-up").first.click()
    assert not page.is_disabled("#keep-confirm")
    screenshot(page, "tm-table-keep-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#keep").scroll_into_view_if_needed()
    screenshot(page, "tm-table-keep-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    gives = page.locator(".keep-card.given-up").count()
    page.click("#keep-confirm")
    page.wait_for_function("(n) => document.querySelectorAll('#log li[data-event=keep_discard]').length >= n", arg=gives)
    page.wait_for_selector("#keep", state="detached")
    page.evaluate("() => { window.__auto.stop = null; }")
    page.wait_for_selector("#turn[data-over=yes]", timeout=300000)
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
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, "tm-table-final-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#play-again")
    page.wait_for_selector("#go-again")
    link = page.get_attribute("#go-again", "href")
    new_id = link.split("/play/")[1].split("#")[0]
    assert new_id != table["id"] and "#seat=" in link
    old, new = get(server, f"/api/tables/{table['id']}"), get(server, f"/api/tables/{new_id}")
    assert new["game"] == old["game"] and new["setup"] == old["setup"]
    assert [(s["name"], s["kind"], s["level"]) for s in new["seats"]] == \
        [(s["name"], s["kind"], s["level"]) for s in old["seats"]]
    screenshot(page, "tm-table-play-again-desktop")
    page.click("#go-again")
    page.wait_for_selector("#turn[data-mine=yes]")
    assert "Race 1 of 3" in page.text_content("#stage")
    assert not errors, errors
    page.close()
