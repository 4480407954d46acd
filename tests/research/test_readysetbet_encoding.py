"""The Ready Set Bet encoding: every bet, House token, VIP card and House answer is exactly one
action id and back, for every seat, on thousands of positions (every variant, several races),
and the observation vector has its fixed shape and bounds."""

from collections import Counter

import numpy as np
import pytest

from hippodrome.core.game import Decision, same_json
from hippodrome.envs import readysetbet_encoding as encoding
from hippodrome.readysetbet.game import ReadySetBet
from tests.research.helpers import readysetbet_positions

POSITIONS = 1500  # (position, seat) pairs with something to do


def test_every_option_of_every_seat_is_one_id_and_back_on_thousands_of_positions():
    kinds, checked = Counter(), 0
    for seed in range(10):
        for state in readysetbet_positions(seed):
            pending = state.pending()
            for seat in range(state.seats):
                if isinstance(pending, Decision):
                    options = pending.options if pending.seat == seat else ()
                else:
                    options = state.free_options(seat) if encoding.betting_open(state) else ()
                legal = encoding.legal_actions(state, seat)
                if not options:
                    assert legal == {}
                    continue
                ids = [encoding.encode_bet(state, seat, o) if o["type"] == "bet" else encoding.encode(o) for o in options]
                assert len(set(ids)) == len(ids), f"two options share an id: {options}"
                assert all(0 < number < encoding.ACTIONS for number in ids)
                for number, option in zip(ids, options):
                    assert same_json(encoding.decode(state, seat, number), option)
                    assert legal[number] == option
                    kinds[option["type"]] += 1
                extra = set(legal) - set(ids)
                assert extra == ({encoding.PASS} if not isinstance(pending, Decision) else set())
                checked += 1
        if checked >= POSITIONS:
            break
    assert checked >= POSITIONS
    assert set(kinds) == {"bet", "house_token", "vip", "house"}


def test_two_tokens_alike_are_one_id_the_engine_offering_the_first_unused():
    state = ReadySetBet.new({"players": 2, "races": 1, "props": False, "exotics": False})
    state.apply(state.pending().sample(__import__("random").Random(1)))
    three = encoding.BET + encoding.TOKEN_KIND[(3, 0, False)] * encoding.SPACES + encoding.SPACE["win:7:R"]
    assert encoding.decode(state, 0, three) == {"type": "bet", "token": "3", "space": "win:7:R"}
    state.apply_free(0, {"type": "bet", "token": "3", "space": "win:7:R"})
    other = three + 1
    assert encoding.decode(state, 0, other)["token"] == "3b"
    assert encoding.describe(three) == "bet 3 on win:7:R" and encoding.describe(0) == "pass"
    with pytest.raises(ValueError):
        encoding.decode(state, 0, encoding.ACTIONS)


def test_the_observation_has_its_shape_bounds_and_the_seats_own_tokens():
    seen = 0
    for state in readysetbet_positions(2):
        for seat in range(state.seats):
            vector = encoding.observe(state, seat)
            assert vector.shape == (encoding.OBSERVATION_SIZE,) and vector.dtype == np.float32
            assert vector.min() >= 0 and vector.max() <= 1
            start, width = encoding.OBSERVATION_FIELDS["my unused tokens per kind / 3"]
            unused = Counter(encoding.token_kind_of(t) for t in state.tokens[seat] if t["id"] not in state.used[seat])
            assert [round(x * 3) for x in vector[start:start + width]] == [unused[k] for k in encoding.TOKEN_KINDS]
            seen += 1
    assert seen > 500
