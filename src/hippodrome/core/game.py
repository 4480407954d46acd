"""The shape every game has: a state, explicit decisions and explicit chance steps.

A game state answers ``pending()`` with one of:

* a :class:`Decision`: seat ``seat`` must choose one of ``options`` (JSON-able dicts);
* a :class:`Chance`: the dice or a shuffle must be drawn (by a :class:`~hippodrome.core.match.Match`,
  which owns the seeded generator, so nobody holding the state can read future chance);
* ``None``: the game is over.

``apply(action)`` performs one action (a decision's option or a chance outcome) and refuses
anything else with :class:`~hippodrome.core.errors.IllegalAction` without changing the state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import FrozenInstanceError, dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from hippodrome.core.errors import given
from hippodrome.core.rulings import rule_of
from hippodrome.i18n import Message, Seat

if TYPE_CHECKING:
    from hippodrome.core.chance import Draws
    from hippodrome.core.description import GameDescription

Action = dict[str, Any]


class Note(str):
    """A decision note: its English text, which is what ``str`` operations, JSON views and logs
    see, carrying the translatable message it came from (``note.translate(lang)``,
    ``note.to_json()``). Made by :class:`Decision` from any note that is not a plain string."""

    message: Any

    def __new__(cls, message: Any) -> "Note":
        note = super().__new__(cls, str(message))
        note.message = message
        return note

    def translate(self, lang: str | None) -> str:
        translate = getattr(self.message, "translate", None)
        return translate(lang) if callable(translate) and not isinstance(self.message, str) else str(self)

    @property
    def rule(self) -> str | None:
        """The ruling the note comes from (``core.rulings.Ruled``), or None."""
        return rule_of(self.message)

    def to_json(self) -> dict[str, Any]:
        """``{"msgid", "params"}`` for a front end that translates with the web catalog."""
        to_json = getattr(self.message, "to_json", None)
        return to_json() if callable(to_json) else {"msgid": str(self), "params": {}}


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same: Python's ``==`` also takes ``True`` for ``1`` and
    ``1.0`` for ``1``, which an action from a page must not get away with."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        return a.keys() == b.keys() and all(same_json(value, b[key]) for key, value in a.items())
    if kind is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


class Decision:
    """Seat ``seat`` must choose one of ``options``.

    ``notes`` may explain options (parallel to ``options``; "" when nothing to say),
    for instance that a card above the handicap will not move the horse. A note may be given as
    a translatable message (``hippodrome.i18n.Message``); it is kept as that message
    (``note_messages``) and rendered only when someone reads ``notes``: then as a :class:`Note`, a
    string of its English text that still translates, so every note is a ``str``. A bot or a search
    that never shows a note never pays for its words.

    ``between_races``: the decision is a choice between two races (VIP cards, cards to keep: the
    table takes it while it waits for the next race), not a move of a race.

    Immutable, and equal to another decision with the same fields (as a frozen dataclass is).
    """

    __slots__ = ("seat", "kind", "options", "context", "note_messages", "between_races", "_notes")

    seat: int
    kind: str
    options: tuple[Action, ...]
    context: dict[str, Any]
    #: the notes as given: strings and translatable messages, not rendered
    note_messages: tuple[Any, ...]
    between_races: bool

    def __init__(self, seat: int, kind: str, options: tuple[Action, ...], context: dict[str, Any] | None = None,
                 notes: tuple[Any, ...] = (), between_races: bool = False) -> None:
        # each slot set through its own descriptor (a game makes one decision per step)
        _set_seat(self, seat)
        _set_kind(self, kind)
        _set_options(self, options)
        _set_context(self, {} if context is None else context)
        _set_note_messages(self, notes)
        _set_between_races(self, between_races)
        _set_notes(self, None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")  # i18n: programming error

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")  # i18n: programming error

    def __reduce__(self) -> tuple[Any, ...]:  # copy, deepcopy and pickle make it anew
        return (Decision, (self.seat, self.kind, self.options, self.context, self.note_messages, self.between_races))

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes as strings: each message rendered once, on first reading, as a :class:`Note`."""
        notes = self._notes
        if notes is None:
            notes = self.note_messages
            if any(not isinstance(note, str) for note in notes):
                notes = tuple(note if isinstance(note, str) else Note(note) for note in notes)
            _set_notes(self, notes)
        return notes

    def _fields(self) -> tuple[Any, ...]:
        return (self.seat, self.kind, self.options, self.context, self.notes, self.between_races)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Decision(seat={self.seat!r}, kind={self.kind!r}, options={self.options!r}, "
                f"context={self.context!r}, notes={self.notes!r})")

    def option_notes(self) -> tuple[str, ...]:
        """One note per option, "" where there is nothing to say (also when no note was given)."""
        return self.notes or ("",) * len(self.options)

    def notes_i18n(self) -> list[dict[str, Any] | None]:
        """The notes for a JSON view that a page translates: ``{"msgid", "params"}`` per option,
        None where there is nothing to say."""
        return [None if not note else note.to_json() if isinstance(note, Note)
                else {"msgid": note, "params": {}} for note in self.option_notes()]

    def note_rules(self) -> list[str | None]:
        """The ruling each note comes from, one per option (None: no note, or none named), so that
        a page can link a note to the rules page's paragraph."""
        return [rule_of(note) for note in self.option_notes()]

    def notes_in(self, lang: str | None) -> list[str]:
        """The notes as a person reads them in ``lang`` (English when None), one per option."""
        return [note.translate(lang) if isinstance(note, Note) and lang is not None else str(note)
                for note in self.option_notes()]

    def allows(self, action: Any) -> bool:
        """Whether ``action`` is one of the options, equal as JSON (``true`` is not ``1``)."""
        # tuple.index finds an option equal by ``==`` in C (a bot's own option by identity at once);
        # only such an option can be the same JSON, so the strict comparison runs on it alone
        start = 0
        while True:
            try:
                index = self.options.index(action, start)
            except (ValueError, TypeError):
                return False
            if same_json(action, self.options[index]):
                return True
            start = index + 1

    def note_for(self, action: Action) -> str:
        if not self.notes:
            return ""
        for option, note in zip(self.options, self.notes):
            if option == action:
                return note
        return ""


_set_seat, _set_kind, _set_options, _set_context, _set_note_messages, _set_between_races, _set_notes = (
    Decision.__dict__[name].__set__ for name in Decision.__slots__)


@dataclass(frozen=True)
class Chance:
    """A chance step: ``sample(rng)`` draws the outcome, ``is_valid(outcome)`` checks one.

    Every game's step also says what ``sample`` can draw (:mod:`hippodrome.core.chance`), one
    way or the other: ``outcomes()`` lists every outcome with its probability (two dice: 36
    rolls of 1/36), or ``draws`` describes an outcome too big to list (a shuffle) as items drawn
    one at a time.
    """

    kind: str
    sample: Callable[[random.Random], Action]
    is_valid: Callable[[Action], bool]
    context: dict[str, Any] = field(default_factory=dict)
    #: a timed step waits for the table's clock (Ready Set Bet's rolls); others are drawn at once
    timed: bool = False
    #: every outcome with its exact probability (``fractions.Fraction``), for a step with few outcomes
    outcomes: Callable[[], list[tuple[Action, Fraction]]] | None = None
    #: the outcome as successive draws (a :class:`hippodrome.core.chance.Draws`), for a step with too many
    draws: Draws | None = None

    def __post_init__(self) -> None:
        if self.outcomes is not None and self.draws is not None:
            raise ValueError(f"chance step {self.kind!r}: give outcomes or draws, not both")  # i18n: programming error


def merged_view(shared: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """A view from its shared part and a seat's own part (:meth:`Game.shared_view`): the members
    of both, and where both hold a key, the members of both objects there (one level down: a
    race's shared history beside the seat's own hands in it)."""
    view = {**shared, **own}
    for key in shared.keys() & own.keys():
        view[key] = {**shared[key], **own[key]}
    return view


def decision_view(pending: Decision | Chance | None, seat: int | None, public: tuple[str, ...] = (),
                  lang: str | None = None) -> dict[str, Any] | None:
    """What ``seat`` (``None``: a spectator) is shown of the pending step, as JSON: the views'
    ``pending`` and the server's ``decision`` are this.

    Of a decision everyone sees who decides, the kind and the ``public`` entries of the context
    (TurfMaster's horse about to move); the deciding seat also gets the options, the context and
    the notes, one per option: in ``lang`` (English when None), as ``notes_i18n`` for a page
    that translates them itself, and ``note_rules``: the ruling each comes from (None: none). A
    chance step shows as ``{"chance": kind, "timed": bool}``;
    None once the game is over.
    """
    if isinstance(pending, Chance):
        return {"chance": pending.kind, "timed": pending.timed}
    if pending is None:
        return None
    shown: dict[str, Any] = {"seat": pending.seat, "kind": pending.kind}
    shown.update((key, pending.context.get(key)) for key in public)
    if seat == pending.seat:
        shown["options"] = list(pending.options)
        shown["notes"] = pending.notes_in(lang)
        shown["notes_i18n"] = pending.notes_i18n()
        shown["note_rules"] = pending.note_rules()
        shown["context"] = dict(pending.context)
    return shown


def open_decision_view(state: "Game", seat: int | None, public: tuple[str, ...] = (),
                       lang: str | None = None) -> dict[str, Any] | None:
    """:func:`decision_view` of the step ``seat`` waits for: its own open decision where it has one
    (several seats may choose at once, ``Game.decisions``), else the pending step; with
    ``"together"``: the seats still choosing, when more than one is."""
    pending = state.pending()
    decisions = state.decisions() if isinstance(pending, Decision) else ()
    own = next((decision for decision in decisions if decision.seat == seat), None) if seat is not None else None
    shown = decision_view(own or pending, seat, public, lang)
    if len(decisions) > 1:
        shown["together"] = [decision.seat for decision in decisions]
    return shown


def competition_places(scores: list[float]) -> list[int]:
    """Each seat's place by its score, highest first, level scores sharing a place (1, 2, 2, 4)."""
    return [1 + sum(other > score for other in scores) for score in scores]


class Game(ABC):
    """A game state. Pure and deterministic: no clock, no I/O, no global random."""

    name: ClassVar[str]
    #: what the layers above need to know of the game (hippodrome.core.description)
    description: ClassVar["GameDescription"]
    #: the version of the game's rulings this engine plays (docs/rulings.md, "Rulings changed"):
    #: raised when a changed ruling changes how a game goes, so that a record made before it (its
    #: ``rulings``, core/match.py) still replays as it was played, through :meth:`new_under`
    rulings_version: ClassVar[int] = 1

    @classmethod
    @abstractmethod
    def new(cls, setup: dict[str, Any]) -> "Game":
        """The initial state for a setup (validated; raises InvalidSetup)."""

    @classmethod
    def new_under(cls, setup: dict[str, Any], rulings: int) -> "Game":
        """The initial state of a game played under version ``rulings`` of the rulings: ``new``
        for the current one; a game still able to play an older version overrides this, and any
        other version is refused (InvalidSetup, in words)."""
        if rulings == cls.rulings_version:
            return cls.new(setup)
        from hippodrome.core.errors import InvalidSetup

        # NOTE: {game} is a game's name; {version} and {current} number versions of its rulings.
        raise InvalidSetup(Message("this {game} engine plays version {current} of its rulings, not version {version}",
                                   game=cls.name, current=cls.rulings_version, version=str(rulings)))

    @abstractmethod
    def pending(self) -> Decision | Chance | None: ...

    @abstractmethod
    def apply(self, action: Action) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator); never another seat's secrets. The step
        the game waits for is not in it: a table sends it beside the view (:func:`decision_view`)."""

    def shared_view(self) -> dict[str, Any]:
        """The part of every seat's view that is the same for all of them (and for a spectator) at
        this state: ``view(seat) == merged_view(shared_view(), own_view(seat))``. A table writes it
        once for all its audiences. A game that does not split its view shares nothing."""
        return {}

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The rest of ``seat``'s view beside :meth:`shared_view` (a game that does not split its
        view: all of it). Every seat's own part has the same keys at a state."""
        return self.view(seat)

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What a player who reads the game alone (a bot, the terminal, a learner) is given: the
        seat's view, and as ``pending`` the step it waits for, as that seat may see it (its own open
        decision where several seats choose at once: :func:`open_decision_view`)."""
        observed = self.view(seat)
        observed["pending"] = open_decision_view(self, seat, self.public_decision_context)
        return observed

    def secrets(self, seat: int | None) -> list[Any]:
        """The JSON values ``seat`` must never find in ``view(seat)``: other seats' hands, the order
        of a deck, cards not drawn yet (``None``: what a spectator must not see).

        Each is given the way a view would carry it, so that a leak can be found: a hand sorted as
        the views sort it, and keyed by its horse (``{"blue": ["7", "9"]}``) so that it is never
        mistaken for the seat's own equal hand; an object secret is found in any object that holds
        all its members. A game with no hidden information has none.
        """
        return []

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> "Game": ...

    @abstractmethod
    def clone(self) -> "Game": ...

    @classmethod
    def warm_up(cls) -> None:
        """Fill the tables the game computes once per process (a server calls it at start, in a
        thread, so that the first table of the game does not wait for them). None by default."""

    #: entries of a decision's context every seat is shown, not only the deciding one
    public_decision_context: ClassVar[tuple[str, ...]] = ()

    # -- several seats deciding at once ------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision open now, one per seat that has one: several seats may choose at the same
        time (Ready Set Bet's VIP cards, R8). :meth:`pending` is the first of them, so whoever
        takes decisions one at a time (a bot table, an environment) still can. By default the
        pending decision alone, and none at a chance step or once the game is over."""
        pending = self.pending()
        return (pending,) if isinstance(pending, Decision) else ()

    def decision_for(self, seat: int | None) -> Decision | None:
        """``seat``'s own open decision, or None."""
        return next((decision for decision in self.decisions() if decision.seat == seat), None)

    def apply_as(self, seat: int, action: Action) -> None:
        """``seat`` answers its own open decision with ``action`` (IllegalAction, state unchanged,
        when it has none or ``action`` is not one of its options). By default only the seat of the
        pending decision has one, and :meth:`apply` answers it."""
        from hippodrome.core.errors import IllegalAction

        pending = self.pending()
        if isinstance(pending, Decision) and seat != pending.seat:
            raise IllegalAction(Message("it is {seat}'s turn to decide, not {other}'s", seat=Seat(pending.seat),
                                        other=Seat(seat)), pending.options)
        self.apply(action)

    #: action types any seat may take at any time, whatever is pending (simultaneous play,
    #: such as Ready Set Bet's bets); turn-based games have none
    free_action_types: ClassVar[frozenset[str]] = frozenset()

    def is_free_action(self, action: Any) -> bool:
        """Whether ``action`` is one of the free actions (by its type), whatever else it holds."""
        kind = action.get("type") if isinstance(action, dict) else None
        return isinstance(kind, str) and kind in self.free_action_types

    def between_races(self) -> bool:
        """Whether the game stands between two races (a race is over and the next one has not
        begun: results to read, choices such as VIP cards or cards to keep). A table stops its
        clock and the next race's moves there until the people at it are ready for the next race;
        the seats' own decisions between races (people's and bots') are still taken. A game of
        one race never is."""
        return False

    def final_places(self) -> list[int] | None:
        """Each seat's place once the game is over, 1 the best (seats level share a place and the
        places after them are skipped: 1, 2, 2, 4), for the players' ratings; None while it runs,
        or for a game that ranks nobody."""
        return None

    def free_options(self, seat: int) -> tuple[Action, ...]:
        """The free actions ``seat`` may take now (for bots and front ends)."""
        return ()

    def may_act_freely(self, seat: int) -> bool:
        """Whether ``seat`` may have a free action open now: False only when :meth:`free_options`
        would give none (a game answers it without listing them where it can; a running table asks
        it before a bot's free action is thought about at all)."""
        return bool(self.free_options(seat))

    def apply_free(self, seat: int, action: Action) -> None:
        """Take a free action for ``seat``; IllegalAction (state unchanged) with the reason."""
        from hippodrome.core.errors import IllegalAction

        # NOTE: {game} is the game's id, such as "turfmaster-race".
        raise IllegalAction(Message("{game} has no simultaneous actions", game=self.name))

    def step_answered_by(self, action: Action, over: Message) -> Decision | Chance:
        """The pending step ``action`` answers, after the checks every game's ``apply`` begins with
        (IllegalAction, state unchanged): the game is not over (``over`` says so), the action is a
        JSON object, and an answer to a chance step is a valid outcome of it. Whether a decision's
        option is allowed is each game's own check, since each explains its refusals."""
        from hippodrome.core.errors import IllegalAction

        pending = self.pending()
        if pending is None:
            raise IllegalAction(over)
        if not isinstance(action, dict):
            raise IllegalAction(Message("an action must be a JSON object, not {action}", action=given(action)))
        if isinstance(pending, Chance) and not pending.is_valid(action):
            # NOTE: {kind} is the id of a chance step ('deal', 'roll', 'shuffle'...), {action} the JSON received.
            raise IllegalAction(Message("expected a chance outcome of kind {kind}, got {action}",
                                        kind=repr(pending.kind), action=given(action)))
        return pending
