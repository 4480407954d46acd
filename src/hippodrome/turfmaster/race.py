"""One TurfMaster race (rulings T1-T6, T9, T11, T13).

Card rounds and dice rounds alternate, starting with cards (T1). At the start of each round
the horses on the track are put in move order (farthest first, inner lane first on a line:
T2) and their handicap limits are fixed by competition ranking, finished horses counting
ahead of them (T2, T6). A horse then moves once: by the card its owner plays (a non-joker
above the limit is spent without moving, T6; no card left, it stands still, T13) or by the
dice the roller chose to use (sum or one die; a handicapped horse whose limit the sum
exceeds moves one die of its owner's choice, T6). Its owner picks the end square among the
legal ones (T5); in a card round a horse that cannot complete a fence jump falls (T11).
At the end of a round the horses past the finish line are ranked and leave the track (T9);
the race goes on until every horse has finished or fallen.

The race is a :class:`~hippodrome.core.game.Game` of its own ("turfmaster-race"), dealt from
full shuffled decks when no hands are given, and the building block of a meeting.

Decisions (``pending()``; the view's ``pending`` shows the same to the seat that decides):

* ``dice_use`` (the roller): context ``{"dice": [a, b]}``;
* ``card``: ``{"horse", "limit"}`` (``limit`` None when unhandicapped); a card above the limit
  carries a note (T6);
* ``die`` (a handicapped horse after a sum above its limit): ``{"horse", "limit", "dice"}``;
* ``square``: ``{"horse", "points", "steps", "falls"}``, where ``falls`` lists the end squares
  (``{"lane", "square"}``) on which the horse falls at a fence (T11), each also with a note.

Notes are translatable (:class:`~hippodrome.core.game.Note`); programs read the context, never
the notes' words.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from functools import cache
from typing import Any

from hippodrome.core.chance import Draws, Pool
from hippodrome.core.dice import roll_chance
from hippodrome.core.errors import IllegalAction, InvalidSetup, given
from hippodrome.core.game import Action, Chance, Decision, Game, merged_view
from hippodrome.core.registry import register_game
from hippodrome.core.rulings import Ruled
from hippodrome.core.state import KEEP, Codec, DeclaredState, StateFields, derived, nested, shallow, shared
from hippodrome.i18n import Listing, Message
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.cards import (
    HANDICAP_LIMITS,
    HAND_SIZE,
    HORSE_IDS,
    card_value,
    full_deck,
    is_card,
    is_joker,
)
from hippodrome.turfmaster.course import Course
from hippodrome.turfmaster.movement import MoveOptions, moves_among, warm_up_courses
from hippodrome.turfmaster.position import place_horses
from hippodrome.turfmaster.square_words import square_params
from hippodrome.turfmaster.setup import (
    check_horse_ids, horse_list, race_horses, setup_course, setup_object, whole_number,
)
from hippodrome.turfmaster.description import RACE

CARD_ROUND = "card"
DICE_ROUND = "dice"
RACING, FINISHED, FALLEN = "racing", "finished", "fallen"

# what the current horse waits for
AWAIT_CARD, AWAIT_DIE, AWAIT_SQUARE, AWAIT_EMPTY_HAND = "card", "die", "square", "empty_hand"


def shown_hand(cards: list[str]) -> list[str]:
    """A hand as views show it: by card value, whatever order it was dealt in."""
    return sorted(cards, key=card_value)


#: how many of each card one horse's deck holds
_DECK_COUNT = Counter(full_deck())
#: one horse's hand, drawn card by card from its full deck
_HAND_POOL = Pool(tuple(full_deck()), HAND_SIZE)
#: the roll of a dice round (a chance step is immutable: every round shares it)
_ROLL = roll_chance()
#: the order a card decision lists a hand's cards in: by value, a plain card before the joker of its value
_CARD_ORDER = {card: (card_value(card), is_joker(card)) for card in set(full_deck())}
#: the last rank that has a handicap limit
_LAST_HANDICAPPED_RANK = max(HANDICAP_LIMITS)
#: the value of each plain card, 0 for a joker (which no handicap limit stops: T6)
_PLAIN_VALUE = {card: 0 if is_joker(card) else card_value(card) for card in set(full_deck())}


def spent_without_moving(card: str, limit: int | None) -> bool:
    """Whether ``card`` is spent without moving a horse handicapped to ``limit`` (T6): a card above
    the limit that is not a joker."""
    return limit is not None and not is_joker(card) and card_value(card) > limit


def in_move_order(horses: Any, square: Any, course: Course) -> list[Any]:
    """``horses`` in move order (T2): farthest first, the inner lane first on a line (``square[h]``:
    the square of horse ``h``). Also the order in which horses past the line finish (T9)."""
    key = course.move_order_key
    by_key = {key[square[h]]: h for h in horses}  # no two horses share a square
    return [by_key[k] for k in sorted(by_key)]


def handicap_limits(horses: Any, square: Any, course: Course, finished: int) -> dict[Any, int]:
    """The handicap limit of each of the racing ``horses`` that has one (T2, T6): by competition
    ranking, the ``finished`` horses counting ahead of them."""
    line = course.line_of
    lines = sorted([line[square[h]] for h in horses])
    first_rank = finished + 1 + len(lines)  # less the horses on or behind a horse's line
    # a horse has a rank with a limit only when at least ``least`` horses are on or behind its line:
    # when its line is ``lines[least - 1]`` or ahead (the others are not ranked at all)
    least = first_rank - _LAST_HANDICAPPED_RANK
    if not lines or least > len(lines):
        return {}
    cutoff = lines[least - 1] if least >= 1 else lines[0]
    limits = {}
    for horse in horses:
        on = line[square[horse]]
        if on >= cutoff:
            limit = HANDICAP_LIMITS.get(first_rank - bisect_right(lines, on))
            if limit is not None:
                limits[horse] = limit
    return limits


@cache
def _above_limit_note(limit: int) -> Message:
    """The note on a card above the handicap limit ``limit`` (one message per limit, shared: a
    message is never changed)."""
    # NOTE: TurfMaster, rule T6: a card above the handicap's limit ({limit}: 8, 9 or 10 squares, the limit of
    # handicap 9, 10 or 11 in the rulebooks).
    return Ruled(Message("above this horse's limit of {limit}: the card is spent and the horse does not move; "
                         "play a joker or a card of {limit} or less to move", limit=limit), "T6")


# NOTE: TurfMaster, rule T11: in a round of cards, a horse that ends before a fence
# with points left over falls.
_FALL_NOTE = Ruled(Message("the horse cannot complete the jump and falls"), "T11")


def _course_of(race: "Race") -> Course:
    return setup_course(race.setup)[0]


def _fences_of(race: "Race") -> frozenset[int]:
    return race.course.fence_squares if race.steeplechase else frozenset()


#: the horses' squares in JSON: ``{"lane", "square"}`` as people count them, not the course's dense ints
SQUARES = Codec(lambda race, squares: {horse: race.course.name_of(s) for horse, s in squares.items()},
                lambda race, names: {horse: race.course.square(n["lane"], n["square"]) for horse, n in names.items()})


@register_game
class Race(DeclaredState, Game):
    """A single race. See the module docstring for the rules it enforces."""

    name = "turfmaster-race"
    description = RACE
    #: who moves is no secret: every seat is shown the horse a decision is about
    public_decision_context = ("horse",)

    state_fields = StateFields(
        shared("setup"),
        derived("course", _course_of),
        derived("steeplechase", lambda race: setup_course(race.setup)[1]),
        derived("fences", _fences_of),
        shared("ids"),
        shared("owner"),
        shared("seats"),
        shared("roller"),
        shallow("square", codec=SQUARES),
        shallow("stage"),
        shallow("places"),
        shallow("fallen"),
        nested("hands"),  # None until dealt
        shared("round_no"),
        shared("round_kind"),
        shallow("order"),
        shallow("limits"),
        shared("turn"),
        shallow("dice"),
        shared("dice_use"),  # the dice_use option taken, never changed
        shared("awaiting"),
        shared("points"),
        # horses whose owner may still claim their bonus cards (a meeting's, T8): a card-round turn
        # that finds such a horse's hand empty asks its owner first; replaced, never changed
        shared("bonus_unclaimed", default=[]),
        shallow("history"),  # events are complete when appended, never changed after
        # the move options and the pending step are immutable once made: a clone keeps them
        # the horses still racing, in the order of ids (a tuple, replaced when a horse leaves the track)
        caches={"_options_cache": KEEP, "_pending_cache": KEEP, "_racing_cache": KEEP},
    )

    # -- construction -------------------------------------------------------------

    @classmethod
    def warm_up(cls) -> None:
        warm_up_courses()

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Race":
        setup = setup_object(setup, cls.name)
        course, steeplechase = setup_course(setup)
        ids, owners = [], []
        for entry in horse_list(race_horses(setup, course), course):
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
                # NOTE: 'id' is a key of the setup's JSON and {ids} the horses' ids: keep them in English.
                raise InvalidSetup(Message("each horse needs an 'id' (one of {ids}): got {entry}",
                                           ids=", ".join(HORSE_IDS), entry=given(entry)))
            owner = entry.get("owner", len(ids))
            if not whole_number(owner) or owner < 0:
                # NOTE: {horse} is a horse's id; 'owner' is a key of the setup's JSON: keep it in English.
                raise InvalidSetup(Message("horse {horse}: 'owner' must be a seat number (0, 1, ...)",
                                           horse=repr(entry["id"])))
            ids.append(entry["id"])
            owners.append(owner)
        check_horse_ids(ids, course)
        seats = setup.get("seats", setup.get("players", max(owners) + 1))
        if not whole_number(seats) or seats <= max(owners):
            # NOTE: 'seats' is a key of the setup's JSON: keep it in English.
            raise InvalidSetup(Message("'seats' must be more than the highest owner seat ({seat})", seat=max(owners)))
        roller = setup.get("first_roller", 0)
        if not whole_number(roller) or not 0 <= roller < seats:
            # NOTE: 'first_roller' is a key of the setup's JSON: keep it in English.
            raise InvalidSetup(Message("'first_roller' must be a seat from 0 to {last}", last=seats - 1))

        if "positions" in setup:
            squares = place_horses(course, steeplechase, setup["positions"])
            if set(squares) != set(ids):
                # NOTE: 'positions' and 'horses' are keys of the setup's JSON: keep them in English.
                raise InvalidSetup(Message("'positions' must place exactly the horses of 'horses'"))
            for horse, square in squares.items():
                if course.crossed[square]:
                    raise InvalidSetup(Message("horse {horse} already stands past the finish line",
                                               horse=repr(horse)))
        else:
            squares = {horse: course.start_squares[stall] for stall, horse in enumerate(ids)}
        hands = setup.get("hands")
        hands = None if hands is None else cls._checked_hands(hands, ids)
        first_round = setup.get("first_round", CARD_ROUND)
        if first_round not in (CARD_ROUND, DICE_ROUND):
            # NOTE: 'first_round' is a key of the setup's JSON, 'card' and 'dice' its values: keep them in English.
            raise InvalidSetup(Message("'first_round' must be 'card' or 'dice'"))
        race = cls.create(
            setup=setup, ids=ids, owner=dict(zip(ids, owners)), seats=seats, roller=roller,
            square={horse: squares[horse] for horse in ids}, stage={horse: RACING for horse in ids},
            places=[], fallen=[], hands=hands,
            # _start_round begins with the other kind of round
            round_no=0, round_kind=DICE_ROUND if first_round == CARD_ROUND else CARD_ROUND,
            order=[], limits={}, turn=0, dice=None, dice_use=None, awaiting=None, points=0, history=[],
            bonus_unclaimed=cls._checked_unclaimed(setup.get("bonus_unclaimed", []), ids))
        race._start_round()
        race._advance()
        return race

    @staticmethod
    def _checked_unclaimed(horses: Any, ids: list[str]) -> list[str]:
        if not isinstance(horses, list) or not all(isinstance(h, str) and h in ids for h in horses):
            # NOTE: 'bonus_unclaimed' is a key of the setup's JSON: keep it in English.
            raise InvalidSetup(Message("'bonus_unclaimed' must list horses of the race (those whose bonus cards "
                                       "are still unclaimed)"))
        return list(horses)

    @staticmethod
    def _checked_hands(hands: Any, ids: list[str]) -> dict[str, list[str]]:
        if not isinstance(hands, dict) or set(hands) != set(ids):
            # NOTE: 'hands' is a key of the setup's JSON: keep it in English.
            raise InvalidSetup(Message("'hands' must give a list of cards for every horse"))
        checked = {}
        deck = _DECK_COUNT
        for horse in ids:
            cards = hands[horse]
            if not isinstance(cards, list) or not all(is_card(c) for c in cards):
                # NOTE: {horse} is a horse's id; "7" is a card, "J12" the joker 12 (as the setup writes them).
                raise InvalidSetup(Message("hand of {horse} must list cards such as \"7\" or \"J12\"", horse=repr(horse)))
            if any(count > deck[card] for card, count in Counter(cards).items()):
                raise InvalidSetup(Message("hand of {horse} holds more copies of a card than a deck has",
                                           horse=repr(horse)))
            checked[horse] = list(cards)
        return checked

    # -- queries ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return not (self._racing_cache if self._racing_cache is not None else self._racing_horses())

    def racing(self) -> list[str]:
        return list(self._racing_cache if self._racing_cache is not None else self._racing_horses())

    def _racing_horses(self) -> tuple[str, ...]:
        """The horses still racing, in the order of ids (kept until a horse leaves the track)."""
        stage = self.stage
        self._racing_cache = racing = tuple([h for h in self.ids if stage[h] == RACING])
        return racing

    def current_horse(self) -> str | None:
        if self.over or self.hands is None or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def move_options(self) -> MoveOptions | None:
        """The legal ends of the move the current horse is making (its points are known)."""
        if self.awaiting != AWAIT_SQUARE:
            return None
        if self._options_cache is None:
            self._options_cache = self._moves_now()
        return self._options_cache

    def _moves_now(self) -> MoveOptions:
        """The current horse's move of ``points`` among the horses racing."""
        square = self.square
        start = square[self.order[self.turn]]
        others = list(map(square.__getitem__, self._racing_cache or self._racing_horses()))
        others.remove(start)  # the moving horse's square (no two racing horses share one)
        return moves_among(self.course, start, self.points, others, self.fences)

    def with_hands(self, hands: dict[str, list[str]]) -> "Race":
        """A copy of this race in which the horses named in ``hands`` hold those cards (a search's
        guess at hands its seat cannot see; every other fact stays)."""
        race = self.clone()
        for horse, cards in hands.items():
            race.hands[horse] = list(cards)
        race._pending_cache = None
        return race

    def finished_as(self, places: list[str], fallen: list[str], hands: dict[str, list[str]], roller: int) -> "Race":
        """A copy of this race ended as a search played it to its end (the order of the finish, the
        falls, the cards left, the seat that rolls next), for a meeting to go on from; its history
        stays as it was."""
        race = self.clone()
        race.places, race.fallen = list(places), list(fallen)
        race.stage = {horse: FINISHED if horse in places else FALLEN for horse in race.ids}
        race.hands = {horse: list(cards) for horse, cards in hands.items()}
        race.roller = roller
        race.awaiting = None
        race._racing_cache = race._pending_cache = race._options_cache = None
        return race

    def add_cards(self, horse: str, cards: list[str]) -> None:
        """Put ``cards`` in the hand of ``horse``, a horse still running (a meeting's bonus cards
        claimed mid-race, T8). The horse's next card decision offers them."""
        if self.stage.get(horse) != RACING or self.hands is None:
            raise ValueError(f"cannot add cards to {horse!r}: not a horse running with a hand")  # i18n: programming error
        self.hands[horse].extend(cards)
        self.bonus_unclaimed = [h for h in self.bonus_unclaimed if h != horse]
        if self.awaiting == AWAIT_EMPTY_HAND and self.order[self.turn] == horse and self.hands[horse]:
            self.awaiting = AWAIT_CARD  # the turn that found the hand empty now plays a card (T8)
        self._pending_cache = None

    # -- Game protocol: pending ---------------------------------------------------
    def pending(self) -> Decision | Chance | None:
        if self._pending_cache is None:
            self._pending_cache = (self._compute_pending(),)
        return self._pending_cache[0]

    def _compute_pending(self) -> Decision | Chance | None:
        awaiting = self.awaiting
        if awaiting is None:  # no horse waits for its owner (a horse waits only in a dealt race still on)
            if self.hands is None:
                return Chance("deal", self._deal, self._is_deal, draws=self._deal_draws())
            if self.over:
                return None
            if self.round_kind == DICE_ROUND:
                if self.dice is None:
                    return _ROLL
                if self.dice_use is None:
                    options = self._dice_use_options()
                    return Decision(self.roller, "dice_use", tuple(options), {"dice": list(self.dice)},
                                    tuple(self._dice_use_note(o) for o in options))
            raise AssertionError("race stuck: nothing awaited")  # pragma: no cover  # i18n: programming error
        horse = self.order[self.turn]
        owner = self.owner[horse]
        if awaiting == AWAIT_CARD:
            cards = sorted(set(self.hands[horse]), key=_CARD_ORDER.__getitem__)
            options = tuple([{"type": "card", "horse": horse, "card": c} for c in cards])
            limit = self.limits.get(horse)
            if limit is None:
                notes = ("",) * len(cards)
            else:
                above = _above_limit_note(limit)
                plain = _PLAIN_VALUE  # a card above the limit is spent (spent_without_moving)
                notes = tuple([above if plain[c] > limit else "" for c in cards])
            return Decision(owner, "card", options, {"horse": horse, "limit": limit}, notes)
        if awaiting == AWAIT_EMPTY_HAND:
            # NOTE: TurfMaster, rule T8/T13: a horse's turn in a round of cards finds its hand empty;
            # its owner may claim the bonus cards (offered beside this) or let it stand still.
            still = Ruled(Message("no card left: the horse stands still this round, unless you claim its bonus cards"),
                          "T13")
            return Decision(owner, "empty_hand", ({"type": "stand_still", "horse": horse},), {"horse": horse},
                            (still,))
        if awaiting == AWAIT_DIE:
            values = sorted(set(self.dice))
            options = tuple({"type": "die", "horse": horse, "value": v} for v in values)
            return Decision(owner, "die", options, {"horse": horse, "limit": self.limits.get(horse),
                                                    "dice": list(self.dice)})
        if awaiting == AWAIT_SQUARE:
            moves = self.move_options()
            lane, index = self.course.lane_of, self.course.index_of
            options = tuple([{"type": "square", "horse": horse, "lane": lane[e], "square": index[e]}
                             for e in moves.ends])
            points = self.points
            if self.round_kind == CARD_ROUND and moves.some_end_falls(points):
                falling = [moves.falls_at(e, points) for e in moves.ends]
                fall = _FALL_NOTE
                notes = tuple([fall if falls else "" for falls in falling])
                falls = [self.course.name_of(e) for e, falls in zip(moves.ends, falling) if falls]
            else:
                notes, falls = ("",) * len(options), []
            context = {"horse": horse, "points": points, "steps": moves.steps, "falls": falls}
            return Decision(owner, "square", options, context, notes)
        raise AssertionError(f"race stuck: awaiting {self.awaiting!r}")  # pragma: no cover  # i18n: programming error

    def _dice_use_options(self) -> list[Action]:
        options = [{"type": "dice_use", "use": "sum"}]
        for value in sorted(set(self.dice)):
            options.append({"type": "dice_use", "use": "die", "value": value})
        return options

    def _dice_use_note(self, option: Action) -> Message | str:
        if option["use"] != "sum":
            return ""
        total = sum(self.dice)
        slowed = [h for h in self.order if self.limits.get(h) is not None and total > self.limits[h]]
        if not slowed:
            return ""
        # NOTE: TurfMaster, rule T6: the note on using the sum of the dice; {horses} lists horses' ids.
        return Ruled(Message("handicapped horses move one die of their owner's choice instead: {horses}",
                             horses=Listing([horse_name(horse) for horse in slowed])), "T6")

    # -- chance: dealing ----------------------------------------------------------
    def _deal(self, rng: random.Random) -> Action:
        hands = {}
        for horse in self.ids:
            deck = full_deck()
            rng.shuffle(deck)
            hands[horse] = deck[:HAND_SIZE]
        return {"type": "deal", "hands": hands}

    def _deal_draws(self) -> Draws:
        """The deal as draws: each horse's hand, card by card, from its own full deck."""
        return Draws((_HAND_POOL,) * len(self.ids),
                     lambda hands: {"type": "deal", "hands": dict(zip(self.ids, hands))},
                     lambda action: [action["hands"][horse] for horse in self.ids])

    def _is_deal(self, action: Action) -> bool:
        if action.get("type") != "deal":
            return False
        try:
            hands = self._checked_hands(action.get("hands"), self.ids)
        except InvalidSetup:
            return False
        return all(len(cards) == HAND_SIZE for cards in hands.values())

    # -- Game protocol: apply -----------------------------------------------------
    def apply(self, action: Action) -> None:
        pending = self._pending_cache[0] if self._pending_cache is not None else self.pending()
        if pending.__class__ is not Decision or action.__class__ is not dict:  # else the checks pass at once
            pending = self.step_answered_by(action, Message("the race is over"))
        if pending.__class__ is not Decision:  # a chance step
            self._pending_cache = None
            if pending.kind == "deal":
                self.hands = {h: list(action["hands"][h]) for h in self.ids}
            else:
                self.dice = list(action["dice"])
                self.history.append({"round": self.round_no, "event": "roll", "dice": list(self.dice),
                                     "roller": self.roller})
            self._advance()
            return
        if not pending.allows(action):
            raise IllegalAction(self._refusal(pending, action), pending.options)
        self._pending_cache = None
        kind = action["type"]
        if kind == "dice_use":
            self.dice_use = action
            self.history.append({"round": self.round_no, "event": "dice_use", "use": action["use"],
                                 "value": action.get("value", sum(self.dice))})
        elif kind == "card":
            self._play_card(action["horse"], action["card"])
        elif kind == "die":
            self._begin_move(action["horse"], action["value"])
        elif kind == "stand_still":
            self._stand_still(action["horse"])
        elif kind == "square":
            # the options list the move's ends in order, and the action is one of them
            self._finish_move(action["horse"], self._options_cache.ends[pending.options.index(action)])
        self._advance()

    def _refusal(self, pending: Decision, action: Action) -> Ruled | Message:
        horse = horse_name(pending.context.get("horse", ""))
        if pending.kind == "card":
            if action.get("type") == "card":
                # NOTE: {horse} is a horse's name; {cards} lists its cards ("J12" is the joker 12).
                return Ruled(Message("{horse} must play one of its cards: {cards}; {card} is not in its hand",
                                     horse=horse, cards=", ".join(o["card"] for o in pending.options),
                                     card=given(action.get("card"))), "T1")
            # NOTE: {horse} is a horse's name.
            return Ruled(Message("{horse}'s owner must play a card now", horse=horse), "T1")
        if pending.kind == "square":
            # NOTE: one of the squares a move may end on, in a list.
            ends = Listing([Message("lane {lane} square {square}", **square_params(o)) for o in pending.options], "; ")
            # NOTE: {horse} is a horse's name; {ends} lists squares, each as "lane 1 square 7" (lane 1 is the rail).
            return Ruled(Message("{horse} moves {steps} of {points} points and may end on: {ends}", horse=horse,
                                 steps=pending.context["steps"], points=pending.context["points"], ends=ends), "T5")
        if pending.kind == "die":
            low, high = (o["value"] for o in (pending.options[0], pending.options[-1]))
            # NOTE: TurfMaster, rule T6: a handicapped horse moves one die of its owner's choice; {low}
            # and {high} are the two dice.
            return Ruled(Message("{horse} is handicapped: choose one die, {low} or {high}", horse=horse, low=low,
                                 high=high), "T6")
        if pending.kind == "empty_hand":
            # NOTE: TurfMaster, rule T8: {horse} is a horse's name.
            return Ruled(Message("{horse} has no card left: claim its bonus cards, or let it stand still", horse=horse),
                         "T8")
        if pending.kind == "dice_use":
            # NOTE: {dice} is the roll, such as [6, 4].
            return Ruled(Message("the roller of {dice} must choose the sum or one die", dice=str(self.dice)), "T1")
        return Message("{action} is not allowed now", action=given(action))

    def _play_card(self, horse: str, card: str) -> None:
        self.hands[horse].remove(card)
        event = {"round": self.round_no, "event": "card", "horse": horse, "card": card}
        self.history.append(event)
        limit = self.limits.get(horse)
        if spent_without_moving(card, limit):
            event["handicapped"] = limit
            self._next_horse()
            return
        self._begin_move(horse, card_value(card))

    def _begin_move(self, horse: str, points: int) -> None:
        self.points = points
        self.awaiting = AWAIT_SQUARE
        moves = self._options_cache = self._moves_now()
        if len(moves.ends) == 1:
            self._finish_move(horse, moves.ends[0])

    def _finish_move(self, horse: str, square: int) -> None:
        moves = self.move_options()
        start = self.square[horse]
        lane, index = self.course.lane_of, self.course.index_of
        event = {"round": self.round_no, "event": "move", "horse": horse, "points": self.points,
                 "steps": moves.steps, "from": {"lane": lane[start], "square": index[start]},
                 "to": {"lane": lane[square], "square": index[square]}}
        if self.round_kind == CARD_ROUND and moves.falls_at(square, self.points):
            event["fell"] = True
            self.stage[horse] = FALLEN
            self._racing_cache = None
            self.fallen.append(horse)
        self.square[horse] = square
        self.history.append(event)
        self._next_horse()

    def _stand_still(self, horse: str) -> None:
        """A horse with no card in a round of cards stands still (T13)."""
        self.history.append({"round": self.round_no, "event": "no_card", "horse": horse})
        self._next_horse()

    def _next_horse(self) -> None:
        self.turn += 1
        self.awaiting = None
        self._options_cache = None

    # -- automatic steps ----------------------------------------------------------
    def _advance(self) -> None:
        """Carry out everything that needs nobody's decision, up to the next decision."""
        if self.hands is None:
            return
        while self._racing_cache if self._racing_cache is not None else self._racing_horses():  # not over
            order = self.order
            if self.turn >= len(order):
                self._end_round()
                if self.over:
                    return
                self._start_round()
                continue
            if self.awaiting is not None:
                return
            horse = order[self.turn]
            if self.round_kind == CARD_ROUND:
                if not self.hands[horse]:
                    if horse in self.bonus_unclaimed:  # T8: its owner is asked first
                        self.awaiting = AWAIT_EMPTY_HAND
                        return
                    self._stand_still(horse)
                    continue
                self.awaiting = AWAIT_CARD
                return
            if self.dice is None or self.dice_use is None:
                return
            if self.dice_use["use"] == "die":
                self._begin_move(horse, self.dice_use["value"])
                continue
            total = sum(self.dice)
            limit = self.limits.get(horse)
            if limit is not None and total > limit:
                if self.dice[0] != self.dice[1]:
                    self.awaiting = AWAIT_DIE
                    return
                self._begin_move(horse, self.dice[0])
                continue
            self._begin_move(horse, total)

    def _start_round(self) -> None:
        self.round_no += 1
        self.round_kind = DICE_ROUND if self.round_kind == CARD_ROUND else CARD_ROUND
        racing = self.racing()
        self.order = in_move_order(racing, self.square, self.course)
        self.limits = handicap_limits(racing, self.square, self.course, len(self.places))
        self.turn = 0
        self.awaiting = None
        self.dice = None
        self.dice_use = None
        self._options_cache = None

    def _end_round(self) -> None:
        if self.round_kind == DICE_ROUND:
            self.roller = (self.roller + 1) % self.seats
        crossed = self.course.crossed
        arrived = in_move_order([h for h in self.racing() if crossed[self.square[h]]], self.square, self.course)
        for horse in arrived:
            self.stage[horse] = FINISHED
            self._racing_cache = None
            self.places.append(horse)
            self.history.append({"round": self.round_no, "event": "finish", "horse": horse,
                                 "place": len(self.places)})

    # -- views (fields, JSON and clone: state_fields) --------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return merged_view(self.shared_view(), self.own_view(seat))

    def own_view(self, seat: int | None) -> dict[str, Any]:
        return {"hands": {h: shown_hand(self.hands[h]) for h in self.ids
                          if self.hands is not None and self.owner[h] == seat}}

    def shared_view(self) -> dict[str, Any]:
        horses = []
        for horse in self.ids:
            on_track = self.stage[horse] == RACING
            entry = {"id": horse, "owner": self.owner[horse], "stage": self.stage[horse],
                     "cards_left": len(self.hands[horse]) if self.hands is not None else None,
                     "limit": self.limits.get(horse) if on_track else None}
            if self.stage[horse] == FINISHED:
                entry["place"] = self.places.index(horse) + 1
            if self.stage[horse] != FINISHED:
                entry.update(self.course.name_of(self.square[horse]))
            horses.append(entry)
        return {
            "game": self.name,
            "course": self.course.name,
            "steeplechase": self.steeplechase,
            "round": self.round_no,
            "round_kind": self.round_kind,
            "order": list(self.order),
            "turn": self.turn,
            "roller": self.roller,
            "dice": list(self.dice) if self.dice else None,
            "dice_use": self.dice_use,
            "horses": horses,
            "places": list(self.places),
            "fallen": list(self.fallen),
            "over": self.over,
            "history": list(self.history),
        }

    def secrets(self, seat: int | None) -> list[Any]:
        """Every hand but those of ``seat``'s horses, keyed by its horse: as views sort it and in
        the order dealt."""
        found: list[Any] = []
        for horse in self.ids:
            cards = self.hands[horse] if self.hands is not None else []
            if self.owner[horse] == seat or not cards:
                continue
            for secret in ({horse: shown_hand(cards)}, {horse: list(cards)}):
                if secret not in found:
                    found.append(secret)
        return found


def race_view(view: dict[str, Any]) -> dict[str, Any]:
    """The race part of a TurfMaster view (or a bot's observation): a meeting's view holds it under
    "race" ({} between races), a single race's view ("turfmaster-race") is the race itself."""
    if view.get("game") == Race.name:
        return view
    return view.get("race") or {}
