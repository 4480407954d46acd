"""The betting board as data (rulings R5, R6, R7) and when each space wins (R3)."""

import numpy as np
import pytest

from hippodrome.readysetbet.board import (
    EXOTIC_CARDS, FIXED_SPACES, PROP_CARDS, Finish, exotic_spaces, prop_space, race_spaces, wins,
)
from tests.readysetbet.rsb_helpers import positions

# R5, copied by hand from the printed board: Show L, Show R, Place L, Place R, Win L, Win M, Win R
PRINTED_R5 = """
2/3 | 4(-4) | 4(-3) | 5(-4) | 5(-3) | 7(-2) | 8(-2) | 9(-2)
4 | 3(-1) | 3(-) | 4(-1) | 4(-) | 5(-1) | 6(-) | 7(-)
5 | 2(-3) | 2(-) | 2(-2) | 3(-2) | 4(-2) | 4(-) | 5(-)
6 | 1(-2) | 1(-) | 2(-5) | 2(-4) | 3(-2) | 3(-1) | 3(-)
7 | 1(-3) | 1(-1) | 2(-6) | 2(-5) | 3(-4) | 3(-3) | 3(-2)
8 | 1(-2) | 1(-) | 2(-5) | 2(-4) | 3(-2) | 3(-1) | 3(-)
9 | 2(-3) | 2(-) | 2(-2) | 3(-2) | 4(-2) | 4(-) | 5(-)
10 | 3(-1) | 3(-) | 4(-1) | 4(-) | 5(-1) | 6(-) | 7(-)
11/12 | 4(-4) | 4(-3) | 5(-4) | 5(-3) | 7(-2) | 8(-2) | 9(-2)
"""
COLUMNS = ["show:{}:L", "show:{}:R", "place:{}:L", "place:{}:R", "win:{}:L", "win:{}:M", "win:{}:R"]
PRINTED_R7 = ("8>5,9 3(-3) | 4>9 2(-1) | 8>blues 2(-3) | 9>8 2(-1) | 5>8 3(-3) | 4>5 3(-3) | 11/12>8 4(-3) | "
              "9>6 3(-3) | 9>7 4(-4) | 7>blues 2(-6) | 2/3>5 2(-1) | 10>8 3(-2) | 11/12>9 3(-3) | 2/3>8 4(-3) | "
              "4>6 4(-3) | 10>9 2(-1) | 5>6 2(-1) | 11/12>6 3(-2) | 11/12>5 2(-1) | 4>8 3(-2) | 6>blues 3(-5) | "
              "5>7 3(-2) | 2/3>9 3(-3) | 6>5,9 3(-3) | 10>5 3(-3) | 2/3>6 3(-2) | 10>6 4(-3) | 7>5,9 2(-5)")


def parse(cell):
    multiplier, penalty = cell[:-1].split("(")
    return int(multiplier), 0 if penalty == "-" else -int(penalty)


def test_r5_every_printed_win_place_show_space():
    spaces = {s.id: s for s in FIXED_SPACES}
    expected = {}
    for line in PRINTED_R5.strip().splitlines():
        horse, *cells = [c.strip() for c in line.split("|")]
        for column, cell in zip(COLUMNS, cells):
            expected[column.format(horse)] = parse(cell)
    assert len(expected) == 63
    assert {k: (spaces[k].multiplier, spaces[k].penalty) for k in expected} == expected


def test_r5_colour_bets():
    spaces = {s.id: (s.multiplier, s.penalty) for s in FIXED_SPACES if s.kind == "colour"}
    assert spaces == {"colour:blue": (5, 1), "colour:orange": (3, 1), "colour:red": (2, 1),
                      "colour:7-fifth-or-worse": (4, 0)}


def test_r6_exotic_cards_printed_values_and_three_spaces_each():
    assert {c: (v["multiplier"], v["penalty"]) for c, v in EXOTIC_CARDS.items()} == {
        "by-a-nose": (5, 3), "blow-out": (4, 2), "tight-race": (6, 2), "late-start": (4, 1), "photo-finish": (5, 3)}
    assert [s.id for s in exotic_spaces("tight-race")] == ["exotic:tight-race:1", "exotic:tight-race:2",
                                                           "exotic:tight-race:3"]


def test_r7_the_28_printed_prop_cards():
    expected = {}
    for item in PRINTED_R7.split("|"):
        bet, cell = item.split()
        expected[bet] = parse(cell)
    assert len(expected) == 28
    assert {c: (prop_space(c).multiplier, prop_space(c).penalty) for c in PROP_CARDS} == expected


def won(space_id, pos, props=(), exotics=()):
    spaces = {s.id: s for s in race_spaces(list(props), list(exotics))}
    return bool(wins(spaces[space_id], Finish(np.array([pos])))[0])


def test_r3_win_place_show_clear_positions():
    final = positions(h7=15, h8=12, h6=11, h5=10)
    assert won("win:7:L", final) and won("place:7:R", final) and won("show:7:L", final)
    assert not won("win:8:R", final) and won("place:8:L", final) and won("show:8:R", final)
    assert not won("place:6:L", final) and won("show:6:L", final)
    assert not won("show:5:L", final)


def test_r3_tie_for_second_counts_as_second_and_third_so_the_next_does_not_show():
    final = positions(h7=15, h8=12, h6=12, h5=11)
    assert won("place:8:L", final) and won("place:6:L", final)
    assert won("show:8:L", final) and won("show:6:L", final)
    assert not won("show:5:L", final)


def test_r3_tie_for_third_both_show():
    final = positions(h7=15, h8=13, h6=11, h5=11, h4=10)
    assert won("show:6:R", final) and won("show:5:R", final)
    assert not won("place:6:R", final) and not won("show:4:R", final)


def test_r5_colour_bets_win_when_a_horse_of_that_colour_wins():
    assert won("colour:blue", positions(h10=15)) and not won("colour:orange", positions(h10=15))
    assert won("colour:orange", positions(h9=15)) and won("colour:red", positions(h6=15))


def test_r5_seven_fifth_or_worse_needs_four_horses_strictly_ahead():
    assert not won("colour:7-fifth-or-worse", positions(h2_3=15, h4=9, h5=8, h7=7, h9=7))
    assert won("colour:7-fifth-or-worse", positions(h2_3=15, h4=9, h5=8, h6=8, h7=7, h9=7))


def test_r7_prop_strictly_ahead_of_every_horse_and_ties_lose():
    assert won("prop:8>5,9", positions(h8=9, h5=8, h9=7, h7=15), props=["8>5,9"])
    assert not won("prop:8>5,9", positions(h8=9, h5=9, h9=7, h7=15), props=["8>5,9"])
    assert not won("prop:8>5,9", positions(h8=9, h5=10, h9=7, h7=15), props=["8>5,9"])
    blues = positions(h7=12, h2_3=15, h4=3, h10=3, h11_12=3)
    assert not won("prop:7>blues", blues, props=["7>blues"])
    assert not won("prop:7>blues", positions(h7=12, h11_12=12, h5=15), props=["7>blues"])
    assert won("prop:7>blues", positions(h7=15, h4=3), props=["7>blues"])


@pytest.mark.parametrize("second,expected", [(14, True), (13, False), (12, False)])
def test_r6_by_a_nose_second_loses_by_exactly_one(second, expected):
    assert won("exotic:by-a-nose:1", positions(h7=15, h8=second), exotics=["by-a-nose"]) is expected


@pytest.mark.parametrize("second,expected", [(9, True), (10, False)])
def test_r6_blow_out_second_loses_by_more_than_five(second, expected):
    assert won("exotic:blow-out:2", positions(h7=15, h8=second), exotics=["blow-out"]) is expected


def test_r6_tight_race_every_horse_moved_six_or_more():
    everyone = tuple(6 for _ in range(9))
    assert won("exotic:tight-race:1", (15,) + everyone[1:], exotics=["tight-race"])
    assert not won("exotic:tight-race:1", (15, 5) + everyone[2:], exotics=["tight-race"])


def test_r6_late_start_two_horses_moved_three_or_fewer():
    base = [15, 8, 8, 8, 8, 8, 8, 8, 8]
    assert not won("exotic:late-start:3", tuple(base[:8] + [3]), exotics=["late-start"])
    assert won("exotic:late-start:3", tuple(base[:7] + [3, 0]), exotics=["late-start"])


def test_r6_photo_finish_third_loses_by_three_or_fewer_with_tied_second_counting_as_third():
    assert won("exotic:photo-finish:1", positions(h7=15, h8=14, h6=12), exotics=["photo-finish"])
    assert not won("exotic:photo-finish:1", positions(h7=15, h8=14, h6=11), exotics=["photo-finish"])
    # tie for 2nd at 12: the "3rd" horse is one of them, losing by 3
    assert won("exotic:photo-finish:1", positions(h7=15, h8=12, h6=12, h5=2), exotics=["photo-finish"])
