"""TurfMaster for learning programs: one fixed integer action space and one observation vector,
shared by the PettingZoo and Gymnasium environments and the OpenSpiel games.

Actions (:data:`ACTIONS` ids, every option of every decision of a race or a meeting is exactly one):

==========  =====  ===========================================================================
block       size   option
==========  =====  ===========================================================================
card        8x13   ``card`` of the seat's horse in slot s (its s-th horse in the game's order),
                   one id per card kind (3, 4, 6 ... 12, then the jokers J9 ... J12)
square      8x16   ``square``: the end lane (0 = rail), and how many squares along that lane the
                   end lies ahead of the square level with the horse's start (see below)
dice_use    7      the roller's choice: the sum, or die 1 ... 6
die         6      a handicapped horse moves one die (T6): its value 1 ... 6
claim       8      ``claim_bonus`` for the horse in slot s (T8)
decline     8      ``decline_bonus`` for the horse in slot s
discard     8x13   ``discard`` one card of a kind from the hand of the horse in slot s
stand_still 1      ``stand_still``: a card-round turn finds the horse's hand empty, its bonus
                   cards unclaimed, and its owner lets it stand still (T8)
==========  =====  ===========================================================================

Squares are encoded relative to the move, not as one of the course's 1100-odd squares: a move
ends at most 12 points ahead, and with at most two lane changes (T3); its ends in one lane are
distinct squares of that lane, so (lane, squares ahead of the lane's square level with the start)
names each end of a move once, on either course, in 128 ids that mean the same thing everywhere
("the rail, 8 squares on"). A policy learns one meaning per id instead of one per square of the
board. :data:`REACH` bounds how far ahead an end can lie; :func:`encode` refuses a square beyond.

Slots are the deciding seat's own horses in the game's order (a meeting's seat order, a race's
setup order), so the card and claim ids of "my first horse" are the same whatever its colour.

The observation (:func:`observe`, :data:`OBSERVATION_SIZE` floats in [0, 1]) holds only what the
engine's ``view(seat)`` shows: public positions, statuses, handicaps, card counts, the cards each
horse has played in this race (public: played face up), the seat's own hands, the round, the
dice, the roller, the points so far and the decision in front of the seat. One row per horse,
the seat's own horses first (in slot order, so row s is slot s), then the others in game order.
"""

from __future__ import annotations

import bisect
import weakref
from array import array
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, NamedTuple

import numpy as np

from hippodrome.core.game import Action, Decision, Game
from hippodrome.envs.actions import mask_of
from hippodrome.envs.features import Layout
from hippodrome.envs.turfmaster_points import points_so_far
from hippodrome.turfmaster.cards import BONUS_CARDS, HAND_SIZE, card_value, full_deck, is_joker
from hippodrome.turfmaster.course import COURSE_NAMES, Course
from hippodrome.turfmaster.meeting import RACES, Meeting
from hippodrome.turfmaster.race import CARD_ROUND, FALLEN, FINISHED, RACING, Race
from hippodrome.turfmaster.scoring import PLACE_POINTS

#: card kinds by value, each plain card before its joker
CARD_KINDS: tuple[str, ...] = tuple(sorted(dict.fromkeys(full_deck()), key=lambda c: (card_value(c), is_joker(c))))
KIND: dict[str, int] = {card: number for number, card in enumerate(CARD_KINDS)}
SLOTS = 8
LANES = 8
#: squares along a lane that an end of a move may lie ahead of the start's level (12 points at most)
REACH = 16
DIE_FACES = 6


_blocks = Layout()
CARD = _blocks.add("card", SLOTS * len(CARD_KINDS))
SQUARE = _blocks.add("square", LANES * REACH)
DICE_USE = _blocks.add("dice_use", 1 + DIE_FACES)
DIE = _blocks.add("die", DIE_FACES)
CLAIM = _blocks.add("claim", SLOTS)
DECLINE = _blocks.add("decline", SLOTS)
DISCARD = _blocks.add("discard", SLOTS * len(CARD_KINDS))
STAND_STILL = _blocks.add("stand_still", 1)
#: the number of action ids, and where each block of them starts
ACTIONS = _blocks.size
ACTION_BLOCKS = dict(_blocks.fields)


class _PerGame:
    """What is kept per game object, by key (weakly: it goes with the game), the last game asked
    about at hand (an environment asks about one game over and over; holding it keeps it alive
    until another is asked about, so its identity is never reused meanwhile)."""

    def __init__(self) -> None:
        self._kept: "weakref.WeakKeyDictionary[Game, dict]" = weakref.WeakKeyDictionary()
        self._last: Game | None = None
        self._last_kept: dict = {}

    def of(self, game: Game) -> dict:
        if game is not self._last:
            kept = self._kept.get(game)
            if kept is None:
                kept = self._kept[game] = {}
            self._last, self._last_kept = game, kept
        return self._last_kept


# -- the context of a decision ------------------------------------------------------------------
class Frame(NamedTuple):
    """What turns a decision's options into ids and back: the deciding seat's horses (slot order),
    the horse the decision is about, and for a square the course and the square it starts from.
    (A named tuple: one is made at every decision.)"""

    seat: int
    horses: tuple[str, ...]
    horse: str | None = None
    course: Course | None = None
    start: int | None = None


def running_race(state: Game) -> Race | None:
    """The race being run: a race itself, or a meeting's current race (None between races)."""
    if isinstance(state, Race):
        return state
    return state.race if state.phase == "race" else None


def frame_of(state: Game, decision: Decision) -> Frame:
    horses = _slots(state).get(decision.seat, ())
    horse = decision.context.get("horse")
    if decision.kind != "square":
        return Frame(decision.seat, horses, horse)
    race = running_race(state)
    return Frame(decision.seat, horses, horse, race.course, race.square[horse])


#: each game's seats' horses in the game's order (their slots): they never change in a game
_SLOTS = _PerGame()


def _slots(state: Game) -> dict[int, tuple[str, ...]]:
    slots = _SLOTS.of(state)
    if not slots:
        for horse in state.ids:
            slots[state.owner[horse]] = slots.get(state.owner[horse], ()) + (horse,)
    return slots


# -- squares, relative to the move ----------------------------------------------------------------
@lru_cache(maxsize=None)
def _lane_lines(course: Course) -> tuple[list[int], ...]:
    """Each lane's lines in index order (rising: a lane runs forward)."""
    lanes: list[list[tuple[int, int]]] = [[] for _ in range(course.lanes)]
    for square in range(len(course)):
        lanes[course.lane_of[square]].append((course.index_of[square], course.line_of[square]))
    return tuple([line for _, line in sorted(lane)] for lane in lanes)


@lru_cache(maxsize=1 << 16)
def level_index(course: Course, start: int, lane: int) -> int:
    """The index of the first square of ``lane`` level with ``start`` or ahead of it."""
    return bisect.bisect_left(_lane_lines(course)[lane], course.line_of[start])


@lru_cache(maxsize=1 << 12)
def _levels(course: Course, start: int) -> tuple[int, ...]:
    """:func:`level_index` of each lane the encoding reaches (at most :data:`LANES`)."""
    return tuple(level_index(course, start, lane) for lane in range(min(course.lanes, LANES)))


def square_id(course: Course, start: int, lane: int, index: int) -> int:
    ahead = index - level_index(course, start, lane)
    if not 0 <= ahead < REACH or not 0 <= lane < LANES:
        raise ValueError(f"lane {lane} square {index} lies {ahead} squares ahead of the start: "  # i18n: programming error
                         f"outside the encoding's reach of {REACH}")
    return SQUARE + lane * REACH + ahead


# -- options <-> ids ------------------------------------------------------------------------------
def encode(option: Action, frame: Frame) -> int:
    """The id of ``option``, one of the options of the decision ``frame`` was made for."""
    kind = option["type"]
    if kind == "card":
        return CARD + frame.horses.index(option["horse"]) * len(CARD_KINDS) + KIND[option["card"]]
    if kind == "square":
        return square_id(frame.course, frame.start, option["lane"], option["square"])
    if kind == "dice_use":
        return DICE_USE + (0 if option["use"] == "sum" else option["value"])
    if kind == "die":
        return DIE + option["value"] - 1
    if kind == "claim_bonus":
        return CLAIM + frame.horses.index(option["horse"])
    if kind == "decline_bonus":
        return DECLINE + frame.horses.index(option["horse"])
    if kind == "discard":
        return DISCARD + frame.horses.index(option["horse"]) * len(CARD_KINDS) + KIND[option["card"]]
    if kind == "stand_still":
        return STAND_STILL
    raise ValueError(f"no TurfMaster action id for {option!r}")  # i18n: programming error


def decode(action_id: int, frame: Frame) -> Action:
    """The option an id stands for in the decision ``frame`` was made for (whether that decision
    allows it is the engine's to say)."""
    action_id = int(action_id)
    for start, size, make in _DECODERS:
        if start <= action_id < start + size:
            return make(action_id - start, frame)
    raise ValueError(f"{action_id} is not a TurfMaster action id (0 to {ACTIONS - 1})")  # i18n: programming error


def _slot_horse(frame: Frame, slot: int) -> str:
    if slot >= len(frame.horses):
        raise ValueError(f"seat {frame.seat} has no horse in slot {slot}")  # i18n: programming error
    return frame.horses[slot]


def _card(offset: int, frame: Frame) -> Action:
    slot, kind = divmod(offset, len(CARD_KINDS))
    return {"type": "card", "horse": _slot_horse(frame, slot), "card": CARD_KINDS[kind]}


def _square(offset: int, frame: Frame) -> Action:
    lane, ahead = divmod(offset, REACH)
    if frame.start is None or lane >= frame.course.lanes:
        raise ValueError("a square id answers a square decision only")  # i18n: programming error
    return {"type": "square", "horse": frame.horse, "lane": lane,
            "square": level_index(frame.course, frame.start, lane) + ahead}


def _dice_use(offset: int, frame: Frame) -> Action:
    return {"type": "dice_use", "use": "sum"} if offset == 0 else {"type": "dice_use", "use": "die", "value": offset}


def _die(offset: int, frame: Frame) -> Action:
    return {"type": "die", "horse": frame.horse, "value": offset + 1}


def _claim(offset: int, frame: Frame) -> Action:
    return {"type": "claim_bonus", "horse": _slot_horse(frame, offset)}


def _decline(offset: int, frame: Frame) -> Action:
    return {"type": "decline_bonus", "horse": _slot_horse(frame, offset)}


def _discard(offset: int, frame: Frame) -> Action:
    slot, kind = divmod(offset, len(CARD_KINDS))
    return {"type": "discard", "horse": _slot_horse(frame, slot), "card": CARD_KINDS[kind]}


def _stand_still(offset: int, frame: Frame) -> Action:
    return {"type": "stand_still", "horse": frame.horse}


_DECODERS = tuple((*ACTION_BLOCKS[name], make) for name, make in (
    ("card", _card), ("square", _square), ("dice_use", _dice_use), ("die", _die), ("claim", _claim),
    ("decline", _decline), ("discard", _discard), ("stand_still", _stand_still)))


def describe(action_id: int) -> str:
    """An id in words a program's log can carry, whatever the decision ("card slot 0 J12",
    "square lane 1 +7", "dice_use die 4")."""
    for name, (start, size) in ACTION_BLOCKS.items():
        if start <= action_id < start + size:
            offset = action_id - start
            if name in ("card", "discard"):
                slot, kind = divmod(offset, len(CARD_KINDS))
                return f"{name} slot {slot} {CARD_KINDS[kind]}"
            if name == "square":
                lane, ahead = divmod(offset, REACH)
                return f"square lane {lane} +{ahead}"
            if name == "dice_use":
                return "dice_use sum" if offset == 0 else f"dice_use die {offset}"
            if name == "die":
                return f"die {offset + 1}"
            if name == "stand_still":
                return name
            return f"{name} slot {offset}"
    return f"invalid {action_id}"


def legal_actions(state: Game, decision: Decision) -> dict[int, Action]:
    """Every option of ``decision`` by its id, in the options' order (``sorted()`` for ids ascending).
    The commonest decisions (one horse's cards, a move's squares) take a short way: no
    :class:`Frame` unless an option needs it."""
    kind, options = decision.kind, decision.options
    if kind == "card":  # one horse's cards (a meeting adds bonus claims)
        base = CARD + _slots(state)[decision.seat].index(decision.context["horse"]) * len(CARD_KINDS)
        return {base + KIND[option["card"]] if option["type"] == "card" else encode(option, frame_of(state, decision)):
                option for option in options}
    if kind == "square":
        race = running_race(state)
        levels = _levels(race.course, race.square[decision.context["horse"]])
        legal = {}
        for option in options:
            lane = option.get("lane", -1)
            ahead = option["square"] - levels[lane] if 0 <= lane < len(levels) else -1
            legal[SQUARE + lane * REACH + ahead if 0 <= ahead < REACH and option["type"] == "square"
                  else encode(option, frame_of(state, decision))] = option  # else encode() says what is wrong
        return legal
    frame = frame_of(state, decision)
    return {encode(option, frame): option for option in options}


def action_mask(legal: dict[int, Action] | None) -> np.ndarray:
    """1 for each legal id (none when the seat has nothing to decide)."""
    return mask_of(legal, ACTIONS)


# -- the observation ------------------------------------------------------------------------------
STATUSES = (RACING, FINISHED, FALLEN)
STATUS_INDEX = {status: number for number, status in enumerate(STATUSES)}
LIMITS = (None, 8, 9, 10)
LIMIT_INDEX = {limit: number for number, limit in enumerate(LIMITS)}
DECISIONS = ("card", "square", "dice_use", "die", "claim_bonus", "keep", "empty_hand")
DECISION_INDEX = {kind: number for number, kind in enumerate(DECISIONS)}
PHASES = ("setup", "prepare", "race", "over")
PHASE_INDEX = {phase: number for number, phase in enumerate(PHASES)}
MOST_OF_A_KIND = max(full_deck().count(card) for card in CARD_KINDS)
DECK_SIZE = len(full_deck())
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
R_STATUS = _row.add("status", len(STATUSES))
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


def observe(state: Game, seat: int, points: list[int] | None = None) -> np.ndarray:
    """What ``seat`` knows of ``state`` (a race or a meeting), as :data:`OBSERVATION_SIZE` floats.

    Written entry by entry into a flat ``array("f")`` (a Python-level store costs a fraction of
    one into a NumPy array), which NumPy then wraps without a copy. The entries that never change
    in a game, and the cards played so far in the race (they only add up), are kept per seat and
    copied in one go. ``points`` are :func:`points_so_far` when the caller has them already."""
    meeting = state if isinstance(state, Meeting) else None
    race = state if meeting is None else state.race if state.phase == "race" else None
    seating = _seating(state, seat)
    if race is not None:
        vector = _race_start(race, seat, seating)[:]
        _race_globals(vector, race, seat, seating.seats)
    else:
        vector = seating.base[:]
        _hand_rows(vector, meeting.hands.__getitem__, seating)
    if meeting is not None:
        _meeting_rows(vector, meeting, seating)
    _decision(vector, state.pending(), seat)
    for other, earned in enumerate(points_so_far(state) if points is None else points):
        if earned:
            vector[G_SCORES + (other - seat) % seating.seats] = earned / MOST_POINTS
    return np.frombuffer(vector, _FLOAT32)


def _hand_rows(vector: array, hands: Callable[[str], list[str]], seating: "_Seating") -> None:
    """Every horse's card count; the seat's own horses' cards, by kind."""
    mine = seating.mine
    for number, (start, horse) in enumerate(zip(seating.starts, seating.rows)):
        hand = hands(horse)
        if hand:
            vector[start + R_CARDS] = _CARD_COUNT[min(len(hand), MOST_CARDS)]
            if number < mine:
                for kind, value in _kinds(tuple(hand)):
                    vector[start + R_HAND + kind] = value


@lru_cache(maxsize=4096)
def _kinds(hand: tuple[str, ...]) -> tuple[tuple[int, float], ...]:
    """A hand by card kind: (kind, how many / the most of a kind), for each kind held."""
    counts: dict[int, int] = {}
    for card in hand:
        counts[KIND[card]] = counts.get(KIND[card], 0) + 1
    return tuple((kind, count / MOST_OF_A_KIND) for kind, count in counts.items())


def _meeting_rows(vector: array, meeting: Meeting, seating: "_Seating") -> None:
    """Whether each horse has taken its bonus cards, and how much of its deck is left (T8)."""
    vector[G_RACE + max(0, meeting.race_no - 1)] = 1
    vector[G_PHASE + PHASE_INDEX[meeting.phase]] = 1
    claimed, drawn = meeting.claimed, meeting.drawn
    for start, horse in zip(seating.starts, seating.rows):
        if claimed[horse] is not None:
            vector[start + R_BONUS] = 1
        vector[start + R_DECK] = (DECK_SIZE - drawn[horse]) / DECK_SIZE


def _decision(vector: array, decision: Any, seat: int) -> None:
    """The kind of the decision in front of the seat, and what its context says in numbers."""
    if not isinstance(decision, Decision) or decision.seat != seat:
        return
    vector[G_DECISION + DECISION_INDEX[decision.kind]] = 1
    context = decision.context
    if decision.kind == "square":
        vector[G_POINTS_IN_MOVE] = min(1.0, context["points"] / MOST_POINTS_IN_A_MOVE)
        vector[G_POINTS_IN_MOVE + 1] = min(1.0, context["steps"] / MOST_POINTS_IN_A_MOVE)
    elif decision.kind == "keep":
        vector[G_TO_DISCARD] = min(1.0, context["to_discard"] / 4)


@dataclass(frozen=True)
class _Seating:
    """One seat's rows (its own horses first) and the entries that never change in a game."""

    rows: tuple[str, ...]
    starts: tuple[int, ...]
    #: where each horse's row starts
    start_of: dict[str, int]
    #: how many of the rows are the seat's own horses (the first ones)
    mine: int
    #: the entries that never change, as the ``array("f")`` every observation starts from
    base: array
    seats: int
    #: a dict by horse -> its values in row order, as a tuple
    pick: Callable[[dict], tuple]


#: each game's seatings, by seat (a game's horses, owners, course and seats never change)
_SEATINGS = _PerGame()


def _seating(state: Game, seat: int) -> _Seating:
    seatings = _SEATINGS.of(state)
    seating = seatings.get(seat)
    if seating is None:
        meeting = isinstance(state, Meeting)
        seating = seatings[seat] = _seating_of(
            tuple(state.ids), tuple([state.owner[h] for h in state.ids]), state.players if meeting else state.seats,
            seat, state.course_name if meeting else state.course.name, state.steeplechase)
    return seating


@lru_cache(maxsize=256)
def _seating_of(ids: tuple[str, ...], owners: tuple[int, ...], seats: int, seat: int, course: str,
                steeplechase: bool) -> _Seating:
    owner = dict(zip(ids, owners))
    rows = tuple([h for h in ids if owner[h] == seat] + [h for h in ids if owner[h] != seat])
    starts = tuple(HORSE_ROWS + number * ROW for number in range(len(rows)))
    base = array("f", bytes(4 * OBSERVATION_SIZE))
    for start, horse in zip(starts, rows):
        base[start + R_PRESENT] = 1
        base[start + R_MINE] = owner[horse] == seat
        base[start + R_OWNER + (owner[horse] - seat) % seats] = 1
    if course in COURSE_NAMES:
        base[G_COURSE + COURSE_NAMES.index(course)] = 1
    base[G_STEEPLECHASE] = steeplechase
    base[G_SEATS] = seats / SLOTS
    return _Seating(rows, starts, dict(zip(rows, starts)), sum(1 for h in ids if owner[h] == seat), base, seats,
                    _picker(rows))


def _picker(keys: tuple[str, ...]) -> Callable[[dict], tuple]:
    """``pick(d)``: the tuple of ``d``'s values for ``keys``, in their order (an ``itemgetter``:
    C-fast, except that of one key it gives the value itself)."""
    if len(keys) == 1:
        return lambda values: (values[keys[0]],)
    return itemgetter(*keys)


#: a horse's pose in a race (its row's entries from its status to its handicap, one block),
#: by (course, status, square or finishing place, handicap limit)
_POSES: dict[tuple, array] = {}
POSE, POSE_WIDTH = R_STATUS, R_LIMIT + len(LIMITS) - R_STATUS


def _pose(course: Course, condition: str, where: int, limit: int | None) -> array:
    pose = array("f", bytes(4 * POSE_WIDTH))
    pose[R_STATUS - POSE + STATUS_INDEX[condition]] = 1
    if condition == FINISHED:
        pose[R_PLACE - POSE] = (where + 1) / SLOTS
        return pose
    finish = course.line_of[course.square(0, course.finish_index[0])]
    pose[R_LANE - POSE + course.lane_of[where]] = 1
    pose[R_PROGRESS - POSE] = min(1.0, course.line_of[where] / finish)
    if condition == RACING:
        pose[R_LIMIT - POSE + LIMIT_INDEX[limit]] = 1
    return _POSES.setdefault((course, condition, where, limit), pose)


#: a row's entries on the round's move order, one block: still to move, moves now, place in the order
ORDER_BLOCK = R_TO_MOVE
assert (R_CURRENT, R_ORDER) == (R_TO_MOVE + 1, R_TO_MOVE + 2), "the move order's entries are one block"
_NO_ORDER = array("f", bytes(4 * 3))
#: the block of the horse at a place of the order (racing): moved, to move, moving now
_ORDER_BLOCKS = tuple(tuple(array("f", (to_move, current, (place + 1) / SLOTS))
                            for to_move, current in ((0, 0), (1, 0), (1, 1))) for place in range(SLOTS))


def _race_order(vector: array, race: Race, kept: "_Kept", seating: _Seating) -> None:
    """The horses' places in this round's move order, which are still to move, which moves now;
    written in the seat's kept vector, for the rows that changed since its last look (those
    between the turn then and the turn now, when the order and the statuses are the same)."""
    order, turn, dealt = race.order, race.turn, race.hands is not None
    rows = range(len(order))
    if kept.order is None or kept.order[1] != kept.seen[1] or dealt != kept.order[2] or order != kept.order[0]:
        for start in seating.starts:
            vector[start + ORDER_BLOCK:start + ORDER_BLOCK + 3] = _NO_ORDER
        kept.order = (order[:], kept.seen[1], dealt)
    elif turn != kept.turn:
        rows = range(min(turn, kept.turn), min(max(turn, kept.turn) + 1, len(order)))
    else:
        return
    kept.turn = turn
    status, start_of = race.status, seating.start_of
    for place in rows:
        horse = order[place]
        if status[horse] == RACING:  # the one at the turn moves now (race.current_horse()) once dealt
            start = start_of[horse] + ORDER_BLOCK
            vector[start:start + 3] = _ORDER_BLOCKS[place][0 if place < turn else 2 if place == turn and dealt else 1]


def _race_globals(vector: array, race: Race, seat: int, seats: int) -> None:
    vector[G_ROUND_KIND + (0 if race.round_kind == CARD_ROUND else 1)] = 1
    vector[G_ROUND] = min(1.0, race.round_no / MOST_ROUNDS)
    if race.dice:
        vector[G_DICE + race.dice[0] - 1] = 1
        vector[G_DICE + DIE_FACES + race.dice[1] - 1] = 1
    if race.dice_use:
        vector[G_DICE_USE + (0 if race.dice_use["use"] == "sum" else race.dice_use["value"])] = 1
    vector[G_ROLLER + (race.roller - seat) % seats] = 1


class _Kept:
    """A seat's vector in a race, kept from one observation to the next and brought up to date
    with what changed since: the cards played (from the history, played face up: public), each
    horse's pose and card count, the seat's own hands. Everything else of an observation is
    written afresh each time. What the seat last saw of the horses (their squares, statuses and
    limits, in row order; the hands' sizes) is kept too: when it is what the race shows now, the
    rows' poses (or card counts) are up to date without a look at each horse."""

    __slots__ = ("read", "vector", "played", "poses", "seen", "cards", "hands", "order", "turn")

    def __init__(self, seating: _Seating) -> None:
        self.read = 0
        self.vector = seating.base[:]
        self.played: dict[int, int] = {}
        self.poses: list[tuple | None] = [None] * len(seating.rows)
        self.seen: tuple | None = None
        self.cards: tuple | None = None
        self.hands: tuple[list[str] | None, ...] = (None,) * seating.mine
        #: the move order, the statuses (row order) and whether the hands were dealt, and the turn
        self.order: tuple | None = None
        self.turn = 0


#: race -> seat -> what that seat's observations of the race start from
_KEPT = _PerGame()


def _race_start(race: Race, seat: int, seating: _Seating) -> array:
    seats = _KEPT.of(race)
    kept = seats.get(seat)
    if kept is None:
        kept = seats[seat] = _Kept(seating)
    vector = kept.vector
    _played(race, kept, seating)
    pick = seating.pick
    squares, statuses, limits = pick(race.square), pick(race.status), race.limits
    seen = kept.seen
    if seen is None or limits != seen[2] or statuses != seen[1]:
        _poses(vector, race, kept.poses, seating, range(len(seating.rows)))
        kept.seen = (squares, statuses, dict(limits))
    elif squares != seen[0]:  # horses moved, nothing else changed: their rows only
        _poses(vector, race, kept.poses, seating,
               [number for number, (now, was) in enumerate(zip(squares, seen[0])) if now != was])
        kept.seen = (squares, statuses, seen[2])
    hands = race.hands
    if hands is not None:
        _cards(vector, hands, kept, seating)
    _race_order(vector, race, kept, seating)
    return vector


def _poses(vector: array, race: Race, poses: list[tuple | None], seating: _Seating, rows: Any) -> None:
    """The pose entries (see :data:`_POSES`) of the ``rows`` (numbers) whose horse's pose changed."""
    status, square, limits, course = race.status, race.square, race.limits, race.course
    starts, horses = seating.starts, seating.rows
    for number in rows:
        horse = horses[number]
        condition = status[horse]
        key = ((course, condition, square[horse], limits.get(horse)) if condition != FINISHED
               else (course, FINISHED, race.places.index(horse), None))
        if key != poses[number]:
            poses[number] = key
            pose = _POSES.get(key)
            start = starts[number] + POSE
            vector[start:start + POSE_WIDTH] = pose if pose is not None else _pose(*key)


def _cards(vector: array, hands: dict[str, list[str]], kept: _Kept, seating: _Seating) -> None:
    """Each row's card count, and the seat's own hands by kind, where they changed."""
    held = seating.pick(hands)
    counts = tuple(map(len, held))
    if counts != kept.cards:
        before = kept.cards or (None,) * len(counts)
        kept.cards = counts
        for start, count, was in zip(seating.starts, counts, before):
            if count != was:
                vector[start + R_CARDS] = _CARD_COUNT[min(count, MOST_CARDS)]
    mine = held[:seating.mine]
    if mine != kept.hands:  # one comparison of the own hands with the copies kept
        for number, (hand, was) in enumerate(zip(mine, kept.hands)):
            if hand != was:
                start = seating.starts[number] + R_HAND
                for card in {*hand, *was} if was else set(hand):  # the kinds held before or now
                    vector[start + KIND[card]] = _SHARE[hand.count(card)]
        kept.hands = tuple([hand[:] for hand in mine])


def _played(race: Race, kept: _Kept, seating: _Seating) -> None:
    """Each horse's cards played in ``race`` since the seat last looked, by kind, over
    :data:`MOST_OF_A_KIND`."""
    history = race.history
    if kept.read < len(history):
        start_of, counts, vector = seating.start_of, kept.played, kept.vector
        for event in history[kept.read:]:
            if event["event"] == "card":
                entry = start_of[event["horse"]] + R_PLAYED + KIND[event["card"]]
                counts[entry] = counts.get(entry, 0) + 1
                vector[entry] = counts[entry] / MOST_OF_A_KIND
        kept.read = len(history)


def observation_fields() -> dict[str, Any]:
    """The layout of the vector, for people reading it: field -> (start, width), and the same for
    one horse's row (rows start at ``horses`` and are ``row_size`` long)."""
    return {"size": OBSERVATION_SIZE, "fields": OBSERVATION_FIELDS, "row_size": ROW, "row_fields": ROW_FIELDS}
