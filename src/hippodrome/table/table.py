"""Table: a :class:`~hippodrome.core.match.Match` with seats, bots and a state id.

Every change bumps ``state_id``; an action sent against an older id is refused with
:class:`StaleState` rather than misapplied. Bots see only their seat's view.

Free actions (simultaneous play such as Ready Set Bet's bets) are the one exception: the clock
and the other players move the state on every second or so, so a free action is accepted
against an older id as long as the game is still at the same step (``epoch``: the state id
since which only clock strikes within one step and free actions happened); the engine then
judges it against the current state. A free action from an earlier step (a bet made during
the race before) is refused as stale.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from hippodrome.core import jsondump
from hippodrome.core.bot import Bot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Chance, Decision
from hippodrome.core.match import Match
from hippodrome.i18n import Message
from hippodrome.table.thought import bot_thought


log = logging.getLogger(__name__)


class StaleState(IllegalAction):
    """An action made against a state that has changed since."""


def _context_key(context: Any) -> bytes:
    """A step's context as comparable text (its keys sorted; what JSON cannot hold as its text)."""
    return jsondump.dumps_bytes(context, str, orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


@dataclass
class Player:
    """Who plays a seat, the one record of it: a person (``bot`` None) or a bot, the bot's level
    (as the game's description names it; None for a bot made in code), whether the host handed
    the seat to a bot (a person's seat until then), and the digest of the seat's token (a person's
    link holds the token; the table keeps only its digest)."""

    name: str
    bot: Bot | None = None
    token_digest: str = field(default_factory=lambda: secrets.token_hex(32))
    level: str | None = None
    handed: bool = False

    @property
    def is_person(self) -> bool:
        return self.bot is None

    @property
    def kind(self) -> str:
        return "person" if self.bot is None else "bot"

    def hand_to(self, bot: Bot, level: str | None) -> None:
        """The host hands this person's seat to ``bot``."""
        self.bot, self.level, self.handed = bot, level, True


@dataclass
class BotTurn:
    """A bot's decision to take: the seat, the pending decision, the state id it was taken at
    and a copy of the state (the bot reads its seat's view of the copy), or a running table's
    :class:`~hippodrome.table.capture.Capture` (its thinker's capture)."""

    seat: int
    pending: Decision
    state_id: int
    state: Any


def think(bot: Bot, turn: BotTurn) -> Action | None:
    """The bot's choice for ``turn`` (None when it failed: its error is logged). Reads only the
    turn's copy of the state, so it may run in a worker thread."""
    return bot_thought(bot, turn.state.observation(turn.seat), turn.pending.options, None)


class Table:
    def __init__(self, game: str, setup: dict[str, Any], players: list[Player], seed: int | str | None = None):
        self.players = players
        self.match = Match(game, setup, secrets.randbits(64) if seed is None else seed)
        self.state_id = 0
        self.epoch = 0
        self.match.resolve_chance()

    @classmethod
    def from_record(cls, record: dict[str, Any], players: list[Player], state_id: int = 0) -> "Table":
        table = cls.__new__(cls)
        table.players = players
        table.match = Match.from_record(record)
        table.state_id = state_id
        table.epoch = state_id
        return table

    # -- reading ------------------------------------------------------------------
    @property
    def state(self):
        return self.match.state

    def pending(self):
        return self.match.pending()

    @property
    def over(self) -> bool:
        return self.pending() is None

    def seat_of(self, token_digest: str) -> int | None:
        """The seat whose token has this digest (None: no seat)."""
        for number, player in enumerate(self.players):
            if secrets.compare_digest(player.token_digest, token_digest):
                return number
        return None

    # -- acting -------------------------------------------------------------------
    def is_free(self, action: Any) -> bool:
        return self.match.state.is_free_action(action)

    def step_key(self) -> tuple | None:
        """What the game waits for now (kind, seat, context): free actions stay valid while it holds."""
        pending = self.match.pending()
        if pending is None:
            return None
        if isinstance(pending, Decision):
            return ("decision", pending.seat, pending.kind, _context_key(pending.context))
        return ("chance", pending.kind, _context_key(pending.context))

    def act(self, seat: int, action: Action, state_id: int | None = None) -> None:
        free = self.is_free(action)
        # a choice everyone makes at once (R8) stays open to a seat while the others make theirs:
        # made on a state before another seat's, it is no more stale than a free action
        together = not free and seat in self.choosing_together()
        if state_id is not None:
            if (free or together) and self.epoch <= state_id <= self.state_id:
                pass
            elif state_id != self.state_id:
                raise StaleState(Message(
                    "this move was made on state {made_on}, but the table is at state {current}; "
                    "look at the current state and choose again", made_on=str(state_id), current=str(self.state_id)
                ))
        self.match.act(seat, action)
        self.state_id += 1
        if not free and not (together and self.choosing_together()):   # (the others still choose)
            self.epoch = self.state_id

    def tick(self) -> bool:
        """The clock strikes (timed chance, such as Ready Set Bet's next roll)."""
        before = self.step_key()
        changed = self.match.tick()
        if changed:
            self.state_id += 1
            if self.step_key() != before:
                self.epoch = self.state_id
        return changed

    @property
    def _fallback_rng(self) -> random.Random:
        if not hasattr(self, "_fallback"):
            self._fallback = random.Random()
        return self._fallback

    def bot_to_move(self) -> int | None:
        """The seat of a bot that must decide now: the pending decision's, or, where several seats
        choose at once (Game.decisions: Ready Set Bet's VIP cards, R8), the first bot among them,
        so that bots choose at once while people think."""
        pending = self.match.pending()
        if not isinstance(pending, Decision):
            return None
        if self.players[pending.seat].bot is not None:
            return pending.seat
        return next((decision.seat for decision in self.match.state.decisions()
                     if self.players[decision.seat].bot is not None), None)

    def bot_request(self, capture: Callable[[Match, int], Any] | None = None) -> BotTurn | None:
        """What the bot to decide now needs, taken at once (under the runner's lock): its seat,
        the options, the state id, and a copy of the state to read its view from (or what
        ``capture(match, seat)`` takes instead: a thinker's :class:`~hippodrome.table.capture.Capture`),
        so that the bot may think elsewhere (a worker) while the table moves on."""
        seat = self.bot_to_move()
        if seat is None:
            return None
        state = self.match.state.clone() if capture is None else capture(self.match, seat)
        return BotTurn(seat, self.match.state.decision_for(seat), self.state_id, state)

    def bot_apply(self, turn: BotTurn, action: Action | None) -> bool:
        """Take the bot's ``action`` for ``turn`` if the table is still where the bot looked (False
        otherwise: it moved on, the choice is dropped). A choice that is not one of the options
        (or None: the bot failed) is replaced by a random legal option, and logged."""
        if self.state_id != turn.state_id or self.match.state.decision_for(turn.seat) is None:
            return False
        pending = turn.pending
        if not pending.allows(action):
            if action is not None:
                log.error("bot of seat %s chose %r, not one of the options; playing a random one", turn.seat, action)
            action = self._fallback_rng.choice(pending.options)
        self.act(turn.seat, action)
        return True

    def bot_move(self) -> bool:
        """Let the bot whose decision is pending take it, here and now; False when no bot is to decide."""
        turn = self.bot_request()
        if turn is None:
            return False
        return self.bot_apply(turn, think(self.players[turn.seat].bot, turn))

    def choosing_together(self) -> list[int]:
        """The seats still making a choice between races that everyone makes at once (their decisions
        say ``together``: Ready Set Bet's VIP cards, R8)."""
        return [decision.seat for decision in self.match.state.decisions()
                if decision.between_races and "together" in decision.context]

    def waits_for_clock(self) -> bool:
        pending = self.match.pending()
        return isinstance(pending, Chance) and pending.timed

    def run_bots(self, limit: int = 100_000) -> int:
        """Let bots take every decision that is theirs, until a person must decide or the
        game is over (or a timed chance step waits for the clock). Returns the number of moves."""
        moves = 0
        while moves < limit and self.bot_move():
            moves += 1
        return moves

    def record(self) -> dict[str, Any]:
        return self.match.record()
