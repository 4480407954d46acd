"""Ready Set Bet for the box ("readysetbet-box"): the program rolls and calls every race of the
meeting while people bet on the physical board, so the game never asks anybody anything: only
chance steps, every race to its finish (R2), all the meeting's races (4 by default, R9's meeting)."""

import pytest

from hippodrome.core import Match
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Chance, Decision
from hippodrome.readysetbet.box import BoxMeeting
from hippodrome.readysetbet.caller import RESULTS, race_calls, results_message
from hippodrome.readysetbet.description import BOX
from hippodrome.readysetbet.dice_race import FINISH, RACE_DATA
from hippodrome.readysetbet.settled_words import settlement_lines


def play_out(match):
    """Draw every step as a table's clock would; returns the steps met on the way."""
    steps = []
    while (pending := match.state.pending()) is not None:
        steps.append(pending)
        match.tick() if pending.timed else match.resolve_chance()
    return steps


@pytest.mark.parametrize("seed", range(8))
def test_r2_every_race_runs_to_its_finish_with_chance_steps_only(seed):
    """No decision is ever pending (nobody at the box could make it): the meeting's four races
    each run until a horse reaches the finish (R2), then the game is over."""
    match = Match("readysetbet-box", {}, seed=seed)
    steps = play_out(match)
    assert steps and all(isinstance(step, Chance) for step in steps)
    assert not any(isinstance(step, Decision) for step in steps)
    assert steps[0].kind == "caller_seed" and not steps[0].timed
    assert all(step.kind == "roll" and step.timed for step in steps[1:])
    history = match.state.history
    assert [race["race"] for race in history] == [1, 2, 3, 4] == list(range(1, RACE_DATA["races"] + 1))
    assert all(max(race["positions"].values()) == FINISH for race in history)
    # R3: each race's Win / Place / Show, as words for the page
    assert all(race["placings"] == results_message(tuple(race["positions"].values())).to_json() for race in history)
    assert all(race["placings"]["params"]["win"] == race["order"][0]["horse"] for race in history)
    assert match.state.observation(None)["over"] and match.state.observation(None)["phase"] == "over"


@pytest.mark.parametrize("races", [1, 2, 3])
def test_the_number_of_races_is_a_setup_option(races):
    match = Match("readysetbet-box", {"races": races}, seed=races)
    play_out(match)
    assert len(match.state.history) == races


@pytest.mark.parametrize("setup,words", [({"races": 0}, "'races' must be from 1 to 4"),
                                         ({"races": 5}, "'races' must be from 1 to 4"),
                                         ({"races": True}, "'races' must be from 1 to 4"),
                                         ([], "JSON object")])
def test_a_bad_setup_is_refused_saying_what_is_right(setup, words):
    with pytest.raises(InvalidSetup, match=words):
        BoxMeeting.new(setup)


def test_a_finished_race_stays_shown_until_the_next_race_rolls():
    """Between races the view shows the race just run (its order and results line); the first
    roll of the next race starts it from the gate."""
    match = Match("readysetbet-box", {"races": 2}, seed=5)
    match.resolve_chance()
    while not match.state.race.finished:
        match.tick()
    view = match.state.observation(None)
    assert view["phase"] == "between_races" and view["race_no"] == 1 and view["order"][0]["space"] == FINISH
    # Win / Place / Show, then the colour bets, exotic finishes and props that win (issue 34)
    assert view["caller"]["race"] == 1 and view["caller"]["lines"][-4]["msgid"] == RESULTS
    assert [line["msgid"] for line in view["caller"]["lines"][-3:]] == [
        message.msgid for message in settlement_lines(tuple(view["race"]["positions"].values()))]
    assert match.pending().context == {"race": 2}
    match.tick()
    view = match.state.observation(None)
    assert view["phase"] == "race" and view["race_no"] == 2 and view["order"] is None
    moves = [event for event in view["race_log"] if event["event"] == "move"]
    assert len(moves) == 1 and sum(view["race"]["positions"].values()) == moves[0]["to"]   # from the gate


def test_every_move_in_the_view_carries_its_two_dice():
    match = Match("readysetbet-box", {"races": 1}, seed=9)
    play_out(match)
    moves = [event for event in match.state.observation(None)["race_log"] if event["event"] == "move"]
    assert moves and all(len(m["dice"]) == 2 and sum(m["dice"]) == m["sum"] for m in moves)


def test_the_lines_are_the_callers_from_its_own_seed_and_tell_nothing_of_the_dice_to_come():
    match = Match("readysetbet-box", {"races": 1}, seed=12)
    match.resolve_chance()
    for _ in range(6):
        match.tick()
    state = match.state
    said = state.observation(None)["caller"]["lines"]
    sums = [e["sum"] for e in state.race_log if e["event"] == "move"]
    assert said == race_calls(state.caller_seed, 1, sums)
    for dice in ([1, 1], [3, 4], [6, 6]):
        future = state.clone()
        future.apply({"type": "roll", "dice": dice})
        assert future.observation(None)["caller"]["lines"][:len(said)] == said
    # the seed is a step of its own: another caller seed, the same dice
    record = match.record()
    record["log"] = [{"by": "chance", "action": {"type": "caller_seed", "seed": (state.caller_seed + 1) % 2 ** 32}}]
    other = Match.from_record(record)
    for _ in range(6):
        other.tick()
    assert [e["sum"] for e in other.state.race_log if e["event"] == "move"] == sums
    assert other.state.observation(None)["caller"]["lines"] != said


def test_a_restored_meeting_says_the_same_lines():
    match = Match("readysetbet-box", {"races": 2}, seed=4)
    match.resolve_chance()
    for _ in range(30):
        match.tick()
    restored = Match.from_record(match.record())
    assert restored.state.observation(None) == match.state.observation(None)


def test_no_action_but_the_pending_chance_is_accepted():
    match = Match("readysetbet-box", {"races": 1}, seed=1)
    with pytest.raises(IllegalAction):
        match.state.apply({"type": "roll", "dice": [1, 2]})  # the caller's seed comes first
    match.resolve_chance()
    before = match.state.to_json()
    for bad in ({"type": "roll", "dice": [0, 7]}, {"type": "vip", "keep": "x"}, {"type": "caller_seed", "seed": 1}):
        with pytest.raises(IllegalAction):
            match.state.apply(bad)
    assert match.state.to_json() == before
    play_out(match)
    with pytest.raises(IllegalAction, match="over"):
        match.state.apply({"type": "roll", "dice": [1, 2]})


def test_the_lobby_offers_it_with_no_seats_and_a_race_caller():
    assert BOX.lobby and BOX.caller and BOX.min_seats == BOX.max_seats == 0
    assert [field.key for field in BOX.setup_fields()] == ["races"] and BOX.defaults() == {"races": 4}
    assert [field.key for field in BOX.table_options()] == ["pace"]
    assert str(BOX.summary) == "For the box: the program calls the races, you bet on your own board"
    assert BOX.seats(BoxMeeting.new({})).count == 0
