"""Tables of bots only take turns on the event loop (issue #15: 30 all-bot tables may not slow
the tables of people): the pacer spaces their changes, in the order they asked."""

from __future__ import annotations

import asyncio
import time

import pytest

from hippodrome.table.bots import make_bot
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.runner import TableRunner
from hippodrome.table.table import Player, Table
from tests.table.helpers import RecordingKeeper
from tests.table.test_lifecycle import FakeTime


def test_a_change_of_bots_holds_back_the_next_in_proportion_to_its_cost():
    clock = FakeTime()
    pacer = Pacer(share=0.25, now=clock)
    pacer.spent(0.010)
    assert pacer.next_turn == pytest.approx(1000.030)   # 10 ms of bots, then 30 ms for everything else
    clock.now = 1000.100                                 # long after: no debt carried over
    pacer.spent(0.002)
    assert pacer.next_turn == pytest.approx(1000.106)


def test_tables_of_bots_take_turns_in_the_order_they_asked():
    async def main():
        pacer = Pacer(share=0.5)
        order = []

        async def table(name):
            for _ in range(3):
                await pacer.turn()
                order.append(name)
                pacer.spent(0.001)

        await asyncio.gather(*(table(name) for name in "abc"))
        return order

    order = asyncio.run(main())
    assert order == list("abc" * 3)


@pytest.mark.parametrize("bots_only", [True, False])
def test_only_tables_of_bots_only_are_paced(bots_only):
    """A Ready Set Bet table rolling every 0.01 s: with bots only, each roll waited for a turn;
    with a person seated, none did."""
    async def main():
        seats = [Player(f"bot {n}", make_bot("readysetbet", "value", f"s:{n}")) for n in range(3)]
        seats.append(Player("Ana") if not bots_only else Player("bot 3", make_bot("readysetbet", "value", "s:3")))
        table = Table("readysetbet", {"players": 4}, seats, seed=3)
        pacer = Pacer()
        runner = TableRunner(table, bot_delay=0, roll_interval=0.01, pacer=pacer,
                             lifecycle=Lifecycle(table.players, started=True))
        runner.start()
        for _ in range(500):
            await asyncio.sleep(0.01)
            if table.state_id >= 5:
                break
        await runner.stop()
        return table.state_id, pacer.turns

    changes, turns = asyncio.run(main())
    assert changes >= 5
    assert (turns >= changes) if bots_only else turns == 0


async def charged_changes(commit=None, shown=None) -> tuple[list[float], TableRunner]:
    """A Ready Set Bet table of four value bettors rolling every 0.01 s, paced, run until the
    pacer has been told the cost of three changes: those costs, and the runner; ``commit`` and
    ``shown``: its keeper's (see RecordingKeeper)."""
    seats = [Player(f"bot {n}", make_bot("readysetbet", "value", f"s:{n}")) for n in range(4)]
    table = Table("readysetbet", {"players": 4}, seats, seed=3)
    pacer = Pacer()
    reported = []
    spent = pacer.spent
    pacer.spent = lambda seconds: (reported.append(seconds), spent(seconds))
    runner = TableRunner(table, bot_delay=0, roll_interval=0.01, pacer=pacer,
                         keeper=RecordingKeeper(table, commit, shown))
    runner.start()
    for _ in range(500):
        await asyncio.sleep(0.01)
        if len(reported) >= 3:
            break
    await runner.stop()
    return reported, runner


def test_the_wait_for_a_commit_is_not_counted_as_the_loops_time():
    """Each change is committed (awaited: the writer's thread does it) before it is told; a slow
    commit of 0.1 s does not make the pacer hold the tables of bots back for 0.3 s more."""
    committed, told = [], []

    async def commit(progress, stored):
        await asyncio.sleep(0.1)
        committed.append(progress.state_id)

    reported, runner = asyncio.run(charged_changes(
        commit=commit, shown=lambda t: told.append((t.state_id, list(committed)))))
    assert len(reported) >= 3 and runner.store_wait >= 0.3
    assert max(reported) < 0.05   # the change itself, without the 0.1 s commit
    assert all(state_id in stored for state_id, stored in told)   # committed before told


def test_other_work_before_the_loop_comes_back_to_a_told_change_is_not_its_cost():
    """A group commit answers many tables' changes in one turn of the loop: each change, once
    told, waits for the others' work before its own code goes on. That wait (here 0.1 s of other
    work queued on the loop as each change is told) is not charged to the change."""
    def others_work():   # what the loop does for other tables before it resumes this change
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            pass

    async def main():
        loop = asyncio.get_running_loop()
        return await charged_changes(shown=lambda t: loop.call_soon(others_work))

    reported, runner = asyncio.run(main())
    assert len(reported) >= 3 and runner.store_wait >= 0.3
    assert max(reported) < 0.05   # the change itself, without the 0.1 s of others' work
