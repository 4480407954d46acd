"""Every game's state, declared once (core/state.py): a clone plays on without touching the original
(nor the original the clone), and a state read back from its JSON is the same state, at many points
of random games of the four games."""

from __future__ import annotations

import json
import random

import pytest

from hippodrome.core.registry import game_class

from .play import SETUPS, new_state, play, random_step, take

GAMES = [(game, number) for game, setups in SETUPS.items() for number in range(len(setups))]
#: how often a game in progress is checked (every so many steps)
CHECK_EVERY = {"turfmaster-race": 9, "turfmaster": 23, "readysetbet": 11, "readysetbet-race": 3}
PLAY_ON = 40


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def checkpoints(game: str, number: int, seed: int):
    """The state of one random game at every checkpoint, up to and including its end."""
    state = new_state(game, SETUPS[game][number])
    rng = random.Random(f"{game}:{number}:{seed}")
    while True:
        yield state, rng
        if not play(state, rng, CHECK_EVERY[game]):
            return


@pytest.mark.parametrize("game, number", GAMES)
def test_a_clone_plays_on_without_changing_the_original(game, number):
    checked = 0
    for state, rng in checkpoints(game, number, seed=1):
        before = snapshot(state)
        clone = state.clone()
        assert type(clone) is type(state) and snapshot(clone) == before
        play(clone, random.Random(rng.random()), PLAY_ON)
        assert snapshot(state) == before
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("game, number", GAMES)
def test_the_original_plays_on_without_changing_a_clone(game, number):
    for state, rng in checkpoints(game, number, seed=2):
        clone = state.clone()
        before = snapshot(clone)
        views = [clone.observation(seat) for seat in (None, 0)]
        steps = play(state, random.Random(rng.random()), PLAY_ON)
        assert snapshot(clone) == before
        assert [clone.observation(seat) for seat in (None, 0)] == views
        # and the clone plays the same steps to the same state
        for step in steps:
            take(clone, step)
        assert snapshot(clone) == snapshot(state)


@pytest.mark.parametrize("game, number", GAMES)
def test_a_state_read_from_its_json_is_the_same_state(game, number):
    cls = game_class(game)
    for state, rng in checkpoints(game, number, seed=3):
        data = state.to_json()
        assert data["game"] == game and json.loads(json.dumps(data)) == data
        restored = cls.from_json(json.loads(json.dumps(data)))
        assert restored.to_json() == data
        assert restored.observation(0) == state.observation(0) and restored.observation(None) == state.observation(None)
        # it plays on exactly like the original
        step = random_step(state, random.Random(rng.random()))
        if step is not None:
            take(state, step)
            take(restored, step)
            assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("game, number", GAMES)
def test_the_json_shares_nothing_with_the_state(game, number):
    cls = game_class(game)
    for state, rng in checkpoints(game, number, seed=4):
        data = state.to_json()
        before = json.dumps(data, sort_keys=True)
        restored = cls.from_json(data)
        play(state, random.Random(rng.random()), PLAY_ON)
        play(restored, random.Random(rng.random()), PLAY_ON)
        assert json.dumps(data, sort_keys=True) == before


@pytest.mark.parametrize("game, number", GAMES)
def test_every_attribute_of_a_state_is_declared(game, number):
    for state, _ in checkpoints(game, number, seed=5):
        declared = type(state).state_fields.attributes()
        for copy in (state.clone(), type(state).from_json(state.to_json())):
            copy.observation(0)  # fills the caches
            assert set(vars(copy)) == declared


def test_the_json_keeps_its_shape():
    """Records and tests stored before the declaration read the same keys."""
    keys = {
        "turfmaster-race": {"setup", "ids", "owner", "seats", "roller", "square", "stage", "places", "fallen",
                            "hands", "round_no", "round_kind", "order", "limits", "turn", "dice", "dice_use",
                            "awaiting", "points", "history", "bonus_unclaimed"},
        "turfmaster": {"setup", "players", "course_name", "steeplechase", "names", "ids", "owner", "decks", "drawn",
                       "stall_groups", "stall_rolls", "roller_groups", "roller_rolls", "roller", "phase", "race_no",
                       "stalls", "hands", "limit", "claimed", "dealt", "discard_queue", "claim_queue", "results",
                       "events", "race", "histories"},
        "readysetbet": {"setup", "players", "variant", "use_props", "use_exotics", "use_vip", "races", "seats",
                        "house_seat", "money", "tokens", "used", "vip_cards", "prop_deck", "exotic_deck", "vip_deck",
                        "vip_discard", "props", "exotics", "race_no", "phase", "bets", "house_bets", "house_left",
                        "vip_queue", "vip_drawn", "house_asked", "race_log", "history", "shuffled", "caller_seed",
                        "race", "rulings", "vip_hands", "vip_kept"},   # the last three: R8 as amended
        "readysetbet-race": {"setup", "race", "log"},
    }
    for game, expected in keys.items():
        state = new_state(game, SETUPS[game][0])
        play(state, random.Random(0), 300)
        assert set(state.to_json()["state"]) == expected
    race = new_state("turfmaster-race", SETUPS["turfmaster-race"][0])
    play(race, random.Random(0), 1)
    assert set(race.to_json()["state"]["square"]["red"]) == {"lane", "square"}


def test_a_ready_set_bet_game_stored_before_the_caller_seed_reads_as_none():
    state = new_state("readysetbet", SETUPS["readysetbet"][0])
    play(state, random.Random(6), 20)
    data = state.to_json()
    del data["state"]["caller_seed"]
    restored = game_class("readysetbet").from_json(data)
    assert restored.caller_seed is None
    play(restored, random.Random(7), 50)


def test_a_state_without_a_field_and_no_default_is_refused():
    data = new_state("readysetbet-race", {}).to_json()
    del data["state"]["log"]
    with pytest.raises(KeyError, match="log"):
        game_class("readysetbet-race").from_json(data)
