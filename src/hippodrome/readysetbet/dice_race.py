"""The dice race of Ready Set Bet (rulings R1, R2, R3), pure functions over small values.

>>> state = RaceState.start()
>>> state, events = advance(state, 3)      # a 3 moves horse 2/3 one space
>>> state, events = advance(state, 2)      # a 2 right after: 1 + its bonus of 3 (R1)
>>> state.positions[HORSE_INDEX["2/3"]], events[0]["bonus"]
(5, 3)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

_DATA = json.loads((resources.files("hippodrome.readysetbet") / "data" / "race.json").read_text())

HORSES: tuple[str, ...] = tuple(h["id"] for h in _DATA["horses"])
HORSE_INDEX: dict[str, int] = {h: i for i, h in enumerate(HORSES)}
COLOUR: dict[str, str] = {h["id"]: h["colour"] for h in _DATA["horses"]}
BONUS: dict[str, int] = {h["id"]: h["bonus"] for h in _DATA["horses"]}
#: dice sum (2 .. 12) -> index of the horse it moves
HORSE_FOR_SUM: dict[int, int] = {s: HORSE_INDEX[h["id"]] for h in _DATA["horses"] for s in h["sums"]}
FINISH: int = _DATA["finish"]
RED_LINE: int = _DATA["red_line"]
CROSSINGS_TO_CLOSE: int = _DATA["crossings_to_close_bets"]
RACE_DATA: dict[str, Any] = _DATA

#: probability of each 2d6 sum
SUM_PROBABILITY: dict[int, float] = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


@dataclass(frozen=True)
class RaceState:
    """Positions (0 = start gate, 15 = finish), the last roll and whether it was a bonus move."""

    positions: tuple[int, ...]
    last_sum: int | None = None
    last_was_bonus: bool = False
    crossings: int = 0

    @classmethod
    def start(cls) -> "RaceState":
        return cls(tuple(0 for _ in HORSES))

    @property
    def last_horse(self) -> int | None:
        return None if self.last_sum is None else HORSE_FOR_SUM[self.last_sum]

    @property
    def finished(self) -> bool:
        return FINISH in self.positions

    @property
    def bets_closed(self) -> bool:
        """R2: no more bets after the third red-line crossing or once a horse has finished."""
        return self.crossings >= CROSSINGS_TO_CLOSE or self.finished

    def to_json(self) -> dict[str, Any]:
        return {"positions": dict(zip(HORSES, self.positions)), "last_sum": self.last_sum,
                "last_was_bonus": self.last_was_bonus, "crossings": self.crossings}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RaceState":
        return cls(tuple(data["positions"][h] for h in HORSES), data["last_sum"], data["last_was_bonus"],
                   data["crossings"])


def crossings_of(positions: tuple[int, ...]) -> int:
    return sum(1 for p in positions if p >= RED_LINE)


def advance(state: RaceState, dice_sum: int) -> tuple[RaceState, list[dict[str, Any]]]:
    """One roll (R1, R2): the new state and the events to announce, in order.

    Events: ``move`` (always first), then ``red_line`` (with the crossing number),
    ``no_more_bets`` (at the third crossing) and ``finish``, as they happen.
    """
    if state.finished:
        raise ValueError("the race is over: no more rolls")  # i18n: programming error
    if dice_sum not in HORSE_FOR_SUM:
        raise ValueError(f"a 2d6 sum is 2 to 12, not {dice_sum}")  # i18n: programming error
    horse = HORSE_FOR_SUM[dice_sum]
    name = HORSES[horse]
    bonus_applies = state.last_horse == horse and not state.last_was_bonus
    bonus = BONUS[name] if bonus_applies else 0
    before = state.positions[horse]
    after = min(FINISH, before + 1 + bonus)
    positions = state.positions[:horse] + (after,) + state.positions[horse + 1:]
    events: list[dict[str, Any]] = [{"event": "move", "sum": dice_sum, "horse": name, "from": before,
                                     "to": after, "bonus": bonus, "bonus_move": bonus_applies}]
    crossings = state.crossings
    if before < RED_LINE <= after:
        crossings += 1
        events.append({"event": "red_line", "horse": name, "crossing": crossings})
        if crossings == CROSSINGS_TO_CLOSE and after < FINISH:
            events.append({"event": "no_more_bets"})
    if after == FINISH:
        events.append({"event": "finish", "horse": name})
    # "bonus_applies" is kept even when the horse had no bonus to add (horse 7): the third roll
    # in a row is a plain move for every horse alike (R1)
    return replace(state, positions=positions, last_sum=dice_sum, last_was_bonus=bonus_applies,
                   crossings=crossings), events


def roll_dice(state: RaceState, dice: list[int]) -> tuple[RaceState, list[dict[str, Any]]]:
    """:func:`advance` by a roll of two dice, the move event keeping the dice (pages draw them)."""
    after, events = advance(state, dice[0] + dice[1])
    events[0]["dice"] = list(dice)
    return after, events


def roll_sums(log: list[dict[str, Any]]) -> list[int]:
    """The dice totals of the moves in a race's events, in order."""
    return [event["sum"] for event in log if event["event"] == "move"]


def ranks(positions: tuple[int, ...] | list[int]) -> list[int]:
    """Competition ranking (R3): 1 + the number of horses strictly ahead."""
    ahead: dict[int, int] = {}   # a position -> how many horses stand strictly ahead of it
    for at, position in enumerate(sorted(positions, reverse=True)):
        ahead.setdefault(position, at)
    return [1 + ahead[position] for position in positions]


def finishing_order(positions: tuple[int, ...]) -> list[tuple[int, str, int]]:
    """(rank, horse, position) from first to last; ties keep the board's order."""
    table = list(zip(ranks(positions), HORSES, positions))
    return sorted(table, key=lambda row: row[0])


def parse_race_state(text: str, last_roll: int | None = None, last_was_bonus: bool = False) -> RaceState:
    """A race state from ``"2/3=0,4=3,...,11/12=0"`` (horses left out stand at 0).

    Refuses an unknown horse, a space outside 0-15, a finished race and a last roll that
    could not have happened, with :class:`~hippodrome.core.errors.InvalidSetup`.
    """
    from hippodrome.core.errors import InvalidSetup
    from hippodrome.i18n import Message

    positions = [0] * len(HORSES)
    seen = set()
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        horse, sep, space = item.partition("=")
        horse = horse.strip()
        if not sep:
            raise InvalidSetup(Message("{item} is not HORSE=SPACE (for example 4=3)", item=repr(item)))
        if horse not in HORSE_INDEX:
            raise InvalidSetup(Message("unknown horse {horse}; the horses are {horses}", horse=repr(horse),
                                      horses=", ".join(HORSES)))
        if horse in seen:
            raise InvalidSetup(Message("horse {horse} is given twice", horse=horse))
        seen.add(horse)
        try:
            value = int(space)
        except ValueError:
            raise InvalidSetup(Message("horse {horse}: space {space} is not a whole number", horse=horse,
                                      space=repr(space.strip()))) from None
        if not 0 <= value <= FINISH:
            raise InvalidSetup(Message("horse {horse}: space {space} is outside 0-{finish}", horse=horse, space=value,
                                      finish=FINISH))
        positions[HORSE_INDEX[horse]] = value
    if FINISH in positions:
        winner = HORSES[positions.index(FINISH)]
        raise InvalidSetup(Message("the race is finished (horse {horse} is at {finish}): there are no odds left to "
                                  "compute", horse=winner, finish=FINISH))
    if last_roll is not None and last_roll not in HORSE_FOR_SUM:
        raise InvalidSetup(Message("--last-roll is a dice sum from 2 to 12, not {roll}", roll=last_roll))
    if last_was_bonus and last_roll is None:
        raise InvalidSetup(Message("--last-roll-was-bonus needs --last-roll (which roll was the bonus move?)"))
    if last_roll is not None:
        horse = HORSE_FOR_SUM[last_roll]
        least = 2 + BONUS[HORSES[horse]] if last_was_bonus else 1
        if positions[horse] < least:
            raise InvalidSetup(Message("a last roll of {roll} moved horse {horse}, which must then stand on space "
                                       "{least} or beyond, not {space}", roll=last_roll, horse=HORSES[horse],
                                       least=least, space=positions[horse]))
    return RaceState(tuple(positions), last_roll, last_was_bonus, crossings_of(tuple(positions)))
