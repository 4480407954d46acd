"""The PettingZoo environments pass PettingZoo's own API tests, replay from their records, give
T9's points and Ready Set Bet's money as rewards, and settle two bets on one space by arrival."""

import json
import random
import warnings

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from hippodrome.core import replay  # noqa: E402
from hippodrome.envs import readysetbet_encoding, readysetbet_parallel_env, turfmaster_env  # noqa: E402
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


@pytest.mark.parametrize("fields", [
    {"players": 2}, {"players": 4, "variant": "house_bets"}, {"players": 3, "variant": "rotating_house"},
    {"players": 3, "races": 2},
])
def test_readysetbet_passes_the_pettingzoo_parallel_api_test(fields):
    run_quietly(parallel_api_test, readysetbet_parallel_env(**fields), num_cycles=300)


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
    assert env.infos[agent]["view"] == env.driver.state.observation(int(agent.split("_")[1]))
    other = next(a for a in env.agents if a != agent)
    assert not env.observe(other)["action_mask"].any()


def test_readysetbet_rewards_are_money_and_bets_on_one_space_go_to_the_first_to_arrive():
    first_to_arrive = set()
    for seed in range(8):
        env = readysetbet_parallel_env(players=2, props=False, exotics=False)
        observations, _ = env.reset(seed=seed)
        bet = readysetbet_encoding.BET + readysetbet_encoding.TOKEN_KIND[(5, 0, False)] * readysetbet_encoding.SPACES \
            + readysetbet_encoding.SPACE["win:7:R"]
        assert all(observation["action_mask"][bet] for observation in observations.values())
        _, rewards, _, _, infos = env.step({"player_0": bet, "player_1": bet})
        outcome = {agent: info["action"] for agent, info in infos.items()}
        assert sorted(outcome.values()) == ["refused", "taken"]
        first_to_arrive.add(next(agent for agent, said in outcome.items() if said == "taken"))
        totals = dict(rewards)
        while env.agents:
            actions = {agent: 0 for agent in env.agents}
            _, rewards, _, _, _ = env.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += reward
        assert totals == {f"player_{seat}": float(money) for seat, money in enumerate(env.driver.state.money)}
    assert first_to_arrive == {"player_0", "player_1"}, "the order of arrival is always the same"


def test_readysetbet_only_the_house_acts_while_it_places_its_tokens():
    env = readysetbet_parallel_env(players=3, variant="house_bets")
    observations, _ = env.reset(seed=2)
    house = "player_3"
    assert observations[house]["action_mask"].sum() > 1
    assert all(observations[agent]["action_mask"].tolist() == [1] + [0] * (readysetbet_encoding.ACTIONS - 1)
               for agent in ("player_0", "player_1", "player_2"))
    with pytest.raises(ValueError):
        env.step({"player_0": 5, house: int(np.flatnonzero(observations[house]["action_mask"])[0])})


def test_a_meeting_where_nobody_claims_mid_race_lets_empty_hands_stand_still_to_the_end():
    """T8: a card-round turn finds a hand empty, its bonus cards unclaimed: the owner may let the
    horse stand still (its own id); the meeting plays to the end, rewards adding up to the table."""
    from hippodrome.envs.turfmaster_encoding import CLAIM, SLOTS, STAND_STILL

    env = turfmaster_env(game="turfmaster", players=2, horses_per_player=2)
    rng = random.Random(1)
    env.reset(seed=0)
    totals, stood = dict.fromkeys(env.possible_agents, 0.0), 0
    for agent in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        if terminated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        unclaimed = [number for number in legal if not CLAIM <= number < CLAIM + SLOTS] or legal
        stood += unclaimed == [STAND_STILL]
        env.step(rng.choice(unclaimed))
    table = {row["seat"]: row["total"] for row in env.driver.state.standings()}
    assert stood and totals == {f"player_{seat}": float(points) for seat, points in table.items()}


def test_a_refused_action_names_the_legal_ids_as_ranges():
    from hippodrome.envs.actions import legal_text
    assert legal_text([3, 0, 1, 2, 7, 9, 10]) == "0-3, 7, 9-10 (7 ids)"
    assert legal_text([5]) == "5 (1 id)" and legal_text([]) == "none"
    env = readysetbet_parallel_env(players=3)
    observations, _ = env.reset(seed=1)
    legal = np.flatnonzero(observations["player_0"]["action_mask"]).tolist()
    with pytest.raises(ValueError) as refused:
        env.step({agent: 10**6 for agent in env.agents})
    message = str(refused.value)
    # a roll offers hundreds of bets: the message stays short and still names each legal id
    assert message.endswith(f"({len(legal)} ids)") and len(message) < 400, message
    assert message.startswith("action 1000000 is not legal for seat 0 now; legal: 0-")
