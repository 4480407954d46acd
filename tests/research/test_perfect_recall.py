"""OpenSpiel's information-state tensors have perfect recall (hippodrome.openspiel.recall): over
random play of the three games no two different ``information_state_string``s share one tensor
(and one string always has one tensor), and a seat's tensor does not change when another seat's
hidden cards do (a world dealt anew by ``resample_from_infostate``, played step by step beside
the game: T7, T8 for the hands and decks, R5-R8 for Ready Set Bet's decks)."""

import hashlib

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

import pyspiel  # noqa: E402

import hippodrome.openspiel  # noqa: E402, F401

GAMES = [
    ("hippodrome_turfmaster_race", {"players": 3}, 4),
    ("hippodrome_turfmaster_race", {"players": 2, "horses_per_player": 2, "steeplechase": True}, 2),
    ("hippodrome_turfmaster", {"players": 2, "horses_per_player": 2}, 1),
    ("hippodrome_readysetbet_race", {"players": 4}, 12),
    ("hippodrome_readysetbet_race", {"players": 3, "variant": "rotating_house"}, 6),
]


def chance(state, rng) -> None:
    actions, probabilities = zip(*state.chance_outcomes())
    state.apply_action(actions[rng.choice(len(actions), p=probabilities)])


def information_states(game, games: int, rng):
    """(seat, information state string, tensor) of every seat at every decision of random games."""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance(state, rng)
                continue
            for seat in range(game.num_players()):
                yield seat, state.information_state_string(seat), state.core.info_tensor(seat)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name, params, games", GAMES)
def test_no_two_information_states_share_a_tensor(name, params, games):
    game = pyspiel.load_game(name, params)
    strings_of: dict[bytes, set[str]] = {}
    tensors_of: dict[str, set[bytes]] = {}
    compared = 0
    for seat, string, tensor in information_states(game, games, np.random.RandomState(len(name) + games)):
        assert tensor.shape == tuple(game.information_state_tensor_shape())
        assert tensor[seat] == 1 and tensor[:game.num_players()].sum() == 1, "the seat's own entry"
        digest = hashlib.sha1(tensor.tobytes()).digest()
        strings_of.setdefault(digest, set()).add(string)
        tensors_of.setdefault(string, set()).add(digest)
        compared += 1
    shared = [strings for strings in strings_of.values() if len(strings) > 1]
    assert not shared, f"{len(shared)} tensors stand for two information states or more"
    assert all(len(tensors) == 1 for tensors in tensors_of.values()), "one information state, two tensors"
    assert compared > 200 and len(strings_of) > 100
    print(f"{name} {params}: {compared} information states compared, {len(strings_of)} distinct")


def test_the_pyspiel_tensor_is_the_cores_and_its_parts_are_named():
    game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    while state.is_chance_node() or len(state.history()) < 60:
        chance(state, rng) if state.is_chance_node() else state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert state.information_state_tensor(seat) == state.core.info_tensor(seat).tolist()
    assert state.observation_tensor(seat) == state.core.tensor(seat).tolist()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, seat)
    assert list(observer.dict) == ["seat", "observation", "steps", "private"]
    assert np.array_equal(observer.dict["observation"], state.core.tensor(seat))
    steps = observer.dict["steps"].reshape(game.recall_layout.steps, game.recall_layout.step_width)
    assert steps[:len(state.history())].any(axis=1).all() and not steps[len(state.history()):].any()


def replayed(game, history):
    """States of ``game`` along ``history``, one per step."""
    state = game.new_initial_state()
    yield state
    for action in history:
        state.apply_action(action)
        yield state


@pytest.mark.parametrize("name, params, steps", [
    ("hippodrome_turfmaster_race", {"players": 3}, 80),
    ("hippodrome_turfmaster", {"players": 2, "horses_per_player": 2}, 400),
    ("hippodrome_readysetbet_race", {"players": 3}, 70),
])
def test_a_seats_tensor_does_not_change_with_the_cards_hidden_from_it(name, params, steps):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(11)
    state = game.new_initial_state()
    while len(state.history()) < steps or state.is_chance_node():
        chance(state, rng) if state.is_chance_node() else state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    seat = state.current_player()
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert world.history() != state.history(), "the world dealt anew is the game itself"
    differed = compared = 0
    for truth, other in zip(replayed(game, state.history()), replayed(game, world.history())):
        assert np.array_equal(truth.core.info_tensor(seat), other.core.info_tensor(seat)), \
            f"seat {seat}'s tensor changed with hidden cards at step {len(truth.history())}"
        differed += truth.core.engine.to_json() != other.core.engine.to_json()
        compared += 1
    assert differed, "the two games differ in nothing: the test proves nothing"
    assert compared == len(state.history()) + 1
