"""Gymnasium environments: one seat learns, every other seat is a hippodrome bot of a chosen level
(the levels of the game's description: TurfMaster "random" and "tactical", Ready Set Bet "random"
and "value").

* :class:`TurfMasterGymEnv`: a TurfMaster race or meeting; a step is one of the learner's
  decisions, the bots playing theirs in between; the reward is the learner's points (T9) when
  its horses are ranked.
* :class:`ReadySetBetGymEnv`: a Ready Set Bet game of one race; a step is one roll (the learner's
  bet or pass, the bots' in the same order of arrival drawn at random, each bot choosing when its
  turn comes, as in ``hippodrome.arena``) or one of the learner's decisions; the reward is the
  learner's money won or lost (R4).

Both observe ``{"observation", "action_mask"}`` as the PettingZoo environments do, and offer
``action_masks()`` for libraries that ask for the mask that way. An action the mask does not
allow ends the episode with ``illegal_reward`` (info ``{"illegal_action": True}``), as PettingZoo's
``TerminateIllegalWrapper`` does, so that any action of the space may be sent (Gymnasium's
``check_env`` sends some); ``illegal_reward=None`` raises ValueError instead.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np

from hippodrome.envs import readysetbet_encoding, turfmaster_encoding, turfmaster_observation
from hippodrome.envs.actions import action_id, legal_text
from hippodrome.envs.opponents import (
    bot_levels,
    make_bots,
    readysetbet_bot_choice,
    readysetbet_bots_play,
    turfmaster_bots_play,
)
from hippodrome.envs.readysetbet_driver import ReadySetBetDriver
from hippodrome.envs.rendering import READYSETBET_MODES, TURFMASTER_MODES, check_render_mode, render
from hippodrome.envs.readysetbet_driver import make_setup as readysetbet_setup
from hippodrome.envs.spaces import action_space, observation_space
from hippodrome.envs.turfmaster_driver import TurfMasterDriver
from hippodrome.envs.turfmaster_driver import make_setup as turfmaster_setup


class _LearnerEnv(gymnasium.Env):
    """What both environments share: the spaces, the mask, illegal actions, rendering."""

    metadata = {"render_modes": list(READYSETBET_MODES)}

    def __init__(self, game: str, driver: Any, seat: int, opponents: str | Sequence[str], size: int, actions: int,
                 illegal_reward: float | None, render_mode: str | None):
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.game = game
        self.driver = driver
        self.seat = seat
        self.levels = bot_levels(game, opponents, driver.seats, seat)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.bots: list[Any] = []
        self.observation_space, self.action_space = observation_space(size, actions), action_space(actions)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2 ** 63))
        self.driver.reset(match_seed)
        self.bots = make_bots(self.game, self.levels, match_seed)
        self._bots_play()
        return self.driver.observation(self.seat), {}

    def _illegal(self, action: Any):
        """The end of an episode by an action the mask did not allow (or ValueError)."""
        mask = self.action_masks()
        number = action_id(action)
        if number is not None and 0 <= number < len(mask) and mask[number]:
            return None
        if self.illegal_reward is None:
            raise ValueError(f"action {action!r} is not legal now; legal: {legal_text(np.flatnonzero(mask).tolist())}")  # i18n: programming error
        return self.driver.observation(self.seat), float(self.illegal_reward), True, False, {"illegal_action": True}

    def action_masks(self) -> np.ndarray:
        return self.driver.observation(self.seat)["action_mask"]

    def view(self) -> dict[str, Any]:
        """The engine's JSON view for the learner's seat."""
        return self.driver.state.observation(self.seat)

    def render(self) -> Any:
        """``ansi``: a spectator's view as JSON text; ``rgb_array``: a picture of the race (TurfMaster)."""
        return render(self.driver.state, self.render_mode)


class TurfMasterGymEnv(_LearnerEnv):
    """A TurfMaster race ("turfmaster-race") or meeting ("turfmaster") for the learner at ``seat``."""

    metadata = {"render_modes": list(TURFMASTER_MODES), "render_fps": 4}

    def __init__(self, game: str = "turfmaster-race", seat: int = 0, opponents: str | Sequence[str] = "tactical",
                 players: int | None = 2, horses_per_player: int | None = None, course: str | None = None,
                 steeplechase: bool | None = None, setup: dict[str, Any] | None = None,
                 illegal_reward: float | None = -1.0, render_mode: str | None = None):
        chosen = turfmaster_setup(game, setup, players=players, horses_per_player=horses_per_player, course=course,
                                  steeplechase=steeplechase)
        super().__init__(game, TurfMasterDriver(game, chosen), seat, opponents, turfmaster_observation.OBSERVATION_SIZE,
                         turfmaster_encoding.ACTIONS, illegal_reward, render_mode)

    def step(self, action: Any):
        illegal = self._illegal(action)
        if illegal is not None:
            return illegal
        reward = self.driver.act(action)[self.seat] + self._bots_play()
        terminated = self.driver.decision() is None
        return self.driver.observation(self.seat), float(reward), terminated, False, {}

    def _bots_play(self) -> int:
        """The bots decide until it is the learner's turn or the game is over; the learner's points meanwhile."""
        return turfmaster_bots_play(self.driver, self.bots, self.seat)


class ReadySetBetGymEnv(_LearnerEnv):
    """A Ready Set Bet game (one race unless ``races`` says otherwise) for the learner at ``seat``."""

    def __init__(self, seat: int = 0, opponents: str | Sequence[str] = "value", players: int | None = 2,
                 variant: str | None = None, props: bool | None = None, exotics: bool | None = None,
                 vip: bool | None = None, races: int | None = None, setup: dict[str, Any] | None = None,
                 illegal_reward: float | None = -1.0, render_mode: str | None = None):
        chosen = readysetbet_setup(setup, players=players, variant=variant, props=props, exotics=exotics, vip=vip,
                                   races=races)
        super().__init__("readysetbet", ReadySetBetDriver(chosen), seat, opponents,
                         readysetbet_encoding.OBSERVATION_SIZE, readysetbet_encoding.ACTIONS, illegal_reward, render_mode)

    def step(self, action: Any):
        illegal = self._illegal(action)
        if illegal is not None:
            return illegal
        won, outcome = self.driver.step({self.seat: action}, self._bot_choice)
        reward = won[self.seat] + self._bots_play()
        return (self.driver.observation(self.seat), float(reward), self.driver.over, False,
                {"action": outcome.get(self.seat, "passed")})

    def _bots_play(self) -> int:
        """Steps without the learner (its tokens spent, a bot's decision) until it acts or the game
        is over; the learner's money won or lost meanwhile."""
        return readysetbet_bots_play(self.driver, self.bots, self.seat)

    def _bot_choice(self, seat: int) -> int:
        return readysetbet_bot_choice(self.driver, self.bots, seat)
