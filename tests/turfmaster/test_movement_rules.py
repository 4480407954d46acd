"""Movement rules T3, T4, T5 and T11 on the real courses (T12)."""

import pytest

from hippodrome.turfmaster.movement import MoveOptions, blocked_squares, destinations

from .reference_movement import reference_destinations


def ends(course, moves):
    return sorted((course.lane_of[e], course.index_of[e]) for e in moves.ends)


def move(course, start, points, others=(), fences=frozenset()):
    start_sq = course.square(*start)
    blocked = blocked_squares(course, [course.square(*o) for o in others])
    return destinations(course, start_sq, points, blocked, fences)


def test_T3_six_or_fewer_squares_change_lane_only_on_the_first_step(oval):
    moves = move(oval, (3, 20), 6)
    assert moves.steps == 6
    assert ends(oval, moves) == [(2, 26), (3, 26), (4, 26)]


def test_T3_seven_or_more_allow_a_second_change_from_the_seventh_step(oval):
    moves = move(oval, (3, 20), 7)
    assert ends(oval, moves) == [(1, 27), (2, 27), (3, 27), (4, 27), (5, 27)]
    moves = move(oval, (3, 20), 9)
    assert ends(oval, moves) == [(1, 29), (2, 29), (3, 29), (4, 29), (5, 29)]


def test_T3_no_lane_change_on_steps_2_to_6(oval):
    # blocked straight ahead at step 3: a horse at lane 3 index 24 blocks 23, 24, 25
    moves = move(oval, (3, 20), 6, others=[(3, 24)])
    # going straight stops at 22 (2 steps); a change at step 1 opens lanes 2 and 4
    assert moves.steps == 6
    assert ends(oval, moves) == [(2, 26), (4, 26)]


def test_T3_lane_change_costs_no_extra_point(oval):
    moves = move(oval, (0, 0), 3)
    assert moves.steps == 3 and ends(oval, moves) == [(0, 3), (1, 3)]


def test_T3_T12_diagonal_step_in_a_curve_goes_to_the_nearest_square_ahead(oval):
    # the first curve starts after home-straight square 30; lane 1 has 21 squares in it
    rail_start = oval.square(0, 30)
    out = oval.outward[rail_start]
    assert (oval.lane_of[out], oval.index_of[out]) == (1, 31)
    # the rail's 10th curve square is at 10/20; lane 1's nearest square strictly ahead is 11/21
    rail_mid = oval.square(0, 40)
    out = oval.outward[rail_mid]
    assert (oval.lane_of[out], oval.index_of[out]) == (1, 41)
    # lane 1's 11th curve square (11/21) -> the rail's nearest square ahead is 11/20
    back_in = oval.inward[oval.square(1, 41)]
    assert (oval.lane_of[back_in], oval.index_of[back_in]) == (0, 41)


def test_T4_cannot_end_on_or_pass_a_blocked_square(oval):
    # a horse on lane 0 index 10 blocks 9, 10 and 11 of lane 0
    assert ends(oval, move(oval, (0, 5), 3, others=[(0, 10)])) == [(0, 8), (1, 8)]
    # straight on would pass 9: only the first-step lane change reaches 4 squares
    assert ends(oval, move(oval, (0, 5), 4, others=[(0, 10)])) == [(1, 9)]
    assert ends(oval, move(oval, (0, 5), 6, others=[(0, 10)])) == [(1, 11)]
    # with 8 points the horse goes round in lane 1 and may come back at point 7, past the block
    moves = move(oval, (0, 5), 8, others=[(0, 10)])
    assert ends(oval, moves) == [(0, 13), (1, 13), (2, 13)]


def test_T4_blocking_is_only_in_the_blocking_horses_own_lane(oval):
    # a horse on the rail at 7 blocks rail squares 6 to 8 only: lane 1 stays open,
    # the diagonal step onto rail square 6 does not
    moves = move(oval, (1, 5), 4, others=[(0, 7)])
    assert ends(oval, moves) == [(1, 9), (2, 9)]


def test_T5_full_value_when_any_path_allows_it(oval):
    # straight on is boxed in, but the first step out gives the full 8
    moves = move(oval, (0, 5), 8, others=[(0, 9)])
    assert moves.steps == 8 and ends(oval, moves) == [(0, 13), (1, 13), (2, 13)]
    # 6 points: only the path through lane 1 has full length; the rail stops at 7
    moves = move(oval, (0, 5), 6, others=[(0, 9)])
    assert moves.steps == 6 and ends(oval, moves) == [(1, 11)]


def test_T5_as_far_as_possible_when_boxed_in_points_left_over_are_lost(oval):
    # boxed: lane 0 ahead blocked at 7 (horse on 8), lane 1 diagonal blocked (horse on 7 of lane 1)
    moves = move(oval, (0, 5), 6, others=[(0, 8), (1, 6)])
    assert moves.steps == 1
    assert ends(oval, moves) == [(0, 6)]
    boxed = move(oval, (0, 5), 6, others=[(0, 7), (1, 6)])
    assert boxed.steps == 0 and ends(oval, boxed) == [(0, 5)]


def test_T5_lane_7_cannot_move_outwards(oval):
    moves = move(oval, (7, 0), 3)
    assert ends(oval, moves) == [(6, 3), (7, 3)]


def test_T11_a_jump_costs_four_points_and_lands_straight(oval):
    fences = oval.fence_squares
    # fence 1 stands on index 10 of every lane (first pass); the square before it is 9
    moves = move(oval, (2, 9), 4, fences=fences)
    assert moves.steps == 4 and ends(oval, moves) == [(2, 11)]
    moves = move(oval, (2, 9), 6, fences=fences)
    assert ends(oval, moves) == [(2, 13)]


def test_T11_a_move_starting_before_a_fence_changes_lane_at_point_8_or_later(oval):
    fences = oval.fence_squares
    # jump = points 1-4, straight 5, 6, 7; the change comes only at point 8
    seven = move(oval, (2, 9), 7, fences=fences)
    assert ends(oval, seven) == [(2, 14)]
    eight = move(oval, (2, 9), 8, fences=fences)
    assert ends(oval, eight) == [(1, 15), (2, 15), (3, 15)]


def test_T11_a_jump_later_in_the_move_counts_points_for_the_window(oval):
    fences = oval.fence_squares
    # from 6: steps 7, 8, 9 (points 1-3), jump 10 -> 11 (points 4-7), step 12 at point 8 may change
    moves = move(oval, (2, 6), 8, fences=fences)
    assert ends(oval, moves) == [(0, 12), (1, 12), (2, 12), (3, 12), (4, 12)]
    # a change at point 1 is still allowed before the jump
    moves = move(oval, (2, 6), 7, fences=fences)
    assert ends(oval, moves) == [(1, 11), (2, 11), (3, 11)]


def test_T11_not_enough_points_to_jump_stops_before_the_fence(oval):
    fences = oval.fence_squares
    moves = move(oval, (2, 6), 5, fences=fences)
    # 3 points to the square before the fence, 2 left: no jump possible
    assert moves.steps == 3
    assert ends(oval, moves) == [(1, 9), (2, 9), (3, 9)]
    assert all(moves.falls_at(e, 5) for e in moves.ends)


def test_T11_some_end_falls_only_when_the_move_stops_before_a_fence_with_points_left(oval):
    fences = oval.fence_squares
    short = move(oval, (2, 6), 5, fences=fences)  # 3 points to the fence, 2 left over
    assert short.some_end_falls(5)
    jumped = move(oval, (2, 6), 7, fences=fences)  # 3 points, the jump's 4: nothing left over
    assert jumped.steps == 7 and not jumped.some_end_falls(7)
    assert not move(oval, (2, 6), 5).some_end_falls(5)  # no fences (not a steeplechase)
    # an end before a fence falls only with points left over, and only that end
    before, beside = short.ends[0], oval.square(2, 3)
    assert not MoveOptions(3, (before,), frozenset({before})).some_end_falls(3)
    assert not MoveOptions(3, (before,), frozenset({before})).falls_at(before, 3)
    mixed = MoveOptions(3, (beside, before), frozenset({before}))
    assert mixed.some_end_falls(5) and mixed.falls_at(before, 5) and not mixed.falls_at(beside, 5)


def test_T11_landing_square_taken_or_blocked_means_no_jump(oval):
    fences = oval.fence_squares
    taken = move(oval, (2, 9), 6, others=[(2, 11)], fences=fences)
    assert taken.steps == 0 and taken.falls_at(taken.ends[0], 6)
    blocked = move(oval, (2, 9), 6, others=[(2, 12)], fences=fences)
    assert blocked.steps == 0


def test_T11_no_horse_ever_stands_on_a_fence(oval):
    fences = oval.fence_squares
    for start in [(0, 5), (3, 6), (7, 8), (4, 9)]:
        for points in range(1, 13):
            moves = move(oval, start, points, fences=fences)
            assert not set(moves.ends) & fences


def test_T11_start_line_fence_only_on_the_second_pass_fence_1_only_on_the_first(oval):
    fences = oval.fence_squares
    # first pass over the start-line square (index 1): no fence there
    assert oval.square(0, 1) not in fences and oval.square(0, 10) in fences
    # second pass: index 101 on the rail is the start-line fence; fence 1's square (110) is free
    assert oval.square(0, 101) in fences and oval.square(0, 110) not in fences
    # rail: 100 (point 1), jump 101 -> 102 (points 2-5), 103; or out to lane 1 at point 1:
    # 101, 102 (end of the curve), jump lane 1's fence square 103 -> 104
    moves = move(oval, (0, 99), 6, fences=fences)
    assert ends(oval, moves) == [(0, 103), (1, 104)]


def test_T11_fences_are_absent_without_steeplechase(oval):
    moves = move(oval, (2, 9), 4)
    assert ends(oval, moves) == [(1, 13), (2, 13), (3, 13)]


@pytest.mark.parametrize("start,others", [
    ((0, 0), []),
    ((4, 28), [(4, 31), (3, 30), (5, 33)]),
    ((2, 45), [(2, 48), (1, 47), (3, 49), (0, 50)]),
    ((6, 95), [(6, 99), (5, 98)]),
])
def test_T3_T4_T5_agree_with_the_naive_reference(oval, start, others):
    for points in range(1, 13):
        moves = move(oval, start, points, others=others)
        blocked = blocked_squares(oval, [oval.square(*o) for o in others])
        steps, reference = reference_destinations(oval, oval.square(*start), points, blocked)
        assert (moves.steps, list(moves.ends)) == (steps, reference), points
