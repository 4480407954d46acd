"""perft: pinned counts of legal end squares over fixed positions (T3, T4, T5, T11).

The counts were checked against the naive reference implementation before being pinned;
a change to movement that alters any of them fails here.
"""

import pytest

from hippodrome.turfmaster.movement import blocked_squares
from hippodrome.turfmaster.perft import perft, perft_positions

from .reference_movement import reference_destinations

PINNED = {
    "oval-start-8": 180,
    "oval-pack-into-first-curve": 269,
    "oval-home-stretch": 202,
    "triangle-corner": 208,
    "steeplechase-fence-1": 194,
    "steeplechase-back-straight": 202,
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_perft_counts_are_pinned(name):
    assert perft(perft_positions()[name]) == PINNED[name]


def test_perft_start_position_by_hand():
    # at the start every diagonal first step is blocked (the neighbour blocks its square ahead):
    # 8 horses x 6 straight moves, then 3 ends (2 on lanes 0 and 7) for each move of 7 to 12
    assert perft(perft_positions()["oval-start-8"]) == 8 * 6 + 6 * (6 * 3 + 2 * 2)


@pytest.mark.parametrize("name", ["oval-pack-into-first-curve", "steeplechase-fence-1"])
def test_perft_agrees_with_the_naive_reference(name):
    position = perft_positions()[name]
    course, total = position.course, 0
    for horse, square in position.squares.items():
        blocked = blocked_squares(course, [s for h, s in position.squares.items() if h != horse])
        for points in range(1, 13):
            total += len(reference_destinations(course, square, points, blocked, position.fences)[1])
    assert total == PINNED[name]
