"""Ready Set Bet's guided first race through its pages, in English, Spanish and German: from the
lobby's "Learn to play" to "Well done", every step's panel in the page's language (never the
English text in another language, never an id, a rule code or a 0-based seat), each step done
the way a newcomer does it (a click on the highlighted space, "Roll the dice"), one refusal shown
in words, and the race's settlement at the end. Spanish is played on a phone: the step's panel,
the track with its button and the space a step asks for are all on screen there too. With
HIPPODROME_SHOTS set, a screenshot of every step (Spanish and German) goes there."""

from __future__ import annotations

import os
import re

import pytest

from hippodrome.readysetbet.tutorial import STEPS
from tests.browser.conftest import screenshot
from tests.browser.i18n_pages import READ_MISSING

pytestmark = pytest.mark.browser

#: English and German on a desktop, Spanish on a phone; that every message of the steps is translated
#: in every language is tests/i18n/test_i18n_catalogs.py's part
LANGUAGES = ["en", "es", "de"]
PHONE = {"es"}
#: ids, rule codes or 0-based seat numbers a person must never read
FORBIDDEN = re.compile(r"(win|place|show|colour|prop|exotic):\S|bonus-\d|\(?\b[RT]\d\b\)?|\b[Ss]eat 0\b|\{\w+\}")
ENGLISH = {step.key: (str(step.title), str(step.text), str(step.why)) for step in STEPS}
#: the space each bet step is answered with (the watching steps are answered with "Roll the dice")
BETS = {"win-bet": "win:2/3:R", "place-bet": "place:10:R", "prop-bet": "prop:10>8"}
SHOTS = bool(os.environ.get("HIPPODROME_SHOTS"))
#: (milliseconds) a bound that only matters when something is broken
WAIT_MS = 20000


def panel(page) -> dict:
    return page.evaluate("""() => { const p = document.querySelector('#tutorial');
        const words = (selector) => p.querySelector(selector).textContent, rule = p.querySelector('.tutorial-rule');
        return { key: p.dataset.step, finished: p.dataset.finished === 'true', title: words('.tutorial-title'),
                 text: words('.tutorial-text'), why: words('.tutorial-why'), all: p.innerText,
                 rule: rule.hidden ? null : rule.getAttribute('href') }; }""")


def in_view(page, selector: str) -> bool:
    return page.evaluate("""(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }""",
                         selector)


def act(page, selector: str) -> None:
    """Click and wait for the next state of the table."""
    before = page.get_attribute("#app", "data-state-id")
    page.click(selector)
    page.wait_for_function("(before) => document.querySelector('#app').dataset.stateId !== before", arg=before,
                           timeout=WAIT_MS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guided_race_is_played_to_its_end(server, browser, lang):
    phone = lang in PHONE
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('hippodrome.lang', '{lang}')")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # the lobby's "Learn to play" on Ready Set Bet makes the table and opens its page
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet]", state="attached", timeout=WAIT_MS)
    page.select_option("#game", "readysetbet")
    page.click("#learn-button")
    page.wait_for_selector("#tutorial:not([hidden])", timeout=WAIT_MS)
    page.wait_for_selector("#board .space.asked", timeout=WAIT_MS)

    if phone:   # the betting hint is read whole on a phone (two lines of fixed height), not cut after one
        hint = page.evaluate("""() => { const h = document.querySelector('#mine .hint');
            return { text: h.textContent, cut: h.scrollWidth > h.clientWidth + 1 || h.scrollHeight > h.clientHeight + 1 }; }""")
        assert hint["text"] and not hint["cut"], hint
    seen, refused = [], False
    while True:
        step = panel(page)
        if not seen or seen[-1] != step["key"]:
            seen.append(step["key"])
            # a refusal's hint belonged to the step before: a new step shows none
            assert page.locator("#messages .error-box").count() == 0, (lang, step["key"])
            # the panel in the page's language, with no id, rule code or placeholder
            assert not FORBIDDEN.search(step["all"]), (lang, step["all"])
            if lang != "en":
                english = ENGLISH[step["key"]]
                assert (step["title"], step["text"], step["why"].split(" ", 1)[-1]) != english
                assert step["text"] != english[1] and english[2] not in step["why"], (lang, step)
            assert step["rule"] and step["rule"].startswith("/rules/readysetbet#")
            # the step's panel and the track it talks about are on screen (at the end: the panel and the results)
            assert in_view(page, "#tutorial") and (step["finished"] or in_view(page, "#track")), step["key"]
            # the token to bet with wears a ring while bets are open; once "No more bets!" is called
            # none does (the last one chosen kept it): nothing can be bet
            if step["key"] in BETS or step["key"] == "no-more-bets":
                ringed = page.locator("#tokens .token.selected").count()
                assert page.locator("#tokens .token").count() == 5 and ringed == (step["key"] in BETS), (step["key"], ringed)
            if SHOTS and (phone or lang == "de"):
                screenshot(page, f"tutorial-readysetbet-{lang}-{len(seen):02d}-{step['key']}")
        if step["finished"]:
            break
        if step["key"] in BETS:
            space = f'button.space[data-space="{BETS[step["key"]]}"]'
            assert page.locator("#board .space.asked").count() >= 1
            # the space asked for pulses a few times, then stays lit: nothing moves for ever
            assert page.evaluate("() => document.getAnimations().filter("
                                 "(a) => a.effect.getTiming().iterations === Infinity).length") == 0
            page.click("#step-button")   # "Show me where"
            page.wait_for_function("(s) => { const r = document.querySelector(s).getBoundingClientRect(); "
                                   "return r.top >= 0 && r.bottom <= innerHeight; }", arg=space, timeout=WAIT_MS)
            assert in_view(page, "#track"), "the track stays in view with the space asked for"
            act(page, space)
        else:
            if not refused:   # a bet while the step asks for a roll: refused in words, in the language
                refused = True
                page.click('button.space[data-space="win:4:R"]')
                toast = page.wait_for_selector("#messages .error-box", timeout=WAIT_MS).text_content()
                assert toast and not FORBIDDEN.search(toast)
                assert (toast == "In this step, press “Roll the dice”.") == (lang == "en"), toast
            act(page, "#step-button")

    assert seen == [step.key for step in STEPS]
    end = panel(page)
    assert end["key"] == "settlement" and not FORBIDDEN.search(end["all"])
    # the settlement's lesson (R4) stays on the panel above the closing words, in the language
    assert "2/3" in end["text"] and (end["text"] == ENGLISH["settlement"][1]) == (lang == "en"), end["text"]
    assert page.locator("#tutorial .tutorial-end .tutorial-closing").is_visible()
    assert page.locator("#tutorial .tutorial-end a.tutorial-lobby").get_attribute("href") == "/"
    assert in_view(page, "#tutorial") and page.locator("#winner").is_visible()
    # the settlement: the person's three bets paid 5 × 9, 4 × 4, 3 × 3 (the first token chosen is the highest)
    assert page.locator("#final tr.settled td.won").count() >= 3
    if SHOTS:
        screenshot(page, f"tutorial-readysetbet-{lang}-end")
    missing = page.evaluate(READ_MISSING)
    assert lang == "en" or missing == [], (lang, missing)
    assert not errors, errors
    context.close()
