"""Malformed JSON is refused with IllegalAction, state unchanged, never a TypeError (found by the
conformance suite, tests/conformance)."""

import json
import random

import pytest

import hippodrome.readysetbet.game  # noqa: F401  (registers the games)
import hippodrome.turfmaster.meeting  # noqa: F401
from hippodrome.core import IllegalAction, Match
from hippodrome.core.game import Decision, same_json
from hippodrome.core.registry import game_class


def refused(match, seat, action):
    match.pending()  # chance drawn first, as act() does
    before = json.dumps(match.state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction):
        match.act(seat, action)
    assert json.dumps(match.state.to_json(), sort_keys=True) == before


def test_same_json_tells_true_from_1_and_1_0_from_1():
    assert same_json({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not same_json({"lane": True}, {"lane": 1})
    assert not same_json([1.0], [1])
    assert not same_json({"a": 1}, {"a": 1, "b": 2})


def test_an_option_with_true_for_a_number_is_not_that_option():
    match = Match("turfmaster-race", {"horses": [{"id": "red"}, {"id": "blue"}]}, seed=3)
    while not any(isinstance(v, int) and v == 1 for o in match.pending().options for v in o.values()):
        pending = match.pending()
        match.act(pending.seat, pending.options[0])
    pending = match.pending()
    option = next(o for o in pending.options if 1 in o.values())
    as_true = {key: True if value == 1 and isinstance(value, int) else value for key, value in option.items()}
    assert not pending.allows(as_true) and pending.allows(option)
    refused(match, pending.seat, as_true)


@pytest.mark.parametrize("kind", [{}, [], None])
def test_an_action_type_that_is_not_a_string_is_refused(kind):
    match = Match("readysetbet", {"players": 2}, seed=1)
    refused(match, 0, {"type": kind, "token": "2", "space": "win:7"})


def test_a_deck_order_holding_something_else_than_card_ids_is_refused_r5():
    shuffle = game_class("readysetbet").new({"players": 2})
    drawn = shuffle.pending().sample(random.Random(0))
    drawn["props"][3] = None
    with pytest.raises(IllegalAction, match="expected a chance outcome"):
        shuffle.apply(drawn)


def test_claiming_the_bonus_of_a_horse_that_is_not_a_name_is_refused_t8():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed=2)
    pending = match.pending()
    assert isinstance(pending, Decision)
    refused(match, pending.seat, {"type": "claim_bonus", "horse": ["red"]})
