""""Why?" on the pages, in the player's language: a tapped square the move cannot end on (T4, T5)
explained by the engine's "why" look-up, cards above the handicap explained beside the hand (T6),
a refused bet on a taken or closed space (R4); each with a "Rule" link to the rules page's
paragraph, opening in a new tab. Screenshots on a laptop and a phone."""

import re

import pytest

from tests.browser.conftest import create, screenshot

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: what a player must never read: rule codes, ids, 0-based seats, placeholders
FORBIDDEN = re.compile(r"\b[TR]\d+\b|\{|\}|win:|seat \d|player 0")

#: the tapped square's explanation and the hand's "Why?" in each language tested
TM_WORDS = {
    "en": ("This square is right in front of Blue", "Why?", "Rule", "Blue stands on this square."),
    "de": ("Dieses Feld liegt direkt vor Blau", "Warum?", "Regel", "Blau steht auf diesem Feld."),
}
RSB_WORDS = {
    "en": ("is taken by Ana's token", "leftmost column", "Rule"),
    "fr": ("est pris par le jeton de Ana", "colonne de gauche", "Règle"),
}


def open_in(browser, server, link, lang, viewport):
    context = browser.new_context(viewport=viewport, locale=lang, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + link)
    return page, errors


def tap_square(page, lane, square):
    """A tap on a square of the board (not a marked one): the square's own polygon."""
    page.locator(f'#course .squares polygon[data-lane="{lane}"][data-square="{square}"]').dispatch_event("click")


@pytest.mark.parametrize("lang", sorted(TM_WORDS))
def test_a_square_out_of_reach_and_a_spent_card_say_why(server, browser, lang):
    # red and blue level (T2: red, inside, moves first); both lead, so both are handicapped to 8 (T6)
    setup = {"course": "oval", "seats": 1, "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 0}],
             "positions": [{"id": "red", "lane": 0, "square": 20}, {"id": "blue", "lane": 1, "square": 20}],
             "hands": {"red": ["3", "10"], "blue": ["4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}]})
    explained, why, rule, occupied = TM_WORDS[lang]
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page, errors = open_in(browser, server, table["seats"][0]["link"], lang, viewport)
        page.wait_for_selector("#turn[data-mine=yes]")
        # T6: the 10 will not move red; the hand says why, with a link to the handicap paragraph
        note = page.wait_for_selector('#hands .why-note[data-why="spent"]')
        assert note.text_content().startswith(why) and "10" in note.text_content()
        link = note.query_selector("a.rule-link")
        assert link.text_content() == rule and link.get_attribute("href") == "/rules/turfmaster-race#handicap"
        assert link.get_attribute("target") == "_blank"
        # T4: with the 3, the square right in front of blue cannot be reached: tapped, the page says why
        page.click('#hands button.card[data-horse="red"][data-card="3"]')
        page.wait_for_selector("#course polygon.sq.reach")
        tap_square(page, 1, 21)
        toast = page.wait_for_selector('#messages .error-box[data-kind="why"]')
        assert explained in toast.text_content(), toast.text_content()
        assert not FORBIDDEN.search(toast.text_content().replace(rule, "")), toast.text_content()
        link = toast.query_selector("a.rule-link")
        assert link.get_attribute("href") == "/rules/turfmaster-race#blocking" and link.text_content() == rule
        assert page.locator('#course polygon.sq.why[data-lane="1"][data-square="21"]').count() == 1
        screenshot(page, f"why-square-{lang}-{name}")
        # T5: a square the move passes is no end; the explanation changes with the square
        tap_square(page, 0, 22)
        page.wait_for_function("() => document.querySelector('#messages .error-box a.rule-link')"
                               " && document.querySelector('#messages .error-box a.rule-link').getAttribute('href').endsWith('#full-move')")
        # a tap on blue's token asks about the square it stands on (T4)
        page.locator('#course g.horse[data-horse="blue"]').dispatch_event("click")
        page.wait_for_function("(words) => document.querySelector('#messages .error-box')"
                               " && document.querySelector('#messages .error-box').textContent.startsWith(words)", arg=occupied)
        tap_square(page, 0, 22)
        page.wait_for_function("() => document.querySelector('#messages .error-box a.rule-link')"
                               " && document.querySelector('#messages .error-box a.rule-link').getAttribute('href').endsWith('#full-move')")
        # the link opens the rules page at that paragraph
        with page.context.expect_page() as opened:
            page.click("#messages a.rule-link")
        rules = opened.value
        rules.wait_for_selector("#full-move")
        assert rules.url.endswith("/rules/turfmaster-race#full-move")
        rules.close()
        assert not errors, errors
        page.context.close()


@pytest.mark.parametrize("lang", sorted(RSB_WORDS))
def test_a_taken_space_and_a_closed_space_say_why(server, browser, lang):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}], "pace": 30})
    taken, closed, rule = RSB_WORDS[lang]
    ana, _ = open_in(browser, server, table["seats"][0]["link"], "en", DESKTOP)
    bea, errors = open_in(browser, server, table["seats"][1]["link"], lang, PHONE)
    for page in (ana, bea):
        page.wait_for_selector("#bets-state.open", timeout=120000)
    space = next(s for s in ("win:7:R", "win:6:R", "win:8:R") if not ana.locator(f'[data-space="{s}"].taken').count())
    ana.click(f'[data-space="{space}"]')
    ana.wait_for_selector(f'[data-space="{space}"].mine')
    bea.wait_for_selector(f'[data-space="{space}"].taken')
    bea.locator(f'[data-space="{space}"]').scroll_into_view_if_needed()
    bea.click(f'[data-space="{space}"]')
    toast = bea.wait_for_selector(".error-box a.rule-link")
    text = bea.text_content("#messages .error-box")
    assert taken in text and not FORBIDDEN.search(text.replace(rule, "")), text
    assert toast.text_content() == rule and toast.get_attribute("href") == "/rules/readysetbet#tokens"
    screenshot(bea, f"why-taken-{lang}-phone")
    # R4: two players, so the leftmost column is closed; a tap on it is answered, not ignored
    closed_space = "win:7:L"
    assert bea.locator(f'[data-space="{closed_space}"].closed').count() == 1
    bea.locator(f'[data-space="{closed_space}"]').scroll_into_view_if_needed()
    bea.click(f'[data-space="{closed_space}"]')
    bea.wait_for_function("(words) => document.querySelector('#messages .error-box')"
                          " && document.querySelector('#messages .error-box').textContent.includes(words)", arg=closed)
    assert bea.locator("#messages .error-box a.rule-link").get_attribute("href") == "/rules/readysetbet#tokens"
    screenshot(bea, f"why-closed-{lang}-phone")
    ana.set_viewport_size(DESKTOP)
    ana.click(f'[data-space="{closed_space}"]')
    ana.wait_for_selector("#messages .error-box a.rule-link")
    screenshot(ana, "why-closed-en-desktop")
    assert not errors, errors
    for page in (ana, bea):
        page.context.close()
