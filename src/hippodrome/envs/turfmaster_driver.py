"""A TurfMaster race or meeting in play through the encoding: what the PettingZoo and Gymnasium
environments share. A :class:`~hippodrome.core.match.Match` draws the chance (so every game has a
record that replays it), decisions are taken as action ids, and each seat's points so far (T9)
give the rewards: the points a seat earned with an action, when its horses are ranked.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from hippodrome.core.game import Action, Decision
from hippodrome.core.registry import game_class
from hippodrome.core.match import Match
from hippodrome.envs.actions import action_id as as_id, legal_text
from hippodrome.envs.turfmaster_encoding import action_mask, legal_actions
from hippodrome.envs.turfmaster_observation import observe
from hippodrome.envs.turfmaster_points import points_so_far

GAMES = ("turfmaster-race", "turfmaster")


def make_setup(game: str, setup: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    """The game's own setup: ``setup`` as given, else the fields given (players, horses_per_player,
    course, steeplechase), None meaning the game's default."""
    if game not in GAMES:
        raise ValueError(f"a TurfMaster environment plays {' or '.join(GAMES)}, not {game!r}")  # i18n: programming error
    if setup is not None:
        return dict(setup)
    return {key: value for key, value in fields.items() if value is not None}


class TurfMasterDriver:
    """One TurfMaster game at a time: :meth:`reset` starts one, :meth:`act` takes the pending
    decision's action id and returns each seat's points earned by it."""

    def __init__(self, game: str, setup: dict[str, Any]):
        self.game = game
        self.setup = setup
        cls = game_class(game)
        self.seats = cls.description.seats(cls.new(setup)).count
        self.match: Match | None = None
        self.points = [0] * self.seats
        self._nothing = (0,) * self.seats
        self._ranked_before = (0, 0)
        #: the decision pending, None at the end (chance is drawn as soon as it comes)
        self.pending: Decision | None = None
        self._legal: dict[int, Action] | None = None

    def reset(self, seed: int | str) -> None:
        self.match = Match(self.game, self.setup, seed)
        self.points = [0] * self.seats
        self._ranked_before = self._ranked()
        self.pending, self._legal = self.match.pending(), None

    def _ranked(self) -> tuple[int, int]:
        """How many races are over, and how many horses are ranked in the race being run: points
        change only when one of these does (a place never changes after, T9)."""
        state = self.match.state
        if self.game == "turfmaster-race":
            return 0, len(state.places)
        return len(state.results), len(state.race.places) if state.phase == "race" else 0

    @property
    def state(self):
        return self.match.state

    def decision(self) -> Decision | None:
        """The decision pending (chance is drawn as soon as it comes), None once the game is over."""
        return self.pending

    def legal(self) -> dict[int, Action]:
        """The pending decision's options by action id."""
        if self._legal is None:
            self._legal = {} if self.pending is None else legal_actions(self.match.state, self.pending)
        return self._legal

    def act(self, action_id: Any) -> Sequence[int]:
        """Take the pending decision with ``action_id``; the points each seat earned by it."""
        decision = self.pending
        legal = self._legal if self._legal is not None else self.legal()
        option = legal.get(action_id if action_id.__class__ is int else as_id(action_id))
        if option is None:
            raise ValueError(f"action {action_id!r} is not legal now; legal: {legal_text(legal)}")  # i18n: programming error
        self.match.act(decision.seat, option)
        self.pending, self._legal = self.match.pending(), None
        if self._ranked() == self._ranked_before:
            return self._nothing
        self._ranked_before = self._ranked()
        points = points_so_far(self.state)
        earned = [now - before for now, before in zip(points, self.points)]
        self.points = points
        return earned

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """``{"observation": vector, "action_mask": ids}``; the mask is empty unless ``seat`` decides
        (made afresh at each call: cheaper than a copy of a kept one)."""
        decision = self.pending
        legal = self.legal() if decision is not None and decision.seat == seat else None
        return {"observation": observe(self.match.state, seat, self.points), "action_mask": action_mask(legal)}
