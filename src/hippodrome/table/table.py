"""Table: a :class:`~hippodrome.core.match.Match` with seats, bots and a state id.

Every change bumps ``state_id``; an action sent against an older id is refused with
:class:`StaleState` rather than misapplied. Bots see only their seat's view.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from hippodrome.core.bot import Bot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Decision
from hippodrome.core.match import Match


class StaleState(IllegalAction):
    """An action made against a state that has changed since."""


@dataclass
class Seat:
    name: str
    bot: Bot | None = None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class Table:
    def __init__(self, game: str, setup: dict[str, Any], seats: list[Seat], seed: int | str | None = None):
        self.seats = seats
        self.match = Match(game, setup, secrets.randbits(64) if seed is None else seed)
        self.state_id = 0
        self.match.resolve_chance()

    @classmethod
    def from_record(cls, record: dict[str, Any], seats: list[Seat], state_id: int = 0) -> "Table":
        table = cls.__new__(cls)
        table.seats = seats
        table.match = Match.from_record(record)
        table.state_id = state_id
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

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"state_id": self.state_id, "seat": seat, "game": self.match.state.view(seat)}

    def seat_for_token(self, token: str) -> int | None:
        for number, seat in enumerate(self.seats):
            if secrets.compare_digest(seat.token, token):
                return number
        return None

    # -- acting -------------------------------------------------------------------
    def act(self, seat: int, action: Action, state_id: int | None = None) -> None:
        if state_id is not None and state_id != self.state_id:
            raise StaleState(
                f"this move was made on state {state_id}, but the table is at state {self.state_id}; "
                "look at the current state and choose again"
            )
        self.match.act(seat, action)
        self.state_id += 1

    def tick(self) -> bool:
        """The clock strikes (timed chance, such as Ready Set Bet's next roll)."""
        changed = self.match.tick()
        if changed:
            self.state_id += 1
        return changed

    def run_bots(self, limit: int = 100_000) -> int:
        """Let bots take every decision that is theirs, until a person must decide or the
        game is over (or a timed chance step waits for the clock). Returns the number of moves."""
        moves = 0
        while moves < limit:
            pending = self.match.pending()
            if not isinstance(pending, Decision):
                break
            seat = self.seats[pending.seat]
            if seat.bot is None:
                break
            action = seat.bot.choose(self.match.state.view(pending.seat), pending.options)
            self.act(pending.seat, action)
            moves += 1
        return moves

    def record(self) -> dict[str, Any]:
        return self.match.record()
