"""A lean copy of a dealt race for search: small ints, card counts and the course's tables.

:class:`SearchRace` plays the rules of :class:`~hippodrome.turfmaster.race.Race` (T1-T6, T9, T11,
T13) on a representation made to be cloned and played on many times a second, as a search bot
does: horses are numbers (their place in ``Race.ids``), squares the course's dense ints, a hand the
count of each kind of card (an immutable tuple, replaced when a card is played, so a clone shares
it), and nothing is kept that a search does not need (no history, no messages, no views).

The race stays the one source of truth: a search state is made from a race
(:meth:`SearchRace.from_race`), its moves come from the same
:func:`~hippodrome.turfmaster.movement.destinations`, its card order and handicap limits from the
same tables, and ``tests/turfmaster/test_search_state.py`` plays thousands of random positions
through both and compares every pending step, every legal option set and every result.

Actions are small ints, listed by :meth:`SearchRace.legal`:

* ``card``: the kind of card (an index into :data:`CARD_KINDS`);
* ``square``: the end square's id; ``die``: the die's value; ``stand_still``: 0;
* ``dice_use``: 0 for the sum, else the value of the die used;
* the ``roll`` chance step: ``6 * (a - 1) + (b - 1)`` for the dice ``(a, b)`` (:func:`roll_action`).

:meth:`SearchRace.action_of` turns one into the race's JSON action and :meth:`SearchRace.lean_action`
back. A race that waits for its deal (no hands yet) has no search state: a search deals the hands
it samples into the race first.
"""

from __future__ import annotations

from itertools import compress, repeat
from typing import Any

from hippodrome.turfmaster.cards import card_value, full_deck, is_joker
from hippodrome.turfmaster.movement import MoveOptions, moves_among
from hippodrome.turfmaster.race import handicap_limits, in_move_order

#: the kinds of card, in the order a card decision lists them (by value, the plain card first)
CARD_KINDS: tuple[str, ...] = tuple(sorted(set(full_deck()), key=lambda card: (card_value(card), is_joker(card))))
KIND_OF: dict[str, int] = {card: kind for kind, card in enumerate(CARD_KINDS)}
KIND_VALUE: tuple[int, ...] = tuple(card_value(card) for card in CARD_KINDS)
KIND_JOKER: tuple[bool, ...] = tuple(is_joker(card) for card in CARD_KINDS)

RACING, FINISHED, FALLEN = 0, 1, 2
_IS_RACING = RACING.__eq__
_KIND_NUMBERS = range(len(CARD_KINDS))
STAGE_NAMES = ("racing", "finished", "fallen")
#: what is pending: the same kinds as the race's decisions and chance step
ROLL, DICE_USE, CARD, DIE, SQUARE, EMPTY_HAND = "roll", "dice_use", "card", "die", "square", "empty_hand"
#: what the current horse waits for (None: nothing yet)
_AWAIT_CARD, _AWAIT_DIE, _AWAIT_SQUARE, _AWAIT_EMPTY = CARD, DIE, SQUARE, EMPTY_HAND


def roll_action(a: int, b: int) -> int:
    """The lean action of the roll ``(a, b)``."""
    return 6 * (a - 1) + (b - 1)


ROLLS: tuple[int, ...] = tuple(range(36))


class SearchRace:
    """A dealt race as a search plays it. See the module docstring."""

    __slots__ = ("course", "fences", "ids", "owner", "seats", "roller", "square", "stage", "places", "fallen",
                 "hands", "round_no", "card_round", "order", "limits", "turn", "dice", "dice_use", "awaiting",
                 "points", "unclaimed", "moves", "kind")

    # -- from and to the race ---------------------------------------------------------
    @classmethod
    def from_race(cls, race: Any) -> "SearchRace":
        """The search state of ``race``, a dealt :class:`~hippodrome.turfmaster.race.Race`."""
        if race.hands is None:
            raise ValueError("a race waiting for its deal has no search state: deal it first")  # i18n: programming error
        ids = list(race.ids)
        number = {horse: n for n, horse in enumerate(ids)}
        state = cls.__new__(cls)
        state.course = race.course
        state.fences = race.fences
        state.ids = tuple(ids)
        state.owner = tuple(race.owner[h] for h in ids)
        state.seats = race.seats
        state.roller = race.roller
        state.square = [race.square[h] for h in ids]
        state.stage = [STAGE_NAMES.index(race.stage[h]) for h in ids]
        state.places = tuple(number[h] for h in race.places)
        state.fallen = tuple(number[h] for h in race.fallen)
        state.hands = tuple(_counts(race.hands[h]) for h in ids)
        state.round_no = race.round_no
        state.card_round = race.round_kind == "card"
        state.order = tuple(number[h] for h in race.order)
        state.limits = tuple(race.limits.get(h, 0) for h in ids)
        state.turn = race.turn
        state.dice = None if race.dice is None else tuple(race.dice)
        use = race.dice_use
        state.dice_use = None if use is None else (0 if use["use"] == "sum" else use["value"])
        state.awaiting = race.awaiting
        state.points = race.points
        state.unclaimed = frozenset(number[h] for h in race.bonus_unclaimed)
        state.moves = None
        if state.awaiting == _AWAIT_SQUARE:
            state.moves = state._destinations(state.order[state.turn])
        state.kind = state._waits_for()
        return state

    def clone(self) -> "SearchRace":
        """A copy that plays on independently (the lists of squares and stages copied, the rest shared:
        immutable)."""
        twin = _new(SearchRace)
        twin.course = self.course
        twin.fences = self.fences
        twin.ids = self.ids
        twin.owner = self.owner
        twin.seats = self.seats
        twin.roller = self.roller
        twin.square = self.square.copy()
        twin.stage = self.stage.copy()
        twin.places = self.places
        twin.fallen = self.fallen
        twin.hands = self.hands
        twin.round_no = self.round_no
        twin.card_round = self.card_round
        twin.order = self.order
        twin.limits = self.limits
        twin.turn = self.turn
        twin.dice = self.dice
        twin.dice_use = self.dice_use
        twin.awaiting = self.awaiting
        twin.points = self.points
        twin.unclaimed = self.unclaimed
        twin.moves = self.moves
        twin.kind = self.kind
        return twin

    def dealt(self, hands: dict[int, list[str]]) -> "SearchRace":
        """A copy (:meth:`clone`) in which the horses numbered in ``hands`` hold those cards."""
        twin = self.clone()
        held = list(self.hands)
        for horse, cards in hands.items():
            held[horse] = _counts(cards)
        twin.hands = tuple(held)
        return twin

    # -- queries ----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return RACING not in self.stage

    def pending_kind(self) -> str | None:
        """What the race waits for: a decision's kind, ``"roll"`` (chance), or None when over."""
        return self.kind

    def _waits_for(self) -> str | None:
        """:meth:`pending_kind`, found from the fields (kept in ``kind`` after each action)."""
        if RACING not in self.stage:
            return None
        if self.card_round:
            return self.awaiting
        if self.dice is None:
            return ROLL
        if self.dice_use is None:
            return DICE_USE
        return self.awaiting

    def seat(self) -> int | None:
        """The seat that decides now (None for a chance step or when over)."""
        kind = self.kind
        if kind is None or kind == ROLL:
            return None
        if kind == DICE_USE:
            return self.roller
        return self.owner[self.order[self.turn]]

    def current_horse(self) -> int:
        return self.order[self.turn]

    def legal(self) -> tuple[int, ...]:
        """The lean actions of the pending step, in the race's order of options (every roll for a
        roll; none when over)."""
        kind = self.kind
        if kind == CARD:
            return tuple(compress(_KIND_NUMBERS, self.hands[self.order[self.turn]]))  # the kinds held
        if kind == SQUARE:
            return self.moves.ends
        if kind == DICE_USE:
            return (0,) + tuple(sorted(set(self.dice)))
        if kind == DIE:
            return tuple(sorted(set(self.dice)))
        if kind == EMPTY_HAND:
            return (0,)
        if kind == ROLL:
            return ROLLS
        return ()

    def places_and_fallen(self) -> tuple[list[str], list[str]]:
        """The horses' ids in the order they finished, and those that fell."""
        return [self.ids[h] for h in self.places], [self.ids[h] for h in self.fallen]

    def hands_left(self) -> dict[str, list[str]]:
        """Each horse's cards, as the race writes a hand."""
        return {horse: [card for kind, card in enumerate(CARD_KINDS) for _ in range(counts[kind])]
                for horse, counts in zip(self.ids, self.hands)}

    # -- the race's JSON actions --------------------------------------------------------
    def action_of(self, action: int) -> dict[str, Any]:
        """The race's JSON action for the lean ``action`` of the pending step."""
        kind = self.kind
        if kind == ROLL:
            return {"type": "roll", "dice": [action // 6 + 1, action % 6 + 1]}
        if kind == DICE_USE:
            return {"type": "dice_use", "use": "sum"} if action == 0 else {"type": "dice_use", "use": "die",
                                                                          "value": action}
        horse = self.ids[self.order[self.turn]]
        if kind == CARD:
            return {"type": "card", "horse": horse, "card": CARD_KINDS[action]}
        if kind == SQUARE:
            return {"type": "square", "horse": horse, **self.course.name_of(action)}
        if kind == DIE:
            return {"type": "die", "horse": horse, "value": action}
        return {"type": "stand_still", "horse": horse}

    def lean_action(self, action: dict[str, Any]) -> int:
        """The lean action for the race's JSON ``action`` of the pending step (not checked: a legal one)."""
        kind = action["type"]
        if kind == "roll":
            return roll_action(*action["dice"])
        if kind == "dice_use":
            return 0 if action["use"] == "sum" else action["value"]
        if kind == "card":
            return KIND_OF[action["card"]]
        if kind == "square":
            return self.course.square(action["lane"], action["square"])
        if kind == "die":
            return action["value"]
        return 0

    # -- playing ------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Take the lean ``action`` (one of :meth:`legal`) for the pending step. Not checked: a search
        takes its actions from ``legal()``."""
        kind = self.kind
        if kind == CARD:
            self._play_card(action)
        elif kind == SQUARE:
            self._finish_move(self.order[self.turn], action)
        elif kind == ROLL:
            self.dice = (action // 6 + 1, action % 6 + 1)
        elif kind == DICE_USE:
            self.dice_use = action
        elif kind == DIE:
            self._begin_move(self.order[self.turn], action)
        else:  # the empty hand's only option: stand still (T13)
            self._next_horse()
        self._advance()

    def _play_card(self, kind: int) -> None:
        horse = self.order[self.turn]
        hand = list(self.hands[horse])
        hand[kind] -= 1
        hands = list(self.hands)
        hands[horse] = tuple(hand)
        self.hands = tuple(hands)
        limit = self.limits[horse]
        if limit and not KIND_JOKER[kind] and KIND_VALUE[kind] > limit:  # spent without moving (T6)
            self._next_horse()
            return
        self._begin_move(horse, KIND_VALUE[kind])

    def _destinations(self, horse: int) -> MoveOptions:
        square = self.square
        others = list(compress(square, map(_IS_RACING, self.stage)))  # the racing horses' squares
        start = square[horse]
        others.remove(start)
        return moves_among(self.course, start, self.points, others, self.fences)

    def _begin_move(self, horse: int, points: int) -> None:
        self.points = points
        self.awaiting = _AWAIT_SQUARE
        moves = self.moves = self._destinations(horse)
        if len(moves.ends) == 1:
            self._finish_move(horse, moves.ends[0])

    def _finish_move(self, horse: int, square: int) -> None:
        moves = self.moves
        # T11: the horse falls (an empty blocked_by_fence, the common case, skips the call)
        if self.card_round and moves.blocked_by_fence and moves.falls_at(square, self.points):
            self.stage[horse] = FALLEN
            self.fallen = self.fallen + (horse,)
        self.square[horse] = square
        self._next_horse()

    def _next_horse(self) -> None:
        self.turn += 1
        self.awaiting = None
        self.moves = None

    def _advance(self) -> None:
        """What needs nobody's decision, up to the next decision or chance step (as ``Race._advance``);
        ``kind`` then says what the race waits for."""
        stage = self.stage
        while RACING in stage:
            if self.turn >= len(self.order):
                self._end_round()
                if RACING not in stage:
                    break
                self._start_round()
                continue
            if self.awaiting is not None:
                self.kind = self.awaiting
                return
            horse = self.order[self.turn]
            if self.card_round:
                if not any(self.hands[horse]):
                    if horse in self.unclaimed:  # T8: its owner is asked first
                        self.awaiting = self.kind = _AWAIT_EMPTY
                        return
                    self._next_horse()  # no card: it stands still (T13)
                    continue
                self.awaiting = self.kind = _AWAIT_CARD
                return
            if self.dice is None:
                self.kind = ROLL
                return
            if self.dice_use is None:
                self.kind = DICE_USE
                return
            if self.dice_use:
                self._begin_move(horse, self.dice_use)
                continue
            a, b = self.dice
            limit = self.limits[horse]
            if limit and a + b > limit:
                if a != b:
                    self.awaiting = self.kind = _AWAIT_DIE
                    return
                self._begin_move(horse, a)
                continue
            self._begin_move(horse, a + b)
        self.kind = None

    def _start_round(self) -> None:
        self.round_no += 1
        self.card_round = not self.card_round
        square = self.square
        horses = range(len(square))
        racing = list(compress(horses, map(_IS_RACING, self.stage)))
        self.order = tuple(in_move_order(racing, square, self.course))
        limits = handicap_limits(racing, square, self.course, len(self.places))
        self.limits = tuple(map(limits.get, horses, repeat(0)))  # 0: no limit
        self.turn = 0
        self.awaiting = None
        self.dice = None
        self.dice_use = None
        self.moves = None

    def _end_round(self) -> None:
        if not self.card_round:
            self.roller = (self.roller + 1) % self.seats
        crossed, square = self.course.crossed, self.square
        arrived = in_move_order([h for h in compress(range(len(square)), map(_IS_RACING, self.stage))
                                 if crossed[square[h]]], square, self.course)
        for horse in arrived:
            self.stage[horse] = FINISHED
        self.places = self.places + tuple(arrived)


_new = object.__new__


def _counts(cards: list[str]) -> tuple[int, ...]:
    counts = [0] * len(CARD_KINDS)
    for card in cards:
        counts[KIND_OF[card]] += 1
    return tuple(counts)

