"""The Gymnasium environments: one seat learns against hippodrome bots; Gymnasium's own checker
accepts them; the rewards are the learner's points or money; an illegal action ends the episode."""

import random

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

from gymnasium.utils.env_checker import check_env  # noqa: E402

from hippodrome.envs import readysetbet_gym_env, turfmaster_gym_env  # noqa: E402
from hippodrome.envs.turfmaster_points import points_so_far  # noqa: E402


def episode(env, seed):
    observation, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal and (env.action_masks() == observation["action_mask"]).all()
        observation, reward, terminated, truncated, info = env.step(rng.choice(legal))
        total, steps = total + reward, steps + 1
        if terminated:
            return total, steps


@pytest.mark.parametrize("make", [
    lambda: turfmaster_gym_env(players=3, opponents="tactical"),
    lambda: turfmaster_gym_env(game="turfmaster", players=2, horses_per_player=2, seat=1, opponents="random"),
    lambda: readysetbet_gym_env(players=3, opponents=["value", "random"]),
])
def test_gymnasiums_checker_accepts_the_environment(make):
    check_env(make(), skip_render_check=True)


def test_the_turfmaster_learner_is_rewarded_its_points_and_the_bots_play_the_other_seats():
    env = turfmaster_gym_env(players=3, horses_per_player=2, seat=2, opponents="tactical")
    total, steps = episode(env, 5)
    assert total == points_so_far(env.driver.state)[2] and steps > 20
    decided = {entry["by"] for entry in env.driver.match.log if entry["by"] != "chance"}
    assert decided == {0, 1, 2}


def test_the_readysetbet_learner_is_rewarded_its_money():
    env = readysetbet_gym_env(players=2, opponents="value")
    total, steps = episode(env, 4)
    assert total == env.driver.state.money[0] and env.driver.over
    bets = {event["seat"] for event in env.driver.state.race_log if event["event"] == "bet"}
    assert 1 in bets, "the value bettor never bet"


def test_an_illegal_action_ends_the_episode_or_raises():
    env = turfmaster_gym_env(players=2)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    strict = readysetbet_gym_env(illegal_reward=None)
    observation, _ = strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="unknown bot level"):
        turfmaster_gym_env(opponents="grandmaster")
    for make, seat in ((lambda seat: turfmaster_gym_env(game="turfmaster-race", players=2, seat=seat), 2),
                       (lambda seat: readysetbet_gym_env(players=2, seat=seat), 2)):
        for bad in (seat, -1, 5, True, "0"):
            with pytest.raises(ValueError, match="seat must be a seat of the game, from 0 to 1"):
                make(bad)
        make(1)   # the last seat learns
