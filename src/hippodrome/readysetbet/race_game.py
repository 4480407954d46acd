"""One Ready Set Bet race on its own, as a Game ("readysetbet-race"): the dice race of rulings
R1-R3 driven by timed roll steps, with no betting. The race caller runs it for people playing
with the physical box (they bet on their own board)."""

from __future__ import annotations

import json

from typing import Any

from hippodrome.core.dice import is_roll, roll_chance
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Action, Chance, Game
from hippodrome.core.registry import register_game
from hippodrome.core.state import DeclaredState, StateFields, object_codec, shallow, shared
from hippodrome.i18n import Message
from hippodrome.readysetbet.dice_race import RaceState, finishing_order, parse_race_state, roll_dice
from hippodrome.readysetbet.description import RACE


@register_game
class RaceGame(DeclaredState, Game):
    name = "readysetbet-race"
    description = RACE

    state_fields = StateFields(
        shared("setup"),
        shared("state", codec=object_codec(RaceState), key="race"),  # a frozen RaceState
        shallow("log"),  # events are complete when appended
    )

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "RaceGame":
        if not isinstance(setup, dict):
            raise InvalidSetup(Message('a race setup is a JSON object, e.g. {{}} or {{"positions": "4=3,7=2"}}'))
        positions = setup.get("positions")
        if positions is not None and not isinstance(positions, str):
            raise InvalidSetup(Message('"positions" is text such as "4=3,7=2" (HORSE=SPACE, comma-separated), not {value}',
                                       value=json.dumps(positions)[:60]))
        return cls.create(setup=setup, state=parse_race_state(positions) if positions else RaceState.start(), log=[])

    def pending(self) -> Chance | None:
        if self.state.finished:
            return None
        return roll_chance(timed=True)

    def apply(self, action: Action) -> None:
        if self.state.finished:
            raise IllegalAction(Message("the race is over"))
        if not is_roll(action):
            raise IllegalAction(Message("waiting for a roll of two dice, not {action}", action=repr(action)))
        self.state, events = roll_dice(self.state, action["dice"])
        self.log.extend(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        data = self.state.to_json()
        data.update({"game": self.name, "finished": self.state.finished, "bets_closed": self.state.bets_closed,
                     "log": list(self.log)})
        if self.state.finished:
            data["order"] = [{"rank": r, "horse": h, "space": p} for r, h, p in finishing_order(self.state.positions)]
        return data
