"""The TurfMaster puzzles page in the browser (issue 13): a player solves two puzzles (a card, then
a square clicked on the board), fails one (a dice choice), sees the verdicts and explanations,
and finds the progress kept after a reload; the page is reached from the lobby and the rules page,
and speaks the reader's language. Screenshots at 1280x800 and 390x844."""

import json

import pytest

from hippodrome.turfmaster.cards import HORSE_IDS
from hippodrome.turfmaster.puzzles import WORDS, load_puzzles, position
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
PUZZLES = load_puzzles()


def open_puzzles(browser, server, number, lang="en", viewport=DESKTOP):
    page = browser.new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(f"localStorage.setItem('hippodrome.lang', '{lang}')")
    page.goto(f"{server.url}/puzzles/turfmaster#{number}")
    wait_shown(page, number)
    return page, errors


def wait_shown(page, number):
    page.wait_for_function("n => document.querySelector('#puzzle-number').textContent.includes(String(n))"
                           " && document.querySelector('#puzzle .board-view')", arg=number)


def first_of(kind, right=True):
    """The first puzzle whose decision is of ``kind``, and one of its options: right or wrong."""
    for puzzle in PUZZLES:
        pending = position(puzzle).pending()
        if pending.kind == kind:
            options = [o for o in pending.options if (o in puzzle.solution) == right]
            return puzzle, options[0]
    raise AssertionError(kind)


def verdict(page):
    page.wait_for_selector("#result .verdict")
    return page.locator("#result .verdict")


def test_solve_two_puzzles_and_fail_one_progress_is_kept(browser, server):
    card_puzzle, card = first_of("card")
    page, errors = open_puzzles(browser, server, card_puzzle.number)
    assert page.locator("#puzzle-question").inner_text() == WORDS[card_puzzle.key].question.msgid
    # each horse carries the number it has at the table, by colour (1 red, 2 blue, 3 yellow ...),
    # on its token and beside its name, whichever horses run and in whatever order they are listed
    racing = position(card_puzzle).ids
    assert racing[0] != HORSE_IDS[0], "a puzzle whose first listed horse is not red tells the numberings apart"
    tokens = dict(page.eval_on_selector_all("#puzzle g.horse", "gs => gs.map(g => [g.dataset.horse, g.querySelector('text.num').textContent])"))
    facts = dict(page.eval_on_selector_all("#puzzle .puzzle-facts li[data-horse]", "ls => ls.map(l => [l.dataset.horse, l.querySelector('.swatch').textContent])"))
    hands = dict(page.eval_on_selector_all("#puzzle #hands .hand", "hs => hs.map(h => [h.dataset.horse, h.querySelector('.swatch').textContent])"))
    by_colour = {horse: str(HORSE_IDS.index(horse) + 1) for horse in racing}
    assert tokens == by_colour and facts == by_colour, (tokens, facts)
    assert hands and all(hands[horse] == by_colour[horse] for horse in hands), hands
    assert page.inner_text("#puzzle-prompt").startswith("Your turn: ")
    page.click(f'#hands button.playable[data-card="{card["card"]}"]')
    shown = verdict(page)
    assert shown.get_attribute("data-correct") == "true"
    assert page.inner_text("#puzzle-prompt") == "Solved"   # the question is answered: no "Your turn" left
    assert WORDS[card_puzzle.key].explanation.msgid in shown.inner_text()
    screenshot(page, "puzzles-solved-desktop")

    square_puzzle, square = first_of("square")
    page.goto(f"{page.url.split('#')[0]}#{square_puzzle.number}")
    wait_shown(page, square_puzzle.number)
    page.click(f'polygon.sq.reach[data-lane="{square["lane"]}"][data-square="{square["square"]}"]')
    assert verdict(page).get_attribute("data-correct") == "true"

    dice_puzzle, wrong = first_of("dice_use", right=False)
    page.goto(f"{page.url.split('#')[0]}#{dice_puzzle.number}")
    wait_shown(page, dice_puzzle.number)
    as_page_writes_it = json.dumps(wrong, separators=(",", ":"))   # JSON.stringify: no spaces
    page.click(f"#choices button[data-option='{as_page_writes_it}']")
    shown = verdict(page)
    assert shown.get_attribute("data-correct") == "false" and "Not this one." in shown.inner_text()
    assert page.inner_text("#puzzle-prompt").startswith("Your turn: ")   # still to be answered
    screenshot(page, "puzzles-wrong-desktop")

    # the progress is kept in this browser: two solved, the failed one only tried
    page.reload()
    wait_shown(page, dice_puzzle.number)
    assert page.locator("#progress").inner_text() == f"2 of {len(PUZZLES)} solved"
    solved = {int(n) for n in page.eval_on_selector_all("#puzzle-items li.solved", "items => items.map(i => i.dataset.number)")}
    assert solved == {card_puzzle.number, square_puzzle.number}
    assert errors == []


def test_the_page_in_another_language_on_a_phone_and_its_links(browser, server):
    puzzle = PUZZLES[0]
    page, errors = open_puzzles(browser, server, 1, lang="de", viewport=PHONE)
    assert page.locator("#puzzle-title").inner_text().startswith(WORDS[puzzle.key].title.translate("de"))
    assert page.locator("#puzzle-question").inner_text() == WORDS[puzzle.key].question.translate("de")
    assert page.locator("#next").inner_text() == "Weiter"
    screenshot(page, "puzzles-phone-de")
    page.click("#next")
    wait_shown(page, 2)
    assert page.url.endswith("#2")
    assert page.locator("#rules-link").get_attribute("href") == "/rules/turfmaster"
    # the lobby and the rules page link here
    page.goto(server.url + "/")
    page.wait_for_selector("#puzzles-link:not([hidden])")
    assert page.locator("#puzzles-link").get_attribute("href") == "/puzzles/turfmaster"
    page.goto(server.url + "/rules/turfmaster")
    page.wait_for_selector("#puzzles-link:not([hidden])")
    assert errors == []


def test_a_handicap_puzzle_keeps_its_answer_hidden_and_a_pick_from_the_list_shows_the_top(browser, server):
    """T6: puzzle 1 asks which card is above Black's limit; the page marks no card as spent before
    the answer (its note comes after). A puzzle picked from "All puzzles", at the page's foot, is
    shown from the top."""
    puzzle = PUZZLES[0]
    assert position(puzzle).pending().notes[1], "puzzle 1 has a card above the limit"
    page, errors = open_puzzles(browser, server, 1)
    cards = page.locator("#hands button.card")
    assert page.locator("#hands .over-limit").count() == 0
    assert all(not cards.nth(i).get_attribute("title") for i in range(cards.count())), "no tooltip gives the answer"
    page.click('#hands button.playable[data-card="10"]')
    verdict(page)
    assert page.locator('#hands .over-limit[data-card="11"]').count() == 1
    assert "limit" in page.locator('#hands .over-limit[data-card="11"]').get_attribute("title")
    # the list is at the foot: open it, pick puzzle 5, the page comes back to the question
    page.set_viewport_size(PHONE)
    page.click("#puzzle-list summary")
    page.locator('#puzzle-items a[href="#5"]').scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 200
    page.click('#puzzle-items a[href="#5"]')
    wait_shown(page, 5)
    page.wait_for_function("() => window.scrollY === 0")
    assert page.locator("#puzzle-question").inner_text() == WORDS[PUZZLES[4].key].question.msgid
    assert errors == []
