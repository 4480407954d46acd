"""The TurfMaster observation vector: its fixed shape and bounds, the seat's own hands in its own
rows and no other; and the vector kept and brought up to date from step to step is exactly the
one computed afresh (tests/research/turfmaster_reference.py), whoever looks and however seldom."""

import random

import numpy as np
import pytest

from hippodrome.core.game import Chance, Decision
from hippodrome.core.registry import game_class
from hippodrome.envs import turfmaster_encoding as encoding
from hippodrome.envs import turfmaster_observation as observation
from tests.research.helpers import TURFMASTER_SETUPS, turfmaster_decisions
from tests.research.turfmaster_reference import observation_afresh


def test_the_observation_has_its_shape_bounds_and_the_seats_own_hand_in_its_own_rows():
    seen = 0
    for state, decision in turfmaster_decisions(3):
        seat = decision.seat
        vector = observation.observe(state, seat)
        assert vector.shape == (observation.OBSERVATION_SIZE,) and vector.dtype == np.float32
        assert vector.min() >= 0 and vector.max() <= 1
        rows = vector[:encoding.SLOTS * observation.ROW].reshape(encoding.SLOTS, observation.ROW)
        mine = [horse for horse in state.ids if state.owner[horse] == seat]
        hands = rows[:, observation.R_HAND:observation.R_HAND + len(encoding.CARD_KINDS)]
        assert not hands[len(mine):].any(), "another seat's hand in the observation"
        assert (rows[:len(mine), observation.R_MINE] == 1).all() and not rows[len(mine):, observation.R_MINE].any()
        for slot, horse in enumerate(mine):
            cards = state.hand(horse) if hasattr(state, "hand") else (state.hands or {}).get(horse, [])
            counts = np.round(hands[slot] * observation.MOST_OF_A_KIND).astype(int)
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
            vector = observation.observe(state, seat)
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
            seat = number % (state.players if hasattr(state, "players") else state.seats)
            observation.observe(state, seat)
            clone = state.clone()
            pending = clone.pending()
            if pending is None:
                continue
            clone.apply(pending.sample(random.Random(number)) if isinstance(pending, Chance) else pending.options[-1])
            assert observation.observe(clone, seat).tobytes() == observation_afresh(clone, seat).tobytes()
            assert observation.observe(state, seat).tobytes() == observation_afresh(state, seat).tobytes()


def test_a_seat_the_game_does_not_have_is_refused():
    state = game_class("turfmaster-race").new({"players": 2})
    for seat in (2, -1, "0"):
        with pytest.raises(ValueError, match="0 to 1"):
            observation.observe(state, seat)
