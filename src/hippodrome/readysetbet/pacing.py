"""A caller's voice that keeps pace with the dice (issue 34, point 2).

The caller says about a dozen words a roll, and the dice roll every second or two: a voice that
said every line in turn would fall further behind with every roll, and "No more bets!" would be
heard long after the bets closed. :class:`PacedSpeech` is the rule both voices follow (the
terminal's espeak-ng, ``cli/race_caller.py``, and the pages' speech synthesis, ``web/voice.js``,
which reads the same table, :func:`pacing_data`, from the game's description):

- the lines come a roll at a time (:meth:`PacedSpeech.add`);
- when a new roll's lines come, the lines of earlier rolls not yet said are stale and dropped,
  unless they are *urgent* (:data:`PRIORITY`): "No more bets!" and the finish, then the
  red-line crossings, then the results, which are always said, the more urgent first;
- an urgent line whose roll is past when its turn comes is said in its short form, where it has
  one (:data:`SHORT`: "Red line: horse 7, 2 of 3.");
- a line cuts a less urgent line being said (:meth:`PacedSpeech.add` says how urgent its roll
  is: the voice stops what it says when that is less);
- a new race's first lines drop whatever the race before left unsaid, its results too, and cut
  the line being said (:data:`NEW_RACE`): the race that starts is the news (a host may start it
  while the last race's bets that won are still being read).

So what is said belongs to the last roll or the one before, and "No more bets!" starts the moment
its roll comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from hippodrome.i18n import N_
from hippodrome.i18n.vocabulary import READYSETBET_CALLS
from hippodrome.readysetbet.caller import RESULTS, msgids
from hippodrome.readysetbet.settled_words import SETTLEMENT_LINES

# NOTE: the caller's short call of a red-line crossing, said instead of the long one when the dice
# have moved on; {n} is the crossing (1, 2, 3), {limit} the crossings that close the bets.
RED_LINE_SHORT = N_("Red line: horse {horse}, {n} of {limit}.")

#: how urgent a caller line is, by msgid (absent: 0, commentary, dropped once stale)
PRIORITY: dict[str, int] = {
    READYSETBET_CALLS["no_more_bets"]: 3,
    **{msgid: 3 for msgid in msgids("finish")},
    **{msgid: 2 for msgid in msgids("red_line")},
    **{msgid: 1 for msgid in (RESULTS, *SETTLEMENT_LINES)},
}
#: the short form of a long urgent line, by msgid (the same parameters)
SHORT: dict[str, str] = {msgid: RED_LINE_SHORT for msgid in msgids("red_line")}


def priority(line: Any) -> int:
    """How urgent a caller line is (a Message, or its JSON ``{"msgid", ...}``): 0 for commentary."""
    msgid = line.get("msgid") if isinstance(line, dict) else getattr(line, "msgid", None)
    return PRIORITY.get(msgid, 0)


def is_urgent(line: Any) -> bool:
    return priority(line) > 0


def pacing_data() -> dict[str, Any]:
    """The table a page's voice reads (the game description's ``data.caller_pacing``)."""
    return {"priority": dict(PRIORITY), "short": dict(SHORT)}


#: what :meth:`PacedSpeech.add` returns for a new race's first lines: above every priority, so
#: that the voice cuts whatever it says of the race before
NEW_RACE = max(PRIORITY.values()) + 1


@dataclass(frozen=True)
class Spoken:
    """A line waiting to be said: its text, its short form (or None), how urgent, its roll."""

    text: str
    short: str | None
    priority: int
    roll: int


class PacedSpeech:
    """The lines waiting to be said, kept to the last roll's and the urgent ones."""

    def __init__(self) -> None:
        self.roll = 0
        self.waiting: list[Spoken] = []

    def add(self, lines: Iterable[tuple[str, str | None, int]], new_race: bool = False) -> int:
        """A new roll's lines, each ``(text, short form or None, priority)``: earlier rolls'
        commentary not yet said is dropped, the most urgent lines go first. Returns the highest
        priority of the new lines: a line being said that is less urgent should be cut.
        ``new_race``: the first lines of a race after another: nothing of the last race is kept,
        and :data:`NEW_RACE` is returned (every line being said is cut)."""
        self.roll += 1
        new = [Spoken(text, short, level, self.roll) for text, short, level in lines]
        kept = ([] if new_race else [line for line in self.waiting if line.priority > 0]) + new
        self.waiting = sorted(kept, key=lambda line: -line.priority)   # stable: in order within a level
        return NEW_RACE if new_race else max((line.priority for line in new), default=0)

    def next(self) -> Spoken | None:
        """The line to say now (taken from the waiting ones, in its short form if its roll is past), or None."""
        if not self.waiting:
            return None
        line = self.waiting.pop(0)
        if line.roll < self.roll and line.short:
            return Spoken(line.short, None, line.priority, line.roll)
        return line
