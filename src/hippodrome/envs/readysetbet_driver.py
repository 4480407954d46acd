"""A game of Ready Set Bet in play through the encoding: what the PettingZoo and Gymnasium
environments share.

One step is one roll: every seat that may bet chooses one action (a bet or a pass); the actions
arrive in an order drawn at random, as at the table, so when two seats want one space the
first to arrive takes it and the other's bet is refused (R4, first come, first served); then
the dice roll. A turn-based decision (the House placing its tokens, a VIP card to keep) is a
step of its own for the seat that decides. When nobody can act (bets closed, tokens spent) the
dice roll on to the next step where somebody can, or to the end. A seeded
:class:`~hippodrome.core.match.Match` draws the chance, a generator of the same seed the orders
of arrival; the rewards are the money each seat won or lost (R4), when it changes hands.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import numpy as np

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Decision
from hippodrome.core.match import Match
from hippodrome.envs.actions import action_id as as_id, legal_text
from hippodrome.envs.readysetbet_encoding import (
    PASS,
    action_mask,
    betting_open,
    decode,
    legal_actions,
    observe,
)
from hippodrome.readysetbet.game import ReadySetBet

GAME = "readysetbet"
#: what an action the mask forbids does: raise ValueError, or count as a pass (:data:`ILLEGAL` in
#: its outcome; the environment adds the penalty the caller chose)
ILLEGAL_ACTIONS = ("raise", "pass")
ILLEGAL = "illegal"


def make_setup(setup: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    """A game of one race by default (``races: 1``), with the game's own fields."""
    chosen = dict(setup) if setup is not None else {k: v for k, v in fields.items() if v is not None}
    chosen.setdefault("races", 1)
    return chosen


class ReadySetBetDriver:
    """One game at a time: :meth:`reset`, then :meth:`step` once per roll or decision."""

    def __init__(self, setup: dict[str, Any], illegal: str = "raise"):
        if illegal not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal must be one of {', '.join(map(repr, ILLEGAL_ACTIONS))}, not {illegal!r}")  # i18n: programming error
        self.setup = setup
        self.illegal = illegal
        self.seats = ReadySetBet.new(setup).seats
        self.match: Match | None = None
        self.arrivals = random.Random()
        self.money: list[int] = []
        self._legal: dict[int, dict[int, Action]] = {}

    def reset(self, seed: int | str) -> None:
        self.match = Match(GAME, self.setup, seed)
        self.match.resolve_chance()
        self.arrivals = random.Random(f"{seed}:arrivals")
        self.money = list(self.state.money)
        self._roll_on()

    @property
    def state(self) -> ReadySetBet:
        return self.match.state

    @property
    def over(self) -> bool:
        return self.match.pending() is None

    def acting(self) -> list[int]:
        """The seats that act in this step: the one that decides, or every seat that may bet."""
        pending = self.match.pending()
        if isinstance(pending, Decision):
            return [pending.seat]
        return [seat for seat in range(self.seats) if len(self.legal(seat)) > 1]

    def legal(self, seat: int) -> dict[int, Action]:
        """What ``seat`` may do in this step, by id (only a pass for a seat that does not act)."""
        if seat not in self._legal:
            legal = legal_actions(self.state, seat)
            self._legal[seat] = legal if legal else ({} if self.over else {PASS: {"type": "pass"}})
        return self._legal[seat]

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        return {"observation": observe(self.state, seat), "action_mask": action_mask(self.legal(seat))}

    def step(self, actions: dict[int, Any], late: Callable[[int], int] | None = None) -> tuple[list[int], dict[int, str]]:
        """Play one step: ``actions`` by seat (a seat left out passes, unless ``late`` chooses for
        it when its turn of arrival comes). Returns the money each seat won or lost, and what
        became of each seat's action: "taken", "passed", "refused" (beaten to the space) or "illegal"
        (not legal now, taken as a pass: ``illegal="pass"``; a decision stays pending)."""
        actions, illegal = self._checked(actions)
        pending = self.match.pending()
        if isinstance(pending, Decision):
            seat = pending.seat
            chosen = actions[seat] if seat in actions or late is None else self._check(seat, late(seat))
            if seat in illegal:  # passing leaves the decision where it was
                outcome = {}
            else:
                self.match.act(seat, self.legal(seat)[as_id(chosen)])
                outcome = {seat: "taken"}
        else:
            outcome = self._bets(actions, late)
            self.match.tick()
        outcome.update(dict.fromkeys(illegal, ILLEGAL))
        self._roll_on()
        money = list(self.state.money)
        won = [now - before for now, before in zip(money, self.money)]
        self.money = money
        return won, outcome

    def _bets(self, actions: dict[int, Any], late: Callable[[int], int] | None) -> dict[int, str]:
        order = self.acting()
        self.arrivals.shuffle(order)
        outcome = {}
        for seat in order:
            if seat in actions:
                action_id = as_id(actions[seat])
            else:
                action_id = PASS if late is None else self._check(seat, late(seat), now=True)
            if action_id == PASS:
                outcome[seat] = "passed"
                continue
            try:
                self.match.act(seat, decode(self.state, seat, action_id))
                outcome[seat] = "taken"
            except IllegalAction:
                outcome[seat] = "refused"
        return outcome

    def _checked(self, actions: dict[int, Any]) -> tuple[dict[int, Any], set[int]]:
        """The actions as ids legal now, and the seats whose action was not (``illegal="pass"``:
        they pass; ``"raise"``: ValueError)."""
        checked, illegal = {}, set()
        for seat, chosen in actions.items():
            try:
                checked[seat] = self._check(seat, chosen)
            except ValueError:
                if self.illegal == "raise":
                    raise
                checked[seat] = PASS
                illegal.add(seat)
        return checked, illegal

    def _check(self, seat: int, chosen: Any, now: bool = False) -> int:
        """``chosen`` as an id legal for ``seat`` in this step (``now``: in the state it chose in)."""
        legal = legal_actions(self.state, seat) if now else self.legal(seat)
        number = as_id(chosen)
        if number not in legal and not (number == PASS and now):
            raise ValueError(f"action {chosen!r} is not legal for seat {seat} now; legal: {legal_text(legal)}")  # i18n: programming error
        return number

    def _roll_on(self) -> None:
        """Roll while betting is open to nobody, until somebody can act or the game is over."""
        self._legal = {}
        while betting_open(self.state) and not self.acting():
            self.match.tick()
            self._legal = {}

