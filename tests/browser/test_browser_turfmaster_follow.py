"""The board follows the race (issue 33, point 1): at each of the player's turns the view frames the
horse to move and the squares it may reach, close enough that a horse is at least 24 px across at
1280x800 and 20 px on a 390x844 phone; Fit shows the whole course in one tap, and a view the player
set (zoom, pan, Fit) stays while the others play, until the player's next turn."""

import pytest

from tests.browser.conftest import TURFMASTER_SEAT_AUTOPLAY, create, open_seat, screenshot

pytestmark = pytest.mark.browser

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
BOX = "(n) => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }"
VIEW = "() => document.querySelector('#course svg').getAttribute('viewBox')"


def inside(inner, outer):
    return outer["x"] - 1 <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1 and \
        outer["y"] - 1 <= inner["y"] and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1


def my_turn(page):
    page.wait_for_selector("#turn[data-mine=yes]")
    page.wait_for_selector("#course g.horse.current")
    return page.get_attribute("#app", "data-state-id")


def play(page, card=None):
    """One decision, as a person clicks: a card (the first, or ``card``) then its first square
    (from the list), or the first option."""
    state = page.get_attribute("#app", "data-state-id")
    if page.locator("#hands .card.playable").count():
        page.locator(f"#hands .card.playable{f'[data-card={card}]' if card else ''}").first.click()
        page.wait_for_selector("#decision button.square-option, #play-anyway")
        page.locator("#decision button.square-option, #play-anyway").first.click()
    else:
        page.locator("#decision button.option").first.click()
    if page.locator("#confirm-fall").count():
        page.click("#confirm-fall")
    page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")


def the_horse_and_its_squares_in_sight(page, least):
    # the tokens have come to rest (a move slides them along)
    page.wait_for_function("() => [...document.querySelectorAll('#course g.horse')].every((g) => !g.getAnimations().length)")
    board = page.eval_on_selector("#course .board-view", BOX)
    token = page.eval_on_selector("#course g.horse.current circle.body", BOX)
    assert token["width"] >= least, (token, least)
    assert inside(token, board), (token, board)
    for mark in page.eval_on_selector_all("#course .reach-layer polygon", f"ps => ps.map({BOX})"):
        assert inside(mark, board), (mark, board)
    return token["width"]


def test_the_board_frames_each_turn_and_keeps_the_players_view_until_the_next(server, browser):
    table = create(server, {"game": "turfmaster-race", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                            "setup": {"course": "oval", "steeplechase": True, "seats": 2,
                                      "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}})
    ana, errors = open_seat(browser, server, table["seats"][0]["link"])
    ana.set_viewport_size(DESKTOP)
    bo, _ = open_seat(browser, server, table["seats"][1]["link"])
    my_turn(ana)
    # the horse to move and where its card may take it, framed: a horse 24 px across or more
    sizes = [the_horse_and_its_squares_in_sight(ana, 24)]
    ana.locator("#hands .card.playable").first.click()
    ana.wait_for_selector("#course .reach-layer polygon, #play-anyway")
    sizes.append(the_horse_and_its_squares_in_sight(ana, 24))
    screenshot(ana, "tm-follow-desktop-card")
    # Fit, one tap: the whole course; the player's view stays while Bo plays
    ana.click("#zoom-fit")
    fitted = ana.evaluate(VIEW)
    ana.locator("#decision button.square-option, #play-anyway").first.click()
    my_turn(bo)
    assert ana.evaluate(VIEW) == fitted
    play(bo)
    # Ana's next turn: framed again
    my_turn(ana)
    ana.wait_for_function(f"(fitted) => ({VIEW})() !== fitted", arg=fitted)
    sizes.append(the_horse_and_its_squares_in_sight(ana, 24))
    print("token sizes at 1280x800 (px):", [round(size, 1) for size in sizes])
    assert not errors, errors


def touching(page, panel):
    """Whether the horse to move's token and a panel pinned over the board share pixels."""
    token = page.eval_on_selector("#course g.horse.current circle.body", BOX)
    box = page.eval_on_selector(panel, BOX)
    return token["x"] < box["x"] + box["width"] and box["x"] < token["x"] + token["width"] and \
        token["y"] < box["y"] + box["height"] and box["y"] < token["y"] + token["height"]


def test_on_a_phone_the_horse_to_move_is_in_sight_the_hand_fits_and_the_words_say_tap(server, browser):
    """Issue 33, point 5: at 390x844 on a touch screen, each of Ana's turns frames her horse at 20 px
    or more, under no pinned panel; her hand fits the screen's width (the other horse's hand is a
    line while a card is asked for one); the page says "Tap", not "Click"."""
    table = create(server, {"game": "turfmaster-race", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                            "setup": {"course": "oval", "steeplechase": True, "seats": 2,
                                      "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1},
                                                 {"id": "yellow", "owner": 0}, {"id": "green", "owner": 1}]}})
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ana = context.new_page()
    errors = []
    ana.on("pageerror", lambda error: errors.append(str(error)))
    ana.goto(server.url + table["seats"][0]["link"])
    bo, _ = open_seat(browser, server, table["seats"][1]["link"])
    bo.evaluate(TURFMASTER_SEAT_AUTOPLAY)   # Bo plays his turns by clicking, as they come
    sizes, taps = [], 0
    for _ in range(6):   # Ana's turns, cards and dice
        my_turn(ana)
        if ana.locator("#hands .card.playable").count():
            # the hand fits: every card within the screen's width, the other horse's hand a line
            cards = ana.eval_on_selector_all("#hands .hand[data-playing=yes] .card", f"cs => cs.map({BOX})")
            assert cards and all(c["x"] >= 0 and c["x"] + c["width"] <= PHONE["width"] for c in cards), cards
            assert ana.eval_on_selector_all("#hands .hand[data-playing=no] .card", "cs => cs.filter(c => c.offsetParent).length") == 0
            ana.locator("#hands .card.playable").first.tap()
            ana.wait_for_selector("#decision button.square-option, #play-anyway")
            if ana.locator("#decision button.square-option").count():
                assert "Tap a highlighted square to move there." in ana.inner_text("#decision")
                assert "Click" not in ana.inner_text("#decision")
                taps += 1
        sizes.append(the_horse_and_its_squares_in_sight(ana, 20))
        assert not touching(ana, ".p-hand") and not touching(ana, ".p-turn"), "the horse to move under a panel"
        screenshot(ana, "tm-follow-phone")
        if ana.locator("#decision button.square-option, #play-anyway").count():
            state = ana.get_attribute("#app", "data-state-id")
            ana.locator("#decision button.square-option, #play-anyway").first.tap()
            if ana.locator("#confirm-fall").count():
                ana.click("#confirm-fall")
            ana.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
        else:
            play(ana)
    print("token sizes at 390x844 (px):", [round(size, 1) for size in sizes])
    assert len(sizes) >= 3 and taps >= 1
    assert not errors, errors
    context.close()


def test_moves_travel_along_their_squares_jump_fences_and_fall(server, browser):
    """Issue 33, point 2 (T11): Red, two squares before fence 1, plays a 6 and falls there: its token
    travels and tumbles; Blue's joker 12 carries it over fence 1: it hops there. Under
    prefers-reduced-motion, and with the board's Motion button off, a move does not travel."""
    setup = {"course": "oval", "steeplechase": True, "seats": 1, "first_roller": 0,
             "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 0}],
             "positions": [{"id": "red", "lane": 2, "square": 6}, {"id": "blue", "lane": 4, "square": 3}],
             "hands": {"red": ["6", "7"], "blue": ["J12", "3", "4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size(DESKTOP)
    travelled = "(h) => { const g = document.querySelector(`#course g.horse[data-horse=${h}]`); return g && { ...g.dataset }; }"
    my_turn(page)
    play(page)   # Red's 6: it falls at fence 1 (confirmed)
    red = page.evaluate(travelled, "red")
    assert red["fell"] == "yes" and int(red["travel"]) >= 3, red
    my_turn(page)
    play(page, "J12")   # Blue's joker 12, over fence 1
    blue = page.evaluate(travelled, "blue")
    assert blue["fell"] == "no" and int(blue["jumps"]) >= 1 and int(blue["travel"]) >= 10, blue
    # prefers-reduced-motion: the token is simply there
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("() => { delete document.querySelector('#course g.horse[data-horse=blue]').dataset.travel; }")
    while "travel" not in (page.evaluate(travelled, "blue") or {}) and page.get_attribute("#turn", "data-over") != "yes":
        before = page.get_attribute("#course g.horse[data-horse=blue]", "data-square")
        my_turn(page)
        play(page)
        if page.get_attribute("#course g.horse[data-horse=blue]", "data-square") != before:
            break
    assert "travel" not in page.evaluate(travelled, "blue")
    # the Motion button, kept in this browser: off, a move does not travel either
    page.emulate_media(reduced_motion="no-preference")
    page.click("#motion")
    assert page.get_attribute("#motion", "aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('hippodrome.motion')") == "off"
    if page.get_attribute("#turn", "data-over") != "yes":
        my_turn(page)
        play(page)
        assert "travel" not in page.evaluate(travelled, "blue")
    assert not errors, errors
