"""The table layer the server drives: the clock, free actions against older states, bots."""

import asyncio
import threading

import pytest

import hippodrome.readysetbet  # noqa: F401  (registers the game)
import hippodrome.turfmaster.race  # noqa: F401
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Chance
from hippodrome.table import Player, StaleState, Table
from hippodrome.table.clock import Clock
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.runner import TableRunner
from tests.table.helpers import RecordingKeeper

def run_async(coroutine_function):
    """asyncio.run in a thread of its own (the thread running the tests may hold a loop)."""
    outcome = {}

    def target():
        try:
            outcome["value"] = asyncio.run(coroutine_function())
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        raise AssertionError("the scenario did not end within 60 s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


RACE = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}


def test_the_clock_tells_its_driver_how_long_to_wait_and_every_change_of_it():
    """The runner sleeps ``wait_seconds`` unless news wakes it first: pausing, resuming and
    restarting the clock are news (``on_change``); a paused clock has no time to wait for and
    never strikes; resumed, it goes on from the time it had left."""
    now = [0.0]
    news = []
    clock = Clock(2.0, now=lambda: now[0], on_change=lambda: news.append(clock.paused))
    assert clock.wait_seconds() == 2.0
    now[0] = 1.5
    assert clock.wait_seconds() == pytest.approx(0.5) and not clock.strike_due()
    clock.pause()
    assert clock.wait_seconds() is None and news == [True]
    now[0] = 10.0
    assert not clock.due() and not clock.strike_due()
    clock.resume()
    assert clock.wait_seconds() == pytest.approx(0.5) and news == [True, False]
    now[0] = 10.5
    assert clock.strike_due() and clock.wait_seconds() == 2.0   # the next interval starts
    now[0] = 11.0
    clock.restart()
    assert clock.wait_seconds() == 2.0 and news == [True, False, False]


def test_a_decision_against_an_older_state_is_stale():
    table = Table("turfmaster-race", RACE, [Player("a"), Player("b")], seed=1)
    option = table.pending().options[0]
    with pytest.raises(StaleState):
        table.act(0, option, state_id=table.state_id + 1)
    table.act(0, option, state_id=table.state_id)
    assert table.state_id == 1


def test_a_bet_may_lag_behind_the_rolls_of_its_race_but_not_into_the_next():
    table = Table("readysetbet", {"players": 2, "vip": False}, [Player("a"), Player("b")], seed=7)
    looked_at = table.state_id
    table.tick()
    table.tick()
    table.act(0, {"type": "bet", "token": "5", "space": "win:7:R"}, state_id=looked_at)
    race = table.state.race_no
    while table.state.race_no == race:
        table.tick()
    with pytest.raises(StaleState):
        table.act(0, {"type": "bet", "token": "4", "space": "win:8:R"}, state_id=looked_at)
    with pytest.raises(StaleState):
        table.act(0, {"type": "bet", "token": "4", "space": "win:8:R"}, state_id=table.state_id + 1)
    table.act(0, {"type": "bet", "token": "4", "space": "win:8:R"}, state_id=table.state_id)


class BrokenBot:
    name = "broken"

    def choose(self, observation, options):
        raise RuntimeError("a bug in a bot")


class WrongBot:
    name = "wrong"

    def choose(self, observation, options):
        return {"type": "card", "horse": "red", "card": "5"}


@pytest.mark.parametrize("bot", [BrokenBot(), WrongBot()])
def test_a_failing_bot_does_not_stall_the_table(bot):
    table = Table("turfmaster-race", RACE, [Player("a", bot), Player("b", bot)], seed=3)
    table.run_bots()
    assert table.over


def test_the_runner_lets_bots_play_and_strikes_the_clock():
    async def run():
        seen, over = [], asyncio.Event()

        def changed(table):
            seen.append(table.state_id)
            if table.over:
                over.set()

        table = Table("readysetbet", {"players": 2, "races": 1}, [Player("a"), Player("b")], seed=5)
        # a clock of interval 0 strikes whenever asked: the race runs as fast as the runner goes
        runner = TableRunner(table, keeper=RecordingKeeper(table, shown=changed), bot_delay=0, roll_interval=0,
                             lifecycle=Lifecycle(table.players, started=True))
        runner.start()
        await asyncio.wait_for(over.wait(), 60)
        await runner.stop()
        assert table.over
        assert seen == sorted(seen) and len(seen) >= 10
        with pytest.raises(IllegalAction):
            await runner.act(0, {"type": "bet", "token": "2", "space": "win:7:R"}, table.state_id)
    run_async(run)


def test_R8_bots_choose_their_vip_cards_at_once_while_a_person_thinks():
    """R8 as amended: the person in seat 0 has not chosen yet; the bots of seats 1 and 2 choose
    their VIP cards meanwhile, and the next race waits for the person alone."""
    from hippodrome.readysetbet.bots import RandomBettor

    table = Table("readysetbet", {"players": 3, "races": 2}, [Player("Ana"), Player("b", RandomBettor()),
                                                             Player("c", RandomBettor())], seed=4)
    while table.state.phase != "vip":
        table.tick()
    assert table.pending().seat == 0 and table.bot_to_move() == 1
    table.run_bots()
    assert [d.seat for d in table.state.decisions()] == [0] and table.state.phase == "vip"
    assert table.bot_to_move() is None
    table.act(0, table.state.decision_for(0).options[0], table.state_id)
    assert table.state.race_no == 2 and all(len(cards) == 1 for cards in table.state.vip_cards)


def test_R8_a_vip_card_chosen_on_a_state_before_another_players_choice_is_not_stale():
    """R8 (rulings 2): everyone chooses a VIP card at once; a choice made while looking at the
    table before another player's choice still counts (no click lost), as long as the choice is
    open; once everyone has chosen, an older state is stale again."""
    table = Table("readysetbet", {"players": 3, "races": 2}, [Player("a"), Player("b"), Player("c")], seed=7)
    for _ in range(5000):
        if table.choosing_together():
            break
        if not table.tick():
            table.act(table.pending().seat, table.pending().options[0])
    assert table.choosing_together() == [0, 1, 2]
    choices = {d.seat: d.options[0] for d in table.match.state.decisions()}
    looked_at = table.state_id
    table.act(2, choices[2], state_id=looked_at)
    table.act(1, choices[1], state_id=looked_at)            # made before seat 3's choice arrived
    assert table.choosing_together() == [0]
    with pytest.raises(StaleState):                         # a state that never was
        table.act(0, choices[0], state_id=table.state_id + 1)
    table.act(0, choices[0], state_id=looked_at)
    assert table.choosing_together() == []
    pending = table.pending()
    if pending is not None and not isinstance(pending, Chance):   # the next step: older states are stale
        with pytest.raises(StaleState):
            table.act(pending.seat, pending.options[0], state_id=looked_at)
