"""The House's token options (R6, R9): made once per state and shared by ``pending``,
``decisions`` and ``decision_for`` at it, never stale: a house token placed by the state or by a
copy, a new race, a rotating House."""

import random

import pytest

from hippodrome.core import Match
from hippodrome.core.game import Decision
from tests.readysetbet.rsb_helpers import random_game_states


def made_from_the_rules(state):
    """The House's options made afresh from the state's fields (no cache): each value left on each
    space not taken by a house token, not in a closed column (R4, R9), and not on an exotic finish
    card the House already holds (R6)."""
    taken = {bet["space"] for bet in state.house_bets}
    cards = {state.spaces[space].card for space in taken} - {None}
    closed = state.closed_columns()
    return tuple({"type": "house_token", "value": value, "space": space.id}
                 for value in sorted(set(state.house_left)) for space in state.spaces.values()
                 if space.id not in taken and space.column not in closed and space.card not in cards)


def asked_at(state):
    """The options of the House's decision as pending, decisions and decision_for give them."""
    pending = state.pending()
    assert isinstance(pending, Decision) and pending.kind == "house_token"
    (decision,) = state.decisions()
    assert decision.options is pending.options is state.decision_for(pending.seat).options   # made once
    return pending.options


def test_R9_the_options_made_at_a_state_follow_the_house_tokens_placed_by_it_and_by_its_copy():
    match = Match("readysetbet", {"players": 2, "variant": "house_bets", "races": 2}, seed=1)
    match.pending()                                       # the decks shuffled (untimed chance)
    state = match.state
    first = asked_at(state)
    copy = state.clone()
    assert asked_at(copy) is first                        # a copy that has not played on shares them
    fives = [option for option in first if option["value"] == 5]
    mine, theirs = fives[0], fives[-1]                    # the same value on two spaces: the same tokens left
    state.apply(mine)
    copy.apply(theirs)
    for played, placed, other in ((state, mine, theirs), (copy, theirs, mine)):
        options = asked_at(played)
        assert options == made_from_the_rules(played)
        assert placed["space"] not in {option["space"] for option in options}
        assert other["space"] in {option["space"] for option in options}
    assert state.house_left == copy.house_left and asked_at(state) != asked_at(copy)
    assert asked_at(state.clone()) is asked_at(state)


def test_R9_each_race_the_house_is_offered_the_new_board_again():
    match = Match("readysetbet", {"players": 2, "variant": "house_bets", "races": 2, "vip": False}, seed=2)
    match.pending()
    state = match.state
    first_race = asked_at(state)
    while state.race_no == 1:
        pending = match.pending()
        if isinstance(pending, Decision):
            match.act(pending.seat, pending.options[-1])
        else:
            match.tick()
    assert state.phase == "house_tokens" and not state.house_bets
    assert asked_at(state) == made_from_the_rules(state) != first_race     # the new race's cards
    assert {option["space"] for option in asked_at(state)} == set(state.spaces)   # every space open again


@pytest.mark.parametrize("setup", [{"players": 1, "variant": "house_bets"}, {"players": 4, "variant": "house_bets"},
                                   {"players": 2, "variant": "rotating_house"},
                                   {"players": 3, "variant": "rotating_house"}])
def test_R4_R6_R9_the_options_kept_are_those_made_afresh_at_every_house_step_of_whole_games(setup):
    """Random games (the closed column of two betting, exotic finish cards, a rotating House, races
    starting again): at every House step the options given are those made afresh from the rules,
    and so are those of a copy that places its own house token, the state's staying its own."""
    rng = random.Random(5)
    steps = 0
    for state in random_game_states(setup, rng, seeds=range(4), races=3):
        if state.phase != "house_tokens":
            continue
        steps += 1
        options = asked_at(state)
        assert options == made_from_the_rules(state)
        copy = state.clone()
        copy.apply(rng.choice(options))
        if copy.phase == "house_tokens":
            assert asked_at(copy) == made_from_the_rules(copy)
        assert asked_at(state) is options
    assert steps >= 4 * 6
