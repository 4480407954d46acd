"""What both PettingZoo environments share: one agent per seat (``player_0`` ...), their spaces,
the seeding of games, and the engine's view and record of the game in play."""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces as gym_spaces

from hippodrome.envs.rendering import render
from hippodrome.envs.spaces import action_space, observation_space


class SeatAgents:
    """Mixed into an environment whose ``driver`` plays the game (a TurfMaster or Ready Set Bet
    driver: ``seats``, ``reset(seed)``, ``state``, ``match``)."""

    driver: Any
    render_mode: str | None

    def _seat_agents(self, observation_size: int, actions: int) -> None:
        self.possible_agents = [f"player_{seat}" for seat in range(self.driver.seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: observation_space(observation_size, actions) for agent in self.possible_agents}
        self._action_spaces = {agent: action_space(actions) for agent in self.possible_agents}
        self._seeds = random.Random()

    def observation_space(self, agent: str) -> gym_spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gym_spaces.Discrete:
        return self._action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        """A new game: its seed drawn from the environment's generator, which ``seed`` reseeds."""
        if seed is not None:
            self._seeds.seed(seed)
        self.driver.reset(self._seeds.getrandbits(64))

    def view(self, agent: str | None) -> dict[str, Any]:
        """The engine's JSON view for ``agent`` (None: a spectator's)."""
        return self.driver.state.observation(None if agent is None else self._seat[agent])

    def record(self) -> dict[str, Any]:
        """The game so far as a hippodrome record (``hippodrome.core.replay`` rebuilds it)."""
        return self.driver.match.record()

    def render(self) -> Any:
        """``ansi``: a spectator's view as JSON text; ``rgb_array``: a picture of the race (TurfMaster)."""
        return render(self.driver.state, self.render_mode)

    def close(self) -> None:
        pass
