"""The conventions learning programs expect: Gymnasium ids registered on import of
hippodrome.envs, PettingZoo's versioned modules (``*_v0.env()``, ``parallel_env()``), render modes
("ansi", "rgb_array" for TurfMaster; any other refused), and Ready Set Bet's ``illegal="pass"``."""

import warnings

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test  # noqa: E402

import hippodrome.envs  # noqa: E402, F401
from hippodrome.envs import readysetbet_v0, turfmaster_meeting_v0, turfmaster_race_v0  # noqa: E402
from hippodrome.envs.turfmaster_picture import rgb  # noqa: E402
from hippodrome.turfmaster.cards import HORSE_COLOURS  # noqa: E402


def quietly(test, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        test(*args, **kwargs)


@pytest.mark.parametrize("env_id, kwargs", [
    ("hippodrome/TurfMasterRace-v0", {"players": 3}),
    ("hippodrome/TurfMasterMeeting-v0", {"players": 2, "horses_per_player": 2}),
    ("hippodrome/ReadySetBet-v0", {"players": 2, "opponents": "random"}),
])
def test_gymnasium_makes_the_registered_ids_and_its_checker_accepts_them(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    quietly(check_env, env.unwrapped)
    observation, _ = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    assert env.spec.id == env_id


@pytest.mark.parametrize("module, kwargs, name", [
    (turfmaster_race_v0, {"players": 2}, "turfmaster_race_v0"),
    (turfmaster_meeting_v0, {"players": 2, "horses_per_player": 2}, "turfmaster_meeting_v0"),
    (readysetbet_v0, {"players": 3}, "readysetbet_v0"),
])
def test_the_versioned_modules_make_environments_pettingzoo_accepts(module, kwargs, name):
    env = module.env(**kwargs)
    assert env.unwrapped.metadata["name"] == name if hasattr(env.unwrapped, "driver") else True
    quietly(api_test, env, num_cycles=60)
    assert module.raw_env(**kwargs) is not None


def test_readysetbet_v0_parallel_env_passes_the_parallel_tests_and_the_seed_test_with_illegal_pass():
    quietly(parallel_api_test, readysetbet_v0.parallel_env(players=2), num_cycles=100)
    assert readysetbet_v0.parallel_env(players=2).metadata["name"] == "readysetbet_v0"
    # the seed test samples actions without the mask: with illegal="pass" it plays through
    quietly(parallel_seed_test, lambda: readysetbet_v0.parallel_env(players=3, illegal="pass"), num_cycles=200)


def test_an_illegal_bet_passes_with_the_callers_penalty_and_a_decision_stays_pending():
    env = readysetbet_v0.parallel_env(players=2, variant="house_bets", illegal="pass", illegal_reward=-3)
    observations, _ = env.reset(seed=5)
    house = next(agent for agent, obs in observations.items() if obs["action_mask"].sum() > 1)
    before = env.driver.match.pending()
    forbidden = int(np.flatnonzero(observations[house]["action_mask"] == 0)[-1])
    _, rewards, _, _, infos = env.step({agent: forbidden for agent in env.agents})
    assert rewards[house] == -3 and infos[house]["action"] == "illegal"
    assert env.driver.match.pending().options == before.options, "the House's decision changed"
    strict = readysetbet_v0.parallel_env(players=2, variant="house_bets")
    strict.reset(seed=5)
    with pytest.raises(ValueError, match="not legal"):
        strict.step({agent: forbidden for agent in strict.agents})
    with pytest.raises(ValueError, match="illegal must be one of 'raise', 'pass'"):
        readysetbet_v0.parallel_env(players=2, illegal="ignore")


@pytest.mark.parametrize("make", [
    lambda mode: turfmaster_race_v0.raw_env(render_mode=mode),
    lambda mode: readysetbet_v0.parallel_env(render_mode=mode),
    lambda mode: gymnasium.make("hippodrome/TurfMasterRace-v0", render_mode=mode),
    lambda mode: gymnasium.make("hippodrome/ReadySetBet-v0", render_mode=mode),
])
def test_an_unknown_render_mode_is_refused(make):
    with pytest.raises(ValueError, match="render_mode must be None or one of 'ansi'"):
        make("pictures")
    assert make("ansi").render_mode == "ansi"


def test_readysetbet_has_no_picture():
    with pytest.raises(ValueError, match="not 'rgb_array'"):
        readysetbet_v0.parallel_env(render_mode="rgb_array")


def test_the_race_picture_shows_each_horse_in_its_colour_on_its_square():
    env = turfmaster_race_v0.raw_env(players=3, render_mode="rgb_array")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    first = env.render()
    for _ in range(40):
        observation, _, terminated, _, _ = env.last()
        env.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape == first.shape
    assert not np.array_equal(picture, first), "the horses moved, the picture did not"
    race = env.driver.state
    course = race.course
    corners = np.array([p for square in course.data["squares"] for p in square["cell"]], float)
    low, high = corners.min(axis=0), corners.max(axis=0)
    scale = (picture.shape[1] - 24) / (high[0] - low[0])
    seen = 0
    for horse in race.ids:
        if race.stage[horse] != "racing":
            continue
        centre = (np.mean(course.data["squares"][race.square[horse]]["cell"], axis=0) - low) * scale + 12
        x, y = int(centre[0]), int(centre[1])
        assert (picture[y, x] == rgb(HORSE_COLOURS[horse])).all() or \
            any((picture[y + dy, x + dx] == rgb(HORSE_COLOURS[horse])).all() for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        seen += 1
    assert seen
