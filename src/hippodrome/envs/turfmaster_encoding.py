"""TurfMaster for learning programs: one fixed integer action space, shared by the PettingZoo and
Gymnasium environments and the OpenSpiel games.

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

The observation vector is :mod:`hippodrome.envs.turfmaster_observation`'s.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from hippodrome.core.game import Action, Decision, Game
from hippodrome.envs.actions import mask_of
from hippodrome.envs.features import Layout
from hippodrome.envs.per_game import PerGame
from hippodrome.turfmaster.cards import card_value, full_deck, is_joker
from hippodrome.turfmaster.course import Course
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race

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


def _slots_of(state: Game) -> dict[int, tuple[str, ...]]:
    slots: dict[int, tuple[str, ...]] = {}
    for horse in state.ids:
        slots[state.owner[horse]] = slots.get(state.owner[horse], ()) + (horse,)
    return slots


#: each game's seats' horses in the game's order (their slots): they never change in a game
_slots = PerGame(_slots_of).of


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
    if kind == "square":  # a move's ends (a meeting adds bonus claims)
        race = running_race(state)
        ends = _square_ids(race.course, race.square[decision.context["horse"]])
        try:
            return {ends[option["lane"]][option["square"]] if option["type"] == "square"
                    else encode(option, frame_of(state, decision)): option for option in options}
        except (IndexError, KeyError):  # an end beyond the encoding's reach: encode() below says so
            pass
    frame = frame_of(state, decision)
    return {encode(option, frame): option for option in options}


@lru_cache(maxsize=1 << 12)
def _square_ids(course: Course, start: int) -> tuple[dict[int, int], ...]:
    """The id of each end a move from ``start`` may have, by lane then square index."""
    return tuple({level + ahead: SQUARE + lane * REACH + ahead for ahead in range(REACH)}
                 for lane, level in enumerate(_levels(course, start)))


def action_mask(legal: dict[int, Action] | None) -> np.ndarray:
    """1 for each legal id (none when the seat has nothing to decide)."""
    return mask_of(legal, ACTIONS)
