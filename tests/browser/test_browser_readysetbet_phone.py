"""Ready Set Bet at the table on a phone and a laptop (issue 34, points 2, 3, 6 and 7): the paced
voice of the pages, sound on the play page (remembered), the variant in the header, "Bets
closed" never before race 1, a log of the bets in words, the board's headers and the token tray in
view under the pinned track, refusals over the track and never over the board, a final screen that
fits 390 px. Rulings: R2 (the red line, no more bets), R4 (the closed column with two players)."""

import re

import pytest

from tests.browser.conftest import create, screenshot, set_clock

pytestmark = pytest.mark.browser

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

#: speech that is never heard: each utterance recorded, and ended when the test says (or at once)
SPEECH = """
window.__spoken = []; window.__cancelled = 0; window.__sounds = [];
window.__instant = true;
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak: (u) => { window.__spoken.push(u); if (window.__instant) setTimeout(() => u.onend && u.onend(), 0); },
  cancel: () => { window.__cancelled += 1; } } });
document.addEventListener("hippodrome:sound", (e) => window.__sounds.push(e.detail));
"""
#: of the states drawn once bets are closed (the badge says "Bets closed"), how many, and in how
#: many a token of the tray still had the ring of the token to bet with
RINGS_ONCE_CLOSED = """
window.__closed = { states: 0, ringed: 0 };
new MutationObserver(() => {
  if (!document.querySelector("#bets-state.closed")) return;
  window.__closed.states += 1;
  if (document.querySelector("#tokens .token.selected")) window.__closed.ringed += 1;
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state-id"] });
"""


#: the status line over the track: its words, and whether they are cut (with "…", or hidden)
STATUS = """() => { const node = document.querySelector('#turn');
  return { text: node.textContent, cut: node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1 }; }"""


def assert_status_read_whole(page):
    """The status line over the track is read whole in every language of the page's menu; the page
    is left in English."""
    for lang in [*page.eval_on_selector_all("#lang option", "options => options.map((o) => o.value)"), "en"]:
        page.select_option("#lang", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        status = page.evaluate(STATUS)
        assert status["text"] and not status["cut"], (lang, page.viewport_size["width"], status)


def test_the_pages_voice_keeps_pace_with_the_dice(server, browser):
    """R2: the pages' voice (web/voice.js) with a mocked speech engine whose lines end when the
    test says: a new roll drops the commentary of the last one, "No more bets!" cuts what is said
    and goes first, a crossing whose roll is past is said short."""
    page = browser.new_page(viewport=LAPTOP)
    page.add_init_script(SPEECH)
    page.goto(server.url + "/")
    said = page.evaluate("""async () => {
      window.__instant = false;
      const { PacedVoice } = await import("/static/voice.js");
      const description = await (await fetch("/api/games/readysetbet")).json();
      const pacing = description.data.caller_pacing;
      const voice = new PacedVoice(pacing, { synth: window.speechSynthesis, Utterance: window.SpeechSynthesisUtterance });
      const redLine = Object.keys(pacing.short)[0];
      const line = (msgid, params = {}) => ({ msgid, params });
      const end = () => { const u = window.__spoken[window.__spoken.length - 1]; u.onend(); };
      voice.say([line("They're off!"), line("And the race is on!")], "en-GB");          // roll 1: its first line is said
      voice.say([line("{sum}! Horse {horse} moves up.", { sum: 7, horse: "7" })], "en-GB");   // roll 2: roll 1's rest is stale
      end();
      voice.say([line("No more bets!"), line(redLine, { horse: "8", n: 3, limit: 3 })], "en-GB");   // cuts the roll 2 line
      const cancelled = window.__cancelled;
      voice.say([line("{sum}! Horse {horse} moves up.", { sum: 5, horse: "5" })], "en-GB");   // roll 4: the crossing is past
      end(); end();
      return { texts: window.__spoken.map((u) => u.text), langs: [...new Set(window.__spoken.map((u) => u.lang))], cancelled };
    }""")
    assert said["texts"] == ["They're off!", "7! Horse 7 moves up.", "No more bets!", "Red line: horse 8, 3 of 3.",
                             "5! Horse 5 moves up."], said
    assert said["cancelled"] == 1 and said["langs"] == ["en-GB"]
    # a new race started while the last one's winning bets are read: they are cut and dropped, and
    # its "They're off!" goes out at once (pacing.py's NEW_RACE)
    said = page.evaluate("""async () => {
      window.__spoken = []; window.__cancelled = 0;
      const { PacedVoice } = await import("/static/voice.js");
      const description = await (await fetch("/api/games/readysetbet")).json();
      const pacing = description.data.caller_pacing;
      const results = Object.keys(pacing.priority).find((msgid) => msgid.startsWith("Win: "));
      const voice = new PacedVoice(pacing, { synth: window.speechSynthesis, Utterance: window.SpeechSynthesisUtterance });
      const line = (msgid, params = {}) => ({ msgid, params });
      voice.say([line(results, { win: "7", place: "5", show: "9" }), line(results, { win: "2/3", place: "4", show: "6" })], "en-GB");
      voice.say([line("They're off!")], "en-GB", true);
      const end = () => { const u = window.__spoken[window.__spoken.length - 1]; u.onend(); };
      end(); end();
      return { texts: window.__spoken.map((u) => u.text), cancelled: window.__cancelled };
    }""")
    assert said["texts"] == ["Win: 7. Place: 5. Show: 9.", "They're off!"] and said["cancelled"] == 1, said
    page.close()


def test_before_race_1_no_bets_closed_and_the_variant_named(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "standard", "races": 1},
                            "seats": [{"name": "Ana"}, {"name": "Bo"}], "pace": 30}, start=False)
    page = browser.new_page(viewport=PHONE)
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#board .space")
    page.wait_for_function("() => document.querySelector('#table-title').textContent.includes('Standard')")
    assert page.text_content("#table-title") == "Ready Set Bet · Standard"
    assert page.text_content("#bets-state") == "" and page.locator("#bets-state").is_hidden()
    screenshot(page, "readysetbet-phone-waiting")
    page.close()


def test_a_phone_at_the_table(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "variant": "app", "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot"}], "pace": 0.05})
    set_clock(server, table, paused=True)   # the bets come before the first roll, however slow the machine
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(SPEECH + RINGS_ONCE_CLOSED + 'localStorage.setItem("hippodrome.sound", "on");')
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#board .space")
    page.wait_for_function("() => document.querySelector('#table-title').textContent.includes('App')")
    assert page.text_content("#table-title") == "Ready Set Bet · App: the program runs the race"
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true", "the sound choice is remembered"
    assert page.text_content("#bets-state") == "Bets open"
    # a bet in the log, in words
    page.click('#tokens [data-token="5"]')
    for space in ("win:6:R", "win:8:R", "win:4:R"):
        if not page.locator(f'[data-space="{space}"].taken').count():
            break
    page.click(f'[data-space="{space}"]')
    page.wait_for_selector(f'[data-space="{space}"].mine')
    horse = space.split(":")[1]
    page.wait_for_function("() => document.querySelector('#bet-log li[data-seat=\"0\"]')")
    # (a roll or two may come before the pause lands)
    assert re.fullmatch(rf"Ana: token 5 on Win on horse {horse}, (before the first roll|after roll \d+)",
                        page.text_content('#bet-log li[data-seat="0"]'))
    # scrolled down the board: its Show / Place / Win headers just below the pinned track, the
    # token tray on screen
    page.evaluate("window.scrollTo(0, document.querySelector('#board').getBoundingClientRect().top + window.scrollY - 200)")
    page.wait_for_function("() => document.querySelector('#board').getBoundingClientRect().top"
                           " < document.querySelector('.p-track').getBoundingClientRect().bottom - 20")
    # R4: a tap on the closed column is refused in words, over the track, never over the board
    page.dispatch_event('[data-space="show:7:L"]', "click")
    page.wait_for_selector(".error-box")
    box = page.evaluate("""() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      const error = r(".error-box"), track = r(".p-track"), head = r('.board > .head[data-column="show:L"]'),
            tokens = r("#tokens"), board = r("#board");
      const covered = [...document.querySelectorAll("#board .space")].some((node) => {
        const s = node.getBoundingClientRect();
        return s.bottom > error.top && s.top < error.bottom && s.right > error.left && s.left < error.right
          && document.elementFromPoint((s.left + s.right) / 2, (s.top + s.bottom) / 2)?.closest(".error-box");
      });
      return { covered, inTrack: error.top >= track.top - 1 && error.bottom <= track.bottom + 1,
               head: [head.top, head.bottom], track: [track.top, track.bottom], tokens: [tokens.top, tokens.bottom],
               boardTop: board.top, width: document.documentElement.scrollWidth };
    }""")
    assert box["inTrack"] and not box["covered"], box
    assert abs(box["head"][0] - box["track"][1]) <= 4, box
    assert 0 <= box["tokens"][0] and box["tokens"][1] <= PHONE["height"], box
    assert box["width"] <= PHONE["width"], box
    screenshot(page, "readysetbet-phone-betting-headers")
    page.set_viewport_size(LAPTOP)
    screenshot(page, "readysetbet-laptop-betting")
    page.set_viewport_size(PHONE)
    # the race runs: the dice, the red line, no more bets and the finish are heard
    set_clock(server, table, paused=False)
    page.wait_for_function("() => document.querySelector('#turn').dataset.over === 'yes'", timeout=300000)
    page.wait_for_function("() => window.__sounds.includes('finish')")
    sounds = page.evaluate("window.__sounds")
    assert "dice" in sounds and sounds.count("finish") == 1, sounds
    log = page.evaluate("() => [...document.querySelectorAll('#bet-log li')].length")
    assert log >= 1
    spoken = page.evaluate("window.__spoken.map((u) => u.text)")
    assert any(text.endswith(("wins!", "at the line!", "finish line first!")) for text in spoken), spoken
    closed = page.evaluate("() => document.querySelector('#redline').dataset.crossings >= 3")
    assert ("No more bets!" in spoken) == bool(closed), (spoken, closed)
    # R2: once bets are closed ("No more bets!", then the race over) no token looks chosen to bet
    # with (the last one chosen kept its ring)
    rings = page.evaluate("window.__closed")
    assert rings["states"] and not rings["ringed"], rings
    # the final screen fits a phone
    page.wait_for_selector("#final:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("document.querySelector('#final').scrollIntoView()")
    screenshot(page, "readysetbet-phone-final")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.querySelector('#table-title').textContent.includes('·')"
                           " && document.documentElement.lang === 'es'")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "readysetbet-phone-final-es")
    page.set_viewport_size(LAPTOP)
    screenshot(page, "readysetbet-laptop-final-es")
    # the sound toggle: off, and remembered so
    page.click("#sound-toggle")
    assert page.evaluate("localStorage.getItem('hippodrome.sound')") == "off"
    assert not errors, errors
    context.close()


def test_R8_the_players_choose_their_vip_cards_at_the_same_time(server, browser):
    """R8 as amended: after race 1 both people see their own two cards at once, and the bot of
    seat 3 chooses at once; Bo chooses before Ana (seat order no longer matters), his card held
    back until Ana has chosen too; then the cards kept show with the players."""
    table = create(server, {"game": "readysetbet", "setup": {"players": 3, "races": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy", "kind": "bot", "level": "random"}],
                            "pace": 0.05})
    pages = []
    for seat, viewport in ((0, LAPTOP), (1, PHONE)):
        page = browser.new_page(viewport=viewport)
        page.goto(server.url + table["seats"][seat]["link"])
        pages.append(page)
    ana, bo = pages
    for page in pages:
        page.wait_for_selector('#decision button.option[data-type="vip"]', timeout=300000)
    assert "everybody chooses at the same time" in bo.text_content("#decision-box")
    for page in pages:   # "Your choice: keep one of two VIP cards", never cut with "…"
        assert_status_read_whole(page)
    screenshot(bo, "readysetbet-phone-vip-together")
    card = bo.eval_on_selector('#decision button.option[data-type="vip"]', "b => b.textContent")
    bo.click('#decision button.option[data-type="vip"]')
    bo.wait_for_selector("#vip-kept")
    kept = bo.text_content("#vip-kept")
    assert kept.startswith("You keep ") and "once everybody has chosen" in kept
    # the bot chose at once: only Ana is still choosing
    bo.wait_for_function("() => document.querySelector('#turn').textContent.endsWith('waiting for Ana to choose')")
    assert_status_read_whole(bo)   # "You keep ...; waiting for Ana to choose"
    state = bo.get_attribute("#app", "data-state-id")
    ana.wait_for_function(f"() => document.querySelector('#app').dataset.stateId === '{state}'")
    assert ana.locator('#decision button.option[data-type="vip"]').count() == 2, "Ana still chooses"
    ana.wait_for_function("() => document.querySelector('.lifecycle-countdown').textContent.endsWith('Still choosing: Ana.')")
    # the board is still race 1's while the cards are chosen: its winning spaces marked, and said so
    assert ana.locator("#board .space.winning").count() > 0
    assert "Winning spaces are marked on the board" in ana.text_content("#results")
    assert kept.removeprefix("You keep ").split(".")[0] not in ana.text_content("#players"), "held back"
    screenshot(ana, "readysetbet-laptop-vip-waiting")
    ana.click('#decision button.option[data-type="vip"]')
    for page in pages:   # both cards shown with the players once both have chosen
        page.wait_for_function("() => document.querySelectorAll('#players .vip-list li').length === 3")
    assert card.removeprefix("Keep ").split(" · ")[0] in bo.text_content("#players")
    screenshot(ana, "readysetbet-laptop-vip-shown")
    for page in pages:
        page.close()
