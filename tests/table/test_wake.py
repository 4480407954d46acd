"""The runner's news flag (table/wake.py): a wait ends with news or with its time, never both ways."""

import asyncio

import pytest

from hippodrome.table.wake import Wake


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_wait_ends_with_news_and_says_so():
    async def scenario():
        wake = Wake()
        waiting = asyncio.ensure_future(wake.wait(60))
        await asyncio.sleep(0)
        wake.set()
        return await asyncio.wait_for(waiting, 5)
    assert run(scenario()) is False


def test_a_wait_ends_when_its_time_runs_out_first():
    async def scenario():
        wake = Wake()
        return await wake.wait(0.01), len(asyncio.get_running_loop()._scheduled)
    slept, timers_left = run(scenario())
    assert slept is True and timers_left == 0


def test_news_since_the_last_clear_end_the_next_wait_at_once_and_clear_forgets_them():
    async def scenario():
        wake = Wake()
        wake.set()
        at_once = await wake.wait(60)
        wake.clear()
        assert not wake.is_set()
        return at_once, await wake.wait(0.01)
    assert run(scenario()) == (False, True)


def test_news_end_the_timer_too_and_a_wait_without_a_time_waits_for_news():
    async def scenario():
        wake = Wake()
        loop = asyncio.get_running_loop()
        loop.call_later(0.01, wake.set)
        woken = await wake.wait(60)
        return woken, [t for t in loop._scheduled if not t.cancelled()], await asyncio.wait_for(_set_then_wait(wake), 5)
    woken, timers, untimed = run(scenario())
    assert woken is False and timers == [] and untimed is False


async def _set_then_wait(wake):
    wake.clear()
    asyncio.get_running_loop().call_soon(wake.set)
    return await wake.wait()


def test_a_cancelled_wait_leaves_no_timer_and_the_next_wait_works():
    async def scenario():
        wake = Wake()
        waiting = asyncio.ensure_future(wake.wait(60))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        timers = [t for t in asyncio.get_running_loop()._scheduled if not t.cancelled()]
        return timers, await wake.wait(0.01)
    assert run(scenario()) == ([], True)


def test_one_waiter_at_a_time():
    async def scenario():
        wake = Wake()
        first = asyncio.ensure_future(wake.wait())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one waiter"):
            await wake.wait()
        wake.set()
        return await first
    assert run(scenario()) is False
