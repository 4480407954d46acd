"""The PettingZoo environment passes PettingZoo's own API test, replays from its records and gives
T9's points as rewards."""

import json
import random
import warnings

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

from pettingzoo.test import api_test  # noqa: E402

from hippodrome.core import replay  # noqa: E402
from hippodrome.envs import turfmaster_env  # noqa: E402
from hippodrome.envs.turfmaster_encoding import ACTIONS  # noqa: E402

#: what PettingZoo's tests say of every environment whose observation is a dict with an action
#: mask (its own classic games are exempted by name)
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def run_quietly(test, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test(*args, **kwargs)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert not unexpected, unexpected


@pytest.mark.parametrize("game, fields, cycles", [
    ("turfmaster-race", {"players": 3, "horses_per_player": 2}, 150),
    ("turfmaster-race", {"players": 2, "course": "triangle", "steeplechase": False}, 100),
    ("turfmaster", {"players": 2, "horses_per_player": 2, "steeplechase": True}, 300),
])
def test_turfmaster_passes_the_pettingzoo_api_test(game, fields, cycles):
    run_quietly(api_test, turfmaster_env(game=game, **fields), num_cycles=cycles)


def play_turfmaster(env, seed):
    """A random game through the AEC loop: every agent's rewards added up, and the actions taken."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        action = None if terminated else rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        actions.append(action)
        env.step(action)
    return totals, actions


def test_turfmaster_rewards_are_the_points_of_the_final_table_and_the_record_replays():
    env = turfmaster_env(game="turfmaster", players=3, horses_per_player=2)
    totals, _ = play_turfmaster(env, 11)
    table = {row["seat"]: row["total"] for row in env.driver.state.standings()}
    assert totals == {f"player_{seat}": float(points) for seat, points in table.items()} and sum(totals.values()) > 0
    assert replay(json.loads(json.dumps(env.record()))).to_json() == env.driver.state.to_json()


def test_a_seeded_reset_plays_the_same_game_again():
    first, second = turfmaster_env(players=4), turfmaster_env(players=4)
    assert play_turfmaster(first, 3) == play_turfmaster(second, 3)
    assert first.record()["log"] == second.record()["log"]
    third = turfmaster_env(players=4)
    play_turfmaster(third, 4)
    assert third.record()["log"] != first.record()["log"]


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = turfmaster_env(players=2, json_view=True)
    env.reset(seed=1)
    observation, *_ = env.last()
    before = env.driver.state.to_json()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    for action in (illegal, ACTIONS, 2.5, None):
        with pytest.raises(ValueError):
            env.step(action)
    assert env.driver.state.to_json() == before
    agent = env.agent_selection
    assert env.infos[agent]["view"] == env.driver.state.view(int(agent.split("_")[1]))
    other = next(a for a in env.agents if a != agent)
    assert not env.observe(other)["action_mask"].any()
