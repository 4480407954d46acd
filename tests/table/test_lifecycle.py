"""The table's lifecycle (issue 11, point 1) and bots' reaction times (point 6), below the server:
:class:`Lifecycle` alone, the games' ``between_races`` hook, and :class:`TableRunner` driven with
an injected clock (no test waits for real time to pass)."""

import asyncio
import random
import threading

import pytest

from hippodrome.core.bot import RandomBot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.match import Match
from hippodrome.table.lifecycle import BETWEEN_RACES, OVER, PLAYING, WAITING, Lifecycle
from hippodrome.table.runner import TableRunner
from hippodrome.table.table import Player, Table
from tests.table.helpers import hand_over, people


class FakeTime:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


# -- Lifecycle alone ------------------------------------------------------------------------
def test_a_table_waits_until_every_person_seat_is_ready():
    lifecycle = Lifecycle(people(0, 2))
    assert lifecycle.status(over=False) == WAITING
    assert not lifecycle.mark_ready(0) and lifecycle.status(False) == WAITING
    assert lifecycle.mark_ready(2) and lifecycle.status(False) == PLAYING
    assert lifecycle.status(over=True) == OVER


def test_a_table_of_bots_starts_at_once_and_one_for_the_host_waits_for_its_start():
    assert Lifecycle(people()).status(False) == PLAYING
    held = Lifecycle(people(), hold=True)
    assert held.status(False) == WAITING
    held.start()
    assert held.status(False) == PLAYING


def test_the_host_start_hands_the_seats_not_ready_to_bots():
    lifecycle = Lifecycle(people(0, 1, 2))
    lifecycle.mark_ready(1)
    hand_over(lifecycle, 0, 2)
    lifecycle.start()
    assert lifecycle.status(False) == PLAYING and lifecycle.persons == {1} and lifecycle.handed == [0, 2]


def test_the_host_start_gives_bots_only_the_empty_seats():
    """"Start now, bots take empty seats": a seat is empty when it is not ready and nobody is
    connected to it; a person who is here keeps the seat ready or not, and so does the host."""
    lifecycle = Lifecycle(people(0, 1, 2, 3))
    lifecycle.mark_ready(3)
    lifecycle.set_present([0, 1])            # the host (seat 0) and Bo are here, neither pressed Ready
    assert lifecycle.empty_seats(host_seat=0) == {2}
    lifecycle.set_present([1])               # the host plays from elsewhere: pressing Start is being ready
    assert lifecycle.empty_seats(host_seat=0) == {2}
    assert lifecycle.empty_seats() == {0, 2}  # a host link without a seat of its own


def test_the_host_hands_the_seat_of_a_person_who_left_to_a_bot_once_the_game_runs():
    """``hand``: while the game runs, a person seat nobody is connected to may go to a bot; it leaves
    the person seats for ``handed`` (stored), as the seats the host's start hands over."""
    waiting = Lifecycle(people(0, 1))
    assert not waiting.may_hand(1)              # a waiting table: that is the host's start
    lifecycle = Lifecycle(people(0, 1, 2), started=True)
    lifecycle.set_present([0, 1])
    lifecycle.observe(between_races=True)
    lifecycle.press_next(1)
    assert not lifecycle.may_hand(1) and not lifecycle.may_hand(5)   # connected; no such person seat
    assert lifecycle.may_hand(2)
    hand_over(lifecycle, 2)
    lifecycle.hand(2)
    assert lifecycle.persons == {0, 1} and lifecycle.handed == [2] and not lifecycle.may_hand(2)
    assert lifecycle.snapshot(False)["absent"] == [] and lifecycle.status(False) == BETWEEN_RACES
    assert lifecycle.press_next(0)               # the two left decide the gate
    assert Lifecycle.from_json(lifecycle.to_json(), lifecycle.players).handed == [2]


def test_between_races_the_gate_opens_when_every_present_person_pressed_next_race():
    time = FakeTime()
    lifecycle = Lifecycle(people(0, 1, 2), now=time)
    for seat in (0, 1, 2):
        lifecycle.mark_ready(seat)
    lifecycle.set_present([0, 1])  # seat 2 went away
    lifecycle.observe(between_races=True)
    assert lifecycle.status(False) == BETWEEN_RACES and lifecycle.countdown() == 30
    assert not lifecycle.press_next(0) and lifecycle.status(False) == BETWEEN_RACES
    assert lifecycle.press_next(1) and lifecycle.status(False) == PLAYING  # the absent seat is not waited for
    lifecycle.observe(between_races=False)  # the race began
    lifecycle.observe(between_races=True)   # and ended: a new wait, nobody has pressed yet
    assert lifecycle.status(False) == BETWEEN_RACES and lifecycle.next == set() and lifecycle.races_between == 2


def test_between_races_the_gate_opens_when_the_countdown_runs_out_or_the_host_presses():
    time = FakeTime()
    lifecycle = Lifecycle(people(0), next_race_seconds=30, started=True, now=time)
    lifecycle.observe(True)
    time.now += 29.5
    assert lifecycle.countdown() == pytest.approx(0.5) and not lifecycle.countdown_ran_out()
    time.now += 0.5
    assert lifecycle.countdown_ran_out() and lifecycle.status(False) == PLAYING
    lifecycle.observe(False)
    lifecycle.observe(True)
    assert lifecycle.press_next(None) and lifecycle.status(False) == PLAYING  # the host


def test_a_paused_clock_stops_the_countdown_too():
    time = FakeTime()
    lifecycle = Lifecycle(people(0), started=True, next_race_seconds=30, now=time)
    lifecycle.observe(True)
    time.now += 10
    lifecycle.pause(True)
    time.now += 100
    assert lifecycle.countdown() == 20 and not lifecycle.countdown_ran_out()
    lifecycle.pause(False)
    time.now += 19
    assert lifecycle.countdown() == pytest.approx(1)
    lifecycle.observe(False)
    lifecycle.pause(True)
    lifecycle.observe(True)  # between races while paused: the whole countdown waits for the resume
    time.now += 500
    assert lifecycle.countdown() == 30
    lifecycle.pause(False)
    assert lifecycle.countdown() == 30


def test_nobody_present_waits_for_the_countdown_and_0_seconds_means_no_countdown():
    lifecycle = Lifecycle(people(0), started=True, next_race_seconds=0)
    lifecycle.observe(True)
    assert lifecycle.countdown() is None and not lifecycle.set_present([])
    assert lifecycle.status(False) == BETWEEN_RACES
    assert lifecycle.set_present([0]) is False and lifecycle.press_next(0)


def test_a_lifecycle_survives_its_json_and_counts_down_afresh():
    time = FakeTime()
    lifecycle = Lifecycle(people(0, 1), now=time)
    lifecycle.mark_ready(0)
    hand_over(lifecycle, 1)
    lifecycle.start()
    lifecycle.observe(True)
    lifecycle.set_present([0])
    lifecycle.press_next(0)
    time.now += 25
    copy = Lifecycle.from_json(lifecycle.to_json(), lifecycle.players, now=time)
    assert copy.to_json() == lifecycle.to_json()
    assert copy.status(False) == PLAYING  # seat 0, the one person left, had pressed: the gate is open
    lifecycle = Lifecycle(people(0, 1), started=True, now=time)
    lifecycle.observe(True)
    time.now += 25
    copy = Lifecycle.from_json(lifecycle.to_json(), lifecycle.players, now=time)
    assert copy.status(False) == BETWEEN_RACES and copy.countdown() == 30


# -- the games' hook ---------------------------------------------------------------------------
def play_until(match, predicate, limit=20_000):
    rng = random.Random(3)
    for _ in range(limit):
        if predicate(match.state):
            return
        pending = match.pending()
        assert pending is not None, "the game ended first"
        if hasattr(pending, "options"):
            match.act(pending.seat, rng.choice(pending.options))
        else:
            match.tick()
    raise AssertionError("never reached")


def test_readysetbet_stands_between_races_from_settlement_to_the_next_first_roll():
    match = Match("readysetbet", {"players": 2, "races": 2, "vip": True}, seed=5)
    assert not match.state.between_races()  # race 1 waits for its first roll: the table's start, not a gap
    play_until(match, lambda state: state.between_races())
    assert match.state.race_no == 1 and match.state.phase == "vip"  # R8: VIP cards between races
    play_until(match, lambda state: not state.between_races())
    assert match.state.race_no == 2 and any(e["event"] == "move" for e in match.state.race_log)


def test_a_turfmaster_meeting_stands_between_races_until_the_next_race_is_played():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed=2)
    assert not match.state.between_races()
    play_until(match, lambda state: state.between_races())
    assert match.state.race_no == 2 and len(match.state.results) == 1
    play_until(match, lambda state: not state.between_races())
    assert match.state.phase == "race" and match.state.race.history
    assert not Match("turfmaster-race", {"course": "oval", "horses": [{"id": "red", "owner": 0}]}).state.between_races()


# -- the runner, on an injected clock --------------------------------------------------------
async def until(predicate, what="a condition"):
    """Let the loop (and bots' worker threads) run until ``predicate()``; a bound only for failures."""
    for _ in range(20_000):
        if predicate():
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"never reached: {what}")


async def strike(runner, time):
    """Once the runner waits on its clock, the table's clock reaches the next strike."""
    await until(lambda: runner._clock_epoch == runner.table.epoch, "the runner waiting on its clock")
    time.now += runner.clock.interval
    runner.clock._poke()


async def race_on_the_clock(runner, time):
    """The clock strikes roll after roll until the race ends and the table stands between races."""
    while not runner.table.state.between_races():
        strikes = runner.free_bots.strikes
        await strike(runner, time)
        await until(lambda: runner.free_bots.strikes > strikes or runner.table.state.between_races(), "a roll")


def rsb_runner(seats, time, lifecycle_options, **setup):
    """A Ready Set Bet table of ``seats`` run on ``time``, its lifecycle of ``lifecycle_options``."""
    table = Table("readysetbet", {"players": len(seats), **setup}, seats, seed=11)
    lifecycle = Lifecycle(table.players, now=time, **lifecycle_options)
    return TableRunner(table, bot_delay=0, roll_interval=2.0, lifecycle=lifecycle, free_delay=(0, 0), now=time)


async def ana_choosing_a_vip_card(time):
    """Ana and a random bot at a Ready Set Bet table of two races (30 s between them), race 1 run
    on the table's clock, the bot's VIP card chosen (at once: R8, in a thread, which a busy
    machine may take a while to run) and Ana's still to choose: the running runner."""
    runner = rsb_runner([Player("Ana"), Player("Bot", RandomBot(1))], time,
                        {"started": True, "next_race_seconds": 30}, races=2, vip=True)
    runner.start()
    await race_on_the_clock(runner, time)   # race 1, on the table's clock
    await until(lambda: [d.seat for d in runner.table.state.decisions()] == [0], "the bot's choice")
    return runner


def test_no_roll_and_no_bet_while_waiting_then_rolls_once_everyone_is_ready():
    async def scenario():
        time = FakeTime()
        runner = rsb_runner([Player("Ana"), Player("Bot", RandomBot(1))], time, {}, races=1)
        runner.start()
        time.now += 3600  # an hour on the table's clock
        runner._wake.set()
        for _ in range(50):
            await asyncio.sleep(0)
        assert runner.status == WAITING and runner.table.match.log[1:] == []  # only the shuffle
        with pytest.raises(IllegalAction, match="not started"):
            await runner.act(0, {"type": "bet", "token": "t5", "space": "win:7:R"}, None)
        await runner.ready(0)
        assert runner.status == PLAYING
        await strike(runner, time)
        await until(lambda: len(runner.table.match.log) > 1, "the first roll")
        assert runner.table.match.log[1]["action"]["type"] == "roll"
        await runner.stop()

    asyncio.run(scenario())


def test_between_races_no_roll_no_bot_until_the_gate_opens_by_countdown():
    async def scenario():
        time = FakeTime()
        runner = await ana_choosing_a_vip_card(time)
        assert runner.status == BETWEEN_RACES and runner.table.state.phase == "vip"
        log_length = len(runner.table.match.log)
        time.now += 29
        runner._wake.set()
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(runner.table.match.log) == log_length and runner.status == BETWEEN_RACES
        time.now += 1
        runner._wake.set()
        await until(lambda: runner.status == PLAYING, "the countdown's end")
        await runner.stop()

    asyncio.run(scenario())


def test_R8_the_countdown_keeps_the_first_card_for_a_person_still_choosing():
    """R8 as amended: the bot chose its VIP card at once; the person has not when the countdown
    runs out, and keeps the first of the two cards drawn; the next race begins."""
    async def scenario():
        time = FakeTime()
        runner = await ana_choosing_a_vip_card(time)
        first = runner.table.state.decision_for(0).options[0]["keep"]
        assert runner.status == BETWEEN_RACES
        time.now += 30
        runner._wake.set()
        await until(lambda: runner.table.state.race_no == 2, "the countdown's end")
        assert runner.table.state.vip_cards[0] == [first] and len(runner.table.state.vip_cards[1]) == 1
        await runner.stop()

    asyncio.run(scenario())


def test_R8_the_table_stays_between_races_while_a_person_chooses_a_vip_card():
    """R8 as amended: the next race waits for every card; the host's Next race opens the gate, but
    the table still says between races, and whom it waits for, until the person has chosen."""
    async def scenario():
        time = FakeTime()
        runner = await ana_choosing_a_vip_card(time)
        await until(lambda: runner.lifecycle.snapshot(False)["waiting_for"] == [0], "the lifecycle's word")
        await runner.next_race(None)   # the host's Next race
        assert runner.lifecycle.gate_open and runner.status == BETWEEN_RACES
        option = runner.table.state.decision_for(0).options[1]
        await runner.act(0, option, None)
        assert runner.table.state.race_no == 2 and runner.status == PLAYING
        assert runner.lifecycle.snapshot(False)["waiting_for"] == []
        await runner.stop()

    asyncio.run(scenario())


def test_R8_the_host_hands_a_connected_seat_that_holds_the_table_to_a_bot():
    """Ana is here but does not choose her VIP card: the host may hand her seat to a bot, which
    chooses at once; a connected seat the table does not wait for is still refused."""
    async def scenario():
        time = FakeTime()
        runner = rsb_runner([Player("Ana"), Player("Bo"), Player("Bot", RandomBot(1))], time,
                            {"started": True, "next_race_seconds": 0}, races=2, vip=True)
        await runner.set_present([0, 1])
        runner.start()
        await race_on_the_clock(runner, time)   # race 1, on the table's clock
        await until(lambda: runner.lifecycle.waiting_for == [0, 1], "the bot's choice")
        await runner.act(1, runner.table.state.decision_for(1).options[0], None)
        with pytest.raises(IllegalAction, match="connected"):
            await runner.hand(1, lambda seat: RandomBot(2), "random", host_seat=None, connected=[0, 1])
        await runner.hand(0, lambda seat: RandomBot(2), "random", host_seat=None, connected=[0, 1])
        await until(lambda: runner.table.state.race_no == 2, "the bot's choice for Ana")
        assert len(runner.table.state.vip_cards[0]) == 1
        await runner.stop()

    asyncio.run(scenario())


def test_a_person_plays_no_race_move_before_the_gate_but_makes_the_choices_between_races():
    async def scenario():
        time = FakeTime()
        table = Table("turfmaster", {"players": 2, "horses_per_player": 2}, [Player("Ana"), Player("Bo")], seed=4)
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players, started=True, now=time), now=time)
        rng = random.Random(0)
        while not table.state.between_races():
            pending = table.pending()
            await runner.act(pending.seat, rng.choice(pending.options), None)
        assert runner.status == BETWEEN_RACES
        pending = table.pending()
        # a keep decision (a hand over its limit) is taken; a card of the next race is not
        while pending.kind == "keep":
            await runner.act(pending.seat, pending.options[0], None)
            pending = table.pending()
        with pytest.raises(IllegalAction, match="Next race"):
            await runner.act(pending.seat, pending.options[0], None)
        await runner.next_race(0)
        assert runner.status == BETWEEN_RACES
        await runner.next_race(None)  # the host
        await runner.act(pending.seat, pending.options[0], None)
        assert runner.status == PLAYING and not table.state.between_races()

    asyncio.run(scenario())


def test_the_host_start_hands_over_the_empty_seats_only_and_keeps_the_host_s_own():
    async def scenario():
        time = FakeTime()
        table = Table("turfmaster", {"players": 4, "horses_per_player": 1}, [Player(n) for n in ("Ana", "Bo", "Cy", "Di")], seed=4)
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players, now=time), now=time)
        await runner.set_present([0, 1])   # Ana (the host) and Bo opened their links; nobody pressed Ready
        await runner.ready(3)               # Di said ready, then left
        await runner.set_present([0, 1])
        handed = await runner.start_now(lambda seat: RandomBot(seat), "random", host_seat=0)
        assert handed == [2] and runner.status == PLAYING
        assert [seat.bot is not None for seat in table.players] == [False, False, True, False]
        assert runner.lifecycle.persons == {0, 1, 3} and runner.lifecycle.handed == [2]

    asyncio.run(scenario())


def test_a_bot_reaction_time_is_drawn_per_bet_within_the_table_option():
    async def scenario():
        time = FakeTime()
        seats = [Player(f"Bot {n}", RandomBot(n)) for n in range(4)]
        table = Table("readysetbet", {"players": 4, "races": 1}, seats, seed=1)
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players), free_delay=(2.5, 0.6), now=time)
        drawn = []

        def record(seat, delay, strike):
            drawn.append((seat, delay, strike))

        runner.free_bots._react_after = record
        runner.free_bots.rng = random.Random(7)
        for _ in (1, 2):
            runner.free_bots.struck()
        await until(lambda: len(drawn) == 8, "the bots' reactions")
        assert sorted(seat for seat, _, _ in drawn) == [0, 0, 1, 1, 2, 2, 3, 3]
        delays = [delay for _, delay, _ in drawn]
        assert all(0.6 <= delay <= 2.5 for delay in delays) and len(set(delays)) == 8

    asyncio.run(scenario())


class BlockingBot:
    """Blocks its thread until released: thinking that must never stop the event loop."""

    name = "blocking"

    def __init__(self):
        self.thinking, self.release = threading.Event(), threading.Event()

    def choose(self, observation, options):
        self.thinking.set()
        assert self.release.wait(60)
        return options[0]


def test_a_bot_thinks_in_a_worker_thread_and_its_choice_is_dropped_if_the_table_moved_on():
    async def scenario():
        bot = BlockingBot()
        setup = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}
        table = Table("turfmaster-race", setup, [Player("Bot", bot), Player("Bot 2", RandomBot(2))], seed=1)
        while table.bot_to_move() != 0:
            table.bot_move()
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players))
        runner.start()
        await until(bot.thinking.is_set, "the bot thinking")
        ticked = []
        asyncio.get_running_loop().call_soon(ticked.append, True)
        await asyncio.sleep(0)
        assert ticked and not bot.release.is_set()  # the loop runs while the bot thinks
        state_id = table.state_id
        turn = table.bot_request()
        table.act(turn.seat, turn.pending.options[-1])  # the table moves on meanwhile
        assert not table.bot_apply(turn, turn.pending.options[0]) and table.state_id == state_id + 1
        bot.release.set()
        await runner.stop()

    asyncio.run(scenario())


def test_the_host_hands_a_seat_mid_game_and_its_bot_takes_the_turn_the_table_waited_for():
    async def scenario():
        time = FakeTime()
        table = Table("turfmaster", {"players": 3, "horses_per_player": 2}, [Player(n) for n in ("Ana", "Bo", "Cy")],
                      seed=4)
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players, started=True, now=time), now=time)
        runner.start()
        await runner.set_present([0, 1])   # Cy closed the tab
        while table.pending().seat != 2:
            pending = table.pending()
            await runner.act(pending.seat, pending.options[0], None)
        waited_at = table.state_id
        make = lambda seat: RandomBot(seat)  # noqa: E731
        refusals = {0: "your own seat", 1: "connected", 2: None}
        for seat, words in refusals.items():
            if words:
                with pytest.raises(IllegalAction, match=words):
                    await runner.hand(seat, make, "random", host_seat=0)
        assert runner.lifecycle.handed == [] and table.players[1].bot is None
        await runner.hand(2, make, "random", host_seat=0)
        assert runner.lifecycle.handed == [2] and runner.lifecycle.persons == {0, 1}
        await until(lambda: table.state_id > waited_at, "the bot's move at the seat handed over")
        assert [e["by"] for e in table.match.log[-(table.state_id - waited_at):]][0] == 2
        with pytest.raises(IllegalAction, match="by a bot already"):
            await runner.hand(2, make, "random", host_seat=0)
        with pytest.raises(IllegalAction, match="bot plays this seat"):   # the old link watches
            await runner.act(2, {"type": "card", "horse": "x", "card": "1"}, None)
        await runner.stop()

    asyncio.run(scenario())


def test_a_seat_handed_between_races_makes_its_vip_choice_at_once_and_the_gate_still_waits():
    """R8: between races the bot of a seat handed over takes its own choice (a VIP card) at once,
    as the person would have; the next race still waits for the gate."""
    async def scenario():
        time = FakeTime()
        runner = rsb_runner([Player("Ana"), Player("Bo")], time, {"started": True, "next_race_seconds": 600},
                            races=2, vip=True)
        runner.start()
        await runner.set_present([0])   # Bo left
        await race_on_the_clock(runner, time)   # race 1, on the table's clock
        table = runner.table
        assert runner.status == BETWEEN_RACES and table.state.phase == "vip"
        while table.pending().seat == 0:   # Ana chooses hers when her turn comes
            await runner.act(0, table.pending().options[0], None)
        assert table.pending().seat == 1
        with pytest.raises(IllegalAction, match="not started yet"):
            await TableRunner(Table("readysetbet", {"players": 2}, [Player("A"), Player("B")], seed=1)).hand(
                1, RandomBot, "random")
        await runner.hand(1, lambda seat: RandomBot(seat), "random", host_seat=0)
        await until(lambda: not (table.pending() and getattr(table.pending(), "seat", None) == 1),
                    "the bot's VIP choice")
        assert table.match.log[-1]["by"] == 1 and table.match.log[-1]["action"]["type"] == "vip"
        while getattr(table.pending(), "seat", None) == 0:
            await runner.act(0, table.pending().options[0], None)
        for _ in range(50):
            await asyncio.sleep(0)
        assert runner.status == BETWEEN_RACES and table.state.between_races()   # no roll before the gate
        await runner.next_race(None)
        await strike(runner, time)
        await until(lambda: not table.state.between_races(), "race 2's first roll")
        await runner.stop()

    asyncio.run(scenario())


def test_over_tables_refuse_a_hand():
    async def scenario():
        setup = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}
        table = Table("turfmaster-race", setup, [Player("Ana"), Player("Bo")], seed=1)
        rng = random.Random(1)
        while not table.over:
            pending = table.pending()
            table.act(pending.seat, rng.choice(pending.options))
        runner = TableRunner(table, lifecycle=Lifecycle(table.players, started=True))
        with pytest.raises(IllegalAction, match="over"):
            await runner.hand(1, RandomBot, "random")

    asyncio.run(scenario())


def test_between_races_a_bot_facing_a_move_of_the_next_race_waits_for_the_gate():
    """A bot's own choices between races (R8's VIP cards, T8's cards to keep) are taken at once,
    but not the first move of the next race: that waits for the gate, as a person's does (and the
    bot is not asked to think twice)."""
    async def scenario():
        for seed in range(40):   # a meeting whose race 2 opens with the bot's card
            table = Table("turfmaster", {"players": 2, "horses_per_player": 2}, [Player("Ana"), Player("Bot", RandomBot(1))],
                          seed=seed)
            rng = random.Random(seed)
            while not table.state.between_races():
                pending = table.pending()
                table.act(pending.seat, rng.choice(pending.options))
            while table.state.between_races() and table.pending().seat == 0:
                table.act(0, table.pending().options[0])
            if table.state.between_races() and table.pending().kind == "card":
                break
        else:
            raise AssertionError("no meeting found")
        time = FakeTime()
        runner = TableRunner(table, bot_delay=0, lifecycle=Lifecycle(table.players, started=True, next_race_seconds=600, now=time),
                             now=time)
        thoughts = []
        think = runner.think
        runner.think = lambda *args, **kwargs: thoughts.append(args) or think(*args, **kwargs)
        runner.start()
        log_length = len(table.match.log)
        await until(lambda: runner._held_between == table.state_id, "the bot held for the gate")
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(table.match.log) == log_length and runner.status == BETWEEN_RACES and not thoughts
        await runner.next_race(None)
        await until(lambda: len(table.match.log) > log_length, "the bot's card once the gate opened")
        assert table.match.log[log_length]["by"] == 1 and not table.state.between_races()
        await runner.stop()

    asyncio.run(scenario())
