"""The board in Ready Set Bet's views: made once per set of bets and shared by the views that
follow, never stale (R4: one token per space, placed tokens never move; the leftmost Win, Place
and Show spaces closed when two bet)."""

import random

import pytest

import hippodrome.readysetbet  # noqa: F401  (registers the game)
from tests.readysetbet.rsb_helpers import DICE, match_at_race, random_game_states, roll


def afresh(state):
    """The board made now from the state's bets (a copy without the one kept)."""
    copy = state.clone()
    copy._board = None
    return copy.board()


def tokens_on(view, space_id):
    return next(space for space in view["board"] if space["id"] == space_id)["tokens"]


def test_R4_a_placed_token_shows_on_its_space_in_every_later_view_and_views_between_bets_share_the_board():
    match = match_at_race({"players": 3}, seed=3)
    state = match.state
    first = state.observation(0)
    assert state.observation(None)["board"] is first["board"]          # every audience at one state
    roll(match, 7)
    assert state.observation(1)["board"] is first["board"]             # a roll moves no token
    bet = state.free_options(1)[0]
    match.act(1, bet)
    after = state.observation(2)
    assert after["board"] is not first["board"]
    assert tokens_on(after, bet["space"]) == [{"seat": 1, "token": bet["token"], "value": state.token(1, bet["token"])["value"]}]
    assert tokens_on(first, bet["space"]) == []                 # a view already made is not changed
    roll(match, 8)
    assert tokens_on(state.observation(None), bet["space"])[0]["seat"] == 1   # the token never moves


def test_R4_a_clone_placing_a_bet_leaves_the_original_board_alone():
    match = match_at_race({"players": 3}, seed=3)
    state = match.state
    before = state.observation(0)["board"]
    copy = state.clone()
    assert copy.observation(1)["board"] is before                      # a bettor's copy reads the same board
    bet = copy.free_options(0)[0]
    copy.apply_free(0, bet)
    assert tokens_on(copy.observation(0), bet["space"])[0]["seat"] == 0
    assert tokens_on(state.observation(0), bet["space"]) == []
    assert state.observation(0)["board"] is before


@pytest.mark.parametrize("setup", [{"players": 2}, {"players": 4}, {"players": 2, "variant": "house_bets"},
                                   {"players": 3, "variant": "rotating_house"}])
def test_R4_R9_the_shared_board_is_the_board_made_afresh_at_every_step_of_whole_games(setup):
    """Random games, with House tokens and the closed spaces of two bettors: at every step each
    seat's board (shared, made when the bets last changed) equals one made afresh, across races
    whose bets start again empty; and so does the board of a copy that bet on its own."""
    rng = random.Random(11)
    for state in random_game_states(setup, rng):
        for seat in (None, *range(state.seats)):
            assert state.observation(seat)["board"] == afresh(state)
        betting = [s for s in range(state.seats) if state.free_options(s)]
        if betting:   # a bettor's copy places its own bet: its board shows it, the state's does not
            copy, seat = state.clone(), rng.choice(betting)
            copy.apply_free(seat, rng.choice(copy.free_options(seat)))
            assert copy.observation(seat)["board"] == afresh(copy) != state.observation(seat)["board"]


def test_R1_the_callers_lines_are_shared_by_copies_until_a_copy_rolls_its_own_dice():
    """The race caller's lines (made from the rolls so far) are made once per roll and read by
    every view, a bettor's copy's too; a copy that rolls other dice than the table says its own."""
    match = match_at_race({"players": 3}, seed=3)
    roll(match, 7)
    state = match.state
    said = state.observation(None)["caller"]
    copy = state.clone()
    assert copy.observation(0)["caller"] is said
    for own, other in ((copy, 8), (state, 6)):
        own.apply({"type": "roll", "dice": DICE[other]})
    fresh = [s.clone() for s in (copy, state)]
    for made in fresh:
        made._calls = None
    assert copy.observation(None)["caller"] == fresh[0].calls() != state.observation(None)["caller"] == fresh[1].calls()
    assert len(state.observation(None)["caller"]["lines"]) >= len(said["lines"])
