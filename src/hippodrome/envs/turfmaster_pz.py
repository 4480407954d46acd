"""TurfMaster as a PettingZoo AEC environment: a race ("turfmaster-race") or a whole meeting of
three races ("turfmaster"), one agent per seat (``player_0`` ...), taking turns as the engine's
decisions come (cards, squares, the roller's dice, bonus cards, cards to give up).

>>> from hippodrome.envs import turfmaster_env
>>> env = turfmaster_env(game="turfmaster-race", players=2)
>>> env.reset(seed=1)
>>> observation, reward, terminated, truncated, info = env.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (531,))

Actions are the ids of :mod:`hippodrome.envs.turfmaster_encoding` (``Discrete(366)``), legal ones
marked in the observation's ``action_mask``; an illegal id raises ValueError. Rewards are T9's
points, given when earned: at the end of the round in which a seat's horse is ranked (50, 30,
20, 10), so over a meeting they add up to the final table's totals. The engine's JSON
``view(seat)`` is :meth:`TurfMasterEnv.view`, and in each agent's info with ``json_view=True``.
Chance (deals, dice, the stall draw) is drawn by a seeded :class:`~hippodrome.core.match.Match`:
:meth:`TurfMasterEnv.record` replays the game exactly.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hippodrome.envs.agents import SeatAgents
from hippodrome.envs.rendering import TURFMASTER_MODES, check_render_mode
from hippodrome.envs.turfmaster_driver import TurfMasterDriver, make_setup
from hippodrome.envs.turfmaster_encoding import ACTIONS
from hippodrome.envs.turfmaster_observation import OBSERVATION_SIZE


def env(game: str = "turfmaster-race", players: int | None = 2, horses_per_player: int | None = None,
        course: str | None = None, steeplechase: bool | None = None, setup: dict[str, Any] | None = None,
        render_mode: str | None = None, json_view: bool = False) -> "TurfMasterEnv":
    """A TurfMaster environment; ``setup`` (the game's own JSON) overrides the other fields."""
    chosen = make_setup(game, setup, players=players, horses_per_player=horses_per_player, course=course,
                        steeplechase=steeplechase)
    return TurfMasterEnv(game, chosen, render_mode=render_mode, json_view=json_view)


def versioned(game: str, name: str) -> tuple[Callable[..., "TurfMasterEnv"], Callable[..., AECEnv]]:
    """``raw_env`` and ``env`` of a PettingZoo-style module for ``game``, named ``name``."""

    def raw_env(**kwargs: Any) -> TurfMasterEnv:
        made = env(game=game, **kwargs)
        made.metadata = {**made.metadata, "name": name}
        return made

    def wrapped_env(**kwargs: Any) -> AECEnv:
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))

    return raw_env, wrapped_env


class TurfMasterEnv(SeatAgents, AECEnv):
    metadata = {"name": "hippodrome_turfmaster_v0", "render_modes": list(TURFMASTER_MODES), "render_fps": 4,
                "is_parallelizable": False}

    def __init__(self, game: str, setup: dict[str, Any], render_mode: str | None = None, json_view: bool = False):
        super().__init__()
        self.driver = TurfMasterDriver(game, setup)
        self.render_mode = check_render_mode(render_mode, TURFMASTER_MODES)
        self.json_view = json_view
        self._seat_agents(OBSERVATION_SIZE, ACTIONS)

    # -- the AEC protocol ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.driver.observation(self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        earned = self.driver.act(action)
        if any(earned):
            self.rewards = {name: float(earned[self._seat[name]]) for name in self.agents}
            self._select()
            self._accumulate_rewards()
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._select()

    def _select(self) -> None:
        """The agent whose decision is pending; at the end, every agent is terminated."""
        decision = self.driver.pending
        if decision is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[decision.seat]
        if self.json_view:
            self.infos = {agent: {"view": self.view(agent)} for agent in self.agents}
