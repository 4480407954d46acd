"""The TurfMaster puzzles (issue 13): every puzzle is a real race position with a decision pending
for its seat, its solution is among the options, and the engine finds it clearly best.

The engine measure (hippodrome.turfmaster.puzzle_measure, docs/turfmaster.md "Puzzles"): seeded
playouts from what the seat can see, each option's mean race points (T9); a puzzle is clear when
the solution leads every other option by MARGIN points and SIGMAS standard errors over hundreds of
playouts (``tools/make_puzzles.py --check``, too slow for the suite). The suite's quick check: over
QUICK_PLAYOUTS seeded playouts the solution still leads every other option by QUICK_MARGIN, and the
search bot (level ``search``) chooses it within the budget the collection gives (20 to 60
iterations).
"""

from collections import Counter

import pytest

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.turfmaster.puzzle_measure import QUICK_MARGIN, QUICK_PLAYOUTS, lead, option_values
from hippodrome.turfmaster.puzzles import BOOK, THEMES, WORDS, load_puzzles, position, themes_of
from hippodrome.turfmaster.race import Race, RACING
from hippodrome.turfmaster.search import SearchBot

PUZZLES = load_puzzles()


def test_at_least_twenty_puzzles_over_the_themes():
    assert len(PUZZLES) >= 20
    assert set(p.theme for p in PUZZLES) <= set(THEMES)
    assert len(set(p.theme for p in PUZZLES)) >= 6
    assert max(Counter(p.theme for p in PUZZLES).values()) <= len(PUZZLES) // 3
    assert len({p.key for p in PUZZLES}) == len(PUZZLES) and set(WORDS) == {p.key for p in PUZZLES}


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.key)
def test_the_position_is_a_legal_race_waiting_for_the_puzzle_seat(puzzle):
    race = position(puzzle)
    pending = race.pending()
    assert isinstance(pending, Decision) and pending.seat == puzzle.seat
    assert pending.kind in ("card", "square", "die", "dice_use") and len(pending.options) >= 2
    # T7: each hand holds cards of its horse's deck; the horses racing stand on the course, short of the line
    Race._checked_hands(race.hands, race.ids)
    for horse in race.racing():
        assert not race.course.crossed[race.square[horse]]
    if "horse" in pending.context:  # a horse's decision is its owner's; the dice's is the roller's (T10)
        assert race.stage[pending.context["horse"]] == RACING and race.owner[pending.context["horse"]] == puzzle.seat
    else:
        assert pending.kind == "dice_use" and race.roller == puzzle.seat
    # the JSON is the engine's own: it loads back to the same state
    assert Race.from_json(race.to_json()).to_json() == puzzle.state
    for answer in puzzle.solution:
        assert pending.allows(answer), f"{puzzle.key}: {answer} is not an option"
    # the theme is one the position touches
    assert puzzle.theme in themes_of(race, pending, list(puzzle.solution))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.key)
def test_the_engine_finds_the_solution_clearly_best(puzzle):
    race = position(puzzle)
    values = option_values(race.observation(puzzle.seat), puzzle.seat, QUICK_PLAYOUTS, seed="suite")
    assert lead(values, list(puzzle.solution)) >= QUICK_MARGIN, [(v.action, v.mean) for v in values]


def test_the_quick_check_can_fail():
    """A wrong solution (the option the engine likes least) is refused by the same check."""
    puzzle = PUZZLES[0]
    values = option_values(position(puzzle).observation(puzzle.seat), puzzle.seat, QUICK_PLAYOUTS, seed="suite")
    worst = min(values, key=lambda value: value.mean).action
    assert lead(values, [worst]) < 0


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.key)
def test_the_search_bot_chooses_the_solution(puzzle):
    assert puzzle.search_iterations
    race = position(puzzle)
    pending = race.pending()
    bot = SearchBot(seed=puzzle.key, think=60.0, iterations=puzzle.search_iterations)
    assert bot.choose(race.observation(puzzle.seat), pending.options) in puzzle.solution


def test_the_book_shows_the_seat_view_without_the_solution():
    puzzle = PUZZLES[0]
    shown = BOOK.show(1, "fr")
    assert shown["view"]["pending"]["seat"] == puzzle.seat and shown["view"]["pending"]["options"]
    assert "solution" not in str(shown) and set(shown["view"]["hands"]) == {
        h for h, s in position(puzzle).owner.items() if s == puzzle.seat}
    assert shown["title"] == WORDS[puzzle.key].title.translate("fr")


def test_an_answer_is_checked_and_explained_and_a_move_that_is_not_an_option_is_refused():
    puzzle = PUZZLES[0]
    right = BOOK.answer(1, puzzle.solution[0], "de")
    assert right["correct"] is True and right["explanation"] == WORDS[puzzle.key].explanation.translate("de")
    wrong = next(o for o in position(puzzle).pending().options if o not in puzzle.solution)
    assert BOOK.answer(1, wrong, "en")["correct"] is False
    with pytest.raises(IllegalAction, match="not one of the puzzle's options"):
        BOOK.answer(1, {"type": "card", "horse": "nobody", "card": "7"}, "en")


def test_T2_the_inner_lane_puzzle_says_where_its_squares_are():
    """T2: the race order goes by the line a square stands on. Puzzle 2's two squares are on the back
    straight (every lane level line by line), the inner one a line ahead: its words say so, not "on
    the bend"."""
    puzzle = next(p for p in PUZZLES if p.key == "inner-lane-on-the-bend")
    race = position(puzzle)
    course = race.course
    lanes_on = Counter(course.line_of[course.square(s["lane"], s["index"])] for s in course.data["squares"])
    lines = {o["lane"]: course.line_of[course.square(o["lane"], o["square"])] for o in race.pending().options}
    assert all(lanes_on[line] == course.lanes for line in lines.values()), "both on a straight"
    assert lines[0] == lines[1] + 1
    explanation = WORDS[puzzle.key].explanation.msgid
    assert "back straight" in explanation and "On the bend" not in explanation and "one square farther" in explanation
