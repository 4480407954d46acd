"""Property tests over thousands of random races and bets (R2, R4, R6, R8, R9):
money never negative, every token settled exactly once, a refused bet changes nothing,
replay equals the live game."""

import pytest
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippodrome.core import IllegalAction, Match, replay
from hippodrome.core.game import Decision
from hippodrome.readysetbet.dice_race import HORSES
from hippodrome.readysetbet.rules import ANCHORS

from ..json_text import json_text

VARIANTS = ["standard", "app", "house_bets", "rotating_house"]
JUNK_SPACES = ["win:13:R", "prop:nope", "exotic:by-a-nose:9", "", None, 7]


def random_bet(rng, state, seat):
    """A bet that may or may not be legal: real tokens and spaces, some junk."""
    tokens = [t["id"] for t in state.tokens[seat]] + ["9", None]
    spaces = list(state.spaces) + JUNK_SPACES
    return {"type": "bet", "token": rng.choice(tokens), "space": rng.choice(spaces)}


def play_random_game(setup, seed, check_refusals=True):
    rng = random.Random(seed)
    match = Match("readysetbet", setup, seed=seed)
    state = match.state
    settled_races = 0
    while match.pending() is not None:
        state = match.state
        pending = match.pending()
        if isinstance(pending, Decision):
            match.act(pending.seat, rng.choice(pending.options))
        else:
            for _ in range(rng.randrange(3)):
                seat = rng.randrange(-1, state.seats + 1)
                action = random_bet(rng, state, seat if 0 <= seat < state.seats else 0)
                if rng.random() < 0.5 and 0 <= seat < state.seats:
                    options = state.free_options(seat)
                    if options:
                        action = rng.choice(options)
                        assert state.bet_refusal(seat, action["token"], action["space"]) is None
                before = json_text(state.to_json()) if check_refusals else None
                log_length = len(match.log)
                reason = state.bet_refusal(seat, action.get("token"), action.get("space"))
                try:
                    match.act(seat, action)
                    assert reason is None
                except IllegalAction as error:
                    assert reason is not None and str(error) == str(reason)
                    assert error.rule is None or error.rule in ANCHORS, "R4: a refusal links its paragraph"
                    assert len(match.log) == log_length
                    if check_refusals:
                        assert json_text(state.to_json()) == before
            bets_before = [(b["seat"], b["token"]["id"], b["space"]) for b in state.house_bets + state.bets]
            match.tick()
            assert all(m >= 0 for m in state.money)
            if len(state.history) > settled_races:
                settled_races += 1
                results = state.history[-1]["results"]
                settled = [(r["seat"], r["token"], r["space"]) for r in results]
                assert Counter(settled) == Counter(bets_before)  # every token settled exactly once
                per_seat = Counter(r["seat"] for r in results if not r["token"].startswith("house-"))
                assert all(per_seat[s] <= len(state.tokens[s]) for s in per_seat)
                # every space holds at most one token unless a bandwagon card allowed more
                by_space = Counter(b for _, _, b in settled if True)
                for space, count in by_space.items():
                    if count > 1:
                        holders = [r for r in results if r["space"] == space and not r["token"].startswith("house-")]
                        assert len(holders) <= 1 or any(
                            c.startswith("bandwagon") for r in holders for c in state.vip_cards[r["seat"]])
    assert len(state.history) == state.races
    assert replay(json.loads(json.dumps(match.record()))).to_json() == state.to_json()
    return match


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 8), variant=st.sampled_from(VARIANTS), props=st.booleans(),
       exotics=st.booleans(), vip=st.booleans(), seed=st.integers(0, 10**6))
@pytest.mark.slow
def test_random_games_keep_every_invariant(players, variant, props, exotics, vip, seed):
    setup = {"players": players, "variant": variant, "props": props, "exotics": exotics, "vip": vip}
    play_random_game(setup, seed)


def test_free_options_are_exactly_the_bets_bet_refusal_allows():
    rng = random.Random(4)
    for seed in range(6):
        match = Match("readysetbet", {"players": 2 + seed, "variant": VARIANTS[seed % 4]}, seed=seed)
        while match.pending() is not None:
            pending = match.pending()
            if isinstance(pending, Decision):
                match.act(pending.seat, rng.choice(pending.options))
                continue
            state = match.state
            seat = rng.randrange(state.seats)
            options = {(o["token"], o["space"]) for o in state.free_options(seat)}
            offered_tokens = {t for t, _ in options}
            for token in offered_tokens:
                for space in state.spaces:
                    assert ((token, space) in options) == (state.bet_refusal(seat, token, space) is None)
            if options:
                token, space = rng.choice(sorted(options))
                match.act(seat, {"type": "bet", "token": token, "space": space})
            match.tick()


@pytest.mark.slow
def test_five_hundred_random_races_money_never_negative_and_bets_settled_once():
    races = 0
    for seed in range(130):
        setup = {"players": 2 + seed % 7, "variant": VARIANTS[seed % 4]}
        match = play_random_game(setup, 1000 + seed, check_refusals=False)
        races += len(match.state.history)
        final = match.state.history[-1]["positions"]
        assert sorted(final.values())[-1] == 15 and list(final) == list(HORSES)
    assert races >= 500
