"""A guided first game ("Learn to play"): the real engine, played from a prepared position, one
step at a time, each step saying what to do and why.

A tutorial is a :class:`~hippodrome.core.game.Game` that wraps the real engine (``inner``) and is
played at an ordinary table of one seat. Only seat 0 is a person: every other seat's decision and
every chance step of the inner game (dice, deal, shuffle) is taken from the tutorial's script
inside ``apply``, so a run is the same every time, whatever the table's seed.

Its steps (:class:`TutorialStep`) come one after the other. The current step

* filters seat 0's options: ``pending()`` offers only the options the step ``allows``, and
  ``apply`` / ``apply_free`` refuse anything else with the step's ``hint`` (state unchanged);
* may only ask the person to watch: a step that allows the ``continue`` action shows seat 0 a
  decision of kind ``"tutorial"`` with that one option (its note is the button's words), and
  nothing happens in the inner game until the person has pressed it; the script then plays on;
* ends once ``done(inner)`` holds after an action; the next step starts at once.

A real-time inner game (Ready Set Bet) is played the same way:

* the person is the table's clock: a *timed* chance step of the inner game (a roll) is played from
  the script only on a press of continue, one per press, and the step then waits again;
* a step that does not ask to watch, met while the clock runs, asks for a *free action* (a bet):
  seat 0 is shown a decision of kind :attr:`TutorialGame.free_decision` whose options are the
  free actions the step allows, and the clock does not move before one is taken (as a free
  action, or sent as that decision's answer);
* the other seats' free actions come from ``free_script`` (:class:`ScriptedFree`): each, in
  order, as soon as it is ``due``.

``view(0)`` is the inner game's view of seat 0 plus ``"tutorial"``: the step (1-based), how many
steps, its key, title, text and why (message JSON that the page renders in its language), the
rule's anchor on the game's rules page and whether the tutorial is finished. The script (future
dice, other hands) is never in a view. A tutorial ends when its last step is done.

A game's tutorial subclasses :class:`TutorialGame`, naming the inner game, its prepared setup,
the script and the steps, and describes itself with :func:`tutorial_description`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar

from hippodrome.core.description import GameDescription, Lookup, SeatPlan
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Action, Chance, Decision, Game
from hippodrome.core.registry import game_class
from hippodrome.core.state import SUBSTATE, Codec, DeclaredState, Field, StateFields, shared
from hippodrome.i18n import Message

#: the one option of a step that only asks the person to watch
CONTINUE: Action = {"type": "continue"}
#: the kind of the decision that waits for it
TUTORIAL_DECISION = "tutorial"
#: the button's words when a step names none
CONTINUE_WORDS = Message("Continue")
PERSON = 0


def watching(_inner: Game, action: Action) -> bool:
    """``allows`` of a step that only asks the person to watch: the continue action, nothing else."""
    return action == CONTINUE


@dataclass(frozen=True)
class TutorialStep:
    """One step: what to do now and why, which actions follow it and when it is over.

    ``allows(inner, action)`` and ``done(inner)`` read the inner game (the real engine's state);
    a step that only asks the person to watch allows :data:`CONTINUE` (see :func:`watching`).
    ``button``: the continue button's words (None: "Continue").
    ``finished_text``: the last step's text once the tutorial is over, where ``text`` is an
    instruction that no longer applies then (None: ``text`` still reads right).
    """

    key: str
    title: Message
    text: Message
    why: Message
    rule: str | None
    allows: Callable[[Game, Action], bool]
    hint: Message
    done: Callable[[Game], bool]
    button: Message | None = None
    finished_text: Message | None = None

    def waits_for_continue(self, inner: Game) -> bool:
        return bool(self.allows(inner, CONTINUE))


@dataclass(frozen=True)
class ScriptedFree:
    """A free action of another seat in the script (Ready Set Bet's opponent's bet): ``seat`` takes
    ``action`` as soon as ``due(inner)`` holds and the entries before it have been taken."""

    seat: int
    action: Action
    due: Callable[[Game], bool]


def _inner_codec() -> Codec:
    """The inner game's JSON names its game, which reads it back."""
    return Codec(lambda _state, inner: inner.to_json(),
                 lambda _state, data: game_class(data["game"]).from_json(data))


class TutorialGame(DeclaredState, Game):
    """The steps of a guided game over the real engine. Subclasses set ``name``, ``description``,
    ``inner_game`` (the engine's game name), ``inner_setup`` (the prepared position), ``script``
    (the other seats' actions and the chance outcomes, in the order the inner game asks for them)
    and ``steps``; ``public_decision_context`` and ``free_action_types`` as the inner game's. A
    real-time game also sets ``free_script`` and ``free_decision``."""

    inner_game: ClassVar[str]
    inner_setup: ClassVar[dict[str, Any]]
    script: ClassVar[tuple[Action, ...]] = ()
    #: the other seats' free actions, in order
    free_script: ClassVar[tuple[ScriptedFree, ...]] = ()
    #: the kind of the decision that waits for a free action a step asks for
    free_decision: ClassVar[str] = "free"
    steps: ClassVar[tuple[TutorialStep, ...]]

    state_fields = StateFields(
        shared("setup"),
        Field("inner", SUBSTATE, _inner_codec()),
        shared("step"),        # index of the current step; len(steps) once all are done
        shared("cursor"),      # how much of the script has been played
        shared("continued"),   # the current step's continue has been pressed
        shared("free_cursor", default=0),   # how much of the free script has been played
    )

    # -- construction -------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any] | None = None) -> "TutorialGame":
        if setup not in (None, {}):
            raise InvalidSetup(Message("a tutorial is played from its own prepared position: send an empty setup"))
        tutorial = cls.create(setup={}, inner=game_class(cls.inner_game).new(dict(cls.inner_setup)),
                              step=0, cursor=0, continued=False, free_cursor=0)
        tutorial._play_on()
        return tutorial

    # -- reading ------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.step >= len(self.steps) or self.inner.pending() is None

    def current_step(self) -> TutorialStep:
        """The step in progress (the last one once the tutorial is finished)."""
        return self.steps[min(self.step, len(self.steps) - 1)]

    def _waiting_for_continue(self) -> bool:
        return not self.continued and self.current_step().waits_for_continue(self.inner)

    def _waiting_for_free_action(self) -> bool:
        """A step that does not ask to watch while the inner game waits for its clock: nothing
        happens before the person's free action."""
        if self.finished or self.current_step().waits_for_continue(self.inner):
            return False
        pending = self.inner.pending()
        return isinstance(pending, Chance) and pending.timed

    def pending(self) -> Decision | Chance | None:
        if self.finished:
            return None
        step = self.current_step()
        if self._waiting_for_continue():
            words = step.button or CONTINUE_WORDS
            return Decision(PERSON, TUTORIAL_DECISION, (dict(CONTINUE),), {"step": step.key}, (words,))
        if self._waiting_for_free_action():
            return Decision(PERSON, self.free_decision, self.free_options(PERSON), {"step": step.key})
        decision = self.inner.pending()
        if not isinstance(decision, Decision) or decision.seat != PERSON:  # pragma: no cover
            raise AssertionError(f"{self.name}: the script left the inner game at {decision!r}")  # i18n: programming error
        kept = [i for i, option in enumerate(decision.options) if step.allows(self.inner, option)]
        notes = decision.note_messages
        return Decision(PERSON, decision.kind, tuple(decision.options[i] for i in kept), decision.context,
                        tuple(notes[i] for i in kept) if notes else (), decision.between_races)

    def free_options(self, seat: int) -> tuple[Action, ...]:
        if seat != PERSON or self.finished:
            return ()
        step = self.current_step()
        return tuple(option for option in self.inner.free_options(seat) if step.allows(self.inner, option))

    # -- acting -------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        pending = self.step_answered_by(action, Message("the tutorial is over"))
        if self.is_free_action(action):   # the answer to the decision that waits for a free action
            self.apply_free(PERSON, action)
            return
        if not pending.allows(action):
            raise IllegalAction(self.current_step().hint, pending.options)
        if pending.kind == TUTORIAL_DECISION:
            self.continued = True
        else:
            self.inner.apply(action)
        self._play_on()

    def apply_free(self, seat: int, action: Action) -> None:
        if seat != PERSON:
            raise IllegalAction(Message("only the person learning plays in a tutorial"))
        if self.finished or not self.current_step().allows(self.inner, action):
            raise IllegalAction(self.current_step().hint)
        self.inner.apply_free(seat, action)
        self._play_on()

    def _play_on(self) -> None:
        """After an action: move on past the steps now done, then play the script until the person
        has something to do (a decision, a step to read before pressing continue, a free action to
        take while the clock waits), the other seats' free actions as they fall due."""
        while True:
            while self.step < len(self.steps) and self.steps[self.step].done(self.inner):
                self.step += 1
                self.continued = False
            if self.finished or self._waiting_for_continue() or self._waiting_for_free_action():
                break
            pending = self.inner.pending()
            if isinstance(pending, Decision) and pending.seat == PERSON:
                break
            self.inner.apply(self._scripted(pending))
            if isinstance(pending, Chance) and pending.timed:
                self.continued = False   # one tick of the clock per press: the person is the clock
        self._play_free_script()

    def _play_free_script(self) -> None:
        """The other seats' scripted free actions now due, in order."""
        while self.free_cursor < len(self.free_script) and self.free_script[self.free_cursor].due(self.inner):
            entry = self.free_script[self.free_cursor]
            self.inner.apply_free(entry.seat, entry.action)
            self.free_cursor += 1

    def _scripted(self, pending: Decision | Chance | None) -> Action:
        """The script's next entry, which must answer the inner game's pending step."""
        if self.cursor >= len(self.script):
            raise AssertionError(f"{self.name}: the script ran out at {pending!r}")  # i18n: programming error
        action = self.script[self.cursor]
        fits = pending.is_valid(action) if isinstance(pending, Chance) else pending.allows(action)
        if not fits:
            raise AssertionError(f"{self.name}: script entry {self.cursor} {action!r} does not answer "
                                 f"{pending!r}")  # i18n: programming error
        self.cursor += 1
        return action

    # -- views --------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """The inner game's view for ``seat`` (its pending step as the tutorial shows it) and the step."""
        shown = self.inner.view(seat)
        step = self.current_step()
        rules = self.description.rules
        anchors = rules.anchor_map() if rules is not None else {}
        text = step.finished_text if self.finished and step.finished_text is not None else step.text
        shown["tutorial"] = {
            "step": min(self.step, len(self.steps) - 1) + 1, "steps": len(self.steps), "key": step.key,
            "title": step.title.to_json(), "text": text.to_json(), "why": step.why.to_json(),
            "rule": anchors.get(step.rule) if step.rule else None, "finished": self.finished,
        }
        return shown

    def secrets(self, seat: int | None) -> list[Any]:
        return self.inner.secrets(seat)


class InnerLookup(Lookup):
    """A look-up of the inner game (a TurfMaster move preview), asked of a tutorial."""

    def __call__(self, state: Any, seat: int | None, params: Any) -> Any:
        return super().__call__(state.inner, seat, params)


def tutorial_description(of: GameDescription, name: str, title: Message, summary: Message,
                         teaches: str | None = None) -> GameDescription:
    """The description of a tutorial played on game ``of``: one seat, no setup, no bots, started at
    once, drawn by ``of``'s page with its public data and rules page, its look-ups asked of the inner
    game. ``teaches``: the game whose "Learn to play" it is (``of`` itself unless said: a tutorial
    played on a single race may teach the meeting)."""
    return replace(
        of, name=name, title=title, summary=summary, min_seats=1, max_seats=1, setup=(), bots=(),
        seats=lambda _state: SeatPlan((None,)), form=lambda _values: {},
        lookups=tuple(InnerLookup(entry.name, entry.function, entry.public, entry.slow, entry.about_option)
                      for entry in of.lookups),
        examples=({},), caller=False, order=of.order + 1, extra_setup_keys=(), races=False,
        tutorial_of=teaches or of.name, starts_at_once=True, puzzles=None, rated=False,
    )
