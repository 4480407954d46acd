"""The TurfMaster encoding: every option of every decision is exactly one action id and back
(on thousands of positions of races and meetings, both courses, steeplechases included), and the
observation vector has its fixed shape and bounds."""

import random
from collections import Counter

import numpy as np
import pytest

from hippodrome.core.game import Chance, Decision, game_class, same_json
from hippodrome.envs import turfmaster_encoding as encoding
from tests.research.helpers import TURFMASTER_SETUPS, turfmaster_decisions
from tests.research.turfmaster_reference import observation_afresh

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


def test_the_observation_has_its_shape_bounds_and_the_seats_own_hand_in_its_own_rows():
    seen = 0
    for state, decision in turfmaster_decisions(3):
        seat = decision.seat
        vector = encoding.observe(state, seat)
        assert vector.shape == (encoding.OBSERVATION_SIZE,) and vector.dtype == np.float32
        assert vector.min() >= 0 and vector.max() <= 1
        rows = vector[:encoding.SLOTS * encoding.ROW].reshape(encoding.SLOTS, encoding.ROW)
        mine = [horse for horse in state.ids if state.owner[horse] == seat]
        hands = rows[:, encoding.R_HAND:encoding.R_HAND + len(encoding.CARD_KINDS)]
        assert not hands[len(mine):].any(), "another seat's hand in the observation"
        assert (rows[:len(mine), encoding.R_MINE] == 1).all() and not rows[len(mine):, encoding.R_MINE].any()
        for slot, horse in enumerate(mine):
            cards = state.hand(horse) if hasattr(state, "hand") else (state.hands or {}).get(horse, [])
            counts = np.round(hands[slot] * encoding.MOST_OF_A_KIND).astype(int)
            assert dict(zip(encoding.CARD_KINDS, counts)) == {k: cards.count(k) for k in encoding.CARD_KINDS}
        seen += 1
    assert seen > 500


def every_step(seed: int):
    """Every step of random TurfMaster games, one per setup of ``turfmaster_decisions`` (races
    and meetings, both courses, steeplechases, hands run empty): chance steps included, drawn one
    at a time, so that observations are also asked for before a deal or a roll."""
    rng = random.Random(f"steps:{seed}")
    for game, setup in TURFMASTER_SETUPS:
        state = game_class(game).new(setup)
        while (pending := state.pending()) is not None:
            yield state
            if isinstance(pending, Chance):
                state.apply(pending.sample(rng))
                continue
            options = [option for option in pending.options if option["type"] != "claim_bonus"] or pending.options
            state.apply(rng.choice(options if seed % 2 and pending.kind != "claim_bonus" else pending.options))
        yield state


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_observation_is_the_one_computed_afresh_however_seldom_a_seat_looks(seed):
    """``observe`` keeps what it wrote of a game and brings it up to date with what changed since:
    whichever seats look, after one step or after many (a seat may miss whole rounds, or a race of
    a meeting), each vector is exactly the one computed from nothing (tests/research/turfmaster_reference.py);
    and a vector handed out is never changed after."""
    rng = random.Random(f"looks:{seed}")
    compared, handed = 0, []
    for state in every_step(seed):
        seats = state.players if hasattr(state, "players") else state.seats
        decision = state.pending()
        lookers = [seat for seat in range(seats) if rng.random() < 0.3]
        if isinstance(decision, Decision) and rng.random() < 0.8:
            lookers.append(decision.seat)
        for seat in lookers:
            vector = encoding.observe(state, seat)
            expected = observation_afresh(state, seat)
            assert vector.tobytes() == expected.tobytes(), (
                f"seat {seat}: entries {np.flatnonzero(vector != expected).tolist()} differ "
                f"({vector[vector != expected].tolist()} instead of {expected[vector != expected].tolist()})")
            compared += 1
            if rng.random() < 0.01:
                handed.append((vector, expected))
    assert compared > 2000
    assert all(vector.tobytes() == expected.tobytes() for vector, expected in handed), "a vector changed after"


def test_a_clone_is_observed_as_itself():
    """A clone of a game observed before (search, ISMCTS) gets its own vectors, not the original's."""
    for number, state in enumerate(every_step(5)):
        if number % 37 == 0:
            seat = number % 2
            encoding.observe(state, seat)
            clone = state.clone()
            pending = clone.pending()
            if pending is None:
                continue
            clone.apply(pending.sample(random.Random(number)) if isinstance(pending, Chance) else pending.options[-1])
            assert encoding.observe(clone, seat).tobytes() == observation_afresh(clone, seat).tobytes()
            assert encoding.observe(state, seat).tobytes() == observation_afresh(state, seat).tobytes()
