"""The TurfMaster encoding: every option of every decision is exactly one action id and back
(on thousands of positions of races and meetings, both courses, steeplechases included)."""

from collections import Counter

import numpy as np
import pytest

from hippodrome.core.game import same_json
from hippodrome.envs import turfmaster_encoding as encoding
from tests.research.helpers import turfmaster_decisions

POSITIONS = 3000


def test_every_option_is_one_id_and_back_on_thousands_of_positions():
    blocks = Counter()
    checked = 0
    for seed in range(20):
        for state, decision in turfmaster_decisions(seed):
            frame = encoding.frame_of(state, decision)
            ids = [encoding.encode(option, frame) for option in decision.options]
            assert len(set(ids)) == len(ids), f"two options of {decision.kind} share an id: {decision.options}"
            assert all(0 <= number < encoding.ACTIONS for number in ids)
            for number, option in zip(ids, decision.options):
                assert same_json(encoding.decode(number, frame), option)
                blocks[encoding.describe(number).split()[0]] += 1
            legal = encoding.legal_actions(state, decision)
            assert list(legal) == ids and all(decision.allows(option) for option in legal.values())
            checked += 1
        if checked >= POSITIONS:
            break
    assert checked >= POSITIONS
    assert set(blocks) == set(encoding.ACTION_BLOCKS), f"blocks never met: {set(encoding.ACTION_BLOCKS) - set(blocks)}"


def test_the_action_blocks_tile_the_space_and_every_id_has_words():
    starts = sorted(encoding.ACTION_BLOCKS.values())
    assert starts[0][0] == 0 and sum(size for _, size in starts) == encoding.ACTIONS == 366
    for (start, size), (following, _) in zip(starts, starts[1:]):
        assert start + size == following
    assert all(not encoding.describe(number).startswith("invalid") for number in range(encoding.ACTIONS))
    assert encoding.describe(encoding.ACTIONS) == f"invalid {encoding.ACTIONS}"


def test_a_square_beyond_the_reach_or_a_slot_without_a_horse_is_refused(oval):
    start = oval.square(0, 10)
    assert encoding.square_id(oval, start, 0, 10 + encoding.REACH - 1) == encoding.SQUARE + encoding.REACH - 1
    with pytest.raises(ValueError, match="reach"):
        encoding.square_id(oval, start, 0, 10 + encoding.REACH)
    frame = encoding.Frame(0, ("red",))
    with pytest.raises(ValueError, match="slot 1"):
        encoding.decode(encoding.CLAIM + 1, frame)
    with pytest.raises(ValueError):
        encoding.decode(encoding.ACTIONS, frame)


def test_squares_mean_the_same_on_either_course(oval, triangle):
    """"The rail, 5 squares on" is one id wherever the horse stands."""
    for course in (oval, triangle):
        for index in (0, 30, 60):
            start = course.square(0, index)
            assert encoding.square_id(course, start, 0, index + 5) == encoding.SQUARE + 5
            assert encoding.decode(encoding.SQUARE + 5, encoding.Frame(0, ("red",), "red", course, start)) == \
                {"type": "square", "horse": "red", "lane": 0, "square": index + 5}
