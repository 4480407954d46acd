"""A game in play: the state, its seeded chance source and its action log.

The generator for chance step number ``n`` of a match is ``Random(f"{seed}:{n}")``: it
depends only on the seed and the step's place in the log, so a match rebuilt from its
record draws exactly the dice it would have drawn, and nothing in the state (which is
all a player or a bot ever sees) lets anyone compute future chance.
"""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Chance, Decision, Game
from hippodrome.core.registry import game_class
from hippodrome.i18n import Message, Seat

CHANCE = "chance"


class Match:
    """Drives one game: takes seats' actions, draws chance, keeps the log."""

    def __init__(self, game: str, setup: dict[str, Any], seed: int | str = 0, rulings: int | None = None):
        self.game_name = game
        self.setup = setup
        self.seed = seed
        cls = game_class(game)
        #: the version of the rulings it is played under (None: the engine's own, the current one)
        self.rulings: int = cls.rulings_version if rulings is None else rulings
        self.state: Game = cls.new_under(setup, self.rulings)
        self.log: list[dict[str, Any]] = []

    # -- chance -------------------------------------------------------------------
    def _rng_for_next_step(self) -> random.Random:
        return random.Random(f"{self.seed}:{len(self.log)}")

    def resolve_chance(self) -> Decision | Chance | None:
        """Draw every pending untimed chance step until a decision, a timed step or the end; returns
        the step then pending."""
        pending = self.state.pending()
        while isinstance(pending, Chance) and not pending.timed:
            self._draw(pending)
            pending = self.state.pending()
        return pending

    def tick(self) -> bool:
        """The clock strikes: draw the pending timed chance step, if there is one."""
        self.resolve_chance()
        pending = self.state.pending()
        if isinstance(pending, Chance) and pending.timed:
            self._draw(pending)
            self.resolve_chance()
            return True
        return False

    def _draw(self, pending: Chance) -> None:
        outcome = pending.sample(self._rng_for_next_step())
        self.state.apply(outcome)
        self.log.append({"by": CHANCE, "action": outcome})

    # -- decisions ----------------------------------------------------------------
    def act(self, seat: int, action: Action) -> None:
        """Seat ``seat`` takes ``action``; refused (state unchanged) unless it is legal."""
        state = self.state
        pending = state.pending()
        if pending.__class__ is Decision and seat == pending.seat and not state.free_action_types:
            # the common case, at once: no chance to draw first, no free action to tell apart
            state.apply(action)
            self.log.append({"by": seat, "action": action})
            if state.pending().__class__ is not Decision:
                self.resolve_chance()
            return
        pending = self.resolve_chance()
        if self.state.is_free_action(action):
            self.state.apply_free(seat, action)
            self.log.append({"by": seat, "action": action, "free": True})
            self.resolve_chance()
            return
        if pending is None:
            raise IllegalAction(Message("the game is over; no more actions are taken"))
        if not isinstance(pending, Decision):
            # NOTE: {kind} is the id of a chance step, such as "roll" or "deal" (kept in English).
            raise IllegalAction(Message("nobody decides now: waiting for {kind}", kind=pending.kind))
        if seat != pending.seat and self.state.decision_for(seat) is not None:
            # several seats choose at once (Game.decisions): this one answers its own
            self.state.apply_as(seat, action)
            self.log.append({"by": seat, "action": action})
            self.resolve_chance()
            return
        if seat != pending.seat:
            raise IllegalAction(
                # NOTE: {seat} and {other} are players' names (or "player 2").
                Message("it is {seat}'s turn to decide, not {other}'s", seat=Seat(pending.seat), other=Seat(seat)),
                pending.options,
            )
        self.state.apply(action)
        self.log.append({"by": seat, "action": action})
        self.resolve_chance()

    def pending(self) -> Decision | Chance | None:
        pending = self.state.pending()
        if pending.__class__ is Decision:  # nothing to draw
            return pending
        return self.resolve_chance()

    # -- records ------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this match exactly (keep the seed secret), with the version
        of the rulings it is played under."""
        return {"game": self.game_name, "setup": self.setup, "seed": self.seed, "rulings": self.rulings,
                "log": list(self.log)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Match":
        state, rulings = replayed(record)
        match = cls.__new__(cls)
        match.game_name, match.setup, match.seed = record["game"], record["setup"], record.get("seed", 0)
        match.rulings, match.state = rulings, state
        match.log = [dict(entry) for entry in record["log"]]
        return match


def replay(record: dict[str, Any]) -> Game:
    """Rebuild the state of a record by applying its log to the initial state."""
    return replayed(record)[0]


def replayed(record: dict[str, Any]) -> tuple[Game, int]:
    """The state of a record and the version of the rulings it was played under: its ``rulings``;
    a record made before rulings had versions, the first version its log replays under (1, then
    each later one: a changed ruling makes an older log fail under the new rules, and the other
    way round). IllegalAction (the first version's refusal) when none replays it."""
    recorded = record.get("rulings")
    versions = [recorded] if recorded is not None else list(
        range(1, game_class(record["game"]).rulings_version + 1))
    refusal: IllegalAction | None = None
    for version in versions:
        try:
            state = initial_state(record, version)
            for number, entry in enumerate(record["log"], start=1):
                apply_numbered(state, number, entry)
            return state, version
        except IllegalAction as error:
            refusal = refusal or error
    raise refusal


def record_rulings(record: dict[str, Any]) -> int:
    """The version of the rulings a record was played under (see :func:`replayed`)."""
    recorded = record.get("rulings")
    return recorded if recorded is not None else replayed(record)[1]


def initial_state(record: dict[str, Any], rulings: int | None = None) -> Game:
    """A record's game as it began, under version ``rulings`` of the rulings (None: the
    record's, found as :func:`record_rulings` does)."""
    version = record_rulings(record) if rulings is None else rulings
    return game_class(record["game"]).new_under(record["setup"], version)


def apply_numbered(state: Game, number: int, entry: dict[str, Any]) -> None:
    """:func:`apply_entry` of a record's entry ``number`` (counted from 1), whose refusal says which."""
    try:
        apply_entry(state, entry)
    except IllegalAction as error:
        reason = error.args[0] if error.args else str(error)
        # NOTE: {number} counts the log's entries from 1; {reason} is the refusal of that entry, itself translated.
        raise IllegalAction(Message("log entry {number} cannot be replayed: {reason}",
                                    number=str(number), reason=reason)) from error


def apply_entry(state: Game, entry: dict[str, Any]) -> None:
    """Apply one entry of a match's log (a decision, a free action or a chance outcome) to ``state``.
    IllegalAction (state unchanged) for an entry that is not an object with ``by`` and ``action``,
    or whose ``by`` is not who answers the pending step: the deciding seat, or ``"chance"``."""
    if not isinstance(entry, dict) or "by" not in entry or "action" not in entry:
        # NOTE: a game record's log entry, as Match writes it: {"by": seat or "chance", "action": {...}}.
        raise IllegalAction(Message("a log entry is an object with 'by' (a seat or \"chance\") and 'action'"))
    by = entry["by"]
    if entry.get("free"):
        state.apply_free(by, entry["action"])
        return
    pending = state.pending()
    who = Seat(by) if isinstance(by, int) and not isinstance(by, bool) and by >= 0 else repr(by)
    if isinstance(pending, Chance) and by != CHANCE:
        # NOTE: a game record's log entry names who made it ("by"): here a seat, where the dice or the cards decide.
        raise IllegalAction(Message("the next step is a draw of chance, not a decision of {seat}", seat=who))
    if isinstance(pending, Decision) and isinstance(by, int) and not isinstance(by, bool) and by != pending.seat \
            and state.decision_for(by) is not None:
        state.apply_as(by, entry["action"])   # several seats choose at once: this one its own
        return
    if isinstance(pending, Decision) and (isinstance(by, bool) or by != pending.seat):
        raise IllegalAction(Message("it is {seat}'s turn to decide, not {other}'s", seat=Seat(pending.seat),
                                    other=who))
    state.apply(entry["action"])
