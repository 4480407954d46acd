"""The race caller for the box (issue 11, points 2 and 8) in the browser: the lobby offers a table
for the box; its host link shows the buttons, a spectator link none; each roll's two dice are
drawn, the red-line crossings counted (R2: bets close at the third), the leader named; with the
clock fast the table runs race after race and never stalls."""

import re

import pytest

from tests.browser.conftest import assert_pair_labels_fit, create, screenshot, set_clock

pytestmark = pytest.mark.browser

PACE = 0.05   # the quickest pace a table takes: a race of some 60 rolls in a few seconds
LAPTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


#: the browser's speech synthesis, recorded instead of heard
SPEECH_STUB = """
window.__spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true,
  value: { speak: (u) => { window.__spoken.push(u.text); setTimeout(() => u.onend && u.onend(), 0); }, cancel: () => {} } });
"""


def caller_page(browser, server, link, viewport=LAPTOP, init=None):
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if init:
        page.add_init_script(init)
    page.goto(server.url + link)
    page.wait_for_selector("#track .horse")
    return page, errors


def test_the_lobby_offers_a_table_for_the_box_and_links_its_caller(server, browser):
    page = browser.new_page(viewport=LAPTOP)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet-box]", state="attached")
    page.select_option("#game", "readysetbet-box")
    page.wait_for_function("() => document.querySelector('#game-summary').textContent.includes('For the box')")
    assert page.locator("#races").input_value() == "4"   # all the meeting's races by default
    page.wait_for_function("() => document.querySelectorAll('.seat-row').length === 0")   # after the lobby's check
    assert page.locator("#seats-heading").is_hidden()
    page.click("#create-button")
    page.wait_for_selector("#created .caller-link")
    screenshot(page, "lobby-box-created")
    host_link = page.get_attribute("#created .caller-link", "href")
    assert re.fullmatch(r"/call/[0-9a-f]+#host=.+", host_link)
    assert "/call/" in page.get_attribute("#created .spectate-link", "href")
    table_id = host_link.split("/call/", 1)[1].split("#", 1)[0]
    page.wait_for_selector(f'#tables a[href="/call/{table_id}"]')   # watched on its caller, not a play page
    # a play link of a table for the box leads to its caller
    page.goto(server.url + f"/play/{table_id}")
    page.wait_for_url(f"**/call/{table_id}")
    page.wait_for_selector("#track .horse")
    assert page.locator("#host-controls").is_hidden()
    page.close()


def test_the_box_caller_runs_every_race_with_dice_red_line_and_leader(server, browser):
    table = create(server, {"game": "readysetbet-box", "setup": {"races": 2}, "seats": [], "pace": PACE}, start=False)
    set_clock(server, table, paused=True)   # the races wait for the pages, however slow the machine
    host, errors = caller_page(browser, server, table["host_link"], init=SPEECH_STUB)
    watcher, watcher_errors = caller_page(browser, server, table["spectator_link"], PHONE)
    # waiting for the host: nothing is said of a race not started, so the voice says its opening
    # once it starts ("They're off!" counted as heard while waiting was never spoken)
    host.check("#voice")
    assert host.locator("#start").is_visible()
    assert host.text_content("#announce").endswith("Waiting for the host to start the races.")
    assert host.locator("#calls li").count() == 0 and watcher.locator("#calls li").count() == 0
    host.click("#start")
    host.wait_for_selector("#start", state="hidden")
    # the host link: the buttons; the spectator link: none (but Full screen)
    assert host.locator("#pause").is_visible() and host.locator("#resume").is_visible()
    assert host.locator("#start").is_hidden() and host.locator("#next-race").is_hidden()
    assert watcher.locator("#host-controls").is_hidden() and watcher.locator("button:visible:not(#fullscreen)").count() == 0
    # a roll or two may come before the pause lands: no dice until the first roll, two after
    rolled = host.get_attribute("#roll", "data-dice")
    assert host.locator("#dice .die").count() == (2 if rolled else 0)
    assert ("first roll" in host.text_content("#roll-sum")) == (not rolled)
    crossings = int(host.get_attribute("#redline", "data-crossings"))
    assert host.text_content("#redline-count") == f"{min(crossings, 3)}/3"
    host.click("#resume")
    host.wait_for_function("() => window.__spoken.length >= 3")
    assert host.evaluate("window.__spoken[0]") == "They're off!", host.evaluate("window.__spoken")
    # R2: stop the clock after the second crossing, to look at a race in full swing; about one race
    # in eight ends with fewer than two horses over the red line (a runaway leader), and then the
    # box waits for the host's Next race
    host.wait_for_function("() => Number(document.querySelector('#redline').dataset.crossings) >= 2"
                           " || !document.querySelector('#next-race').hidden", timeout=120000)
    set_clock(server, table, paused=True)   # over the websocket: race 1 may end before a click lands
    host.wait_for_function("() => document.querySelector('#resume').disabled === false || "
                           "!document.querySelector('#next-race').hidden")
    dice = host.eval_on_selector_all("#dice .die", "dice => dice.map(d => Number(d.dataset.value))")
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    circles = host.eval_on_selector_all("#dice .die", "dice => dice.map(d => d.querySelectorAll('circle').length)")
    assert circles == dice, "each die is drawn with its pips"
    assert host.get_attribute("#roll", "data-dice") == f"{dice[0]}+{dice[1]}"
    assert str(sum(dice)) in host.text_content("#roll-sum")
    crossings = int(host.get_attribute("#redline", "data-crossings"))
    assert host.text_content("#redline-count") == f"{min(crossings, 3)}/3"
    assert host.locator("#redline-pips .on").count() == min(crossings, 3)
    assert ("No more bets!" in host.text_content("#redline")) == (crossings >= 3)
    leaders = host.get_attribute("#leader", "data-horses").split(",")
    assert leaders and all(horse in host.text_content("#leader-horses") for horse in leaders)
    watcher.wait_for_function(f"() => document.body.dataset.stateId === '{host.get_attribute('body', 'data-state-id')}'")
    assert watcher.get_attribute("#roll", "data-dice") == f"{dice[0]}+{dice[1]}"
    settled = "() => document.getAnimations().length === 0"   # the dice have stopped tumbling
    host.wait_for_function(settled)
    watcher.wait_for_function(settled)
    screenshot(host, "caller-box-laptop-host")
    screenshot(watcher, "caller-box-phone-spectator")
    assert_pair_labels_fit(watcher)   # a phone's track: both numbers of 2/3 and 11/12 inside their circles
    assert_pair_labels_fit(host)   # and a laptop's
    host.set_viewport_size(PHONE)
    screenshot(host, "caller-box-phone-host")
    host.set_viewport_size(LAPTOP)
    # no stall: race 1 ends, the host starts race 2 (people settle on the board meanwhile), and it
    # runs to its end with nobody deciding anything
    set_clock(server, table, paused=False)
    host.wait_for_selector("#next-race:visible", timeout=120000)
    assert watcher.locator("button:visible:not(#fullscreen)").count() == 0
    # issue 34: the other bets that win stay in view under the results between races
    winning = host.locator("#settled li").all_text_contents()
    assert len(winning) == 3 and winning[0].startswith(("Winning colour bets", "No colour bet")), winning
    screenshot(host, "caller-box-laptop-between")
    host.click("#next-race")
    host.wait_for_function("() => document.querySelector('#race-no').textContent.includes('2')", timeout=120000)
    host.wait_for_function("() => document.body.dataset.phase === 'over'", timeout=120000)
    assert "The game is over." in host.text_content("#announce")
    assert host.text_content("#leader-label") == "Winner"
    results = host.locator("#race-results li").all_text_contents()   # R3, race by race
    assert len(results) == 2 and all(re.match(rf"Race {n} Win: .+ Place: .+ Show: ", text)
                                     for n, text in zip((1, 2), results)), results
    assert re.search(r"Win: .+ Place: .+ Show: ", host.text_content("#calls"))
    # issue 34: then the colour bets, exotic finishes and prop bets that win
    calls = host.text_content("#calls")
    assert re.search(r"Winning colour bets: |No colour bet wins", calls) and re.search(r"Winning exotic finishes: |No exotic finish wins", calls)
    assert re.search(r"Winning prop bets: |No prop bet wins", calls)
    assert host.locator("#pause").is_hidden(), "nothing left to pause"
    host.wait_for_function(settled)
    screenshot(host, "caller-box-laptop-over")
    assert not errors and not watcher_errors, errors + watcher_errors
    host.close()
    watcher.close()


def test_the_caller_s_start_is_not_the_money_table_s_start(server, browser):
    """Issue 39: one English word, two meanings, two messages (message contexts): the caller's Start
    button starts the races, the money table's Start column is the money before them; Spanish says
    "Empezar" and "Inicio", where one message said "Salida" for both."""
    table = create(server, {"game": "readysetbet-box", "setup": {"races": 2}, "seats": [], "pace": PACE}, start=False)
    set_clock(server, table, paused=True)
    host, errors = caller_page(browser, server, table["host_link"])
    assert host.text_content("#start") == "Start"
    words = host.evaluate("""async () => {
        const i18n = await import('/static/i18n.js');
        await i18n.loadLanguage('es');
        const found = [document.querySelector('#start').textContent, i18n.tc('money before the first race', 'Start'),
                       i18n.tc('the start line\\'s post on the course', 'Start'), i18n.tc('no such context', 'Start'),
                       [...i18n.missing]];
        await i18n.loadLanguage('en');
        return found;
    }""")
    assert words == ["Empezar", "Inicio", "Salida", "Start", ["no such context\u0004Start"]]
    assert not errors, errors
    host.close()


#: the Screen Wake Lock, recorded: each request and release
WAKE_LOCK_STUB = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async (kind) => {
  window.__wake.push("request:" + kind);
  const lock = { listeners: [], addEventListener(type, fn) { this.listeners.push(fn); },
                 release: async () => { window.__wake.push("release"); } };
  return lock; } } });
"""


def test_a_phone_calling_the_race_stays_awake_and_installs(server, browser):
    """Issue 34, point 5: the caller page keeps the screen awake while a race runs and lets it go
    when paused; it names a web app manifest (installable), its service worker keeps its static
    files (scope: the caller's pages; the table's state still comes from the server), and it
    offers full screen."""
    table = create(server, {"game": "readysetbet-box", "setup": {"races": 1}, "seats": [], "pace": PACE}, start=False)
    set_clock(server, table, paused=True)
    host, errors = caller_page(browser, server, table["host_link"], PHONE, init=WAKE_LOCK_STUB)
    assert host.evaluate("window.__wake") == [], "asleep while the table waits"
    manifest = host.get_attribute('link[rel="manifest"]', "href")
    data = host.evaluate(f"async () => (await fetch('{manifest}')).json()")
    assert data["display"] == "fullscreen" and "start_url" not in data and data["icons"]
    scope = host.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server.url + "/call/"
    host.wait_for_function("async () => (await caches.keys()).length > 0 && "
                           "(await (await caches.open((await caches.keys())[0])).keys()).length > 0")
    host.click("#start")
    host.wait_for_selector("#start", state="hidden")
    host.click("#resume")
    host.wait_for_function("() => window.__wake.includes('request:screen')")
    host.click("#pause")
    host.wait_for_function("() => window.__wake[window.__wake.length - 1] === 'release'")
    assert host.locator("#fullscreen").is_visible() == host.evaluate("document.fullscreenEnabled")
    assert not errors, errors
    host.close()
