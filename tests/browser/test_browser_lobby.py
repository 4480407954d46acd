"""The lobby: set up a table with a friend and bots, share links, refused setups explained."""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from hippodrome.i18n import Listing, colon, format_money, format_number, format_ordinal, translate
from tests.browser.conftest import create, screenshot
from tests.i18n.texts import french_typography_faults

pytestmark = pytest.mark.browser


def test_set_up_a_meeting_in_the_lobby_and_open_my_seat(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=turfmaster]", state="attached")
    # a single race is a race of the meeting: 2 players with 2 horses each to begin, T7's choices
    page.select_option("#game", "turfmaster-race")
    page.wait_for_function("() => [...document.querySelectorAll('#horses-per-player option')].filter(o => !o.hidden).length === 3")
    assert (page.input_value("#players"), page.input_value("#horses-per-player")) == ("2", "2")
    assert page.eval_on_selector_all("#horses-per-player option:not([hidden])", "os => os.map(o => o.value)") == ["2", "3", "4"]
    assert page.get_attribute("#players", "min") == "2"
    page.select_option("#game", "turfmaster")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    rows = page.locator(".seat-row")
    expect(rows).to_have_count(3)  # the server tells the lobby how many seats the setup makes
    rows.nth(0).locator(".seat-name").fill("Ana")
    rows.nth(1).locator(".seat-name").fill("Bea")
    rows.nth(1).locator(".seat-kind").select_option("person")
    rows.nth(2).locator(".seat-kind").select_option("bot")
    rows.nth(2).locator(".seat-level").select_option("tactical")
    screenshot(page, "lobby-laptop")
    page.click("#create-button")
    page.wait_for_selector("#created .play-link")
    links = page.eval_on_selector_all("#created .play-link", "a => a.map(x => x.getAttribute('href'))")
    assert len(links) == 2 and all("#seat=" in link for link in links) and links[0] != links[1]
    # the creator's own seat (the first person) is played through the host link: it may start the
    # game without an absent player and call the next race
    assert "&host=" in links[0] and "host=" not in links[1]
    assert page.get_attribute("#created .host-link", "href") == links[0]
    # "Copy link" says it copied; where the page may not use the clipboard (plain http from another
    # device) the link is selected on screen, and the words say so
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.locator("#created .copy-link").nth(0).click()
    expect(page.locator("#created .copy-said").nth(0)).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == server.url + links[0].split("&host=")[0]   # the seat's own link
    page.evaluate("() => Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    page.locator("#created .copy-link").nth(1).click()
    expect(page.locator("#created .copy-said").nth(1)).not_to_be_empty()
    assert page.evaluate("() => String(getSelection())") == server.url + links[1]
    page.wait_for_selector("#tables td")
    table_id = links[0].split("/play/", 1)[1].split("#", 1)[0]
    listed = page.text_content("#tables")
    assert table_id in listed and "Ana" in listed   # the new table, among the module's open tables
    # a bot is marked in words, not with an emoji a phone may lack the font for
    row = page.locator("#tables tr", has_text=table_id)
    assert row.locator(".seat[data-kind=bot] .seat-bot").inner_text() == "bot" and "\U0001f916" not in listed
    page.set_viewport_size({"width": 390, "height": 844})
    # on a phone the page never scrolls sideways, the open tables included
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, "lobby-phone")
    page.set_viewport_size({"width": 1366, "height": 800})
    page.click("#created .play-link >> nth=1")
    page.wait_for_selector("#hands .hand")
    assert "you are Bea" in page.text_content("#who")
    hands = page.eval_on_selector_all("#hands .hand", "rows => rows.map(r => r.dataset.horse)")
    assert hands == ["yellow", "green"]  # seat 1's horses, in the deck file's order
    page.close()


def test_a_refused_setup_is_explained(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet]", state="attached")
    page.select_option("#game", "readysetbet")
    # the form's own limits stop most mistakes; the server's message covers the rest
    page.evaluate("() => document.querySelector('#pace').removeAttribute('min')")
    page.fill("#pace", "0")
    page.click("#create-button")
    page.wait_for_selector("#create-error .error-box")
    english = page.text_content("#create-error")
    assert "pace" in english
    # switching the language redraws the refusal in the new language, from its message JSON
    page.select_option("#lang", "de")
    page.wait_for_function("(english) => document.querySelector('#create-error').textContent !== english", arg=english)
    assert page.text_content("#create-error .error-box")
    page.close()


# -- languages ---------------------------------------------------------------------------------
GERMAN_BROWSER = {"locale": "de-DE", "extra_http_headers": {"Accept-Language": "de-DE,de;q=0.9,en;q=0.3"}}
LOBBY_LABELS = ["New table", "Create the table", "Seats", "Open tables", "Players", "Course", "Horses per player"]


def assert_in_german(text: str, labels: list[str]) -> None:
    """Each label shows in German, and its English text nowhere."""
    for english in labels:
        german = translate("de", english)
        assert german != english, f"{english!r} has no German translation"
        assert german in text, german
        assert not re.search(rf"\b{re.escape(english)}\b", text), f"English {english!r} on a German page"


def test_the_lobby_speaks_german_to_a_german_browser(server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 800}, **GERMAN_BROWSER)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row .seat-label:has-text('1')")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert_in_german(page.inner_text("body"), LOBBY_LABELS)
    # a nameless seat is the first player, "Spieler 1": never "Platz 1", which reads like a Place bet
    assert translate("de", "Player {n}", n=1) == "Spieler 1"
    assert "Spieler 1" in page.inner_text("#seats") and "Platz 1" not in page.inner_text("#seats")
    screenshot(page, "lobby-german")
    context.close()


def test_switching_the_language_redraws_the_lobby_and_keeps_what_was_typed(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.select_option("#game", "turfmaster")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    expect(page.locator(".seat-row")).to_have_count(3)
    page.locator(".seat-row .seat-name").nth(0).fill("Ana")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    page.wait_for_function("(text) => document.querySelector('#create').innerText.includes(text)",
                           arg=translate("es", "Create the table"))
    assert page.input_value("#players") == "3" and page.locator(".seat-row").count() == 3
    names = page.eval_on_selector_all(".seat-name", "inputs => inputs.map(i => i.value)")
    assert names == ["Ana", translate("es", "Bot {n}", n=1), translate("es", "Bot {n}", n=2)]
    assert translate("es", "Player {n}", n=3) == "Jugador 3" and "Jugador 3" in page.inner_text("#seats")
    # the bot levels' words, each after its name and a colon as the language writes it (French: " :")
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    levels = page.eval_on_selector_all("#bot-levels li", "items => items.map(i => i.textContent)")
    assert levels and all("\u00a0: " in level and not french_typography_faults(level) for level in levels), levels
    page.close()


def test_the_pages_write_numbers_and_money_as_the_server_does(server, browser):
    """The page's formatMoney/formatNumber/ordinal give what hippodrome.i18n.formatting gives:
    "$45" en, "45 $" de/es/fr, "$ 45" nl (docs/i18n.md); its formatAnd and render of a Listing
    (joined by "and", or by a separator as the language writes it) what hippodrome.i18n.Listing gives."""
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    amounts, numbers, places = [45, 1250, 2.5, -3, 0], [12345.5, 7, 1000000], [1, 2, 3, 11, 22]
    lists = [Listing(items, conjunction=True) for items in (["5", "9"], ["2/3", "4", "10"], ["Ana"])] + \
        [Listing(["Rouge", "Bleu"]), Listing(["lane 1 square 3", "lane 2 square 4"], "; ")]
    for lang in ("en", "de", "es", "fr", "nl"):
        shown = page.evaluate("""async ([lang, amounts, numbers, places, lists]) => {
            const m = await import('/static/i18n.js');
            await m.loadLanguage(lang);
            return {money: amounts.map((a) => m.formatMoney(a)), numbers: numbers.map((n) => m.formatNumber(n)),
                    places: places.map((n) => m.ordinal(n)), filled: m.t("{n}", {n: 12345}),
                    lists: lists.map((l) => m.render(l)), joined: m.formatAnd(["Ana", "Bo"]), colon: m.colon()};
        }""", [lang, amounts, numbers, places, [listing.to_json() for listing in lists]])
        assert shown["money"] == [format_money(a, lang) for a in amounts], lang
        assert shown["numbers"] == [format_number(n, lang) for n in numbers], lang
        assert shown["places"] == [format_ordinal(n, lang) for n in places], lang
        assert shown["filled"] == format_number(12345, lang), "t() writes a number parameter for the language"
        # "5 and 9", "5 y 9", "2/3, 4 und 10": a prop bet's horses, players who share the win (R7, R9);
        # a list's separator as the language writes it (French: a no-break space before ";")
        assert shown["lists"] == [listing.translate(lang) for listing in lists], lang
        assert shown["joined"] == Listing(["Ana", "Bo"], conjunction=True).translate(lang), lang
        assert shown["colon"] == colon(lang), lang   # "Ana: $3 → $9", French "Ana\u00a0: ..."
    assert format_money(45, "de") == "45\xa0$" and format_money(45, "en") == "$45"
    assert [Listing(["5", "9"], conjunction=True).translate(lang) for lang in ("en", "es", "de")] == ["5 and 9", "5 y 9", "5 und 9"]
    assert (colon("en"), colon("fr")) == (": ", "\u00a0: ")
    page.close()


def test_the_lobby_lists_the_open_tables_past_a_page_of_tutorials(own_server, browser):
    # more guided first games than a page of the lobby holds, all newer than the one open table:
    # the listing leaves them out before paging (tutorials=exclude), so the open table is on page 1
    open_table = create(own_server, {"game": "turfmaster-race", "setup": {
        "course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
        "seats": [{"name": "Ana", "kind": "person"}, {"name": "Bo", "kind": "person"}]}, start=False)
    lessons = [create(own_server, {"game": "turfmaster-tutorial", "setup": {},
                                   "seats": [{"name": "", "kind": "person"}]})["id"] for _ in range(21)]
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(own_server.url + "/")
    page.wait_for_selector("#tables td")
    listed = page.eval_on_selector_all("#tables tr td:first-child", "cells => cells.map(c => c.textContent)")
    assert listed == [open_table["id"]] and not set(lessons) & set(listed)
    expect(page.locator("#tables .more-tables")).to_have_count(0)
    screenshot(page, "lobby-past-tutorials")
    page.close()


def test_the_form_shows_it_loads_names_follow_kinds_offers_legal_courses_and_play_now(server, browser):
    """The lobby while the games load says so; a seat's proposed name follows its kind; a ticked
    steeplechase offers only the courses with fences (T11, T12); "Play now" starts a meeting
    against bots in one click, at the strongest level chosen for this game the last time."""
    import json
    import urllib.request

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    held = []
    page.route("**/api/games", lambda route: held.append(route))   # the games' answer held back
    with page.expect_request("**/api/games"):
        page.goto(server.url + "/")
    expect(page.locator("#loading")).to_be_visible()
    assert page.get_attribute("#create-form", "aria-busy") == "true" and page.is_disabled("#play-now")
    screenshot(page, "lobby-loading")
    held[0].continue_()
    page.wait_for_selector("#loading", state="hidden")
    assert page.get_attribute("#create-form", "aria-busy") is None and page.is_enabled("#play-now")
    page.select_option("#game", "turfmaster")
    expect(page.locator(".seat-row")).to_have_count(2)
    second = page.locator(".seat-row").nth(1)
    assert second.locator(".seat-name").input_value() == "Bot 1"
    second.locator(".seat-kind").select_option("person")
    assert second.locator(".seat-name").input_value() == "Player 2"
    second.locator(".seat-kind").select_option("bot")
    assert second.locator(".seat-name").input_value() == "Bot 1"
    # T11/T12: the triangle has no fences
    courses = "() => [...document.querySelectorAll('#course option')].filter(o => !o.hidden).map(o => o.value)"
    assert page.evaluate(courses) == ["oval", "triangle"]
    page.check("#steeplechase")
    page.wait_for_function(f"() => ({courses})().join() === 'oval'")
    page.uncheck("#steeplechase")
    page.wait_for_function(f"() => ({courses})().join() === 'oval,triangle'")
    # a table with a tactical bot, then "Play now": its bots are tactical, and the game is under way
    second.locator(".seat-level").select_option("tactical")
    page.click("#create-button")
    page.wait_for_selector("#created .play-link")
    page.click("#play-now")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-table-status=playing]")
    page.wait_for_selector("#hands .hand")
    assert "ready=" not in page.url
    table_id = page.url.split("/play/", 1)[1].split("#", 1)[0]
    summary = json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{table_id}").read())
    assert summary["game"] == "turfmaster"
    assert [(s["kind"], s.get("level")) for s in summary["seats"]] == [("person", None), ("bot", "tactical")]
    screenshot(page, "lobby-play-now-table")
    page.close()


def test_learn_to_play_can_be_pressed_once_the_form_answers(server, browser):
    """"Learn to play" shows with the games, but, like "Play now", cannot be pressed while the
    form settles (the setup's first check under way): pressed then, it once did nothing at all.
    Once the check is answered it starts the tutorial."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    held = []
    page.route("**/api/games/*/check", lambda route: held.append(route))   # the check held back
    with page.expect_request("**/api/games/*/check"):
        page.goto(server.url + "/")
    expect(page.locator("#learn-button")).to_be_visible()
    expect(page.locator("#learn-button")).to_be_disabled()
    assert page.is_disabled("#play-now")
    for route in held:
        route.continue_()
    page.unroute("**/api/games/*/check")
    expect(page.locator("#learn-button")).to_be_enabled()
    page.click("#learn-button")
    page.wait_for_url(re.compile(r"/play/"))
    page.close()


#: every Content-Security-Policy violation a page meets, kept in the page (added before its scripts run)
CSP_WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def test_the_pages_work_under_the_content_security_policy(server, browser):
    """The server's policy (server/headers.py) allows no inline script, no eval and no style
    attribute: the lobby, both games' seats, the rules, the puzzles and the caller draw without
    one violation, the seat colours set through the CSSOM show, and the catalogs' plural rules
    are read without eval (issue 37.4)."""
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None)
    assert "'unsafe-inline'" not in page.goto(server.url + "/").headers["content-security-policy"]
    page.wait_for_selector("#game option[value=turfmaster]", state="attached")
    rules = page.evaluate("""async () => { const { pluralFunction } = await import('/static/i18n.js');
        return [pluralFunction('(n != 1)'), pluralFunction('(n > 1)')].map((f) => [0, 1, 2].map(f)); }""")
    assert rules == [[1, 0, 1], [0, 0, 1]]
    rsb = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1, "vip": False},
                          "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot"}], "pace": 0.05})
    race = create(server, {"game": "turfmaster-race", "setup": {"course": "oval", "horses": [
        {"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}, "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot"}]})
    page.goto(server.url + rsb["seats"][0]["link"])
    try:
        page.wait_for_selector("#board .space")
        page.wait_for_selector("#standings .swatch")
    except PlaywrightTimeout:   # say what the page held and heard
        raise AssertionError(f"the seat's board was not drawn: errors {errors}, violations "
                             f"{page.evaluate('() => window.__csp')}, page: {page.inner_text('body')[:600]!r}")
    assert page.eval_on_selector("#standings .swatch", "s => getComputedStyle(s).backgroundColor") not in (
        "", "rgba(0, 0, 0, 0)")
    page.goto(server.url + race["seats"][0]["link"])
    page.wait_for_selector("#app[data-state-id]")
    for path, ready in (("/rules/turfmaster", "article section"), ("/puzzles/turfmaster#1", "#puzzle .board-view"),
                        ("/rules/readysetbet", "article section")):
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        assert page.evaluate("() => window.__csp") == [], path
    assert not errors, errors
    context.close()
