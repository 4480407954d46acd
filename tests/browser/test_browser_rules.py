"""The rules pages in the browser: each game's page in each language shows every section and every
diagram drawn from the engine's data, switches language in place, opens at a paragraph's anchor,
and is reached from the lobby and from the play page. Screenshots at 1280x800 and 390x844."""

import json
import urllib.request

import pytest

from hippodrome.i18n import LANGUAGES
from hippodrome.server.localize import WEB_DIR
from tests.browser.conftest import create, screenshot

pytestmark = pytest.mark.browser

GAMES = ("turfmaster", "readysetbet")
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
#: a paragraph with a diagram to photograph, per game
SHOWN = {"turfmaster": "handicap", "readysetbet": "board"}


def texts(game, lang):
    return json.loads((WEB_DIR / "rules" / f"{game}.{lang}.json").read_text(encoding="utf-8"))


def diagrams(server, game):
    return json.loads(urllib.request.urlopen(f"{server.url}/api/games/{game}/rules", timeout=30).read())["diagrams"]


def open_rules(browser, server, game, lang, viewport=DESKTOP, anchor=""):
    page, errors = start_rules(browser, server, game, lang, viewport, anchor)
    wait_drawn(page, lang, len(texts(game, lang)["sections"]))
    return page, errors


def start_rules(browser, server, game, lang, viewport=DESKTOP, anchor=""):
    """A new page asked for the rules in `lang` (as chosen on an earlier visit), on its way: the
    caller waits for it to be drawn (wait_drawn)."""
    page = browser.new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(f"localStorage.setItem('hippodrome.lang', '{lang}')")
    page.goto(f"{server.url}/rules/{game}{anchor}", wait_until="commit")
    return page, errors


def wait_drawn(page, lang, sections):
    # the page may still be on its way (a click on a link): no #rules yet is "not yet", not an error
    page.wait_for_function("([lang, n]) => document.querySelector('#rules')?.dataset.lang === lang"
                           " && document.querySelectorAll('#rules section').length === n", arg=[lang, sections])


#: each diagram's figures on the page, as check_diagrams() reads them: how many figures bear its
#: name, the first one's box, and the counts of what it draws (one round trip for the whole page)
FIGURES = """(names) => Object.fromEntries(names.map((name) => {
  const figures = document.querySelectorAll(`figure[data-diagram="${name}"]`);
  const figure = figures[0];
  const count = (selector) => (figure ? figure.querySelectorAll(selector).length : 0);
  const box = figure ? figure.getBoundingClientRect() : null;
  return [name, { figures: figures.length, width: box && box.width, height: box && box.height, squares: count("polygon.sq"),
                  horses: count("g.horse"), legend: count("ul.legend li"), rows: count("tbody tr") }];
}))"""


def check_diagrams(page, game, data):
    drawn = page.evaluate(FIGURES, list(data))
    for name, diagram in data.items():
        figure = drawn[name]
        assert figure["figures"] == 1, name
        box = {"width": figure["width"], "height": figure["height"]}
        assert box["width"] > 200 and box["height"] > 60, (name, box)
        if game == "turfmaster":
            # every square of the window and every horse the engine placed is drawn
            assert figure["squares"] == len(diagram["squares"]), name
            assert figure["horses"] == len(diagram["horses"]), name
            assert figure["legend"] >= len(diagram["horses"]), name
        elif name == "board":
            assert figure["rows"] == len(diagram["rows"])
        elif name == "bonus":
            assert figure["rows"] == len(diagram["rolls"])
        else:
            assert figure["horses"] == len(diagram["track"]), name


@pytest.mark.parametrize("game", GAMES)
def test_each_page_shows_every_section_and_diagram_in_every_language(server, browser, game):
    data = diagrams(server, game)
    opening = {lang: start_rules(browser, server, game, lang) for lang in LANGUAGES}   # all on their way at once
    for lang, (page, errors) in opening.items():
        content = texts(game, lang)
        wait_drawn(page, lang, len(content["sections"]))
        assert page.eval_on_selector_all("#rules section", "s => s.map(x => x.id)") == [s["id"] for s in content["sections"]]
        assert page.eval_on_selector_all("#rules section h2", "s => s.map(x => x.textContent)") == [
            s["title"] for s in content["sections"]]
        assert page.text_content("#rules-intro h1") == content["title"]
        assert page.text_content("#contents-title") != "Contents" or lang == "en"   # the page's own words translated
        assert page.locator("#contents-list a").count() == len(content["sections"])
        check_diagrams(page, game, data)
        shown = page.text_content("#rules")
        assert "{" not in shown and "undefined" not in shown and "NaN" not in shown, lang
        page.locator(f"#{SHOWN[game]}").scroll_into_view_if_needed()
        screenshot(page, f"rules-{game}-{lang}-desktop")
        page.set_viewport_size(PHONE)
        page.locator(f"#{SHOWN[game]} figure").first.scroll_into_view_if_needed()
        screenshot(page, f"rules-{game}-{lang}-phone")
        # nothing is wider than the phone's screen but the diagrams, which scroll in their box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert errors == [], errors
        page.close()


def test_the_page_switches_language_in_place_and_opens_at_a_paragraph(server, browser):
    page, errors = open_rules(browser, server, "turfmaster", "en", anchor="#fences")
    top = page.locator("#fences").bounding_box()["y"]
    assert -2 <= top < DESKTOP["height"] / 2   # the paragraph a link names is at the top of the screen
    page.select_option("#lang", "nl")
    wait_drawn(page, "nl", len(texts("turfmaster", "nl")["sections"]))
    assert page.text_content("#fences h2") == next(s["title"] for s in texts("turfmaster", "nl")["sections"]
                                                    if s["id"] == "fences")
    check_diagrams(page, "turfmaster", diagrams(server, "turfmaster"))
    assert errors == []
    page.close()


#: what the TurfMaster diagrams draw, read in one round trip: per diagram, each token's number by
#: its horse, and the colours of the legend's marks beside those of what they name in the picture
#: (a fence's squares, the squares past the finish line, and the finish line itself)
MARKS = """() => Object.fromEntries([...document.querySelectorAll('figure.diagram')].map((figure) => {
  const style = (selector, property) => {
    const node = figure.querySelector(selector);
    return node ? getComputedStyle(node)[property] : null;
  };
  return [figure.dataset.diagram, {
    numbers: Object.fromEntries([...figure.querySelectorAll('g.horse')].map((g) => [g.dataset.horse, g.textContent])),
    fence: [style('ul.legend .key.fence', 'backgroundColor'), style('polygon.sq.fence', 'fill')],
    past: [style('ul.legend .key.past', 'backgroundColor'), style('polygon.sq.past', 'fill')],
    finish: [style('line.finish', 'stroke'), style('line.finish', 'strokeDasharray')],
  }];
}))"""


def test_the_turfmaster_diagrams_draw_what_their_legends_name(server, browser):
    """Each token bears its horse's number as the game's board paints it (its place among the
    game's horses; the legend gives the rank of T6 and the places of T9), and the legend's marks
    are the colours of what they name: a fence (T11), the squares past the finish line and the
    finish line, dashed (T9)."""
    page, errors = open_rules(browser, server, "turfmaster", "en")
    drawn = page.evaluate(MARKS)
    order = [horse["id"] for horse in json.loads(urllib.request.urlopen(
        f"{server.url}/api/games/turfmaster", timeout=30).read())["data"]["horses"]]
    for name, diagram in diagrams(server, "turfmaster").items():
        assert drawn[name]["numbers"] == {h["id"]: str(order.index(h["id"]) + 1) for h in diagram["horses"]}, name
    assert drawn["handicap"]["numbers"]["red"] == "1" and drawn["handicap"]["numbers"]["blue"] == "2"
    legend, square = drawn["fences"]["fence"]
    assert legend is not None and legend == square
    legend, square = drawn["finish"]["past"]
    assert legend is not None and legend == square
    stroke, dashes = drawn["finish"]["finish"]
    assert stroke not in (None, "none") and dashes not in (None, "none")
    assert errors == []
    page.close()


def test_the_lobby_links_to_the_rules_of_the_game_chosen(server, browser):
    page = browser.new_page(viewport=PHONE)
    page.add_init_script("localStorage.setItem('hippodrome.lang', 'es')")
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet]", state="attached")
    for game, rules in (("readysetbet", "readysetbet"), ("turfmaster", "turfmaster")):
        page.select_option("#game", game)
        page.wait_for_function("(game) => document.querySelector('#rules-link').getAttribute('href') === `/rules/${game}`",
                               arg=game)
    assert page.text_content("#rules-link") == "Reglas de este juego"
    screenshot(page, "rules-lobby-link-phone")
    page.click("#rules-link")
    page.wait_for_url("**/rules/turfmaster")
    wait_drawn(page, "es", len(texts("turfmaster", "es")["sections"]))
    assert page.url.endswith("/rules/turfmaster")
    page.close()


def test_the_play_page_links_to_the_rules_of_its_game(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "bot", "level": "random"}]})
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_selector("#rules-link:not([hidden])")
    assert page.get_attribute("#rules-link", "href") == "/rules/readysetbet"
    screenshot(page, "rules-play-link-desktop")
    with context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value   # a new tab: the game stays open
    wait_drawn(rules, "en", len(texts("readysetbet", "en")["sections"]))
    assert rules.url.endswith("/rules/readysetbet")
    context.close()


def test_a_game_without_rules_is_told_in_words(server, browser):
    page = browser.new_page(viewport=PHONE)
    response = page.goto(server.url + "/rules/nothing")
    assert response.status == 404
    assert "/rules/turfmaster" in page.text_content("#problem")
    page.click("#back")
    page.wait_for_selector("#game option", state="attached")
    page.close()
