"""Whether a seat may bet now, asked without listing its bets (``may_act_freely``): a running
table asks it before a bettor bot thinks, so it must never say no where a bet is open, and it
should say no where none is (R2, R4, R9)."""

import random

import pytest

from hippodrome.core.game import Chance
from hippodrome.core.match import Match


@pytest.mark.parametrize("setup", [{"players": 2}, {"players": 4}, {"players": 2, "variant": "house_bets"},
                                   {"players": 3, "variant": "rotating_house"}])
def test_R2_R4_R9_a_seat_said_unable_to_bet_has_no_bet_open(setup):
    rng = random.Random(7)
    told_no_with_tokens_left = told_no = 0
    for seed in range(3):
        match = Match("readysetbet", {**setup, "races": 2}, seed=seed)
        steps = 0
        while match.pending() is not None and steps < 2000:
            steps += 1
            state = match.state
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
            betting = [s for s in range(state.seats) if state.free_options(s)]
            pending = match.pending()
            if betting and rng.random() < 0.7:   # bettors place every token within a race
                seat = rng.choice(betting)
                match.act(seat, rng.choice(state.free_options(seat)))
            elif isinstance(pending, Chance):
                match.tick()
            else:
                match.act(pending.seat, rng.choice(pending.options))
    # both ways of being unable to bet came up: every token placed, and betting closed with tokens left
    assert told_no > told_no_with_tokens_left > 0
