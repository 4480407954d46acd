"""Why a move cannot end on a square (the "why" look-up): each reason on real squares of the oval,
with the ruling it comes from (T3 lane changes, T4 blocking, T5 full move, T6 handicap, T11
fences), in words in every language, and only for the seat deciding the move."""

import random

import pytest

from hippodrome.core.errors import IllegalAction
from hippodrome.i18n import LANGUAGES
from hippodrome.turfmaster.course import load_course
from hippodrome.turfmaster.movement import blocked_squares, destinations, reach
from hippodrome.turfmaster.rules import ANCHORS
from hippodrome.turfmaster.why import FAR, REACHABLE, Obstacle, explain, obstacle, why
from tests.turfmaster.helpers import race_at

OVAL = load_course("oval")


def sq(lane, index):
    return OVAL.square(lane, index)


def reason(start, points, others, target, fences=frozenset()):
    """The obstacle for a horse on ``start`` (lane, index) moving ``points`` among ``others``
    ({horse: (lane, index)}) to ``target`` (lane, index)."""
    return obstacle(OVAL, sq(*start), points, {h: sq(*at) for h, at in others.items()}, fences, sq(*target))


def test_a_square_the_move_may_end_on_has_no_obstacle():
    assert reason((0, 5), 7, {}, (0, 12)) == REACHABLE
    assert explain(REACHABLE, "red", 7) is None


def test_T3_the_horses_own_square():
    assert reason((0, 5), 7, {}, (0, 5)) == Obstacle("here", "T3")


def test_T4_a_square_another_horse_stands_on_or_blocks():
    assert reason((0, 5), 7, {"blue": (0, 9)}, (0, 9)) == Obstacle("occupied", "T4", "blue")
    assert reason((0, 5), 7, {"blue": (0, 9)}, (0, 10)) == Obstacle("ahead_of", "T4", "blue")
    assert reason((0, 5), 7, {"blue": (0, 9)}, (0, 8)) == Obstacle("behind", "T4", "blue")


def test_T4_a_horse_cutting_every_way_is_named():
    # blue blocks lane 0 (6, 7, 8); the only other way, through lane 1, cannot come back by point 4
    assert reason((0, 5), 4, {"blue": (0, 7)}, (0, 9)) == Obstacle("blocked", "T4", "blue")


def test_T4_horses_that_block_every_way_together():
    # lane 0 is cut by blue and by yellow, the way back from lane 1 by green and by white: no single
    # horse's absence opens a way to (0, 12)
    others = {"blue": (0, 7), "yellow": (0, 9), "green": (1, 8), "white": (1, 10)}
    assert reason((0, 5), 7, others, (0, 12)) == Obstacle("blocked_by_many", "T4")


def test_T5_a_square_passed_on_the_way_is_not_an_end():
    assert reason((0, 5), 7, {}, (0, 8)) == Obstacle("full_move", "T5", needed=3)


def test_T5_a_square_beyond_the_points_says_how_far_it_is():
    assert reason((0, 5), 4, {}, (0, 15)) == Obstacle("too_far", "T5", needed=10)
    assert reason((0, 5), 4, {}, (0, 9 + 4 + FAR + 40)) == Obstacle("out_of_reach", "T5")


def test_T11_a_fence_square_and_a_jump_that_costs_too_much():
    fences = OVAL.fence_squares
    assert reason((0, 7), 6, {}, (0, 10), fences) == Obstacle("fence", "T11")
    # from (0, 7): two steps to (0, 9), the jump over (0, 10) costs 4, then one step: 7 points
    assert reason((0, 7), 5, {}, (0, 12), fences) == Obstacle("too_far_fence", "T11", needed=7)
    assert reason((0, 7), 5, {}, (0, 12)) == REACHABLE   # the same square without fences: 5 points


def test_T3_a_square_that_needs_more_lane_changes():
    # two lanes out within 3 points: a second change only comes at point 7
    assert reason((0, 5), 3, {}, (2, 8)) == Obstacle("lane_changes", "T3")


def test_T3_a_square_behind_the_horse():
    assert reason((0, 5), 7, {}, (0, 3)) == Obstacle("not_ahead", "T3")


def test_every_reason_has_a_sentence_in_every_language_and_a_ruling_of_the_rules_page():
    found = [Obstacle("here", "T3"), Obstacle("fence", "T11"), Obstacle("occupied", "T4", "blue"),
             Obstacle("ahead_of", "T4", "blue"), Obstacle("behind", "T4", "blue"),
             Obstacle("full_move", "T5", needed=3), Obstacle("blocked", "T4", "blue"),
             Obstacle("blocked_by_many", "T4"), Obstacle("too_far", "T5", needed=10),
             Obstacle("too_far_fence", "T11", needed=7), Obstacle("lane_changes", "T3"),
             Obstacle("not_ahead", "T3"), Obstacle("out_of_reach", "T5"), Obstacle("spent", "T6", limit=8)]
    for item in found:
        assert item.rule in ANCHORS
        message = explain(item, "red", 4)
        english = message.translate("en")
        assert "{" not in english and "T" + item.rule[1:] not in english
        for lang in LANGUAGES:
            if lang != "en":
                assert message.translate(lang) != english, (item.reason, lang)


def test_the_obstacle_agrees_with_the_moves_on_random_fields():
    rng = random.Random(13)
    for _ in range(25):
        squares = rng.sample([sq(lane, index) for lane in range(4) for index in range(3, 16)], 4)
        start, others = squares[0], dict(zip(("blue", "yellow", "green"), squares[1:]))
        points = rng.randint(1, 12)
        ends = destinations(OVAL, start, points, blocked_squares(OVAL, others.values())).ends
        for target in [sq(lane, index) for lane in range(5) for index in range(0, 30)]:
            found = obstacle(OVAL, start, points, others, frozenset(), target)
            assert (found == REACHABLE) == (target in ends)
            if found.reason == "blocked":   # without the horse named, a way opens
                rest = {h: s for h, s in others.items() if h != found.other}
                assert obstacle(OVAL, start, points, rest, frozenset(), target).reason in ("", "full_move")


def test_T3_T4_T11_reach_passes_the_squares_the_moves_end_on():
    """``reach`` (every square a path passes, with its fewest points) against ``destinations``: the
    ends are reached, and a square reached with exactly the points used is an end."""
    rng = random.Random(11)
    for _ in range(200):
        fences = OVAL.fence_squares if rng.random() < 0.5 else frozenset()
        squares = rng.sample([sq(lane, index) for lane in range(5) for index in range(1, 20)
                              if sq(lane, index) not in fences], 4)
        start, blocked = squares[0], blocked_squares(OVAL, squares[1:])
        points = rng.randint(1, 12)
        moves = destinations(OVAL, start, points, blocked, fences)
        passed = reach(OVAL, start, points, blocked, fences)
        assert set(moves.ends) <= set(passed)
        assert {s for s, used in passed.items() if used == moves.steps} <= set(moves.ends)
        assert max(passed.values()) == moves.steps


# -- the look-up -------------------------------------------------------------------------------------
def test_the_look_up_answers_in_words_with_the_ruling_and_plays_nothing():
    race = race_at({"red": (0, 5), "blue": (1, 5)}, hands={"red": ["7"], "blue": ["3"]})
    before = race.to_json()
    answer = why(race, 0, {"action": {"type": "card", "horse": "red", "card": "7"}, "square": {"lane": 1, "square": 6}})
    assert race.to_json() == before
    assert answer["reachable"] is False and answer["reason"] == "ahead_of" and answer["rule"] == "T4"
    assert answer["message"].translate("fr") == ("Cette case est juste devant Bleu\u00a0: aucun autre cheval ne peut s’y arrêter "
                                                 "ni la traverser.")
    ok = why(race, 0, {"action": {"type": "card", "horse": "red", "card": "7"}, "square": {"lane": 0, "square": 12}})
    assert ok == {"reachable": True, "reason": None, "rule": None, "message": None, "points": 7}


def test_T6_the_look_up_says_a_card_above_the_handicap_does_not_move_the_horse():
    race = race_at({"red": (0, 9), "blue": (0, 3)}, hands={"red": ["10", "7"], "blue": ["3"]})
    assert race.pending().context["limit"] == 8
    answer = why(race, 0, {"action": {"type": "card", "horse": "red", "card": "10"}, "square": {"lane": 0, "square": 19}})
    assert (answer["reason"], answer["rule"]) == ("spent", "T6")
    assert "8" in answer["message"].translate("de")


def test_T5_during_a_square_decision_the_moves_points_are_used():
    race = race_at({"red": (0, 5), "blue": (4, 3)}, hands={"red": ["7"], "blue": ["3"]})
    race.apply({"type": "card", "horse": "red", "card": "7"})
    pending = race.pending()
    assert pending.kind == "square"
    answer = why(race, 0, {"square": {"lane": 0, "square": 8}})
    assert (answer["reason"], answer["rule"], answer["points"]) == ("full_move", "T5", 7)


def test_only_the_seat_deciding_the_move_may_ask():
    race = race_at({"red": (0, 5), "blue": (1, 5)}, hands={"red": ["7"], "blue": ["3"]})
    asked = {"action": {"type": "card", "horse": "red", "card": "7"}, "square": {"lane": 0, "square": 12}}
    for seat in (1, None):
        with pytest.raises(IllegalAction):
            why(race, seat, asked)
    with pytest.raises(IllegalAction):   # a card the horse does not hold
        why(race, 0, {**asked, "action": {"type": "card", "horse": "red", "card": "12"}})
    for square in (None, {"lane": 0}, {"lane": 0, "square": 999}, {"lane": True, "square": 3}):
        with pytest.raises(IllegalAction):
            why(race, 0, {**asked, "square": square})
