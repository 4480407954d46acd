"""Whether a seat may bet now, asked without listing its bets (``may_act_freely``): a running
table asks it before a bettor bot thinks, so it must never say no where a bet is open, and it
should say no where none is (R2, R4, R9)."""

import random

import pytest

from tests.readysetbet.rsb_helpers import random_game_states


@pytest.mark.parametrize("setup", [{"players": 2}, {"players": 4}, {"players": 2, "variant": "house_bets"},
                                   {"players": 3, "variant": "rotating_house"}])
def test_R2_R4_R9_a_seat_said_unable_to_bet_has_no_bet_open(setup):
    rng = random.Random(7)
    told_no_with_tokens_left = told_no = 0
    # bettors who bet often place every token in a race; bettors who bet seldom still hold tokens
    # when betting closes
    for state in (state for chance in (0.7, 0.1) for state in random_game_states(setup, rng, bet_chance=chance)):
        for seat in (-1, *range(state.seats), state.seats, "0"):
            options = state.free_options(seat)
            may = state.may_act_freely(seat)
            # never no where a bet is open; and in these games, never yes where none is (a seat
            # that may bet with a token left finds a space: all the spaces taken never came up)
            assert may == bool(options), (seat, may, options[:3])
            if isinstance(seat, int) and 0 <= seat < state.seats and not may:
                told_no += 1
                left = [t for t in state.tokens[seat] if t["id"] not in state.used[seat]]
                told_no_with_tokens_left += bool(left)
    # both ways of being unable to bet came up: every token placed, and betting closed with tokens left
    assert told_no > told_no_with_tokens_left > 0
