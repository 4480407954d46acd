"""The game-agnostic core: seeded chance, log, replay, refusal without change."""

import json

import pytest

from hippodrome.core import IllegalAction, Match, replay
from hippodrome.core.game import Decision
import hippodrome.turfmaster.race  # noqa: F401  (registers the game)

SETUP = {"course": "oval", "horses": [{"id": h, "owner": i} for i, h in enumerate(["red", "blue", "yellow", "green"])]}


def play_first(match, moves):
    for _ in range(moves):
        pending = match.pending()
        match.act(pending.seat, pending.options[0])


def test_same_seed_same_chance_and_replay_equals_live_state():
    a, b = Match("turfmaster-race", SETUP, seed=7), Match("turfmaster-race", SETUP, seed=7)
    play_first(a, 30)
    play_first(b, 30)
    assert a.log == b.log
    assert replay(a.record()).to_json() == a.state.to_json()
    rebuilt = Match.from_record(json.loads(json.dumps(a.record())))
    play_first(rebuilt, 5)
    play_first(a, 5)
    assert rebuilt.log == a.log


def test_different_seeds_deal_differently():
    a, b = Match("turfmaster-race", SETUP, seed=1), Match("turfmaster-race", SETUP, seed=2)
    a.pending(), b.pending()
    assert a.state.hands != b.state.hands


def test_wrong_seat_and_illegal_action_change_nothing():
    match = Match("turfmaster-race", SETUP, seed=3)
    pending = match.pending()
    assert isinstance(pending, Decision)
    before = json.dumps(match.state.to_json())
    with pytest.raises(IllegalAction, match="turn"):
        match.act((pending.seat + 1) % 4, pending.options[0])
    with pytest.raises(IllegalAction) as refused:
        match.act(pending.seat, {"type": "card", "horse": "red", "card": "5"})
    assert refused.value.allowed == pending.options
    with pytest.raises(IllegalAction):
        match.act(pending.seat, {"type": "roll", "dice": [6, 6]})
    assert json.dumps(match.state.to_json()) == before
    assert match.log == [match.log[0]]


def test_state_json_round_trip_and_clone_independence():
    match = Match("turfmaster-race", SETUP, seed=4)
    play_first(match, 12)
    state = match.state
    restored = type(state).from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    copy = state.clone()
    pending = copy.pending()
    copy.apply(pending.options[0])
    assert copy.to_json() != state.to_json()
    assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("game, setup", [
    ("turfmaster-race", {"horses": [{"id": "red"}, {"id": "blue"}]}),
    ("turfmaster", {"players": 2, "horses_per_player": 2}),
    ("readysetbet", {"players": 3}),
])
def test_every_game_refuses_a_non_object_and_a_bad_chance_outcome_alike(game, setup):
    import hippodrome.readysetbet.game  # noqa: F401  (registers the games)
    import hippodrome.turfmaster.meeting  # noqa: F401
    from hippodrome.core.registry import game_class

    state = game_class(game).new(setup)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="an action must be a JSON object, not 'roll'"):
        state.apply("roll")
    assert state.to_json() == before
    while not hasattr(state.pending(), "sample"):      # answer decisions until chance is pending
        state.apply(state.pending().options[0])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="expected a chance outcome of kind"):
        state.apply({"type": "nonsense"})
    assert state.to_json() == before


def test_a_record_entry_must_be_made_by_who_answers_the_step():
    """A log entry's "by" is the deciding seat, or "chance" for a draw: a record that says
    otherwise is refused with the entry's number (counted from 1), whatever the game."""
    import hippodrome.readysetbet.game  # noqa: F401  (registers the game)

    match = Match("turfmaster-race", {"horses": [{"id": "red"}, {"id": "blue"}]}, seed=3)
    decision = match.pending()
    assert isinstance(decision, Decision) and match.log   # the decks were shuffled: chance entries
    good = match.record()
    entry = {"by": decision.seat, "action": decision.options[0]}
    replay({**good, "log": [*good["log"], entry]})   # as made: replays
    number = len(good["log"]) + 1
    for by, words in ((decision.seat + 1, f"it is player {decision.seat + 1}'s turn to decide, not player {decision.seat + 2}'s"),
                      ("chance", "it is player"), (True, "it is player"), (None, "it is player")):
        with pytest.raises(IllegalAction, match=f"log entry {number} cannot be replayed: {words}"):
            replay({**good, "log": [*good["log"], {**entry, "by": by}]})
    for spoiled in ("garbage", {"by": decision.seat}, [decision.seat, decision.options[0]]):
        with pytest.raises(IllegalAction, match=f"log entry {number} cannot be replayed: a log entry is an object"):
            replay({**good, "log": [*good["log"], spoiled]})
    with pytest.raises(IllegalAction, match="log entry 1 cannot be replayed: the next step is a draw of chance"):
        replay({**good, "log": [{**good["log"][0], "by": 0}]})
    # a Ready Set Bet roll (a timed draw) made by a seat: refused alike
    rsb = Match("readysetbet", {"players": 3}, seed=3)
    rsb.pending()
    rsb.tick()
    roll = rsb.record()
    assert roll["log"][-1]["by"] == "chance"
    with pytest.raises(IllegalAction, match="the next step is a draw of chance, not a decision of player 2"):
        replay({**roll, "log": [*roll["log"][:-1], {**roll["log"][-1], "by": 1}]})
