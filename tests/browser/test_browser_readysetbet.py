"""Ready Set Bet in the browser: a person bets by clicking during a race and sees the bets settled."""

import re
import urllib.request

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import create, open_seat, place_bet, screenshot, set_clock, states_of

pytestmark = pytest.mark.browser

# R5: (multiplier, red circle) of the spaces the test tries, in order
SPACES = {"win:7:R": (3, 2), "win:6:R": (3, 0), "win:8:R": (3, 0), "place:5:R": (3, 2)}
TOKEN_VALUE = 5
PACE = 0.1   # seconds between the race caller's rolls (a race of some 70 rolls lasts about 7 s)


def test_a_person_bets_by_clicking_and_sees_the_bets_settled(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot"}], "pace": 0.05})
    set_clock(server, table, paused=True)   # the race waits for the bet, however slow the machine
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.wait_for_selector("#board .space")
    # R4: with two players the leftmost Win, Place and Show spaces are closed (a tap on one is
    # refused in words: test_browser_why.py)
    assert page.locator('[data-space="win:7:L"].closed').count() == 1
    assert page.get_attribute('[data-space="win:7:L"]', "title") == "Win on horse 7: closed"
    page.click(f'#tokens [data-token="{TOKEN_VALUE}"]')
    placed = place_bet(page, SPACES)
    assert page.locator(f'#tokens [data-token="{TOKEN_VALUE}"]').is_disabled(), "a placed token never moves (R4)"
    screenshot(page, "readysetbet-laptop-bet-placed")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")   # watching the board's foot
    set_clock(server, table, paused=False)   # the race runs at the server's quickest pace
    page.wait_for_selector("#settlement", timeout=300000)
    row = page.locator(f'#settlement tr[data-seat="0"][data-space="{placed}"]')
    assert row.count() == 1
    text = row.text_content()
    multiplier, penalty = SPACES[placed]
    won = f"{TOKEN_VALUE} × {multiplier} = ${TOKEN_VALUE * multiplier}" in text   # the working of the bet
    lost = (f"-${penalty} for the space" in text) if penalty else ("nothing to pay" in text)
    assert won != lost, text
    money = int(re.search(r"\$(\d+)", page.text_content("#mine h2")).group(1))
    assert money == (TOKEN_VALUE * multiplier if won else 0), "R4: money starts at $0 and never goes below"
    page.wait_for_function("() => document.querySelector('#turn').dataset.over === 'yes'")
    # the game over, the page goes up to who won (and Play again above it)
    page.wait_for_function("() => { const r = document.querySelector('#winner').getBoundingClientRect();"
                           " return r.top >= 0 && r.bottom <= window.innerHeight; }")
    winners = page.locator("#standings .trophy:not(:empty)").all_text_contents()
    assert winners and set(winners) == {"Winner"}, winners   # in a word, never an emoji a device may lack
    screenshot(page, "readysetbet-laptop-settled")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "readysetbet-phone-settled")
    assert not errors, errors
    page.close()


def test_the_race_caller_announces_rolls_and_pauses(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "app", "races": 1},
                            "seats": [{"name": "Ana", "kind": "bot"}, {"name": "Bo", "kind": "bot"}],
                            "pace": PACE})
    set_clock(server, table, paused=True)   # the race starts when the page is there, however slow the machine
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + table["host_link"])
    page.wait_for_selector("#track .horse")
    before = page.locator("#calls li").count()   # none before the race's first roll (it brings "They're off!")
    page.click("#resume")
    page.wait_for_function(f"() => document.querySelectorAll('#calls li').length >= {before + 2}")
    assert re.search(r"\d", page.text_content("#calls")), "each roll is called with its total"
    page.click("#pause")
    try:
        page.wait_for_function("() => document.querySelector('#resume').disabled === false")
    except PlaywrightTimeout:   # (once in a full run: say what the page and the server held)
        held = urllib.request.urlopen(f"{server.url}/api/tables/{table['id']}", timeout=10).read()[:400]
        raise AssertionError(f"Resume never came back: the page says {page.inner_text('#announce')!r} at state "
                             f"{page.get_attribute('body', 'data-state-id')}; the server holds {held!r}")
    paused_at = page.get_attribute("body", "data-state-id")
    page.wait_for_timeout(4 * PACE * 1000)  # four rolls' time: the one wait that proves a roll did not come
    assert page.get_attribute("body", "data-state-id") == paused_at, "no roll while paused"
    assert "Paused" in page.text_content("#announce")
    screenshot(page, "caller-laptop-paused")
    page.click("#resume")
    page.wait_for_function(f"() => document.body.dataset.stateId !== '{paused_at}'")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "caller-phone")
    page.close()
    # without the host token, the page watches: no button to pause
    watcher = browser.new_page()
    watcher.goto(server.url + f"/call/{table['id']}")
    watcher.wait_for_selector("#track .horse")
    assert watcher.locator("#host-controls").is_hidden() and watcher.locator("#pause").is_hidden()
    watcher.close()


def test_between_races_the_caller_says_the_race_run_in_words(server, browser):
    """R3: once a race is run the caller's headline is its Win / Place / Show in words (never the
    bets' results as data), and it stays the race run's while the view already holds the next race
    (its cards dealt) until that race's first roll; the list of races run says the same."""
    # without VIP cards the next race is dealt the moment one is run; Ana's page, open, holds the
    # gate to it (she never presses "Next race"), so the view holds race 2 before its first roll
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 2, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot"}],
                            "pace": 0.05, "next_race_seconds": 600})
    ana, errors = open_seat(browser, server, table["seats"][0]["link"])
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + f"/call/{table['id']}")
    page.wait_for_function("() => document.querySelector('#race-no').textContent === 'Race 2 of 2'", timeout=120000)
    headline = page.text_content("#announce")
    assert re.fullmatch(r"Race 1 is over\. Win: [\d/, ]+\. Place: [\d/, -]+\. Show: [\d/, -]+\.", headline), headline
    results = page.locator("#race-results li").all_text_contents()
    assert len(results) == 1 and results[0].startswith("Race 1 Win: "), results
    screenshot(page, "caller-between-races")
    page.close()
    # Ana's page meanwhile: race 1's results, and its board is race 2's, unmarked; so it does not say
    # that the winning spaces are marked on it
    ana.wait_for_function("() => document.querySelector('#results h2')?.textContent === 'Race 1: results'")
    ana.wait_for_selector("#board .space")
    assert ana.locator("#board .space.winning").count() == 0
    assert "Winning spaces are marked" not in ana.text_content("#results")
    assert errors == []


SPEECH_STUB = """
localStorage.setItem("hippodrome.lang", "es");
window.__spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true,
  value: { speak: (u) => { window.__spoken.push({ text: u.text, lang: u.lang }); setTimeout(() => u.onend && u.onend(), 0); },
           cancel: () => {} } });
"""


def test_the_race_caller_speaks_the_callers_lines_in_spanish(server, browser):
    """The page shows and speaks the server's caller lines (message JSON in the view) translated
    with the Spanish catalog, in a Spanish voice; the House starts with the rulebook's call."""
    from hippodrome.i18n import message_from_json

    def spanish(line):
        return message_from_json(line).translate("es")

    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "app", "races": 1},
                            "seats": [{"name": "Ana", "kind": "bot"}, {"name": "Bo", "kind": "bot"}],
                            "pace": 1.5})   # slow enough that the race's first line is still among the 12 shown
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.add_init_script(SPEECH_STUB)
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(server.url + table["host_link"])
    page.wait_for_selector("#track .horse")
    page.check("#voice")
    page.wait_for_function("() => window.__spoken.length >= 2")
    page.click("#pause")
    page.wait_for_function("() => document.querySelector('#resume').disabled === false")
    states = []
    for _ in range(1000):   # the paused state's frame, as Playwright reports the frames (the page has it already)
        states = states_of(frames)
        if states and states[-1]["clock"]["paused"]:
            break
        page.wait_for_timeout(20)
    caller = states[-1]["view"]["caller"]
    expected = [spanish(line) for line in caller["lines"]]
    assert expected[0] == "¡Salen al galope!"
    shown = page.locator("#calls li").all_text_contents()
    assert shown == list(reversed(expected[-12:])), "the page shows the caller's lines as the catalog translates them"
    assert shown[-1] == "¡Salen al galope!"
    assert page.evaluate("document.documentElement.lang") == "es"
    spoken = page.evaluate("window.__spoken")
    assert spoken and all(u["lang"] == "es-ES" for u in spoken), spoken
    assert all(u["text"] in expected for u in spoken), "only the caller's own lines are spoken"
    screenshot(page, "caller-spanish")
    page.close()


def test_the_house_places_its_tokens_by_clicking(server, browser):
    """R9 (House bets): the House puts its tokens on free spaces before the race."""
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "house_bets", "races": 1},
                            "seats": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"},
                                      {"name": "House"}], "pace": 5})
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + table["seats"][2]["link"])
    page.wait_for_selector("#house-tokens")
    # R9: the House's tokens 2, 3, 3, 4, 5, 5: the picker shows how many of each are left
    assert page.text_content('#house-tokens [data-token="house-5"]') == "5×2"
    assert page.text_content('#house-tokens [data-token="house-2"]') == "2×1"
    page.click('#house-tokens [data-token="house-5"]')
    page.click('[data-space="win:7:R"]')
    page.wait_for_function("() => (document.querySelector('[data-space=\"win:7:R\"] .chip.house') || {}).textContent === '5'")
    page.wait_for_function("""() => document.querySelector('#house-tokens [data-token="house-5"]').textContent === '5×1'""")
    page.click('#house-tokens [data-token="house-2"]')
    page.click('[data-space="win:7:R"]')  # one house token per space (R9)
    page.wait_for_selector(".error-box")
    assert "Win on horse 7" in page.text_content(".error-box")
    # R6: one token per exotic finish card, the House's too: a second space of the card is refused in words
    card = page.get_attribute('[data-space^="exotic:"]', "data-space").split(":")[1]
    page.click(f'[data-space="exotic:{card}:1"]')
    page.wait_for_function(f"() => document.querySelector('[data-space=\"exotic:{card}:1\"] .chip.house')")
    page.click('#house-tokens [data-token="house-3"]')
    page.click(f'[data-space="exotic:{card}:3"]')
    page.wait_for_function("() => document.querySelector('.error-box').textContent.includes('exotic finish card')")
    refusal = page.text_content(".error-box")
    assert "one House token per card" in refusal and card not in refusal, refusal   # the card's name, not its id
    assert page.locator(f'[data-space="exotic:{card}:3"] .chip.house').count() == 0
    page.close()


def test_the_page_speaks_the_language_the_player_picks(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bo"}], "pace": 30})
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#board .head")
    assert "Win" in page.text_content("#board")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.querySelector('#board').textContent.includes('Ganador')")
    assert "Trío" in page.text_content("#board") and "Posición" in page.text_content("#board")
    page.reload()  # the choice is remembered
    page.wait_for_selector("#board .head")
    page.wait_for_function("() => document.querySelector('#board').textContent.includes('Ganador')")
    assert page.evaluate("() => document.documentElement.lang") == "es"
    context.close()
