"""The race caller: what the House says as the race runs, as Messages in every language.

The House is asked to call the race (Spanish rulebook, "La Casa"): it starts the race with "They're
off!" (said with the first roll, which starts the race: a table waiting for its host or between two
races has heard nothing of the race to come), announces every roll's total, cries "Snake eyes!" on
a 2 and "Boxcars!" on a 12, calls each red-line crossing and "No more bets!" at the third (R2), the
finish, and tells the story of the race: changes of leader, a horse breaking away from the field, a
late charge, every bonus move. Every roll is told by the race's situation (:func:`plain_situation`:
a horse leaving the gate, one near the red line or the finish, the gap to the leader, a close
finish...), counted spaces in the plural forms of each language. The rulebook's own calls are said
in the rulebook's words (vocabulary.READYSETBET_CALLS); the commentary around them comes from
:data:`PHRASES`, several lines per event, picked by the caller's own generator (never the dice's)
so the calls vary. That generator's seed is drawn by a chance step of its own (:data:`SEED_DRAW`),
so nothing in it tells the dice to come.

Every line is a :class:`~hippodrome.i18n.Message`: the terminal translates it with its ``--lang``,
the web page receives it as ``message.to_json()`` and translates it itself. The same seed and the
same rolls give the same lines, whatever the language.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Union

from hippodrome.core.chance import Pool
from hippodrome.i18n import Message, N_, Plural
from hippodrome.i18n.vocabulary import READYSETBET_CALLS, term
from hippodrome.readysetbet.dice_race import (
    CROSSINGS_TO_CLOSE, FINISH, HORSE_INDEX, HORSES, RED_LINE, RaceState, advance, ranks,
)

#: a breakaway is called when the leader is this many spaces clear of the next horse
BREAKAWAY_GAP = 3

#: A line of commentary: an English msgid, or a Plural whose count ({n}) is a number of spaces
#: and is given when the line is said (the 0 here is only a placeholder for the extractor).
Template = Union[str, Plural]

#: The commentary, by event: several lines each (named placeholders; {horse} is a horse's
#: number such as "7" or "2/3", {rival} another horse's, {sum} the dice total, {to} a space,
#: {n} a number of spaces in a Plural, a red-line crossing elsewhere, {limit} the crossings that
#: close the bets, {gap} a number of spaces). Translators: write what a race commentator would
#: say, not a word-for-word translation. No word before {sum} may depend on the number ("a 7" but
#: "an 8", "an 11"): the lines say "{sum} on the dice", "a roll of {sum}", "{sum} rolled".
PHRASES: Mapping[str, tuple[Template, ...]] = {
    # NOTE: Ready Set Bet caller, said right after "They're off!" at the start of a race.
    "start": (
        N_("The gates open and the field is away!"),
        N_("Nine horses out of the gates: get your bets down!"),
        N_("And the race is on!"),
    ),
    # NOTE: Ready Set Bet caller: a roll moves one horse one space. {sum} is the dice total, {to} the space reached.
    "roll": (
        N_("{sum}! Horse {horse} moves up."),
        N_("The dice say {sum}: horse {horse} steps forward."),
        N_("{sum} on the dice, and horse {horse} goes."),
        N_("Rolled {sum}: horse {horse} to space {to}."),
    ),
    # NOTE: Ready Set Bet caller: a roll moves a horse off the starting gate for the first time in this race.
    "first_move": (
        N_("{sum}: horse {horse} leaves the gate."),
        N_("{sum}! Horse {horse} gets off the mark."),
        N_("First step of the race for horse {horse}: {sum} on the dice."),
    ),
    # NOTE: Ready Set Bet caller: a horse leaves the starting gate when another horse is already past the red line.
    "late_start": (
        N_("{sum}: horse {horse} is out of the gate at last."),
        N_("A roll of {sum}, and horse {horse} finally gets going, far behind."),
    ),
    # NOTE: Ready Set Bet caller: the horse that moved now stands just before the red line.
    "red_line_edge": (
        N_("{sum}: horse {horse} is right up against the red line."),
        N_("{sum} for horse {horse}: one more step and it is over the red line."),
    ),
    # NOTE: Ready Set Bet caller: the horse that moved is now level with the leader.
    "level": (
        N_("{sum}: horse {horse} draws level with the leader!"),
        N_("A roll of {sum} brings horse {horse} level at the front!"),
    ),
    # NOTE: Ready Set Bet caller: the leader moves again; {n} is its lead in spaces over the next horse.
    "extends": (
        Plural("{sum}: horse {horse} stretches its lead to {n} space.",
               "{sum}: horse {horse} stretches its lead to {n} spaces.", 0),
        Plural("{sum} rolled, horse {horse} again: {n} space clear now.",
               "{sum} rolled, horse {horse} again: {n} spaces clear now.", 0),
    ),
    # NOTE: Ready Set Bet caller: a horse behind the leader moves; {n} is how many spaces it still trails by.
    "chasing": (
        Plural("{sum}: horse {horse} moves up, {n} space behind the leader.",
               "{sum}: horse {horse} moves up, {n} spaces behind the leader.", 0),
        Plural("A roll of {sum} for horse {horse}, {n} space off the pace.",
               "A roll of {sum} for horse {horse}, {n} spaces off the pace.", 0),
        Plural("{sum} for horse {horse}: the leader is {n} space ahead.",
               "{sum} for horse {horse}: the leader is {n} spaces ahead.", 0),
    ),
    # NOTE: Ready Set Bet caller: the horse that moved is still last of all.
    "back": (
        N_("{sum}: horse {horse} moves, but it is still at the back."),
        N_("A roll of {sum} for horse {horse}, trying to get away from the back of the field."),
    ),
    # NOTE: Ready Set Bet caller: the horse that moved is near the finish; {n} spaces are left to go.
    "home": (
        Plural("{sum}: horse {horse} is {n} space from the finish!",
               "{sum}: horse {horse} is {n} spaces from the finish!", 0),
        Plural("{sum} rolled for horse {horse}: just {n} space to go!",
               "{sum} rolled for horse {horse}: just {n} spaces to go!", 0),
    ),
    # NOTE: Ready Set Bet caller: near the finish, the horse that moved is level with or one space from horse {rival} at the front.
    "neck_and_neck": (
        N_("{sum}: horse {horse} and horse {rival}, neck and neck near the line!"),
        N_("A roll of {sum}: horse {horse} is side by side with horse {rival} at the front!"),
        N_("{sum}! Horse {horse} is right with horse {rival}: what a finish this could be!"),
    ),
    # NOTE: Ready Set Bet caller: the same horse twice in a row moves 1 space plus its bonus; {n} spaces in all.
    "bonus": (
        Plural("{sum} again! Horse {horse} gets its bonus: {n} space!",
               "{sum} again! Horse {horse} gets its bonus: {n} spaces!", 0),
        Plural("{sum}, back to back for horse {horse}! With the bonus, {n} space!",
               "{sum}, back to back for horse {horse}! With the bonus, {n} spaces!", 0),
        Plural("{sum} once more: horse {horse} surges {n} space!",
               "{sum} once more: horse {horse} surges {n} spaces!", 0),
    ),
    # NOTE: Ready Set Bet caller: a third roll in a row for the same horse gets no bonus (rule R1).
    "no_bonus": (
        N_("{sum}: horse {horse} again, but no bonus on a third in a row."),
        N_("{sum}, three in a row for horse {horse}: just one space this time."),
    ),
    # NOTE: Ready Set Bet caller: the {n}th horse crosses the red line; at the {limit}th bets close.
    "red_line": (
        N_("Horse {horse} crosses the red line! That's {n} across."),
        N_("Over the red line goes horse {horse}: {n} of {limit}!"),
        N_("Horse {horse} is past the red line, number {n}!"),
    ),
    # NOTE: Ready Set Bet caller: a red-line crossing after bets have closed.
    "red_line_late": (
        N_("Horse {horse} is over the red line too."),
        N_("Horse {horse} crosses the red line as well."),
    ),
    # NOTE: Ready Set Bet caller: two horses have crossed the red line; the third closes the bets.
    "red_line_warning": (
        N_("One more across the line and betting closes!"),
        N_("Two over the red line: last chance to bet!"),
        N_("Get your bets down: one more crossing and that's it!"),
    ),
    # NOTE: Ready Set Bet caller, said right after "No more bets!".
    "no_more_bets": (
        N_("Three horses over the red line: the betting is closed."),
        N_("That's the third across: hands off the board!"),
        N_("Tokens stay where they are now: the betting is over."),
    ),
    # NOTE: Ready Set Bet caller: a new horse leads the race alone.
    "leader": (
        N_("Horse {horse} takes the lead!"),
        N_("New leader: horse {horse}!"),
        N_("Horse {horse} hits the front!"),
        N_("And now it's horse {horse} in front!"),
    ),
    # NOTE: Ready Set Bet caller: the leader is {gap} spaces ahead of the next horse.
    "breakaway": (
        N_("Horse {horse} breaks away from the field, {gap} clear!"),
        N_("Horse {horse} is pulling away: {gap} spaces clear!"),
        N_("Look at horse {horse} go, {gap} spaces ahead of the pack!"),
    ),
    # NOTE: Ready Set Bet caller: a horse from 5th place or worse jumps into the top 3 after the red line.
    "late_charge": (
        N_("Here comes horse {horse} with a late charge!"),
        N_("Horse {horse} is flying up from the back!"),
        N_("A late run from horse {horse}, into the top three!"),
    ),
    # NOTE: Ready Set Bet caller: horse {horse} reaches the finish and wins the race.
    "finish": (
        N_("Horse {horse} wins!"),
        N_("And it's horse {horse} at the line!"),
        N_("Horse {horse} crosses the finish line first!"),
    ),
    # NOTE: Ready Set Bet caller: the terminal caller is paused from the keyboard.
    "paused": (N_("Race paused (press space or p to resume, q to quit)."),),
    # NOTE: Ready Set Bet caller: the terminal caller resumes after a pause.
    "resumed": (
        N_("And we're back racing!"),
        N_("The race is back on!"),
    ),
}

#: the lines a plain roll (no bonus) is told with, by the race's situation (see :func:`plain_situation`)
PLAIN_ROLLS = ("home", "neck_and_neck", "first_move", "late_start", "red_line_edge", "level", "extends", "chasing",
               "back", "roll")
#: from this space on, the two front horses within a space of each other are neck and neck
CLOSE_FINISH_FROM = FINISH - 4


def msgid_of(template: Template) -> str:
    return template.msgid if isinstance(template, Plural) else template


def msgids(key: str) -> tuple[str, ...]:
    """The English msgids of ``key``'s lines."""
    return tuple(msgid_of(template) for template in PHRASES[key])


def plain_situation(before: RaceState, after: RaceState, move: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """How a plain roll (no bonus) is told: the key of :data:`PHRASES` and its parameters beyond
    horse and sum (``n`` for the counted lines). What the race looks like after the move decides,
    the first that applies: near the finish, a close finish at the front, a horse leaving the gate
    (late when another has crossed the red line), one just before the red line, level with the
    leader, the leader stretching its lead, a horse chasing, the last horse; otherwise (a new
    leader, which the story calls) a plain call of the roll."""
    index = HORSE_INDEX[move["horse"]]
    to = move["to"]
    others = [p for i, p in enumerate(after.positions) if i != index]
    best_other, last_other = max(others), min(others)
    top, second = sorted(after.positions, reverse=True)[:2]
    if to == FINISH:
        return "roll", {"to": to}  # the finish is called next
    if FINISH - to <= 2:
        return "home", {"n": FINISH - to}
    if top >= CLOSE_FINISH_FROM and top - second <= 1 and to >= second:
        return "neck_and_neck", {"rival": HORSES[[i for i, p in enumerate(after.positions)
                                                  if i != index and p == best_other][0]]}
    if move["from"] == 0:
        return ("late_start" if best_other >= RED_LINE else "first_move"), {}
    if to == RED_LINE - 1:
        return "red_line_edge", {}
    if to == best_other:
        return "level", {}
    if move["from"] > best_other:
        return "extends", {"n": to - best_other}
    if last_other < to < best_other:
        return "chasing", {"n": best_other - to}
    if to <= last_other:
        return "back", {}
    return "roll", {"to": to}  # a new leader: the story calls it


#: The finishing places (R3): {win}, {place} and {show} are lists of horse numbers such as "4, 5".
# NOTE: Ready Set Bet results: Win / Place / Show as the Spanish rulebook names them (Ganador / Posición / Trío).
RESULTS = N_("Win: {win}. Place: {place}. Show: {show}.")


class RaceCaller:
    """Turns the events of each roll into lines (Messages), remembering the story of the race."""

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)
        self.leader: str | None = None
        self.broken_away = False
        self.charged: set[str] = set()
        self._last: dict[str, str] = {}

    def say(self, key: str, n: int | None = None, **params: Any) -> Message:
        """One line for ``key`` (a counted line takes ``n``), not the same as the last line for that
        key when there is a choice."""
        choices = PHRASES[key]
        options = [c for c in choices if msgid_of(c) != self._last.get(key)] or list(choices)
        template = options[0] if len(options) == 1 else self.rng.choice(options)
        self._last[key] = msgid_of(template)
        if isinstance(template, Plural):
            return Plural(template.msgid, template.plural, n, **params)
        return Message(template, **params) if n is None else Message(template, n=n, **params)

    def start(self) -> list[Message]:
        """The rulebook's call that starts the race, then a line of commentary."""
        return [term(READYSETBET_CALLS, "start"), self.say("start")]

    def pause(self, paused: bool) -> Message:
        return self.say("paused" if paused else "resumed")

    def call_roll(self, before: RaceState, after: RaceState, events: list[dict[str, Any]]) -> list[Message]:
        move = events[0]
        lines = self._dice_calls(move["sum"])
        lines.append(self._move_line(before, after, move))
        for event in events[1:]:
            lines.extend(self._event_lines(event))
        if after.finished:
            lines.append(self.say("finish", horse=move["horse"]))
        else:
            lines.extend(self._story(before, after, move["horse"]))
        return lines

    def _dice_calls(self, dice_sum: int) -> list[Message]:
        """The rulebook's cries: "Snake eyes!" on a 2 and "Boxcars!" on a 12 (VIP cards pay on them)."""
        if dice_sum == 2:
            return [term(READYSETBET_CALLS, "snake_eyes")]
        if dice_sum == 12:
            return [term(READYSETBET_CALLS, "boxcars")]
        return []

    def _move_line(self, before: RaceState, after: RaceState, move: dict[str, Any]) -> Message:
        horse, dice_sum = move["horse"], move["sum"]
        if move["bonus"]:
            return self.say("bonus", n=move["to"] - move["from"], horse=horse, sum=dice_sum)
        third_in_a_row = before.last_horse == HORSES.index(horse) and before.last_was_bonus
        if third_in_a_row and horse != "7":
            return self.say("no_bonus", horse=horse, sum=dice_sum)
        key, params = plain_situation(before, after, move)
        return self.say(key, horse=horse, sum=dice_sum, **params)

    def _event_lines(self, event: dict[str, Any]) -> list[Message]:
        if event["event"] == "red_line":
            crossing = event["crossing"]
            if crossing > CROSSINGS_TO_CLOSE:
                return [self.say("red_line_late", horse=event["horse"])]
            lines = [self.say("red_line", horse=event["horse"], n=crossing, limit=CROSSINGS_TO_CLOSE)]
            if crossing == CROSSINGS_TO_CLOSE - 1:
                lines.append(self.say("red_line_warning"))
            return lines
        if event["event"] == "no_more_bets":
            return [term(READYSETBET_CALLS, "no_more_bets"), self.say("no_more_bets")]
        return []

    def _story(self, before: RaceState, after: RaceState, mover: str) -> list[Message]:
        lines = []
        positions = after.positions
        best = max(positions)
        leaders = [h for h, p in zip(HORSES, positions) if p == best]
        if len(leaders) == 1 and leaders[0] != self.leader and best > 0:
            self.leader = leaders[0]
            self.broken_away = False
            lines.append(self.say("leader", horse=self.leader))
        gap = best - sorted(positions, reverse=True)[1]
        if len(leaders) == 1 and gap >= BREAKAWAY_GAP and not self.broken_away:
            self.broken_away = True
            lines.append(self.say("breakaway", horse=leaders[0], gap=gap))
        elif gap < BREAKAWAY_GAP:
            self.broken_away = False
        index = HORSES.index(mover)
        rank_before, rank_after = ranks(before.positions)[index], ranks(positions)[index]
        if after.crossings >= 1 and rank_before >= 5 and rank_after <= 3 and mover not in self.charged:
            self.charged.add(mover)
            lines.append(self.say("late_charge", horse=mover))
        return lines

    def results(self, positions: tuple[int, ...]) -> list[Message]:
        return [results_message(positions)]


def results_message(positions: tuple[int, ...]) -> Message:
    """Win / Place / Show (R3): horses tied for 2nd are 2nd and 3rd, so they stand in both places."""
    rank = ranks(positions)

    def horses_ranked(low: int, high: int) -> str:
        return ", ".join(h for h, r in zip(HORSES, rank) if low <= r <= high) or "-"

    show = horses_ranked(3, 3) if 3 in rank else horses_ranked(2, 2)
    return Message(RESULTS, win=horses_ranked(1, 1), place=horses_ranked(2, 2), show=show)


def call_race(sums: Iterable[int], seed: int | str | None, start: RaceState | None = None) -> list[Message]:
    """Every line of a race run from ``start`` with these dice totals, in order: the start, each
    roll, and the results once a horse has finished. The same seed and sums give the same lines.

    A race is off with its first roll: before it, nothing has been said (a table may still be
    waiting for its host, or between two races); the House's opening call ("They're off!" and a
    line of commentary, :meth:`RaceCaller.start`) comes with that roll's lines. The opening is
    picked first all the same, so the lines are those of a caller that opens the race at once (the
    terminal's, which starts its race when it is run)."""
    caller = RaceCaller(seed)
    state = start or RaceState.start()
    opening = caller.start()
    lines: list[Message] = []
    for dice_sum in sums:
        before = state
        state, events = advance(before, dice_sum)
        lines.extend(opening)
        opening = []
        lines.extend(caller.call_roll(before, state, events))
    if state.finished:
        lines.extend(caller.results(state.positions))
    return lines


@dataclass(eq=False)
class _Told:
    """A race told up to some roll: the race's state, the lines so far as message JSON, before the
    first roll the opening call, said with that roll (:func:`call_race`), and the caller as it
    stands then while no one has gone on from this roll.

    Going on takes the caller over instead of copying it (copying its generator costs more than
    telling the roll): a race is told on from its latest roll nearly always. The rolls it leaves
    behind keep their lines, all that a view asks of them; a race going another way from one of
    them (a copy of the game rolling other dice) is told again from the nearest earlier roll that
    still has its caller, or from the start (:func:`_told`). ``caller`` is taken and
    given under :data:`_TOLD_LOCK`, so two threads never go on with the same caller."""

    state: RaceState
    lines: tuple[dict[str, Any], ...]
    opening: tuple[dict[str, Any], ...] = ()
    caller: RaceCaller | None = None

    @classmethod
    def start(cls, seed: str) -> tuple["_Told", RaceCaller]:
        """The race before its first roll, and a new caller standing there (the opening picked)."""
        caller = RaceCaller(seed)
        return cls(RaceState.start(), (), tuple(line.to_json() for line in caller.start())), caller

    def then(self, caller: RaceCaller, dice_sum: int) -> "_Told":
        """The race told one roll further by ``caller``, which stands at this roll and is moved on
        to the next (the new one holds no caller: :func:`_told` gives it the caller if it is kept
        as the latest)."""
        state, events = advance(self.state, dice_sum)
        said = caller.call_roll(self.state, state, events)
        return _Told(state, self.lines + self.opening + tuple(line.to_json() for line in said))


#: races told, by (seed, rolls): each view of a race in progress asks for its lines, and every roll
#: goes on from the roll before (taking over its caller) instead of telling the race from its start
_TOLD: OrderedDict[tuple[str, tuple[int, ...]], _Told] = OrderedDict()
#: guards :data:`_TOLD` and every kept :class:`_Told`'s ``caller`` (several threads may tell races)
_TOLD_LOCK = threading.Lock()
#: races (each at one roll) kept
TOLD_KEPT = 2048


def _told(seed: str, sums: tuple[int, ...]) -> _Told:
    """The race of ``seed`` told through ``sums``: as kept, or told on from the longest beginning
    whose caller is still there (from the start if none is). Every roll told on is kept; the last
    one keeps the caller, to go on from at the next roll."""
    with _TOLD_LOCK:
        kept = _TOLD.get((seed, sums))
        if kept is not None:
            _TOLD.move_to_end((seed, sums))
            return kept
        taken = _take_caller(seed, sums)
    known, told, caller = taken or (0, *_Told.start(seed))
    for at in range(known, len(sums)):
        told = told.then(caller, sums[at])
        if at + 1 < len(sums):
            _keep(seed, sums[:at + 1], told)
    _keep(seed, sums, told, caller)
    return told


def _take_caller(seed: str, sums: tuple[int, ...]) -> tuple[int, _Told, RaceCaller] | None:
    """The longest beginning of ``sums`` short of all of it whose kept race still has its caller:
    its length, that race and the caller, which this takes over (the race keeps its lines); None if
    no beginning has one. Called under :data:`_TOLD_LOCK`."""
    for known in range(len(sums) - 1, -1, -1):
        told = _TOLD.get((seed, sums[:known]))
        if told is not None and told.caller is not None:
            _TOLD.move_to_end((seed, sums[:known]))
            caller, told.caller = told.caller, None
            return known, told, caller
    return None


def _keep(seed: str, sums: tuple[int, ...], told: _Told, caller: RaceCaller | None = None) -> None:
    """Keep ``told`` (which no other thread has seen yet), with ``caller`` if it is the latest roll told."""
    told.caller = caller
    with _TOLD_LOCK:
        _TOLD[(seed, sums)] = told
        while len(_TOLD) > TOLD_KEPT:
            _TOLD.popitem(last=False)


def race_calls(caller_seed: int | None, race: int, sums: Iterable[int]) -> list[dict[str, Any]]:
    """The lines of race ``race`` of a game whose caller seed is ``caller_seed``, as message JSON
    (what a view carries for the page to translate): those of :func:`call_race` (none before the
    race's first roll), told once per roll in this process (:data:`_TOLD`)."""
    told = _told(f"{caller_seed}:race:{race}", tuple(sums))
    lines = list(told.lines)
    if told.state.finished:   # the results depend on the positions alone (its caller may be taken over)
        lines.append(results_message(told.state.positions).to_json())
    return lines


#: the caller's seed is drawn as four random bytes (``randrange(2 ** 32)`` is uniform over 32 bits,
#: so over four bytes drawn in turn): a chance step's draws
SEED_DRAW = Pool(tuple(range(256)), 4, replacement=True)


def seed_from_bytes(drawn: list[int]) -> int:
    return sum(byte << 8 * i for i, byte in enumerate(drawn))


def seed_bytes(seed: int) -> list[int]:
    return [(seed >> 8 * i) & 255 for i in range(4)]


def track_lines(positions: tuple[int, ...]) -> list[str]:
    """A plain text track: one row per horse, the red line before space 10, the finish at 15."""
    rows = []
    for horse, position in zip(HORSES, positions):
        cells = []
        for space in range(FINISH + 1):
            mark = "@" if space == position else ("." if space else "|")
            cells.append(mark)
            if space == 9:
                cells.append("!")
        rows.append(f"{horse:>5} {''.join(cells)} {position:>2}")
    return rows
