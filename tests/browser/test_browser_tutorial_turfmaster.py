"""TurfMaster's guided first race played to its end through the page, in English, Spanish and German
(one page per language; a phone for the last two): the lobby's "Learn to play" button makes the
table, each step's panel is read (in another language never the English text, and never an id or a
rule code), the step's move is made by clicking what the page lights up, and the race ends with the
panel's "Well done". With HIPPODROME_SHOTS set, a screenshot of every step goes there."""

from __future__ import annotations

import os
import re

import pytest

from hippodrome.i18n import Message
from hippodrome.turfmaster.tutorial import STEPS
from tests.browser.conftest import screenshot
from tests.browser.i18n_pages import READ_MISSING

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
#: ids and codes a player must never read: rule codes, option ids, 0-based seats, message ids
IDS = re.compile(r"\(T\d+\)|\bT\d{1,2}\b|\bR\d\b|\w+:\w+:\w+|bonus-\d|\bseat 0\b|\{\w+\}|\bJ1[0-2]\b|\bJ9\b|"
                 r"\b(?:dice_use|empty_hand|continue|tutorial)\b")
ENGLISH = {step.key: (str(step.title), str(step.text), str(step.why)) for step in STEPS}
#: the newest state the page received, kept for the test to read (the page itself keeps none)
KEEP_STATE = """
(() => {
  const Native = window.WebSocket;
  window.__state = null;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const m = JSON.parse(event.data);
        if (m.type === "state") window.__state = m;
      });
    }
  };
})();
"""
#: the page shows the newest state and it is the person's turn (or the tutorial is over)
READY = """() => {
  const m = window.__state, app = document.querySelector("#app");
  if (!m || !app || app.dataset.stateId !== String(m.state_id)) return false;
  const panel = document.querySelector("#tutorial");
  if (!panel || panel.hidden || panel.dataset.step !== m.view.tutorial.key) return false;
  if (m.over) return panel.dataset.finished === "true";
  return document.querySelector("#turn").dataset.mine === "yes";
}"""

#: no transition running (the tokens' slides); the current horse's ring, spinning twice when it
#: comes to a horse, does not count
SETTLED = "() => document.getAnimations().every((a) => a.effect.target.classList.contains('ring-light'))"


def panel_text(page) -> dict[str, str]:
    return page.eval_on_selector("#tutorial", """(panel) => ({
        counter: panel.querySelector(".tutorial-counter").textContent,
        title: panel.querySelector(".tutorial-title").textContent,
        text: panel.querySelector(".tutorial-text").textContent,
        why: panel.querySelector(".tutorial-why span").textContent,
        rule: panel.querySelector(".tutorial-rule").hidden ? null : panel.querySelector(".tutorial-rule").getAttribute("href"),
        visible: panel.innerText})""")


def make_move(page, kind: str) -> None:
    """The one move the step allows, made as a person makes it: a card then its lit square, a lit
    square, or the one button of the decision."""
    if kind == "card":
        page.locator("#hands button.card.playable").click()
        page.locator("#course .reach-layer polygon").click()
    elif kind == "square":
        page.locator("#course .reach-layer polygon").click()
    else:
        page.locator("#decision button.option").click()


def play_tutorial(browser, server, lang: str, viewport: dict[str, int], shots: str | None = None) -> list[dict]:
    """From the lobby's Learn to play to the end of the race, in ``lang``; the panel of each step as
    read, and a screenshot of each step (``shots``: the names' prefix)."""
    context = browser.new_context(viewport=viewport, locale=lang)
    context.add_init_script(KEEP_STATE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server.url + "/")
        page.select_option("#game", "turfmaster")
        page.locator("#learn-button").click()
        page.wait_for_url(re.compile(r"/play/"))
        steps: list[dict] = []
        while True:
            page.wait_for_function(READY, timeout=30000)
            state = page.evaluate("() => window.__state")
            key = state["view"]["tutorial"]["key"]
            if not steps or steps[-1]["key"] != key or state["over"]:
                steps.append({"key": key, "over": state["over"], **panel_text(page)})
            # the round's line in a dice round, and the words of a handicapped horse's die (T6)
            if state["view"].get("round_kind") == "dice" and not state["over"]:
                steps[-1].setdefault("dice_rounds", []).append(page.text_content("#round"))
            if state["decision"] and state["decision"]["kind"] == "die":
                steps[-1]["die"] = {"turn": page.text_content("#turn"), "note": page.text_content("#die-why"),
                                    "rule": page.get_attribute("#die-why a.rule-link", "href")}
                if shots:   # from the top, once the tokens have slid to their squares
                    page.evaluate("() => window.scrollTo(0, 0)")
                    page.wait_for_function(SETTLED)
                    screenshot(page, f"{shots}-{len(steps):02d}-{key}{'-end' if state['over'] else ''}")
            if state["over"]:
                break
            make_move(page, state["decision"]["kind"])
            page.wait_for_function("(id) => window.__state && window.__state.state_id !== id", arg=state["state_id"])
        assert not errors, errors
        assert page.evaluate(READ_MISSING) == [], "the page asked for msgids its catalog lacks"
        return steps
    finally:
        context.close()


def check_steps(steps: list[dict], lang: str) -> None:
    assert [s["key"] for s in steps] == [step.key for step in STEPS] + ["finish"]
    assert steps[-1]["over"] and steps[0]["counter"] != steps[-1]["counter"]
    for shown in steps:
        english = ENGLISH[shown["key"]]
        for part in ("title", "text", "why"):
            assert shown[part].strip(), (lang, shown["key"], part)
            if lang != "en":
                assert shown[part] not in english, (lang, shown["key"], part, shown[part])
        for text in (shown["visible"], shown["why"]):
            assert not IDS.search(text), (lang, shown["key"], text)
    rules = [s["rule"] for s in steps[:-1]]
    assert all(rule and rule.startswith("/rules/turfmaster#") for rule in rules), rules
    # during a dice round the line names who rolls now, not "next" (the right passes at its end, T10)
    rolling = Message("dice roller this round: {name}", name="").translate(lang).strip()
    lines = [line for s in steps for line in s.get("dice_rounds", [])]
    assert lines and all(rolling in line for line in lines), (lang, lines)
    # a die to choose says why, with the numbers: the sum 11 is above Red's limit of 10 (T6)
    die = next(s["die"] for s in steps if "die" in s)
    assert Message("choose one die for {horse}: the sum {sum} is above its limit of {limit}",
                   horse=Message("Red"), sum=11, limit=10).translate(lang) in die["turn"], die
    assert "10" in die["note"] and die["rule"].endswith("#handicap") and not IDS.search(die["note"]), die


# English on a desktop, Spanish and German (the longest words) on a phone; that every message of
# the steps is translated in every language is tests/i18n/test_i18n_catalogs.py's part
@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("es", PHONE), ("de", PHONE)])
def test_the_guided_race_is_played_to_its_end(server, browser, lang, viewport):
    # screenshots of every step when asked for (HIPPODROME_SHOTS): waiting for the board to settle takes time
    shots = f"tutorial-tm-{lang}-{'phone' if viewport is PHONE else 'desktop'}" if os.environ.get("HIPPODROME_SHOTS") else None
    check_steps(play_tutorial(browser, server, lang, viewport, shots), lang)


def test_the_lobby_offers_learn_to_play_on_the_game_and_lists_no_lesson(server, browser):
    from tests.browser.conftest import create

    lesson = create(server, {"game": "turfmaster-tutorial", "setup": {}, "seats": [{"name": "Ana", "kind": "person"}]},
                    start=False)
    game = create(server, {"game": "turfmaster-race", "setup": {"players": 2},
                           "seats": [{"name": "Bo", "kind": "person"}, {"name": "Cy", "kind": "person"}]}, start=False)
    assert lesson["status"] == "playing"   # no Ready step
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector(f"#tables >> text={game['id']}")
        assert lesson["id"] not in page.inner_text("#tables")
        games = [option.get_attribute("value") for option in page.locator("#game option").all()]
        assert "turfmaster-tutorial" not in games and "turfmaster" in games
        page.select_option("#game", "turfmaster-race")   # the button stands on the game its lesson teaches
        assert page.locator("#learn-button").is_hidden()
        page.select_option("#game", "turfmaster")
        assert page.locator("#learn-button").is_visible()
    finally:
        page.close()


def test_the_person_has_the_name_typed_in_the_lobby_and_the_other_riders_are_the_opponent(server, browser):
    """The lesson's seat takes the name the person typed for the first seat; the scripted player,
    who has no seat at the table, is "Your opponent" in the language, never "Seat 2" ("Place 2" in
    French, which reads like the bet) nor a 0-based number."""
    context, page = open_french_lesson(browser, server, DESKTOP, name="Ana")
    try:
        page.wait_for_selector("#tutorial:not([hidden])")
        page.wait_for_function("() => document.querySelector('#who').textContent.includes('Ana')")
        page.wait_for_function("() => document.body.innerText.includes('Votre adversaire')")
        shown = page.inner_text("body")
        assert "vous êtes Ana" in shown
        assert not re.search(r"\b(Place|Seat|Siège) [0-9]", shown), shown
    finally:
        context.close()


def test_a_tapped_square_out_of_the_step_is_explained_in_words(server, browser):
    """A newcomer taps a square beside the lit one: the page says why in the language (the race's
    reason, or the step's hint), never that the table "offers no why" nor an id."""
    context, page = open_french_lesson(browser, server, PHONE)
    try:
        page.locator("#hands button.card.playable").click()
        lit = page.locator("#course .reach-layer polygon").bounding_box()
        page.mouse.click(lit["x"] + lit["width"] / 2, lit["y"] + lit["height"] * 1.5)   # the square beside it
        toast = page.wait_for_selector("#messages .error-box", timeout=20000).text_content()
        assert toast and "why" not in toast and "turfmaster-tutorial" not in toast, toast
        assert not IDS.search(toast), toast
    finally:
        context.close()


def open_french_lesson(browser, server, viewport, name: str | None = None):
    """A French page, through the lobby's Learn to play on TurfMaster (the first seat named ``name``
    if given): its context and page."""
    context = browser.new_context(viewport=viewport, locale="fr")
    context.add_init_script("localStorage.setItem('hippodrome.lang', 'fr')")
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "turfmaster")
    if name is not None:
        page.fill(".seat-row .seat-name", name)
    page.locator("#learn-button").click()
    page.wait_for_url(re.compile(r"/play/"))
    return context, page
