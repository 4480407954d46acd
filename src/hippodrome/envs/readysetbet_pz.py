"""Ready Set Bet as a PettingZoo Parallel environment: a game of one race (``races: 1`` unless the
setup says otherwise; prop bets, exotic finishes, VIP cards and the variants as the game's own
options), one agent per seat (``player_0`` ...; the House of the House-bets variant is one too).

>>> from hippodrome.envs import readysetbet_parallel_env
>>> env = readysetbet_parallel_env(players=3)
>>> observations, infos = env.reset(seed=1)
>>> sorted(observations), int(observations["player_0"]["action_mask"].sum()) > 1
(['player_0', 'player_1', 'player_2'], True)

Each step is one roll of the dice: every agent sends one action id (:mod:`hippodrome.envs.
readysetbet_encoding`, ``Discrete(1025)``): a bet, or 0 to pass. The bets arrive in an order
drawn at random, as at the table: when two agents go for one space the first to arrive takes it
and the other's bet is refused (its info says ``"refused"``; the mask had it legal when it chose,
R4's first come, first served). The mask marks taken spaces, the spaces closed with two bettors
(R4) and the tokens spent; an agent with nothing to do may only pass. The House's token
placements (R9) and VIP choices (R8) are steps where only the deciding agent acts. After the
third red-line crossing ("no more bets", R2) the dice roll on by themselves to the finish.
Rewards are money (R4), when it changes hands: the race's bets are settled at its end.

An action the mask forbids raises ValueError (``illegal="raise"``, the default), or with
``illegal="pass"`` counts as a pass: the agent's reward for the step is ``illegal_reward`` (a
negative number of the caller's choosing, -1 by default) on top of any money, its info says
``{"action": "illegal"}``, and a decision it had to take (a House token, a VIP card) stays
pending for the next step. With ``"pass"`` PettingZoo's ``parallel_seed_test``, which samples
actions without the mask, plays through.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from hippodrome.envs.agents import SeatAgents
from hippodrome.envs.rendering import READYSETBET_MODES, check_render_mode
from hippodrome.envs.readysetbet_driver import ILLEGAL, ReadySetBetDriver, make_setup
from hippodrome.envs.readysetbet_encoding import ACTIONS, OBSERVATION_SIZE


def parallel_env(players: int | None = 2, variant: str | None = None, props: bool | None = None,
                 exotics: bool | None = None, vip: bool | None = None, races: int | None = None,
                 setup: dict[str, Any] | None = None, illegal: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, json_view: bool = False) -> "ReadySetBetEnv":
    """A Ready Set Bet environment; ``setup`` (the game's own JSON) overrides the other fields.
    ``illegal``: what an action the mask forbids does, "raise" (ValueError) or "pass" (the agent
    passes, its reward is ``illegal_reward`` and its info ``{"action": "illegal"}``)."""
    chosen = make_setup(setup, players=players, variant=variant, props=props, exotics=exotics, vip=vip, races=races)
    return ReadySetBetEnv(chosen, illegal=illegal, illegal_reward=illegal_reward, render_mode=render_mode,
                          json_view=json_view)


class ReadySetBetEnv(SeatAgents, ParallelEnv):
    metadata = {"name": "hippodrome_readysetbet_v0", "render_modes": list(READYSETBET_MODES)}

    def __init__(self, setup: dict[str, Any], illegal: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, json_view: bool = False):
        self.driver = ReadySetBetDriver(setup, illegal)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = check_render_mode(render_mode, READYSETBET_MODES)
        self.json_view = json_view
        self._seat_agents(OBSERVATION_SIZE, ACTIONS)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: self._info(agent, None) for agent in self.agents}

    def step(self, actions: dict[str, Any]):
        won, outcome = self.driver.step({self._seat[agent]: action for agent, action in actions.items()})
        agents = self.agents
        observations = self._observations()
        rewards = {agent: float(won[self._seat[agent]])
                      + (self.illegal_reward if outcome.get(self._seat[agent]) == ILLEGAL else 0.0) for agent in agents}
        over = self.driver.over
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos = {agent: self._info(agent, outcome.get(self._seat[agent])) for agent in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.driver.observation(self._seat[agent]) for agent in self.agents}

    def _info(self, agent: str, outcome: str | None) -> dict[str, Any]:
        info: dict[str, Any] = {} if outcome is None else {"action": outcome}
        if self.json_view:
            info["view"] = self.view(agent)
        return info
