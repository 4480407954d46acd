"""The rules page's diagrams (turfmaster/rules.py) are the engine's answers on the real course:
each is checked here against the rulings it illustrates."""

from hippodrome.turfmaster.cards import HANDICAP_LIMITS
from hippodrome.turfmaster.course import load_course
from hippodrome.turfmaster.rules import ANCHORS, diagrams

COURSE = load_course("oval")
D = diagrams()["diagrams"]


def sid(place):
    return COURSE.square(*place)


def test_the_squares_drawn_are_the_course_files_squares():
    for name, diagram in D.items():
        assert diagram["squares"], name
        for lane, index, cell, mark in diagram["squares"]:
            assert COURSE.data["squares"][COURSE.square(lane, index)]["cell"] == cell
            assert mark in ("", "fence", "past")
        shown = {(lane, index) for lane, index, _, _ in diagram["squares"]}
        for horse in diagram["horses"]:
            assert tuple(horse["at"]) in shown, (name, horse)


def test_T3_a_short_move_changes_lane_once_a_long_one_twice():
    short, long = D["lane-change-short"], D["lane-change-long"]
    assert sorted(lane for lane, _ in short["ends"]) == [1, 2, 3]
    assert sorted(lane for lane, _ in long["ends"]) == [0, 1, 2, 3, 4]
    assert {index for _, index in short["ends"]} == {3 + 6} and {index for _, index in long["ends"]} == {3 + 12}


def test_T4_blocked_squares_are_ahead_of_and_behind_the_other_horses_and_no_move_ends_there():
    diagram = D["blocking"]
    others = [h["at"] for h in diagram["horses"] if not h.get("moving")]
    expected = {(lane, index + step) for lane, index in others for step in (-1, 1)}
    assert {tuple(b) for b in diagram["blocked"]} == expected
    assert not {tuple(e) for e in diagram["ends"]} & (expected | {tuple(o) for o in others})
    # the move still passes the blue horse, round it
    blue = next(h for h in diagram["horses"] if h["id"] == "blue")
    assert any(index > blue["at"][1] for _, index in diagram["ends"])
    assert diagram["steps"] == diagram["points"] == 8


def test_T5_a_boxed_in_horse_moves_as_far_as_it_can():
    diagram = D["full-move"]
    assert diagram["points"] == 8 and diagram["steps"] == 2 and diagram["ends"] == [[0, 4]]


def test_T2_T6_level_leaders_are_both_first_and_the_next_horse_third():
    horses = {h["id"]: h for h in D["handicap"]["horses"]}
    assert [horses[h]["rank"] for h in ("red", "blue", "yellow", "green", "black")] == [1, 1, 3, 4, 5]
    assert [horses[h]["limit"] for h in ("red", "blue", "yellow", "green", "black")] == [
        HANDICAP_LIMITS[1], HANDICAP_LIMITS[1], HANDICAP_LIMITS[3], None, None]
    assert horses["red"]["order"] < horses["blue"]["order"]   # level: the inner lane first


def test_T6_a_card_above_the_limit_is_spent_and_a_joker_ignores_the_limit():
    horses = {h["id"]: h for h in D["card-round"]["horses"]}
    assert horses["red"]["spent"] and horses["red"]["at"] == horses["red"]["start"]
    assert int(horses["red"]["card"]) > horses["red"]["limit"]
    assert horses["blue"]["card"] == "J12" and horses["blue"]["points"] == 12 > horses["blue"]["limit"]


def test_T6_in_a_dice_round_handicapped_horses_move_one_die():
    diagram = D["dice-round"]
    assert diagram["use"] == {"use": "sum", "value": sum(diagram["roll"])}
    for horse in diagram["horses"]:
        if horse["limit"] is not None and sum(diagram["roll"]) > horse["limit"]:
            assert horse["points"] in diagram["roll"], horse
        else:
            assert horse["points"] == sum(diagram["roll"]), horse


def test_T11_a_jump_costs_four_points_and_a_horse_that_cannot_jump_falls():
    diagram = D["fences"]
    horses = {h["id"]: h for h in diagram["horses"]}
    fences = {sid(place[:2]) for place in diagram["squares"] if place[3] == "fence"}
    assert fences and not {sid(h["at"]) for h in horses.values()} & fences
    blue, red = horses["blue"], horses["red"]
    assert not blue["fell"] and blue["at"][1] - blue["start"][1] == blue["points"] - 4 + 2   # 4 points carry it 2 squares
    assert red["fell"] and red["steps"] < red["points"] and COURSE.next[sid(red["at"])] in fences


def test_T9_horses_past_the_line_are_placed_by_how_far_past_inner_lane_first():
    diagram = D["finish"]
    placed = sorted((h for h in diagram["horses"] if "place" in h), key=lambda h: h["place"])
    assert [h["id"] for h in placed] == ["red", "blue", "green"]
    finish = dict((lane, index) for lane, index in diagram["finish"])
    past = [h["at"][1] - finish[h["at"][0]] for h in placed]
    assert past[0] > past[1] == past[2] and placed[1]["at"][0] < placed[2]["at"][0]
    assert all(COURSE.crossed[sid(h["at"])] for h in placed)
    assert not any(COURSE.crossed[sid(h["at"])] for h in diagram["horses"] if "place" not in h)


def test_every_ruling_has_an_anchor():
    assert list(ANCHORS) == [f"T{n}" for n in range(1, 14)]
