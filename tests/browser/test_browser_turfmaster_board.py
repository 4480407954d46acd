"""The TurfMaster board (web/turfmaster_board.js): drawn like the game's board from the course data
(T12: rails, lanes, level lines, start and finish; T11: the six fences of the steeplechase oval),
tokens told apart by colour and number, the horse to move ringed on every colour, handicap marks
(T6) beside their own token; both courses fit a laptop window; zoom and pan; on a phone the banner,
the dice and the hand stay in sight while the board follows the horse to move."""

import pytest

from tests.browser.conftest import TURFMASTER_SEAT_AUTOPLAY, create, open_seat, screenshot

pytestmark = pytest.mark.browser

HORSES = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def one_owner_race(server, course, steeplechase, squares, hands=None, **more):
    """A race whose eight horses all belong to the one person at the table: every turn is hers.
    ``more``: more of the setup (its first round, say)."""
    setup = {"course": course, "steeplechase": steeplechase, "seats": 1,
             "horses": [{"id": h, "owner": 0} for h in HORSES],
             "positions": [{"id": h, "lane": lane, "square": square} for h, (lane, square) in zip(HORSES, squares)],
             "hands": {h: list(hands or ["3", "4", "6"]) for h in HORSES}, **more}
    return create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}]})


def open_race(server, browser, course, steeplechase, squares):
    """That race's page on a laptop, once it asks its person for a card."""
    table = one_owner_race(server, course, steeplechase, squares)
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size(DESKTOP)
    page.wait_for_selector("#turn[data-mine=yes]")
    return page, errors


def boxes_overlap(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


BOX = "(n) => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }"
VIEW = "() => document.querySelector('#course svg').getAttribute('viewBox').split(' ').map(Number)"
# the centre of the horse to move's token and of the ring around it, on screen
RING = """() => {
  const token = document.querySelector('g.horse.current'), ring = document.querySelector('g.current-ring');
  if (!token || ring.getAttribute('visibility') !== 'visible') return null;
  const c = (n) => { const r = n.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width]; };
  return { horse: token.dataset.horse, token: c(token.querySelector('circle.body')), ring: c(ring) };
}"""

# what moves on the page: the animations that never end, and the state of the ring's spin
MOTION = """() => ({
  endless: document.getAnimations().filter((a) => a.effect.getTiming().iterations === Infinity)
                                   .map((a) => a.animationName || a.transitionProperty),
  ring: (document.querySelector('g.current-ring .ring-light').getAnimations()[0] || {}).playState || null })"""


def fits_without_scrolling(page):
    """The whole board is in the window: nothing of it below the fold, no sideways scrolling."""
    box = page.eval_on_selector("#course .board-view", BOX)
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # at "fit" the course's whole drawing is inside the box
    course = page.eval_on_selector("#course svg .squares", BOX)
    assert course["x"] >= box["x"] - 1 and course["x"] + course["width"] <= box["x"] + box["width"] + 1
    assert course["y"] >= box["y"] - 1 and course["y"] + course["height"] <= box["y"] + box["height"] + 1


def test_the_steeplechase_oval_is_drawn_like_the_board(server, browser):
    # fence 1 (line 10) in front of red; white, brown and purple lead on the second pass of the
    # home straight, white with blue close beside it (its handicap mark must not cover blue);
    # yellow, green and black side by side in the first curve
    squares = [(2, 6), (4, 4), (0, 35), (1, 36), (2, 37), (5, 113), (6, 100), (7, 121)]
    page, errors = open_race(server, browser, "oval", True, squares)
    page.wait_for_selector("#course g.horse.current")
    page.click("#zoom-fit")   # the whole course (the page frames the horse to move)
    # T12: rails inside and outside, a lane number for every lane, level lines in the curves
    assert page.locator("#course polyline.rail:not(.shadow)").count() == 2
    # players count lanes from 1 on the rail to 8; the data attribute keeps the data's 0-based lane
    marks = page.eval_on_selector_all("#course text.lane-mark", "ns => ns.map(n => [n.dataset.lane, n.textContent])")
    assert sorted({text for _, text in marks}) == [str(lane) for lane in range(1, 9)]
    assert all(int(text) == int(lane) + 1 for lane, text in marks), marks
    assert page.locator("#course line.level").count() >= 8
    assert page.locator("#course line.level.all").count() >= 2, "each of the two curves ends on a line level across every lane"
    assert page.locator("#course .start-post").count() == 1 and page.locator("#course .finish-post").count() == 1
    assert page.locator("#course polygon.finish").count() == 1
    # no band painted over the first pass; the second pass stands on the first's squares
    assert page.locator("#course polygon.sq.past").count() == 0
    square = '#course .squares polygon[data-lane="0"][data-square="20"]'
    page.hover(square)
    assert page.text_content(f"{square} title") == "Lane 1, square 20 on the first lap, 120 on the second"
    # T11: six hurdles, each one in sight: what is drawn at its middle is the hurdle itself
    fences = page.eval_on_selector_all("#course g.fence-mark", """marks => marks.map(m => {
        const hurdle = m.querySelector('polygon.hurdle'), r = hurdle.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height * 0.3);
        return { fence: m.dataset.fence, seen: top === hurdle, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
    })""")
    assert sorted(f["fence"] for f in fences) == ["1", "2", "3", "4", "5", "start"]
    assert all(f["seen"] for f in fences), fences
    # no square of another pass is drawn over a fence (fence 1 counts on the first pass only)
    second_pass = page.eval_on_selector_all("#course .squares polygon", f"""ps => ps
        .filter(p => Number(p.dataset.square) > 100 + 2 * Number(p.dataset.lane) && Number(p.dataset.square) < 140)
        .map({BOX})""")
    for fence in fences:
        assert not any(boxes_overlap(fence["box"], square) for square in second_pass), fence["fence"]
    # tokens: eight colours, eight different labels; handicap marks (T6) cover no other token
    tokens = page.eval_on_selector_all("#course g.horse", f"""gs => gs.map(g => ({{
        horse: g.dataset.horse, label: g.querySelector('text.num').textContent,
        fill: g.querySelector('circle.body').getAttribute('fill'),
        box: ({BOX})(g.querySelector('circle.body')),
        limit: g.querySelector('.limit').getAttribute('visibility') === 'visible' ? ({BOX})(g.querySelector('.limit polygon.tag-body')) : null }}))""")
    assert sorted(t["horse"] for t in tokens) == sorted(HORSES)
    assert len({t["label"] for t in tokens}) == 8 and len({t["fill"] for t in tokens}) == 8
    limits = [t for t in tokens if t["limit"]]
    assert len(limits) >= 3, "the three leaders carry their limits"
    # a tag is a label pointing at its horse, never a numbered disc that reads as another horse
    assert page.locator("#course g.horse .limit circle").count() == 0
    for marked in limits:
        for other in tokens:
            if other is not marked:
                assert not boxes_overlap(marked["limit"], other["box"]), (marked["horse"], other["horse"])
    # T6 as the rulebooks print it: a tag shows the handicap's number (9, 10 or 11), its tooltip that
    # number with its limit, one less; the horses table says the same (issue 39)
    marks = page.eval_on_selector_all("#course g.horse .limit[visibility=visible]", """gs => gs.map(g => [
        g.parentNode.dataset.horse, g.querySelector('text').textContent, g.querySelector('title').textContent])""")
    for horse, number, tooltip in marks:
        assert number in {"9", "10", "11"}, marks
        assert tooltip == f"handicap {number}: at most {int(number) - 1} squares", marks
        assert page.text_content(f"#horses-table tr[data-horse={horse}] .limit") == f"{number} (at most {int(number) - 1})"
    # ... and at this zoom (the whole course in a laptop's window) the tag's digits are as large as
    # the token's own number, inside the tag (they were 4 px, sticking out of a 5 px box)
    tags = page.eval_on_selector_all("#course g.horse .limit[visibility=visible]", f"""gs => gs.map(g => ({{
        digits: ({BOX})(g.querySelector('text')), disc: ({BOX})(g.querySelector('polygon.tag-body')),
        number: ({BOX})(g.parentNode.querySelector('text.num')) }}))""")
    for tag in tags:
        digits, disc = tag["digits"], tag["disc"]
        assert digits["height"] >= tag["number"]["height"] * 0.95 and digits["height"] >= 9, tag
        assert disc["x"] <= digits["x"] and digits["x"] + digits["width"] <= disc["x"] + disc["width"], tag
    # the same number beside the horse in the horses table and the hand
    assert page.locator("#horses-table tr[data-horse=black] .swatch").inner_text() == \
        next(t["label"] for t in tokens if t["horse"] == "black")
    # the horses table is a table: its "Cards left" cells are cells (Ready Set Bet's card rows are
    # laid out as flex boxes: that rule is not theirs), highlighted with their row
    assert page.eval_on_selector_all("#horses td.cards", "cs => cs.map(c => getComputedStyle(c).display)") == \
        ["table-cell"] * 8
    fits_without_scrolling(page)
    screenshot(page, "tm-board-steeplechase-desktop")
    # the horse to move is ringed, whatever its colour: play each horse's turn by clicking
    ringed = set()
    for _ in range(8):
        # the ring slides from the horse before to this one, and comes to rest around it
        page.wait_for_function(f"""() => {{ const r = ({RING})();
            return r && document.querySelector('#turn').dataset.mine === 'yes'
                   && Math.abs(r.token[0] - r.ring[0]) < 2 && Math.abs(r.token[1] - r.ring[1]) < 2; }}""")
        ring = page.evaluate(RING)
        assert ring["ring"][2] > ring["token"][2] + 4, "the ring shows around the token"
        # its light spins, having just come to this horse; nothing on the page moves for ever
        # (an endless spin repainted the board sixty times a second while the page was open)
        assert page.evaluate(MOTION) == {"endless": [], "ring": "running"}
        ringed.add(ring["horse"])
        state = page.get_attribute("#app", "data-state-id")
        page.locator(f"#hands .hand[data-horse={ring['horse']}] .card.playable").first.click()
        page.wait_for_selector("#course .reach-layer polygon, #play-anyway")
        if ring["horse"] == "yellow":
            screenshot(page, "tm-board-yellow-to-move")
        target = page.locator("#course .reach-layer polygon:not(.falls), #play-anyway").first
        target.click() if target.count() else page.locator("#course .reach-layer polygon").first.click()
        if page.locator("#confirm-fall").count():
            page.click("#confirm-fall")
        page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
    assert ringed == set(HORSES)
    # the course's name fits the infield in every language ("Oval · Carrera de obstáculos")
    for lang in ("es", "de"):
        page.select_option("#lang", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang && document.querySelector('#course text.course-name')"
                               " && document.querySelector('#course text.course-name').textContent.includes('·')", arg=lang)
        name, infield = page.evaluate("""() => [document.querySelector('#course text.course-name').getBBox(),
                                                document.querySelector('#course polygon.infield').getBBox()]
                                             .map(b => ({ x: b.x, width: b.width }))""")
        assert infield["x"] < name["x"] and name["x"] + name["width"] < infield["x"] + infield["width"], (lang, name, infield)
    screenshot(page, "tm-board-steeplechase-german")
    assert not errors, errors
    page.close()


def test_the_triangle_fits_and_zooms_and_pans_and_keeps_its_view(server, browser):
    squares = [(0, 2), (1, 3), (2, 30), (3, 45), (4, 60), (5, 80), (6, 100), (7, 118)]
    page, errors = open_race(server, browser, "triangle", False, squares)
    framed = page.evaluate(VIEW)
    page.click("#zoom-fit")
    fits_without_scrolling(page)
    screenshot(page, "tm-board-triangle-desktop")
    fitted = page.evaluate(VIEW)
    assert framed[3] < fitted[3] * 0.5, "the page frames the horse to move, Fit shows the whole course"
    page.click("#zoom-in")
    closer = page.evaluate(VIEW)
    assert closer[3] < fitted[3] * 0.8
    # a drag pans the course
    box = page.eval_on_selector("#course .board-view", BOX)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 120, cy - 60, steps=6)
    page.mouse.up()
    panned = page.evaluate(VIEW)
    assert panned[0] > closer[0] and panned[3] == pytest.approx(closer[3])
    # the wheel zooms about the pointer; the keys work once the board has the focus
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"() => ({VIEW})()[3] < {panned[3] * 0.95}")
    page.focus("#course .board-view")
    before = page.evaluate(VIEW)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(VIEW)[0] > before[0]
    page.keyboard.press("-")
    assert page.evaluate(VIEW)[3] > before[3]
    zoom = page.evaluate(VIEW)
    # the player's view stays while the turn lasts: a card chosen does not move it
    page.evaluate("() => { document.querySelector('#course .squares').dataset.kept = 'yes'; }")
    state = page.get_attribute("#app", "data-state-id")
    page.locator("#hands .card.playable").first.click()
    page.wait_for_selector("#course .reach-layer polygon, #play-anyway")
    assert page.evaluate(VIEW) == pytest.approx(zoom, rel=0.01)
    # a move (a new state, the next horse's turn; its square chosen in the list, out of the
    # player's view): the board is patched, not drawn again, and frames the next horse to move
    page.locator("#decision button.square-option, #play-anyway").first.click()
    page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
    page.wait_for_selector("#turn[data-mine=yes]")
    assert page.get_attribute("#course .squares", "data-kept") == "yes"
    page.wait_for_function(f"() => Math.abs(({VIEW})()[3] - {zoom[3]}) > 1")
    page.click("#zoom-out")
    zoom = page.evaluate(VIEW)[3]
    # a switch of language draws the page again, the board at the zoom it had
    page.select_option("#lang", "de")
    page.wait_for_function("""() => document.documentElement.lang === 'de' && document.querySelector('#course .squares')
                                    && !document.querySelector('#course .squares').dataset.kept""")
    assert page.evaluate(VIEW)[3] == pytest.approx(zoom, rel=0.01)
    assert page.get_attribute("#zoom-fit", "title") != "Show the whole course"
    page.click("#zoom-fit")
    assert page.evaluate(VIEW)[3] == pytest.approx(fitted[3], rel=0.01)
    # on a phone, at the next turn a card chosen brings its squares close
    page.set_viewport_size(PHONE)
    state = page.get_attribute("#app", "data-state-id")
    page.locator("#hands .card.playable").first.click()
    page.wait_for_selector("#course .reach-layer polygon, #play-anyway")
    page.locator("#course .reach-layer polygon, #play-anyway").first.click()
    page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
    page.wait_for_selector("#turn[data-mine=yes]")
    page.locator("#hands .card.playable").first.click()
    page.wait_for_selector("#course .reach-layer polygon, #play-anyway")
    assert page.evaluate(VIEW)[3] < fitted[3] / 2
    screenshot(page, "tm-board-triangle-phone")
    assert not errors, errors
    page.close()


def test_on_a_phone_the_banner_the_dice_and_the_hand_stay_in_sight(server, browser):
    """A dice round first (T4): Ana rolls, chooses how to use the dice, then where her horse ends."""
    setup = {"course": "oval", "steeplechase": True, "seats": 2, "first_round": "dice", "first_roller": 0,
             "horses": [{"id": "yellow", "owner": 0}, {"id": "white", "owner": 1}],
             "positions": [{"id": "yellow", "lane": 1, "square": 4}, {"id": "white", "lane": 2, "square": 3}],
             "hands": {"yellow": ["3", "4", "6", "7", "8", "9", "10", "J10"], "white": ["3", "4"]}}
    table = create(server, {"game": "turfmaster-race", "setup": setup,
                            "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]})
    page, errors = open_seat(browser, server, table["seats"][0]["link"])
    page.set_viewport_size(PHONE)
    in_sight = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                             return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"""
    chose_square = False
    for _ in range(12):
        page.wait_for_selector("#turn[data-mine=yes]")
        state = page.get_attribute("#app", "data-state-id")
        if page.locator("#course .reach-layer polygon").count():   # where the horse ends (its squares lit)
            for sel in ("#turn", "#dice", "#hands .card"):
                assert page.evaluate(in_sight, sel), sel
            # the lit squares are in the board's box and big enough for a thumb
            board = page.eval_on_selector("#course .board-view", BOX)
            marks = page.eval_on_selector_all("#course .reach-layer polygon", f"ps => ps.map({BOX})")
            for mark in marks:
                assert board["y"] <= mark["y"] and mark["y"] + mark["height"] <= board["y"] + board["height"]
                assert mark["width"] >= 24 and mark["height"] >= 24, mark
            assert board["height"] <= PHONE["height"] * 0.5, "the board leaves room for the banner and the hand"
            # the choices as buttons, in the bottom half of the screen
            button = page.eval_on_selector("#decision button.option", BOX)
            assert button["y"] > PHONE["height"] / 2 and button["height"] >= 44
            screenshot(page, "tm-board-phone-square")
            page.locator("#course .reach-layer polygon").first.click()
            if page.locator("#confirm-fall").count():
                page.click("#confirm-fall")
            chose_square = True
        elif page.locator("#decision button.option[data-type=dice_use]").count():
            screenshot(page, "tm-board-phone-dice")
            page.locator("#decision button.option").first.click()
        elif page.locator("#hands .card.playable").count():
            break
        else:
            page.locator("#decision button.option").first.click()
        page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
        if chose_square:
            break
    assert chose_square
    # the card round: the board follows the horse to move, close enough to tap
    page.wait_for_selector("#turn[data-mine=yes]")
    page.wait_for_selector("#hands .card.playable")
    page.locator("#hands .card.playable").first.click()
    page.wait_for_selector("#course .reach-layer polygon, #play-anyway")
    for sel in ("#turn", "#hands .card"):
        assert page.evaluate(in_sight, sel), sel
    token = page.eval_on_selector("#course g.horse[data-horse=yellow] circle.body", BOX)
    board = page.eval_on_selector("#course .board-view", BOX)
    assert board["x"] <= token["x"] and token["x"] + token["width"] <= board["x"] + board["width"]
    assert token["width"] >= 20, "zoomed in on a phone"
    screenshot(page, "tm-board-phone-card")
    assert not errors, errors
    page.close()


def test_players_read_lanes_1_to_8_in_the_choices_the_horses_table_and_the_log(server, browser):
    """T12: the data counts lanes from 0 on the rail; the page shows them from 1. Red leads alone on
    the rail of the home straight, so it moves first; a 3 takes it to square 15 of the rail or of
    the lane beside it."""
    squares = [(0, 12)] + [(lane, 2) for lane in range(1, 8)]
    page, errors = open_race(server, browser, "oval", False, squares)
    assert page.text_content("tr[data-horse=red] .where") == "lane 1, square 12"
    assert page.text_content("tr[data-horse=purple] .where") == "lane 8, square 2"
    page.click(".card.playable[data-card='3']")
    page.wait_for_selector("#decision button.square-option")
    labels = page.eval_on_selector_all("#decision button.square-option", "bs => bs.map(b => b.textContent)")
    assert "Lane 1, square 15" in labels and "Lane 2, square 15" in labels, labels
    marks = page.eval_on_selector_all(".reach-layer polygon",
                                      "ps => ps.map(p => [p.dataset.lane, p.dataset.square, p.textContent])")
    assert marks and all(title == f"Lane {int(lane) + 1}, square {square}" for lane, square, title in marks), marks
    screenshot(page, "tm-lanes-choices-desktop")
    page.click("#decision button.square-option:text-is('Lane 1, square 15')")
    page.wait_for_selector("#log li[data-event=move]")
    assert "Red moves 3 to lane 1, square 15" in page.inner_text("#log")
    page.wait_for_function("() => document.querySelector('tr[data-horse=red] .where').textContent === 'lane 1, square 15'")
    assert "lane 0" not in page.inner_text("body").lower()
    assert not errors, errors
    page.close()


# -- the board follows the race, moves travel (issue 33, points 1, 2 and 5) ----------------------
# The board follows the race (issue 33, point 1): at each of the player's turns the view frames the
# horse to move and the squares it may reach, close enough that a horse is at least 24 px across at
# 1280x800 and 20 px on a 390x844 phone; Fit shows the whole course in one tap, and a view the player
# set (zoom, pan, Fit) stays while the others play, until the player's next turn.
VIEW_TEXT = "() => document.querySelector('#course svg').getAttribute('viewBox')"


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
    fitted = ana.evaluate(VIEW_TEXT)
    ana.locator("#decision button.square-option, #play-anyway").first.click()
    my_turn(bo)
    assert ana.evaluate(VIEW_TEXT) == fitted
    play(bo)
    # Ana's next turn: framed again
    my_turn(ana)
    ana.wait_for_function(f"(fitted) => ({VIEW_TEXT})() !== fitted", arg=fitted)
    sizes.append(the_horse_and_its_squares_in_sight(ana, 24))
    print("token sizes at 1280x800 (px):", [round(size, 1) for size in sizes])
    assert not errors, errors


def touching(page, panel):
    """Whether the horse to move's token and a panel pinned over the board share pixels."""
    token = page.eval_on_selector("#course g.horse.current circle.body", BOX)
    box = page.eval_on_selector(panel, BOX)
    return token["x"] < box["x"] + box["width"] and box["x"] < token["x"] + token["width"] and \
        token["y"] < box["y"] + box["height"] and box["y"] < token["y"] + token["height"]


def two_horses_each(server, **setup):
    """A single race on the oval, Ana (red, yellow) against Bo (blue, green), under way."""
    return create(server, {"game": "turfmaster-race", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                           "setup": {"course": "oval", "seats": 2, **setup,
                                     "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1},
                                                {"id": "yellow", "owner": 0}, {"id": "green", "owner": 1}]}})


def opened_at(browser, server, link, size, touch=False):
    """A window of ``size`` (a touch screen if ``touch``) opened at ``link``: its context, its page
    and the page's errors."""
    context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + link)
    return context, page, errors


def on_a_phone(browser, server, link):
    """A touch screen of 390x844 opened at ``link``: its context, its page and the page's errors."""
    return opened_at(browser, server, link, PHONE, touch=True)


def test_on_a_phone_the_horse_to_move_is_in_sight_the_hand_fits_and_the_words_say_tap(server, browser):
    """Issue 33, point 5: at 390x844 on a touch screen, each of Ana's turns frames her horse at 20 px
    or more, under no pinned panel; her hand fits the screen's width (the other horse's hand is a
    line while a card is asked for one); the page says "Tap", not "Click"."""
    table = two_horses_each(server, steeplechase=True)
    context, ana, errors = on_a_phone(browser, server, table["seats"][0]["link"])
    bo, _ = open_seat(browser, server, table["seats"][1]["link"])
    bo.evaluate(TURFMASTER_SEAT_AUTOPLAY)   # Bo plays his turns by clicking, as they come
    sizes, taps = [], 0
    for _ in range(4):   # Ana's turns, cards and dice
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
    play(page)   # Red's 6: it falls at fence 1 (confirmed; the card, then its square, go to the server)
    moved = "([h, from]) => document.querySelector(`#course g.horse[data-horse=${h}]`).dataset.square !== from"
    page.wait_for_function(moved, arg=["red", "6"])
    red = page.evaluate(travelled, "red")
    assert red["fell"] == "yes" and int(red["travel"]) >= 3, red
    my_turn(page)
    play(page, "J12")   # Blue's joker 12, over fence 1
    page.wait_for_function(moved, arg=["blue", "3"])
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
        before = page.get_attribute("#course g.horse[data-horse=blue]", "data-square")
        while page.get_attribute("#course g.horse[data-horse=blue]", "data-square") == before:
            play(page)
            if page.get_attribute("#turn", "data-over") == "yes":
                break
            my_turn(page)
        assert "travel" not in page.evaluate(travelled, "blue")
    assert not errors, errors


def test_on_a_phone_the_rollers_choice_of_the_dice_is_in_sight(server, browser):
    """T1: in a round of dice the roller chooses the sum or one die. On a phone the panel at the
    bottom shows that choice, not the hands (no card is played in a round of dice): every hand is
    a line, and every option is on the screen without scrolling."""
    table = two_horses_each(server, first_round="dice", first_roller=0)
    context, ana, errors = on_a_phone(browser, server, table["seats"][0]["link"])
    ana.wait_for_selector("#turn[data-mine=yes]")
    ana.wait_for_selector("#decision button.option")
    assert ana.locator("#hands .hand").count() == 2   # Ana's two horses, each a line
    assert ana.eval_on_selector_all("#hands .card", "cs => cs.filter(c => c.offsetParent).length") == 0
    options = ana.eval_on_selector_all("#decision button.option", f"cs => cs.map({BOX})")
    assert len(options) >= 2   # the sum, and each die
    assert all(0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] for box in options), options
    screenshot(ana, "tm-dice-choice-phone")
    assert not errors, errors
    context.close()


# -- the view frames the track where the horses run ----------------------------------------------
# A first-time player's review (chromium, 1280x800): during a round of dice about half of the
# board's view was the infield, and the START and FINISH names were cut at its edge. At each turn of
# the player's the view shows the horse to move whole, cuts no other horse and no post's name (each
# is whole in sight or out of it), shows the finish's name once the horse to move nears it, and the
# track takes most of what is in sight.
# The board's part in sight: its box in the window, below and above the panels pinned over it (a
# phone's), the course's buttons over it hiding what is under them. Each post's name and each token:
# 'whole' in it, 'cut' or 'out'; and the share of a grid of points over it that falls on the track
# (not on the infield, the ground round the course or the course's name painted in the infield).
FRAMING = """() => {
  const rect = (n) => { const r = n.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  const board = rect(document.querySelector('#course .board-view'));
  let top = Math.max(board.y, 0), bottom = Math.min(board.y + board.h, window.innerHeight);
  for (const panel of document.querySelectorAll('.p-turn, .p-hand')) {
    if (!['sticky', 'fixed'].includes(getComputedStyle(panel).position)) continue;
    const r = rect(panel);
    if (r.y + r.h <= top || r.y >= bottom) continue;
    if (r.y <= top) top = r.y + r.h; else bottom = Math.min(bottom, r.y);
  }
  const seen = { x: board.x, y: top, w: board.w, h: bottom - top }, tools = rect(document.querySelector('#course .course-tools'));
  const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const within = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.w <= b.x + b.w + 0.5 && a.y + a.h <= b.y + b.h + 0.5;
  const state = (n) => { const r = rect(n); return within(r, seen) && !overlaps(r, tools) ? 'whole' : overlaps(r, seen) ? 'cut' : 'out'; };
  let track = 0, points = 0;
  for (let i = 0; i < 48; i++) for (let j = 0; j < 30; j++) {
    const x = seen.x + (i + 0.5) * seen.w / 48, y = seen.y + (j + 0.5) * seen.h / 30;
    if (x >= tools.x && x <= tools.x + tools.w && y >= tools.y && y <= tools.y + tools.h) continue;
    const hit = document.elementFromPoint(x, y);
    points += 1;
    if (hit && !hit.matches('polygon.infield, rect.ground, text.course-name')) track += 1;
  }
  return { names: Object.fromEntries([...document.querySelectorAll('#course g.post text')].map((n) => [n.textContent, state(n)])),
           horses: Object.fromEntries([...document.querySelectorAll('#course g.horse')].map((g) => [g.dataset.horse, state(g.querySelector('circle.body'))])),
           moving: document.querySelector('#course g.horse.current').dataset.horse, track: track / points };
}"""
# the view stays as it is for two frames of the page (it is framed once the state is drawn)
VIEW_SETTLED = """() => new Promise((done) => {
  const view = () => document.querySelector('#course svg').getAttribute('viewBox'), before = view();
  requestAnimationFrame(() => requestAnimationFrame(() => done(view() === before)));
})"""
# where the eight horses stand, in lane order from red (lanes 0 to 7, 0 on the rail), and the
# course's part: every turn is the player's (one_owner_race); a round of cards is known in advance
# (the hands are given), a round of dice rolls its own dice
PAST_THE_START = [(0, 4), (1, 3), (2, 6), (3, 2), (4, 5), (5, 1), (6, 3), (7, 2)]
BACK_STRAIGHT = [(0, 60), (1, 58), (2, 62), (3, 60), (4, 61), (5, 63), (6, 59), (7, 60)]
FIRST_CURVE = [(0, 30), (1, 28), (2, 33), (3, 27), (4, 31), (5, 29), (6, 32), (7, 30)]
NEAR_THE_FINISH = [(0, 106), (1, 104), (2, 109), (3, 103), (4, 107), (5, 105), (6, 110), (7, 108)]   # the oval's: 113 on the rail
FIRST_CORNER = [(0, 28), (1, 27), (2, 30), (3, 26), (4, 29), (5, 31), (6, 28), (7, 27)]
TRIANGLE_FINISH = [(0, 118), (1, 116), (2, 120), (3, 114), (4, 119), (5, 117), (6, 121), (7, 122)]   # 124 on the rail


@pytest.mark.parametrize("course, steeplechase, first_round, squares, size, names, track", [
    pytest.param("oval", False, "dice", PAST_THE_START, DESKTOP, {"Start", "Finish"}, 0.65, id="oval-dice-start-1280"),
    pytest.param("oval", True, "card", BACK_STRAIGHT, DESKTOP, set(), 0.65, id="steeplechase-cards-back-straight-1280"),
    pytest.param("oval", True, "card", NEAR_THE_FINISH, DESKTOP, {"Finish"}, 0.6, id="steeplechase-cards-finish-1280"),
    pytest.param("triangle", False, "card", TRIANGLE_FINISH, DESKTOP, {"Finish"}, 0.45, id="triangle-cards-finish-1280"),
    pytest.param("oval", True, "dice", FIRST_CURVE, PHONE, set(), 0.6, id="steeplechase-dice-curve-390"),
    pytest.param("triangle", False, "card", FIRST_CORNER, PHONE, set(), 0.65, id="triangle-cards-corner-390"),
    pytest.param("triangle", False, "card", TRIANGLE_FINISH, PHONE, {"Finish"}, 0.6, id="triangle-cards-finish-390"),
])
def test_the_view_frames_the_track_where_the_horses_run(server, browser, course, steeplechase, first_round, squares, size,
                                                         names, track):
    table = one_owner_race(server, course, steeplechase, squares, ["3", "4", "6", "8", "10", "12"],
                           first_round=first_round, first_roller=0)
    context, page, errors = opened_at(browser, server, table["seats"][0]["link"], size, touch=size is PHONE)
    my_turn(page)
    page.wait_for_selector("#decision button.option, #hands .card.playable")
    page.wait_for_function("() => [...document.querySelectorAll('#course g.horse')].every((g) => !g.getAnimations().length)")
    page.wait_for_function(VIEW_SETTLED)
    seen = page.evaluate(FRAMING)
    screenshot(page, f"tm-framing-{course}-{'steeplechase-' if steeplechase else ''}{first_round}-{size['width']}-{squares[0][1]}")
    print(course, steeplechase, first_round, size["width"], seen)
    assert seen["horses"][seen["moving"]] == "whole", seen
    assert "cut" not in seen["horses"].values(), seen
    if first_round == "dice":   # the roller's choice moves every horse: the field (close here) in sight
        assert set(seen["horses"].values()) == {"whole"}, seen
    assert "cut" not in seen["names"].values(), seen
    assert all(seen["names"][name] == "whole" for name in names), seen
    assert seen["track"] >= track, seen
    assert not errors, errors
    context.close()
