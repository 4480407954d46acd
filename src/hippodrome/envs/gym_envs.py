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

from hippodrome.core.game import Action, Decision, game_class
from hippodrome.envs import readysetbet_encoding, turfmaster_encoding, turfmaster_observation
from hippodrome.envs.actions import action_id, legal_text
from hippodrome.envs.readysetbet_driver import ReadySetBetDriver
from hippodrome.envs.rendering import READYSETBET_MODES, TURFMASTER_MODES, check_render_mode, render
from hippodrome.envs.readysetbet_driver import make_setup as readysetbet_setup
from hippodrome.envs.spaces import action_space, observation_space
from hippodrome.envs.turfmaster_driver import TurfMasterDriver
from hippodrome.envs.turfmaster_driver import make_setup as turfmaster_setup


def _levels(game: str, opponents: str | Sequence[str], seats: int, seat: int) -> list[str | None]:
    """The bot level of every seat (None: the learner's)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"seat must be a seat of the game, from 0 to {seats - 1}, not {seat!r}")  # i18n: programming error
    others = [opponents] * (seats - 1) if isinstance(opponents, str) else list(opponents)
    if len(others) != seats - 1:
        raise ValueError(f"{seats - 1} opponents needed, not {len(others)}")  # i18n: programming error
    known = [bot.name for bot in game_class(game).description.bots]
    for level in others:
        if level not in known:
            raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(known)}")  # i18n: programming error
    levels: list[str | None] = list(others)
    levels.insert(seat, None)
    return levels


def _make_bots(game: str, levels: list[str | None], seed: int) -> list[Any]:
    description = game_class(game).description
    return [None if level is None else description.bot(level).make(f"{seed}:{seat}")
            for seat, level in enumerate(levels)]


def _id_of(legal: dict[int, Action], option: Action) -> int:
    return next(number for number, candidate in legal.items() if candidate == option)


class _LearnerEnv(gymnasium.Env):
    """What both environments share: the spaces, the mask, illegal actions, rendering."""

    metadata = {"render_modes": list(READYSETBET_MODES)}

    def __init__(self, game: str, driver: Any, seat: int, opponents: str | Sequence[str], size: int, actions: int,
                 illegal_reward: float | None, render_mode: str | None):
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.game = game
        self.driver = driver
        self.seat = seat
        self.levels = _levels(game, opponents, driver.seats, seat)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.bots: list[Any] = []
        self.observation_space, self.action_space = observation_space(size, actions), action_space(actions)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2 ** 63))
        self.driver.reset(match_seed)
        self.bots = _make_bots(self.game, self.levels, match_seed)
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
        return self.driver.state.view(self.seat)

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
        earned = 0
        while (decision := self.driver.decision()) is not None and decision.seat != self.seat:
            option = self.bots[decision.seat].choose(self.driver.state.view(decision.seat), decision.options)
            earned += self.driver.act(_id_of(self.driver.legal(), option))[self.seat]
        return earned


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
        won = 0
        while not self.driver.over and self.seat not in self.driver.acting():
            won += self.driver.step({}, self._bot_choice)[0][self.seat]
        return won

    def _bot_choice(self, seat: int) -> int:
        """The action id of the bot at ``seat``, chosen now (its turn of arrival, or its decision)."""
        state, bot = self.driver.state, self.bots[seat]
        legal = readysetbet_encoding.legal_actions(state, seat)
        pending = state.pending()
        if isinstance(pending, Decision):
            return _id_of(legal, bot.choose(state.view(seat), pending.options))
        option = bot.choose_free(state.view(seat), state.free_options(seat))
        return readysetbet_encoding.PASS if option is None else _id_of(legal, option)
