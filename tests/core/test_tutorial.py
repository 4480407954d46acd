"""The tutorial layer (core/tutorial.py) with a made-up game: a step filters the person's options
and refuses the others with its hint, a watching step waits for "continue", the script plays the
other seat and the chance steps, the view carries the step, and a server table of a tutorial
starts at once and is played to its end."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.description import GameDescription, SeatPlan
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import _GAMES, register_game
from hippodrome.core.match import Match
from hippodrome.core.state import DeclaredState, StateFields, shared
from hippodrome.core.tutorial import CONTINUE, TutorialGame, TutorialStep, tutorial_description, watching
from hippodrome.i18n import Message
from hippodrome.server import create_app
from tests.conftest import registered
from tests.server.conftest import join, receive

TARGET = 10


class Tally(DeclaredState, Game):
    """Two seats take turns: a die says how far the turn may go (1 or 2, or 3 on a six), then the
    seat adds 1 up to that; the total reaching the target ends the game."""

    name = "test-tally"
    state_fields = StateFields(shared("setup"), shared("total"), shared("turn"), shared("die"), shared("said"),
                               shared("cheers"))
    #: any seat may cheer at any time (a free action, as Ready Set Bet's bets)
    free_action_types = frozenset({"cheer"})

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Tally":
        return cls.create(setup=setup, total=setup.get("total", 0), turn=0, die=None, said=[], cheers=0)

    def free_options(self, seat: int) -> tuple[dict[str, Any], ...]:
        return ({"type": "cheer", "loud": False}, {"type": "cheer", "loud": True})

    def apply_free(self, seat: int, action: dict[str, Any]) -> None:
        if action not in self.free_options(seat):
            raise IllegalAction(Message("not one of the options for {kind}", kind="cheer"))
        self.cheers += 1

    def pending(self) -> Decision | Chance | None:
        if self.total >= TARGET:
            return None
        if self.die is None:
            return Chance("die", lambda rng: {"type": "die", "value": rng.randint(1, 6)},
                          lambda action: action.get("type") == "die" and action.get("value") in range(1, 7))
        top = 3 if self.die == 6 else 2
        return Decision(self.turn, "add", tuple({"type": "add", "n": n} for n in range(1, top + 1)))

    def apply(self, action: dict[str, Any]) -> None:
        pending = self.step_answered_by(action, Message("the game is over; no more actions are taken"))
        if isinstance(pending, Chance):
            self.die = action["value"]
            return
        if not pending.allows(action):
            raise IllegalAction(Message("not one of the options for {kind}", kind="add"), pending.options)
        self.total += action["n"]
        self.said = [*self.said, (self.turn, action["n"])]
        self.turn, self.die = 1 - self.turn, None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "die": self.die, "pending": None}


Tally.description = GameDescription(
    name="test-tally", title=Message("Countdown"), summary=Message("Say 1 or 2"), min_seats=2, max_seats=2,
    setup=(), bots=(), seats=lambda state: SeatPlan((None, None)), page="tally", examples=({},))


def said_by(seat: int, count: int):
    return lambda inner: sum(1 for who, _ in inner.said if who == seat) >= count


class TallyTutorial(TutorialGame):
    name = "test-tally-tutorial"
    description = tutorial_description(Tally.description, "test-tally-tutorial", Message("Countdown"),
                                       Message("Say 1 or 2"))
    inner_game = "test-tally"
    inner_setup = {"total": 3}
    free_action_types = Tally.free_action_types
    # the first die, the other seat's turn (its die, its add), then the dice of the turns after
    script = ({"type": "die", "value": 6}, {"type": "die", "value": 2}, {"type": "add", "n": 1},
              {"type": "die", "value": 1}, {"type": "die", "value": 5}, {"type": "add", "n": 2},
              {"type": "die", "value": 3})
    steps = (
        TutorialStep("add-three", Message("Countdown"), Message("Say 1 or 2"), Message("Say 1 or 2"), "T1",
                     lambda inner, action: action == {"type": "add", "n": 3}, Message("Plays any legal move"),
                     said_by(0, 1)),
        TutorialStep("watch", Message("Countdown"), Message("Say 1 or 2"), Message("Say 1 or 2"), None,
                     lambda inner, action: watching(inner, action) or action == {"type": "cheer", "loud": True},
                     Message("Continue"), said_by(1, 1)),
        TutorialStep("finish", Message("Countdown"), Message("Say 1 or 2"), Message("Say 1 or 2"), None,
                     lambda inner, action: action.get("type") == "add", Message("Plays any legal move"),
                     lambda inner: inner.pending() is None),
    )


@pytest.fixture
def tally():
    with registered(Tally, TallyTutorial):
        yield TallyTutorial


def refused(game: Game, action: dict[str, Any]) -> IllegalAction:
    before = game.to_json()
    with pytest.raises(IllegalAction) as error:
        game.apply(action)
    assert game.to_json() == before
    return error.value


def test_a_step_offers_only_what_it_allows_and_refuses_the_rest_with_its_hint(tally):
    tutorial = tally.new({})
    pending = tutorial.pending()   # the script's six came first: 1, 2 or 3
    assert pending.seat == 0 and pending.options == ({"type": "add", "n": 3},)
    assert str(refused(tutorial, {"type": "add", "n": 1})) == "Plays any legal move"
    assert str(refused(tutorial, CONTINUE)) == "Plays any legal move"
    assert tutorial.observation(0)["tutorial"] == {
        "step": 1, "steps": 3, "key": "add-three", "title": {"msgid": "Countdown", "params": {}},
        "text": {"msgid": "Say 1 or 2", "params": {}}, "why": {"msgid": "Say 1 or 2", "params": {}},
        "rule": None, "finished": False}
    tutorial.apply({"type": "add", "n": 3})
    assert tutorial.inner.total == 6 and tutorial.step == 1


def test_a_watching_step_waits_for_continue_then_the_script_plays_the_other_seat(tally):
    tutorial = tally.new({})
    tutorial.apply({"type": "add", "n": 3})
    pending = tutorial.pending()
    assert (pending.kind, pending.options, pending.notes) == ("tutorial", (CONTINUE,), ("Continue",))
    assert tutorial.inner.turn == 1 and tutorial.inner.die is None   # nothing played before the person reads
    assert str(refused(tutorial, {"type": "add", "n": 1})) == "Continue"
    tutorial.apply(CONTINUE)
    # the other seat added 1 (die 2), then the person's next die (1) was drawn: the last step
    assert tutorial.inner.said == [(0, 3), (1, 1)] and tutorial.step == 2
    assert tutorial.pending().options == ({"type": "add", "n": 1}, {"type": "add", "n": 2})


def test_the_tutorial_plays_to_its_end_the_same_whatever_the_seed(tally):
    ends = []
    for seed in (1, 2):
        match = Match("test-tally-tutorial", {}, seed=seed)
        while match.pending() is not None:
            match.act(0, match.pending().options[-1])
        view = match.state.observation(0)
        assert view["tutorial"]["finished"] and view["tutorial"]["step"] == 3
        ends.append(match.state.to_json())
        copy = type(match.state).from_json(match.state.to_json())
        assert copy.to_json() == match.state.to_json() and match.state.clone().to_json() == ends[-1]
    assert ends[0] == ends[1]
    with pytest.raises(InvalidSetup):
        tally.new({"total": 9})


def test_a_tutorial_table_starts_at_once_and_plays_to_its_end(tally, tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0)) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert listed["test-tally-tutorial"]["tutorial_of"] == "test-tally"
        assert listed["test-tally"]["tutorial_of"] is None
        response = client.post("/api/tables", json={"game": "test-tally-tutorial", "setup": {},
                                                    "seats": [{"name": "", "kind": "person"}]})
        assert response.status_code == 200, response.text
        table = response.json()
        assert table["status"] == "playing" and table["play_host_link"].startswith(f"/play/{table['id']}#seat=")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            state = receive(ws)
            assert state["view"]["tutorial"]["key"] == "add-three"
            ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": {"type": "add", "n": 1}})
            refusal = receive(ws, kind="error")
            assert refusal["message"] == "Plays any legal move"
            while not state["over"]:
                state = receive(ws)
                if state["decision"] and "options" in state["decision"]:
                    ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                                  "action": state["decision"]["options"][-1]})
            assert state["view"]["tutorial"]["finished"]


def test_free_actions_follow_the_step_while_it_waits_for_continue(tally):
    tutorial = tally.new({})
    with pytest.raises(IllegalAction):   # the first step allows no cheer
        tutorial.apply_free(0, {"type": "cheer", "loud": True})
    tutorial.apply({"type": "add", "n": 3})
    assert tutorial.pending().kind == "tutorial"
    assert tutorial.free_options(0) == ({"type": "cheer", "loud": True},) and tutorial.free_options(1) == ()
    before = tutorial.to_json()
    for seat, action in ((0, {"type": "cheer", "loud": False}), (1, {"type": "cheer", "loud": True})):
        with pytest.raises(IllegalAction):
            tutorial.apply_free(seat, action)
        assert tutorial.to_json() == before
    tutorial.apply_free(0, {"type": "cheer", "loud": True})
    assert tutorial.inner.cheers == 1 and tutorial.pending().kind == "tutorial"   # still waiting for continue


def test_the_last_steps_text_stays_once_finished_or_gives_way_to_its_finished_text(tally):
    """The finished panel shows the last step's text (Ready Set Bet's settlement lesson), or its
    ``finished_text`` where the text was an instruction that no longer applies (TurfMaster's finish)."""
    def played_to_the_end(tutorial_class):
        match = Match(tutorial_class.name, {}, seed=1)
        while match.pending() is not None:
            match.act(0, match.pending().options[-1])
        return match.state.observation(0)["tutorial"]

    end = played_to_the_end(tally)
    assert end["finished"] and end["text"] == {"msgid": "Say 1 or 2", "params": {}}

    last = tally.steps[-1]
    over = Message("The countdown is over: you said the last number.")

    class Finished(TallyTutorial):
        name = "test-tally-tutorial-finished"
        steps = (*tally.steps[:-1], TutorialStep(last.key, last.title, last.text, last.why, last.rule, last.allows,
                                                 last.hint, last.done, finished_text=over))

    register_game(Finished)
    try:
        tutorial = Finished.new({})
        assert tutorial.observation(0)["tutorial"]["text"] == tally.steps[0].text.to_json()   # not before the end
        end = played_to_the_end(Finished)
        assert end["finished"] and end["key"] == last.key and end["text"] == over.to_json()
    finally:
        del _GAMES[Finished.name]
