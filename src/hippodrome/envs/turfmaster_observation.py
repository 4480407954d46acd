"""The TurfMaster observation vector, shared by the PettingZoo and Gymnasium environments and the
OpenSpiel games (the action ids are :mod:`hippodrome.envs.turfmaster_encoding`'s).

The observation (:func:`observe`, :data:`OBSERVATION_SIZE` floats in [0, 1]) holds only what the
engine's ``view(seat)`` shows: public positions, stages, handicaps, card counts, the cards each
horse has played in this race (public: played face up), the seat's own hands, the round, the
dice, the roller, the points so far and the decision in front of the seat. One row per horse,
the seat's own horses first (in slot order, so row s is slot s), then the others in game order.

How it is made: one *common vector* per game, shared by every seat, holds everything any seat
may be shown, by seat number rather than relative to a seat: the horses' rows in the game's
order, every horse's hand among them; the roller and the points of seat 0, 1, ...; the pending
decision; and after the observation's entries a 0 and a 1. An observation brings the common
vector up to date with what changed since anyone last looked (so once per step at most, however
many seats look), then reads the seat's vector out of it in one NumPy ``take`` through the
seat's *index map*: its own horses' rows first; another seat's horse's hand read from the 0;
"mine" and "owner, seats after me" read from the 0 or the 1; the roller and the points turned
to "seats after me"; the decision entries read from the 0 unless the seat decides.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable

import numpy as np

from hippodrome.core.game import Decision, Game
from hippodrome.envs.features import Layout
from hippodrome.envs.per_game import PerGame
from hippodrome.envs.turfmaster_encoding import CARD_KINDS, DIE_FACES, KIND, LANES, SLOTS
from hippodrome.envs.turfmaster_points import points_so_far
from hippodrome.turfmaster.cards import BONUS_CARDS, DECK_SIZE, HAND_SIZE, full_deck
from hippodrome.turfmaster.course import COURSE_NAMES, Course
from hippodrome.turfmaster.meeting import RACES, Meeting
from hippodrome.turfmaster.race import CARD_ROUND, FALLEN, FINISHED, RACING, Race
from hippodrome.turfmaster.scoring import PLACE_POINTS

STAGES = (RACING, FINISHED, FALLEN)
STAGE_INDEX = {stage: number for number, stage in enumerate(STAGES)}
LIMITS = (None, 8, 9, 10)
LIMIT_INDEX = {limit: number for number, limit in enumerate(LIMITS)}
DECISIONS = ("card", "square", "dice_use", "die", "claim_bonus", "keep", "empty_hand")
DECISION_INDEX = {kind: number for number, kind in enumerate(DECISIONS)}
PHASES = ("setup", "prepare", "race", "over")
PHASE_INDEX = {phase: number for number, phase in enumerate(PHASES)}
MOST_OF_A_KIND = max(full_deck().count(card) for card in CARD_KINDS)
MOST_CARDS = HAND_SIZE + BONUS_CARDS
MOST_POINTS = RACES * sum(PLACE_POINTS)
MOST_ROUNDS = 40
MOST_POINTS_IN_A_MOVE = 12
#: a hand of n cards (n at most MOST_CARDS) in the "cards in hand" entry
_CARD_COUNT = tuple(count / MOST_CARDS for count in range(MOST_CARDS + 1))
#: n cards of one kind in a hand, as the hand's entry for that kind
_SHARE = tuple(count / MOST_OF_A_KIND for count in range(MOST_CARDS + 1))
_FLOAT32 = np.dtype(np.float32)

_row = Layout()
R_PRESENT = _row.add("present", 1)
R_MINE = _row.add("mine", 1)
R_OWNER = _row.add("owner, seats after me", SLOTS)
R_STAGE = _row.add("stage", len(STAGES))
R_LANE = _row.add("lane", LANES)
R_PROGRESS = _row.add("line / the finish line's", 1)
R_PLACE = _row.add("finishing place / 8", 1)
R_LIMIT = _row.add("handicap limit", len(LIMITS))
R_CARDS = _row.add("cards in hand / 12 (1 at 12 or more)", 1)
R_TO_MOVE = _row.add("still to move this round", 1)
R_CURRENT = _row.add("moves now", 1)
R_ORDER = _row.add("place in the move order / 8", 1)
R_BONUS = _row.add("bonus cards taken", 1)
R_DECK = _row.add("deck left / 32", 1)
R_HAND = _row.add("own hand, per card kind", len(CARD_KINDS))
R_PLAYED = _row.add("played this race, per card kind", len(CARD_KINDS))
ROW = _row.size

_layout = Layout()
HORSE_ROWS = _layout.add("horses", SLOTS * ROW)
G_ROUND_KIND = _layout.add("card round, dice round", 2)
G_ROUND = _layout.add("round / 40", 1)
G_DICE = _layout.add("dice, one-hot each", 2 * DIE_FACES)
G_DICE_USE = _layout.add("dice used: sum, die 1-6", 1 + DIE_FACES)
G_ROLLER = _layout.add("roller, seats after me", SLOTS)
G_COURSE = _layout.add("course", len(COURSE_NAMES))
G_STEEPLECHASE = _layout.add("steeplechase", 1)
G_RACE = _layout.add("race of the meeting", RACES)
G_PHASE = _layout.add("phase of the meeting", len(PHASES))
G_DECISION = _layout.add("my decision", len(DECISIONS))
G_POINTS_IN_MOVE = _layout.add("points and steps of my move / 12", 2)
G_TO_DISCARD = _layout.add("cards still to give up / 4", 1)
G_SCORES = _layout.add("points so far, seats after me", SLOTS)
G_SEATS = _layout.add("seats / 8", 1)
#: the length of the observation vector
OBSERVATION_SIZE = _layout.size
OBSERVATION_FIELDS = dict(_layout.fields)
ROW_FIELDS = dict(_row.fields)

#: the common vector: the observation's entries (by seat number where a seat's are "seats after
#: me"), then a 0 and a 1 for the index maps to read
ZERO, ONE = OBSERVATION_SIZE, OBSERVATION_SIZE + 1
COMMON_SIZE = OBSERVATION_SIZE + 2
#: blocks of the vector written as one: the race's globals, the meeting's, the decision's
RACE_GLOBALS = slice(G_ROUND_KIND, G_ROLLER + SLOTS)
MEETING_GLOBALS = slice(G_RACE, G_PHASE + len(PHASES))
DECISION_ENTRIES = slice(G_DECISION, G_TO_DISCARD + 1)
#: a row's entries on the round's move order (from, to): still to move, moves now, place in the order
ORDER_BLOCK, ORDER_END = R_TO_MOVE, R_ORDER + 1
#: a horse's pose in a race: its row's entries from its stage to its handicap (from, to)
POSE, POSE_END = R_STAGE, R_LIMIT + len(LIMITS)
assert (G_ROUND, G_DICE, G_DICE_USE, G_ROLLER) == (G_ROUND_KIND + 2, G_ROUND + 1, G_DICE + 2 * DIE_FACES,
                                                   G_DICE_USE + 1 + DIE_FACES), "the race's globals are one block"
assert G_PHASE == G_RACE + RACES and (R_CURRENT, R_ORDER) == (R_TO_MOVE + 1, R_TO_MOVE + 2), "blocks of entries"
assert (G_POINTS_IN_MOVE, G_TO_DISCARD) == (G_DECISION + len(DECISIONS), G_POINTS_IN_MOVE + 2), "the decision's block"


def observe(state: Game, seat: int, points: list[int] | None = None) -> np.ndarray:
    """What ``seat`` knows of ``state`` (a race or a meeting), as :data:`OBSERVATION_SIZE` floats
    (a new array, never changed after). ``points`` are :func:`points_so_far` when the caller
    has them already."""
    common = _COMMON.of(state)
    maps = common.maps.get(seat)
    if maps is None:
        raise ValueError(f"seat {seat!r} is not a seat of this game: 0 to {common.seats - 1}")  # i18n: programming error
    common.update(state, points)
    return common.numbers.take(maps[seat == common.decider], mode="wrap")  # (every index is in range: no check)


def observation_fields() -> dict[str, Any]:
    """The layout of the vector, for people reading it: field -> (start, width), and the same for
    one horse's row (rows start at ``horses`` and are ``row_size`` long)."""
    return {"size": OBSERVATION_SIZE, "fields": OBSERVATION_FIELDS, "row_size": ROW, "row_fields": ROW_FIELDS}


@lru_cache(maxsize=256)
def _index_maps(owners: tuple[int, ...], seats: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each entry of ``seat``'s observation is read from in the common vector of a game whose
    horses (in the game's order) have these ``owners``: as an onlooker, and as the decider."""
    index = np.arange(OBSERVATION_SIZE, dtype=np.intp)
    index[HORSE_ROWS:HORSE_ROWS + SLOTS * ROW] = ZERO
    numbers = range(len(owners))
    rows = [n for n in numbers if owners[n] == seat] + [n for n in numbers if owners[n] != seat]
    for row, number in enumerate(rows):
        start, common = HORSE_ROWS + row * ROW, HORSE_ROWS + number * ROW
        mine = owners[number] == seat
        index[start:start + ROW] = np.arange(common, common + ROW)
        index[start + R_PRESENT] = ONE
        index[start + R_MINE] = ONE if mine else ZERO
        index[start + R_OWNER:start + R_OWNER + SLOTS] = ZERO
        index[start + R_OWNER + (owners[number] - seat) % seats] = ONE
        if not mine:
            index[start + R_HAND:start + R_HAND + len(CARD_KINDS)] = ZERO
    for block in (G_ROLLER, G_SCORES):  # by seat number -> seats after me
        index[block:block + SLOTS] = [block + (after + seat) % seats if after < seats else ZERO for after in range(SLOTS)]
    onlooker = index.copy()
    onlooker[DECISION_ENTRIES] = ZERO
    onlooker.flags.writeable = index.flags.writeable = False  # shared by every game with these owners
    return onlooker, index


def _picker(keys: tuple[str, ...]) -> Callable[[dict], tuple]:
    """``pick(d)``: the tuple of ``d``'s values for ``keys``, in their order (an ``itemgetter``:
    C-fast, except that of one key it gives the value itself)."""
    if len(keys) == 1:
        return lambda values: (values[keys[0]],)
    return itemgetter(*keys)


def _zeros(width: int) -> array:
    return array("f", bytes(4 * width))


#: poses by (course, stage, square or finishing place, handicap limit): a pose's entries
_POSES: dict[tuple, array] = {}


def _pose(course: Course, condition: str, where: int, limit: int | None) -> array:
    pose = _zeros(POSE_END - POSE)
    pose[R_STAGE - POSE + STAGE_INDEX[condition]] = 1
    if condition == FINISHED:
        pose[R_PLACE - POSE] = (where + 1) / SLOTS
    else:
        finish = course.line_of[course.square(0, course.finish_index[0])]
        pose[R_LANE - POSE + course.lane_of[where]] = 1
        pose[R_PROGRESS - POSE] = min(1.0, course.line_of[where] / finish)
        if condition == RACING:
            pose[R_LIMIT - POSE + LIMIT_INDEX[limit]] = 1
    return _POSES.setdefault((course, condition, where, limit), pose)


_NO_ORDER = _zeros(3)
#: the order block of the racing horse at a place of the order: moved, to move, moving now
_ORDER_BLOCKS = tuple(tuple(array("f", (to_move, current, (place + 1) / SLOTS))
                            for to_move, current in ((0, 0), (1, 0), (1, 1))) for place in range(SLOTS))
_NO_RACE_GLOBALS = _zeros(RACE_GLOBALS.stop - RACE_GLOBALS.start)
_NO_MEETING_GLOBALS = _zeros(MEETING_GLOBALS.stop - MEETING_GLOBALS.start)
_NO_DECISION = _zeros(DECISION_ENTRIES.stop - DECISION_ENTRIES.start)
_NO_HAND = _zeros(len(CARD_KINDS))
#: the decision's entries by kind, with its points and steps (a square) or cards to give up (keep)
_DECISION_BLOCKS: dict[Any, array] = {}


def _decision_block(key: Any) -> array:
    kind, *numbers = (key,) if isinstance(key, str) else key
    block = _zeros(DECISION_ENTRIES.stop - DECISION_ENTRIES.start)
    block[DECISION_INDEX[kind]] = 1
    at = G_POINTS_IN_MOVE - G_DECISION
    if kind == "square":
        block[at] = min(1.0, numbers[0] / MOST_POINTS_IN_A_MOVE)
        block[at + 1] = min(1.0, numbers[1] / MOST_POINTS_IN_A_MOVE)
    elif kind == "keep":
        block[G_TO_DISCARD - G_DECISION] = min(1.0, numbers[0] / 4)
    return _DECISION_BLOCKS.setdefault(key, block)


@lru_cache(maxsize=4096)
def _kinds(hand: tuple[str, ...]) -> tuple[tuple[int, float], ...]:
    """A hand by card kind: (kind, how many / the most of a kind), for each kind held."""
    counts: dict[int, int] = {}
    for card in hand:
        counts[KIND[card]] = counts.get(KIND[card], 0) + 1
    return tuple((kind, _SHARE[count]) for kind, count in counts.items())


#: "nothing seen yet" for what is compared by identity (a pending step may be None)
_UNSEEN = object()


class _Common:
    """One game's common vector (``values``, which ``numbers`` wraps without a copy), what it
    was brought up to date with, and the seats' index maps. A race's part is brought up to date
    from the race's history since the last look and what a new round, the turn or the deal
    change (:meth:`_race`); what no event records is compared with what was seen last."""

    def __init__(self, state: Game) -> None:
        self.meeting = isinstance(state, Meeting)
        self.ids = tuple(state.ids)
        self.owners = tuple([state.owner[horse] for horse in self.ids])
        self.seats = state.players if self.meeting else state.seats
        self.starts = tuple(HORSE_ROWS + number * ROW for number in range(len(self.ids)))
        self.start_of = dict(zip(self.ids, self.starts))
        self.pick = _picker(self.ids)
        self.base = _zeros(COMMON_SIZE)
        self.base[ONE] = 1
        course = state.course_name if self.meeting else state.course.name
        if course in COURSE_NAMES:
            self.base[G_COURSE + COURSE_NAMES.index(course)] = 1
        self.base[G_STEEPLECHASE] = state.steeplechase
        self.base[G_SEATS] = self.seats / SLOTS
        self.values = self.base[:]
        self.numbers = np.frombuffer(self.values, _FLOAT32)
        #: by seat: (its index map as an onlooker, as the decider)
        self.maps = {seat: _index_maps(self.owners, self.seats, seat) for seat in range(self.seats)}
        self._restart(None)

    def _restart(self, race: Race | None) -> None:
        """Back to the entries that never change in a game, nothing seen: a new race (or none)."""
        self.values[:] = self.base  # in place: NumPy's view of it stays valid
        self.race = race
        self.read = 0
        self.played: dict[int, int] = {}
        self.round_no: int | None = None
        self.limits: dict[str, int] = {}
        self.turn = 0
        self.dealt = False
        self.roller: int | None = None
        self.unclaimed: list[str] | None = None
        self.held: tuple = (None,) * len(self.ids)
        self.meeting_globals: tuple | None = None
        self.meeting_events = -1
        self.claimed: tuple | None = None
        self.drawn: tuple | None = None
        self.pending: Any = _UNSEEN
        #: the seat whose decision is pending (-1: none)
        self.decider = -1
        self.points: list[int] | None = None

    def update(self, state: Game, points: list[int] | None) -> None:
        race = state if not self.meeting else state.race if state.phase == "race" else None
        if race is not self.race:
            self._restart(race)
        if race is not None:
            self._race(race)
        else:
            self._hands(state.hands)
        if self.meeting and (race is None or len(state.events) != self.meeting_events):
            self._meeting(state)
        pending = state.pending()
        if pending is not self.pending:
            self._decision(pending)
        if points is None:
            points = points_so_far(state)
        if points != self.points:
            self.points = list(points)
            for seat, earned in enumerate(points):
                self.values[G_SCORES + seat] = earned / MOST_POINTS

    # -- the race: its history is the record of what changed ----------------------------------------
    def _race(self, race: Race) -> None:
        """Brought up to date with the race's events since the last look (a card played changes
        the cards played and the hand; a move or a finish, the horse's pose and, once it no longer
        races, its place in the move order; a roll or the dice's use, the race's globals), then
        with what a new round changes (the move order, the handicaps), the turn and the deal."""
        new_round = race.round_no != self.round_no
        history = race.history
        if self.read < len(history):
            self._events(race, history, new_round and self.round_no is None)
        dealt = race.hands is not None
        if dealt and (not self.dealt or race.bonus_unclaimed is not self.unclaimed):
            self.unclaimed = race.bonus_unclaimed  # replaced, never changed, when cards are added (T8)
            for number, horse in enumerate(self.ids):
                self._hand(number, race.hands[horse])
        if new_round or dealt != self.dealt:
            self.dealt = dealt
            self._new_round(race, new_round)
        elif race.turn != self.turn:
            self._turn(race)
        if new_round or race.roller != self.roller:
            self._race_globals(race)

    def _events(self, race: Race, history: list[dict[str, Any]], first_look: bool) -> None:
        start_of, values = self.start_of, self.values
        for event in history[self.read:]:
            kind = event["event"]
            if kind == "move" or kind == "finish":
                if not first_look:  # (at the first look every pose is written afterwards)
                    horse = event["horse"]
                    self._pose(race, horse)
                    if race.stage[horse] != RACING:  # fallen or finished: out of the move order
                        start = start_of[horse] + ORDER_BLOCK
                        values[start:start + 3] = _NO_ORDER
            elif kind == "card":
                horse, card = event["horse"], event["card"]
                entry = start_of[horse] + R_PLAYED + KIND[card]
                played = self.played[entry] = self.played.get(entry, 0) + 1
                values[entry] = played / MOST_OF_A_KIND
                hand = race.hands[horse]
                values[start_of[horse] + R_CARDS] = _CARD_COUNT[min(len(hand), MOST_CARDS)]
                values[start_of[horse] + R_HAND + KIND[card]] = _SHARE[hand.count(card)]
            elif kind == "roll" or kind == "dice_use":
                self.roller = None  # the race's globals are written again
        self.read = len(history)

    def _pose(self, race: Race, horse: str) -> None:
        condition = race.stage[horse]
        key = ((race.course, condition, race.square[horse], race.limits.get(horse)) if condition != FINISHED
               else (race.course, FINISHED, race.places.index(horse), None))
        pose = _POSES.get(key)
        start = self.start_of[horse]
        self.values[start + POSE:start + POSE_END] = pose if pose is not None else _pose(*key)

    def _new_round(self, race: Race, new_round: bool) -> None:
        """The poses of the horses whose handicap changed (all at the first look), and the whole
        move order."""
        if new_round:
            limits, before = race.limits, self.limits
            first_look = self.round_no is None
            for horse in self.ids:
                if first_look or limits.get(horse) != before.get(horse):
                    self._pose(race, horse)
            self.round_no, self.limits = race.round_no, limits  # replaced, never changed, at each round
        values = self.values
        for start in self.starts:
            values[start + ORDER_BLOCK:start + ORDER_END] = _NO_ORDER
        self._order(race, range(len(race.order)))

    def _turn(self, race: Race) -> None:
        """The move order's rows between the turn last seen and the turn now: when one horse has
        moved since, it has moved (no longer to move nor moving), and the next one moves now."""
        turn, was, order = race.turn, self.turn, race.order
        if turn != was + 1:
            self._order(race, range(min(turn, was), min(max(turn, was) + 1, len(order))))
            return
        self.turn = turn
        stage, start_of, values = race.stage, self.start_of, self.values
        if stage[order[was]] == RACING:
            start = start_of[order[was]]
            values[start + R_TO_MOVE] = values[start + R_CURRENT] = 0
        if turn < len(order) and self.dealt and stage[order[turn]] == RACING:
            values[start_of[order[turn]] + R_CURRENT] = 1

    def _order(self, race: Race, places: range) -> None:
        """The racing horses' places in this round's move order at ``places``: moved, to move, or
        moving now (the one at the turn, once dealt: race.current_horse())."""
        order, turn, dealt, stage = race.order, race.turn, self.dealt, race.stage
        start_of, values, offset = self.start_of, self.values, ORDER_BLOCK
        for place in places:
            horse = order[place]
            if stage[horse] == RACING:
                start = start_of[horse] + offset
                values[start:start + 3] = _ORDER_BLOCKS[place][0 if place < turn else 2 if place == turn and dealt else 1]
        self.turn = turn

    def _race_globals(self, race: Race) -> None:
        """The round and its kind, the dice, their use and the roller (by seat number)."""
        self.roller = race.roller
        values = self.values
        values[RACE_GLOBALS] = _NO_RACE_GLOBALS
        values[G_ROUND_KIND + (0 if race.round_kind == CARD_ROUND else 1)] = 1
        values[G_ROUND] = min(1.0, race.round_no / MOST_ROUNDS)
        if race.dice:
            values[G_DICE + race.dice[0] - 1] = 1
            values[G_DICE + DIE_FACES + race.dice[1] - 1] = 1
        if race.dice_use:
            values[G_DICE_USE + (0 if race.dice_use["use"] == "sum" else race.dice_use["value"])] = 1
        values[G_ROLLER + race.roller] = 1

    # -- hands, the meeting, the decision ---------------------------------------------------------
    def _hand(self, number: int, hand: list[str]) -> None:
        """A horse's card count and its hand by kind (its owner's index map reads the hand)."""
        start = self.starts[number]
        values = self.values
        values[start + R_CARDS] = _CARD_COUNT[min(len(hand), MOST_CARDS)]
        values[start + R_HAND:start + R_HAND + len(CARD_KINDS)] = _NO_HAND
        for kind, share in _kinds(tuple(hand)):
            values[start + R_HAND + kind] = share

    def _hands(self, hands: dict[str, list[str]]) -> None:
        """Between races: the hands that differ from the copies kept."""
        held = self.pick(hands)
        if held == self.held:
            return
        for number, (hand, was) in enumerate(zip(held, self.held)):
            if hand != was:
                self._hand(number, hand)
        self.held = tuple([hand[:] for hand in held])

    def _meeting(self, meeting: Meeting) -> None:
        """The race of the meeting and its phase; whether each horse has taken its bonus cards,
        and how much of its deck is left (T8). During a race (the same race, the same phase) only
        a claim changes these, and a claim is one of the meeting's events."""
        self.meeting_events = len(meeting.events)
        values, starts = self.values, self.starts
        now = (meeting.race_no, meeting.phase)
        if now != self.meeting_globals:
            self.meeting_globals = now
            values[MEETING_GLOBALS] = _NO_MEETING_GLOBALS
            values[G_RACE + max(0, meeting.race_no - 1)] = 1
            values[G_PHASE + PHASE_INDEX[meeting.phase]] = 1
        claimed, drawn = self.pick(meeting.claimed), self.pick(meeting.drawn)
        if claimed != self.claimed:
            for number, race_no in enumerate(claimed):
                values[starts[number] + R_BONUS] = race_no is not None
            self.claimed = claimed
        if drawn != self.drawn:
            for number, count in enumerate(drawn):
                values[starts[number] + R_DECK] = (DECK_SIZE - count) / DECK_SIZE
            self.drawn = drawn

    def _decision(self, pending: Any) -> None:
        """The kind of the pending decision and what its context says in numbers (the decider's
        index map reads them, the others' do not)."""
        self.pending = pending
        if pending.__class__ is not Decision:
            self.decider = -1
            self.values[DECISION_ENTRIES] = _NO_DECISION
            return
        self.decider = pending.seat
        kind = pending.kind
        key = ((kind, pending.context["points"], pending.context["steps"]) if kind == "square"
               else (kind, pending.context["to_discard"]) if kind == "keep" else kind)
        block = _DECISION_BLOCKS.get(key)
        self.values[DECISION_ENTRIES] = block if block is not None else _decision_block(key)


#: each game's common vector
_COMMON: PerGame[_Common] = PerGame(_Common)
