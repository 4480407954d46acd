"""The tutorial layer's real-time play (core/tutorial.py), with a made-up game whose clock ticks
(a timed chance step, as Ready Set Bet's rolls) and whose seats shout at any time (a free action,
as its bets): the person is the clock, one tick per press of continue; a step that asks for a free
action holds the clock until it is taken; the other seat's scripted free actions come when due."""

from __future__ import annotations

from typing import Any

import pytest

from hippodrome.core.description import GameDescription, SeatPlan
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Chance, Game
from hippodrome.core.match import Match
from hippodrome.core.state import DeclaredState, StateFields, shared
from hippodrome.core.tutorial import (
    CONTINUE, ScriptedFree, TutorialGame, TutorialStep, tutorial_description, watching,
)
from hippodrome.i18n import Message
from tests.conftest import registered

END = 5


class Dash(DeclaredState, Game):
    """The clock ticks up to END; any seat may shout a word at any time before the end."""

    name = "test-dash"
    state_fields = StateFields(shared("setup"), shared("ticks"), shared("shouts"))
    free_action_types = frozenset({"shout"})

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Dash":
        return cls.create(setup=setup, ticks=0, shouts=[])

    def free_options(self, seat: int) -> tuple[dict[str, Any], ...]:
        return tuple({"type": "shout", "word": word} for word in ("go", "faster", "hey")) if self.ticks < END else ()

    def apply_free(self, seat: int, action: dict[str, Any]) -> None:
        if action not in self.free_options(seat):
            raise IllegalAction(Message("not one of the options for {kind}", kind="shout"))
        self.shouts = [*self.shouts, (seat, action["word"], self.ticks)]

    def pending(self) -> Chance | None:
        if self.ticks >= END:
            return None
        return Chance("tick", lambda rng: {"type": "tick"}, lambda action: action == {"type": "tick"}, timed=True)

    def apply(self, action: dict[str, Any]) -> None:
        self.step_answered_by(action, Message("the game is over; no more actions are taken"))
        self.ticks += 1

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"ticks": self.ticks, "pending": None}


Dash.description = GameDescription(
    name="test-dash", title=Message("Countdown"), summary=Message("Say 1 or 2"), min_seats=2, max_seats=2,
    setup=(), bots=(), seats=lambda state: SeatPlan((None, None)), page="dash", examples=({},))

GO, FASTER, HEY = ({"type": "shout", "word": word} for word in ("go", "faster", "hey"))


def shouted(word: str):
    return lambda inner: any(seat == 0 and said == word for seat, said, _ in inner.shouts)


def shout(word: str):
    return lambda inner, action: action == {"type": "shout", "word": word}


def step(key: str, allows, done) -> TutorialStep:
    words = Message("Say 1 or 2")
    return TutorialStep(key, words, words, words, None, allows, Message("Plays any legal move"), done)


class DashTutorial(TutorialGame):
    name = "test-dash-tutorial"
    description = tutorial_description(Dash.description, "test-dash-tutorial", Message("Countdown"),
                                       Message("Say 1 or 2"))
    inner_game = "test-dash"
    inner_setup: dict[str, Any] = {}
    free_action_types = Dash.free_action_types
    script = tuple({"type": "tick"} for _ in range(END))
    free_script = (ScriptedFree(1, HEY, lambda inner: inner.ticks >= 2),
                   ScriptedFree(1, {"type": "shout", "word": "go"}, lambda inner: inner.ticks >= 1))
    free_decision = "shout"
    steps = (
        step("go", shout("go"), shouted("go")),
        step("watch", watching, lambda inner: inner.ticks >= 3),
        step("faster", shout("faster"), shouted("faster")),
        step("to-the-end", watching, lambda inner: inner.ticks >= END),
    )


@pytest.fixture
def dash():
    with registered(Dash, DashTutorial):
        yield DashTutorial


def test_a_step_asking_for_a_free_action_holds_the_clock_until_it_is_taken(dash):
    tutorial = dash.new({})
    pending = tutorial.pending()
    assert (pending.seat, pending.kind, pending.options) == (0, "shout", (GO,))
    assert tutorial.inner.ticks == 0 and tutorial.free_options(0) == (GO,)
    before = tutorial.to_json()
    for refused in (lambda: tutorial.apply(CONTINUE), lambda: tutorial.apply(HEY),
                    lambda: tutorial.apply_free(0, FASTER), lambda: tutorial.apply_free(1, GO)):
        with pytest.raises(IllegalAction):
            refused()
        assert tutorial.to_json() == before
    tutorial.apply(GO)   # the decision's answer is taken as the free action
    assert tutorial.inner.shouts == [(0, "go", 0)] and tutorial.inner.ticks == 0
    assert tutorial.pending().kind == "tutorial" and tutorial.current_step().key == "watch"


def test_the_person_is_the_clock_one_tick_a_press_and_the_free_script_comes_when_due(dash):
    tutorial = dash.new({})
    tutorial.apply_free(0, GO)
    ticks = []
    while tutorial.current_step().key == "watch":
        tutorial.apply(CONTINUE)
        ticks.append(tutorial.inner.ticks)
    assert ticks == [1, 2, 3]
    # the free script in its order: "hey" is due first, and "go" (due since tick 1) only after it
    assert tutorial.inner.shouts == [(0, "go", 0), (1, "hey", 2), (1, "go", 2)]
    assert tutorial.pending().kind == "shout" and tutorial.pending().options == (FASTER,)
    tutorial.apply_free(0, FASTER)
    assert tutorial.inner.ticks == 3 and tutorial.pending().kind == "tutorial"
    tutorial.apply(CONTINUE)
    tutorial.apply(CONTINUE)
    assert tutorial.inner.ticks == END and tutorial.finished and tutorial.pending() is None


def played_to_the_end(seed: int) -> Game:
    """The tutorial at a table of seed ``seed``, its person always taking the last option."""
    match = Match("test-dash-tutorial", {}, seed=seed)
    while match.pending() is not None:
        match.act(0, match.pending().options[-1])
    return match.state


def test_a_real_time_tutorial_plays_the_same_whatever_the_seed_and_reads_back(dash):
    ends = [played_to_the_end(seed) for seed in (1, 2)]
    assert all(end.observation(0)["tutorial"]["finished"] for end in ends)
    assert ends[0].to_json() == ends[1].to_json() == type(ends[0]).from_json(ends[0].to_json()).to_json()
    assert ends[0].free_cursor == 2 and ends[0].inner.shouts[1:3] == [(1, "hey", 2), (1, "go", 2)]
