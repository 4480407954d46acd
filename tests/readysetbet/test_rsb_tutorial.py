"""Ready Set Bet's guided first race (readysetbet/tutorial.py): the prepared race really produces,
through the real engine and in order, each situation a step talks about (a bonus move R1, the
red-line crossings and "No more bets!" R2, the finishing order R3, the settlement R4, the Win,
Place and prop bets R5 R3 R7); every step takes the action it asks for and refuses another with
its hint, the state unchanged; every roll waits for the person's press; a run is the same
whatever the table's seed; a server table of it starts at once and is played to its end."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.errors import IllegalAction
from hippodrome.core.registry import game_class
from hippodrome.core.match import Match
from hippodrome.core.tutorial import CONTINUE
from hippodrome.readysetbet.board import PROP_CARDS, Finish, prop_space, race_spaces, wins
from hippodrome.readysetbet.dice_race import HORSE_INDEX, RaceState, ranks, roll_dice
from hippodrome.readysetbet.tutorial import (
    OPPONENT_BETS, PLACE_SPACES, PROP_SPACES, PROPS_FACE_UP, RACE_ROLLS, STEPS, WIN_SPACES, ReadySetBetTutorial,
    race_dice,
)
from hippodrome.server import create_app
from tests.server.conftest import act, join, receive, resumed, seated

STEP_KEYS = ["win-bet", "roll", "bonus", "place-bet", "to-red-line", "red-line", "prop-bet", "last-bets",
             "no-more-bets", "settlement"]


def race_events() -> list[tuple[int, dict[str, Any]]]:
    """(roll number from 1, event) of the prepared race, through dice_race.roll_dice."""
    state, found = RaceState.start(), []
    for number, dice in enumerate(race_dice(), start=1):
        state, events = roll_dice(state, dice)
        found.extend((number, event) for event in events)
    return found


def final_positions() -> tuple[int, ...]:
    state = RaceState.start()
    for dice in race_dice():
        state, _ = roll_dice(state, dice)
    return state.positions


def first(kind: str, **fields: Any) -> tuple[int, dict[str, Any]]:
    return next((n, e) for n, e in race_events()
                if e["event"] == kind and all(e.get(key) == value for key, value in fields.items()))


def params(key: str) -> dict[str, Any]:
    return next(step for step in STEPS if step.key == key).text.params


# -- the prepared race: each situation, in order, through the real engine --------------------
def test_the_race_rolls_the_rulebooks_bonus_example_first_r1():
    events = race_events()
    moves = [e for _, e in events if e["event"] == "move"]
    # R1: a 3 then a 2 moves horse 2/3 1 and then 1 + its bonus of 3 (the rulebook's own example)
    assert [(m["sum"], m["horse"], m["to"], m["bonus"]) for m in moves[:2]] == [(3, "2/3", 1, 0), (2, "2/3", 5, 3)]
    bonus_roll, bonus = first("move", bonus_move=True)
    assert bonus_roll == 2 and bonus["horse"] == params("bonus")["horse"] == "2/3"
    # R1: horse 10 (blue, +3) next, at roll 5, where the Place step starts
    ten_roll, ten = next((n, e) for n, e in events if e["event"] == "move" and e["horse"] == "10" and e["bonus"])
    assert ten_roll == 5 and ten["bonus"] == 3 and params("place-bet")["horse"] == "10"


def test_the_red_line_is_crossed_three_times_then_no_more_bets_then_the_finish_r2():
    crossings = [(n, e) for n, e in race_events() if e["event"] == "red_line"]
    assert [(n, e["horse"], e["crossing"]) for n, e in crossings] == [(16, "2/3", 1), (23, "10", 2), (28, "8", 3)]
    assert params("red-line")["horse"] == "2/3" and params("prop-bet")["horse"] == "10"
    assert params("no-more-bets")["horse"] == "8"
    assert first("no_more_bets")[0] == 28   # R2: at the third crossing
    finish_roll, finish = first("finish")
    assert finish_roll == RACE_ROLLS == len(race_dice()) and finish["horse"] == "2/3"
    # at least one roll between "No more bets!" and the finish: the step that says so is played
    assert finish_roll > 28


def test_the_finishing_order_and_the_bets_the_steps_ask_for_r3_r5_r7():
    positions = final_positions()
    order = ranks(positions)
    text = params("settlement")
    assert [order[HORSE_INDEX[text[place]]] for place in ("first", "second", "third")] == [1, 2, 3]
    finish = Finish(positions)
    spaces = {space.id: space for space in race_spaces(list(PROPS_FACE_UP), [])}
    # the person's three bets win (R5 Win, R3 Place 1st or 2nd, R7 10 ahead of 8) ...
    for space in WIN_SPACES | PLACE_SPACES | PROP_SPACES:
        assert wins(spaces[space], finish)[0], space
    # the numbers the steps' texts quote: "the Win space on the right ... (×9)", "its Place space (×4)" (R5)
    assert (spaces["win:2/3:R"].multiplier, spaces["place:10:R"].multiplier) == (9, 4)
    assert "(×9)" in str(STEPS[0].text) and "(×4)" in str(STEPS[3].text)
    # ... and the prop was worth taking when asked: 10 ahead of 8 at the second crossing
    state = RaceState.start()
    for dice in race_dice()[:23]:
        state, _ = roll_dice(state, dice)
    assert state.positions[HORSE_INDEX["10"]] > state.positions[HORSE_INDEX["8"]]
    assert PROP_CARDS["10>8"]["horse"] == "10" and prop_space("10>8").id in PROP_SPACES
    # Seat 2's bets: one loses, one wins (R4: the settlement shows both)
    outcomes = {space: bool(wins(spaces[space], finish)[0]) for _, _, space in OPPONENT_BETS}
    assert outcomes == {"win:7:R": False, "show:8:R": True}
    # Seat 2 never takes a space the person is asked for
    assert not set(outcomes) & (WIN_SPACES | PLACE_SPACES | PROP_SPACES)


def test_the_seed_search_accepts_the_tutorials_race_and_refuses_another():
    search = runpy.run_path(str(Path(__file__).resolve().parents[2] / "tools" / "find_tutorial_race.py"))
    rolls, winner, bonus_roll, crossings, props = search["situations"](race_dice())
    assert (rolls, winner, bonus_roll, crossings) == (RACE_ROLLS, "2/3", 2, [16, 23, 28]) and "10>8" in props
    assert search["situations"](search["seeded_race"]("readysetbet-tutorial-0", 40)) is None   # 66 rolls: too long
    assert search["situations"](search["seeded_race"]("readysetbet-tutorial-1")) is None       # not in order


# -- the walk-through: each step's action allowed, another refused -------------------------
def refused(tutorial: ReadySetBetTutorial, action: dict[str, Any], free: bool = False) -> str:
    before = tutorial.to_json()
    with pytest.raises(IllegalAction) as error:
        tutorial.apply_free(0, action) if free else tutorial.apply(action)
    assert tutorial.to_json() == before, "a refused action changed the tutorial"
    return str(error.value)


def bet(space: str, token: str = "5") -> dict[str, Any]:
    return {"type": "bet", "token": token, "space": space}


def key(tutorial: ReadySetBetTutorial) -> str:
    return tutorial.observation(0)["tutorial"]["key"]


def rolls(tutorial: ReadySetBetTutorial) -> int:
    return sum(1 for event in tutorial.inner.race_log if event["event"] == "move")


def roll_until(tutorial: ReadySetBetTutorial, step_key: str) -> None:
    """Press "Roll the dice" until the step ``step_key``: each press rolls exactly once."""
    while key(tutorial) != step_key:
        pending = tutorial.pending()
        assert (pending.kind, pending.options, pending.notes) == ("tutorial", (CONTINUE,), ("Roll the dice",))
        before = rolls(tutorial)
        tutorial.apply(CONTINUE)
        assert rolls(tutorial) == before + 1, "one roll per press"


def test_the_tutorial_walks_its_steps_allowing_what_each_asks_and_refusing_the_rest():
    tutorial = ReadySetBetTutorial.new({})
    view = tutorial.observation(0)
    assert view["tutorial"]["steps"] == len(STEP_KEYS) and view["seats"] == 2 and view["phase"] == "race"

    # 1. the Win bet (R5): nothing is rolled before it; the leftmost Win space is closed (R4)
    assert key(tutorial) == "win-bet" and rolls(tutorial) == 0
    pending = tutorial.pending()
    assert pending.kind == "bet" and {o["space"] for o in pending.options} == WIN_SPACES
    assert refused(tutorial, CONTINUE) == refused(tutorial, bet("win:7:M"), free=True) \
        == "In this step, put a token on one of horse 2/3's Win spaces."
    assert refused(tutorial, bet("place:10:R")) == "In this step, put a token on one of horse 2/3's Win spaces."
    tutorial.apply_free(0, bet("win:2/3:R"))          # a click on the page: the free action
    assert key(tutorial) == "roll" and rolls(tutorial) == 0

    # 2. rolling (R1): bets are refused while the step asks for a roll
    assert refused(tutorial, bet("win:4:R", "4"), free=True) == "In this step, press “Roll the dice”."
    roll_until(tutorial, "bonus")
    # Seat 2's first bet came with the first roll
    assert [(b["seat"], b["space"]) for b in tutorial.inner.bets] == [(0, "win:2/3:R"), (1, "win:7:R")]

    # 3. the bonus move (R1) just made by 2/3, then on to horse 10's
    last = [e for e in tutorial.inner.race_log if e["event"] == "move"][-1]
    assert (last["horse"], last["bonus"], last["to"]) == ("2/3", 3, 5)
    roll_until(tutorial, "place-bet")

    # 4. the Place bet (R3), given as the answer to the bet step's decision this time
    assert rolls(tutorial) == 5
    assert refused(tutorial, CONTINUE) == "In this step, put a token on horse 10's Place space."
    assert refused(tutorial, bet("place:10:L", "4")) == "In this step, put a token on horse 10's Place space."
    tutorial.apply(bet("place:10:R", "4"))
    assert key(tutorial) == "to-red-line"

    # 5, 6. the red line (R2): 2/3 crosses first, then 10
    roll_until(tutorial, "red-line")
    assert rolls(tutorial) == 16 and tutorial.inner.race.crossings == 1
    assert refused(tutorial, bet("prop:10>8", "3"), free=True) == "In this step, press “Roll the dice”."
    roll_until(tutorial, "prop-bet")

    # 7. the prop bet (R7) while betting is still open, one crossing left
    assert rolls(tutorial) == 23 and tutorial.inner.race.crossings == 2 and not tutorial.inner.race.bets_closed
    assert refused(tutorial, bet("prop:8>5,9", "3"), free=True) \
        == "In this step, put a token on the prop bet “10 beats 8”."
    tutorial.apply_free(0, bet("prop:10>8", "3"))

    # 8, 9. the third crossing closes the betting (R2): even the bet the step asked for before is refused now
    roll_until(tutorial, "no-more-bets")
    assert rolls(tutorial) == 28 and tutorial.inner.race.bets_closed
    assert refused(tutorial, bet("show:6:R", "2"), free=True) == "In this step, press “Roll the dice”."
    with pytest.raises(IllegalAction, match="No more bets"):
        tutorial.inner.clone().apply_free(0, bet("show:6:R", "2"))
    roll_until(tutorial, "settlement")

    # 10. the settlement (R4): the race ended the moment 2/3 reached 15; the tutorial is finished
    view = tutorial.observation(0)
    assert view["tutorial"] == {**view["tutorial"], "step": 10, "finished": True, "rule": "tokens"}
    assert tutorial.pending() is None and rolls(tutorial) == RACE_ROLLS and tutorial.cursor == len(tutorial.script)
    results = {(r["seat"], r["space"]): (r["won"], r["amount"]) for r in view["history"][-1]["results"]}
    assert results == {(0, "win:2/3:R"): (True, 45), (0, "place:10:R"): (True, 16), (0, "prop:10>8"): (True, 9),
                       (1, "win:7:R"): (False, -2), (1, "show:8:R"): (True, 4)}
    assert view["money"] == [70, 2]   # Seat 2: $4 won, then the $2 lost (winnings first, R4)
    assert refused(tutorial, CONTINUE) == "the tutorial is over"


def test_each_step_links_the_rule_it_teaches():
    anchors = ReadySetBetTutorial.description.rules.anchor_map()
    assert [step.key for step in STEPS] == STEP_KEYS
    assert {step.key: step.rule for step in STEPS} == {
        "win-bet": "R5", "roll": "R1", "bonus": "R1", "place-bet": "R3", "to-red-line": "R2", "red-line": "R2",
        "prop-bet": "R7", "last-bets": "R2", "no-more-bets": "R2", "settlement": "R4"}
    assert all(step.rule in anchors for step in STEPS)


def play_to_the_end(match: Match) -> None:
    while match.pending() is not None:
        pending = match.pending()
        match.act(0, pending.options[-1])


def test_the_same_race_whatever_the_seed_and_no_script_in_a_view():
    ends = []
    for seed in (1, 99):
        match = Match("readysetbet-tutorial", {}, seed=seed)
        play_to_the_end(match)
        ends.append(match.state.to_json())
        assert len(match.log) == 3 + RACE_ROLLS   # three bets and a press per roll: no chance drawn by the match
    assert ends[0] == ends[1]
    tutorial = ReadySetBetTutorial.new({})
    tutorial.apply(bet("win:2/3:R"))
    tutorial.apply(CONTINUE)
    text = json.dumps(tutorial.observation(0))
    assert '"dice": [1, 1]' not in text and "74037" not in text   # roll 2 is still to come
    assert [e["dice"] for e in tutorial.observation(0)["race_log"] if e["event"] == "move"] == [[1, 2]]


def test_the_description_offers_it_as_ready_set_bets_learn_to_play():
    description = game_class("readysetbet-tutorial").description
    data = description.to_json()
    assert (data["tutorial_of"], data["starts_at_once"], data["seats"], data["setup"]) == (
        "readysetbet", True, {"min": 1, "max": 1}, [])
    assert data["page"] == "readysetbet" and data["rules"]["page"] == "readysetbet"


def tutorial_table(client: TestClient) -> dict[str, Any]:
    """A table of the tutorial made as the lobby's "Learn to play" makes it."""
    response = client.post("/api/tables", json={"game": "readysetbet-tutorial", "setup": {},
                                                "seats": [{"name": "", "kind": "person"}]})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_tutorial_table_starts_at_once_and_is_played_to_its_end(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0)) as client:
        table = tutorial_table(client)
        assert table["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            state = receive(ws)
            assert state["view"]["tutorial"]["key"] == "win-bet" and state["decision"]["kind"] == "bet"
            ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": CONTINUE})
            assert receive(ws, kind="error")["message"] == "In this step, put a token on one of horse 2/3's Win spaces."
            state = act(ws, state, bet("win:2/3:M"))   # the bet as the page sends it: a free action
            while not state["over"]:
                state = act(ws, state, state["decision"]["options"][0])
            assert state["view"]["tutorial"]["finished"] and state["view"]["money"][0] > 0


def test_a_restarted_server_resumes_a_tutorial_table_where_it_was(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        table = tutorial_table(client)
        token = table["seats"][0]["token"]
        with seated(client, table["id"], token) as (ws, state):
            state = act(ws, state, bet("win:2/3:R"))   # a free action in the record
            for _ in range(3):
                state = act(ws, state, CONTINUE)
            assert state["view"]["tutorial"]["key"] == "bonus" and len(state["view"]["race_log"]) == 5
            before = state["view"]
    with resumed(db, table["id"], token, before) as (ws, state):
        state = act(ws, state, CONTINUE)   # roll 4, the same as ever: horse 10
        moves = [e for e in state["view"]["race_log"] if e["event"] == "move"]
        assert len(moves) == 4 and moves[-1]["horse"] == "10"
