"""TurfMaster's guided first race (turfmaster/tutorial.py) played through the real engine: every step
refuses what it does not ask for (state unchanged, the step's hint) and takes what it asks for, and
the prepared position really produces what each step teaches: a card round (T1, T5), a dice round
(T1), a blocked lane (T4), two lane changes in one move (T3), a card spent above the handicap (T6),
a handicapped horse moving one die (T6), a joker ignoring the handicap (T6) and the finish (T9)."""

from __future__ import annotations

import json

import pytest

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.core.registry import game_class
from hippodrome.core.match import Match
from hippodrome.core.tutorial import CONTINUE
from hippodrome.turfmaster.movement import moves_among
from hippodrome.turfmaster.race import spent_without_moving
from hippodrome.turfmaster.tutorial import SCRIPT, STEPS, preview
from hippodrome.turfmaster.tutorial import why as why_lookup

Tutorial = game_class("turfmaster-tutorial")
KEYS = ["play-card", "dice-round", "blocked-lane", "change-lanes", "handicap", "dice-handicap", "joker", "finish"]


def refused(tutorial, action) -> str:
    before = json.dumps(tutorial.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        tutorial.apply(action)
    assert json.dumps(tutorial.to_json(), sort_keys=True) == before
    return str(error.value)


def square_of(race, horse):
    sid = race.square[horse]
    return race.course.lane_of[sid], race.course.index_of[sid]


def moves(race, round_no, horse="red"):
    return [e for e in race.history if e["event"] == "move" and e["horse"] == horse and e["round"] == round_no]


def walk(tutorial, check=lambda tutorial, step_key, decision: None):
    """Plays the tutorial to its end with the one option each step offers, first sending an option
    of the race that the step does not allow (refused with its hint) where there is one."""
    taken = 0
    while tutorial.pending() is not None:
        decision = tutorial.pending()
        step = tutorial.current_step()
        assert isinstance(decision, Decision) and decision.seat == 0 and len(decision.options) == 1
        check(tutorial, step.key, decision)
        inner = tutorial.inner.pending()
        other = [o for o in inner.options if o not in decision.options] if decision.kind != "tutorial" else []
        for wrong in other[:1] + ([] if decision.kind == "tutorial" else [CONTINUE]):
            assert refused(tutorial, wrong) == str(step.hint)
        tutorial.apply(decision.options[0])
        taken += 1
    return taken


def test_the_steps_come_in_order_and_the_race_ends_with_the_last():
    seen = []
    taken = walk(Tutorial.new({}), lambda tutorial, key, decision: seen.append(key) if key not in seen else None)
    assert seen == KEYS == [step.key for step in STEPS]
    assert taken <= 16  # about fifteen clicks: well under ten minutes
    assert [step.rule for step in STEPS] == ["T1", "T1", "T4", "T3", "T6", "T6", "T6", "T9"]


def test_every_step_refuses_what_it_does_not_ask_for_with_its_hint():
    tutorial = Tutorial.new({})
    assert refused(tutorial, {"type": "card", "horse": "red", "card": "8"}) == str(STEPS[0].hint)
    assert refused(tutorial, CONTINUE) == str(STEPS[0].hint)
    assert refused(tutorial, {"type": "card", "horse": "blue", "card": "8"}) == str(STEPS[0].hint)
    walk(tutorial)   # the walk sends a refused option at every step
    assert tutorial.finished and tutorial.observation(0)["tutorial"]["finished"]
    assert refused(tutorial, CONTINUE) == "the tutorial is over"


def test_the_prepared_position_produces_what_each_step_teaches():
    facts = {}

    def check(tutorial, key, decision):
        race = tutorial.inner
        inner = race.pending()
        if key == "play-card" and decision.kind == "card":   # T1: a card round, Red free to play its 7
            facts["card round"] = race.round_kind == "card" and race.round_no == 1
        if key == "dice-round" and decision.kind == "square":  # T1: every horse moves the same 8
            rolled = [e for e in race.history if e["event"] == "move" and e["round"] == 2]
            facts["dice round"] = {e["points"] for e in rolled} == {8} and race.dice == [5, 3]
        if key == "blocked-lane" and decision.kind == "square":
            # T4: Yellow, right ahead in Red's lane, blocks it: no end of the 8 stays in lane 3
            (lane, index), (yellow_lane, yellow_index) = square_of(race, "red"), square_of(race, "yellow")
            facts["blocked"] = (lane == yellow_lane == 3 and 0 < yellow_index - index <= 8
                                and all(o["lane"] != 3 for o in inner.options) and inner.context["steps"] == 8)
        if key == "change-lanes" and decision.kind == "square":
            # T3: the rail is two lanes in; an 8 reaches it (changes at steps 1 and 7), a 6 could not
            others = [race.square[h] for h in ("blue", "yellow")]
            six = moves_among(race.course, race.square["red"], 6, others)
            facts["two lanes"] = (square_of(race, "red")[0] == 2 and {"lane": 0} in [{"lane": o["lane"]} for o in inner.options]
                                  and all(race.course.lane_of[end] != 0 for end in six.ends))
        if key == "handicap" and decision.kind == "card":
            # T6: Red is 2nd, limit 9: its 11 is offered and would be spent without moving
            eleven = {"type": "card", "horse": "red", "card": "11"}
            facts["spent"] = (race.limits["red"] == 9 and spent_without_moving("11", 9) and eleven in inner.options
                              and "spent" in inner.notes[inner.options.index(eleven)])
        if key == "dice-handicap" and decision.kind == "die":
            # T6: the sum 11 is above Red's limit of 10: its owner moves it by one die
            facts["one die"] = race.limits["red"] == 10 and race.dice == [6, 5] and race.dice_use["use"] == "sum"
        if key == "joker" and decision.kind == "card":
            # T6: Red handicapped to 9, its 11 above that; the joker is not
            facts["joker limit"] = race.limits["red"] == 9 and spent_without_moving("11", 9)
            facts["joker"] = not spent_without_moving("J12", 9)

    tutorial = Tutorial.new({})
    walk(tutorial, check)
    race = tutorial.inner
    assert facts == {"card round": True, "dice round": True, "blocked": True, "two lanes": True, "spent": True,
                     "one die": True, "joker limit": True, "joker": True}
    assert [moves(race, 1)[0]["steps"], moves(race, 3)[0]["steps"], moves(race, 4)[0]["steps"]] == [7, 8, 8]
    assert moves(race, 4)[0]["from"]["lane"] == 2 and moves(race, 4)[0]["to"]["lane"] == 0
    assert moves(race, 6)[0]["points"] == 6                                # one die, not the sum (T6)
    assert moves(race, 7)[0]["points"] == 12 and moves(race, 7)[0]["steps"] == 12   # the joker moved it in full
    blue_nine = next(e for e in race.history if e["event"] == "card" and e["horse"] == "blue" and e["card"] == "9")
    assert blue_nine["handicapped"] == 8                                   # a spent card, as the step says (T6)
    # T9: every horse crossed in the last round; Red, farthest past the line, wins
    assert race.over and race.places == ["red", "blue", "yellow"]
    assert {e["round"] for e in race.history if e["event"] == "finish"} == {7}


def test_once_finished_the_last_step_says_how_the_race_ended_not_what_to_do():
    """T9: the finished panel no longer asks to watch the others finish; it names the real ranking."""
    tutorial = Tutorial.new({})
    walk(tutorial)
    end = tutorial.observation(0)["tutorial"]
    assert end["finished"] and end["key"] == "finish" and end["text"] != STEPS[-1].text.to_json()
    words = end["text"]["msgid"]
    placed = [words.index(colour) for colour in ("Red", "Blue", "Yellow")]
    assert tutorial.inner.places == ["red", "blue", "yellow"] and placed == sorted(placed), words


def test_the_run_is_the_same_whatever_the_seed_and_shows_no_other_hand():
    ends = []
    for seed in (3, 4):
        match = Match("turfmaster-tutorial", {}, seed=seed)
        while match.pending() is not None:
            view, race = match.state.observation(0), match.state.inner
            assert list(view["hands"]) == ["red"]          # the other player's hands stay hidden
            shown = json.dumps(view)
            if race.round_no < 7:                          # Yellow's joker, until it plays it
                assert '"J11"' not in shown
            if race.round_no < 6:                          # the dice of round 6, until they are rolled
                assert "[6, 5]" not in shown
            match.act(0, match.pending().options[0])
        ends.append(match.state.to_json())
        assert match.state.cursor == len(SCRIPT)           # the whole script, and only it, was played
    assert ends[0] == ends[1]


def test_the_preview_shows_only_the_squares_the_step_allows():
    tutorial = Tutorial.new({})
    answer = preview(tutorial, 0, {"action": {"type": "card", "horse": "red", "card": "7"}})
    assert answer["squares"] == [{"lane": 3, "square": 73, "falls": False}]
    with pytest.raises(IllegalAction):
        preview(tutorial, 0, {"action": {"type": "card", "horse": "red", "card": "11"}})
    assert Tutorial.description.lookup("preview") is not None
    assert Tutorial.description.tutorial_of == "turfmaster" and Tutorial.description.starts_at_once


def test_a_tapped_square_is_explained_by_the_race_or_by_the_step():
    """The "why" of a tapped square (T5 out of reach; T4 a blocked square) is the race's; a square
    the race would allow but the step does not gets the step's hint; the lit square is reachable."""
    tutorial = Tutorial.new({})
    seven = {"type": "card", "horse": "red", "card": "7"}
    assert Tutorial.description.lookup("why") is not None and not Tutorial.description.lookup("why").public

    def asked(lane, square, action=seven):
        return why_lookup(tutorial, 0, {"action": action, "square": {"lane": lane, "square": square}})

    assert asked(3, 73)["reachable"]
    far = asked(3, 75)
    assert not far["reachable"] and far["rule"] == "T5" and far["reason"] != "step"
    aside = asked(2, 72)   # a lane change the race allows (T3), not what the step asks for
    assert not aside["reachable"] and aside["message"] == STEPS[0].hint and aside["rule"] is None
    with pytest.raises(IllegalAction):   # a card the step does not ask for
        asked(3, 77, {"type": "card", "horse": "red", "card": "11"})


def test_a_tutorial_table_starts_at_once_and_a_restarted_server_resumes_it(tmp_path):
    from fastapi.testclient import TestClient

    from hippodrome.server import create_app
    from tests.server.conftest import act, resumed, seated

    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert games["turfmaster-tutorial"]["tutorial_of"] == "turfmaster" and games["turfmaster-tutorial"]["lobby"]
        table = client.post("/api/tables", json={"game": "turfmaster-tutorial", "setup": {},
                                                 "seats": [{"name": "Ana", "kind": "person"}]}).json()
        assert table["status"] == "playing"
        token = table["seats"][0]["token"]
        with seated(client, table["id"], token) as (ws, state):
            assert state["decision"]["options"] == [{"type": "card", "horse": "red", "card": "7"}]
            state = act(ws, state, {"type": "card", "horse": "red", "card": "7"})
            state = act(ws, state, {"type": "square", "horse": "red", "lane": 3, "square": 73})
            assert state["decision"]["kind"] == "tutorial" and state["view"]["tutorial"]["key"] == "dice-round"
            before = state["view"]
    with resumed(db, table["id"], token, before) as (ws, state):
        state = act(ws, state, CONTINUE)
        assert state["decision"]["options"] == [{"type": "square", "horse": "red", "lane": 3, "square": 81}]


def test_T6_the_dice_step_names_reds_limit_when_it_is_so():
    """T6: handicaps are given at the end of a round. Step 6 opens before Yellow has ended the round
    of cards (Red is still 2nd, limited to 9): its text says Red is limited to 10 once the round is
    over, and so it is when the die is chosen."""
    tutorial = Tutorial.new({})
    limits = {}
    while tutorial.pending() is not None:
        decision = tutorial.pending()
        if tutorial.current_step().key == "dice-handicap":
            red = next(h for h in tutorial.observation(0)["horses"] if h["id"] == "red")
            limits[decision.kind] = red["limit"]
        tutorial.apply(decision.options[0])
    text = str(next(s for s in STEPS if s.key == "dice-handicap").text)
    assert limits == {"tutorial": 9, "die": 10, "square": 10}
    assert "limit of 10" not in text and "is then 3rd" in text and "at most 10 squares" in text
