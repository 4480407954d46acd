"""Drive a :class:`~hippodrome.table.table.Table` in real time with asyncio.

One :class:`TableRunner` per table: a lock that every change goes through, a loop that lets
bots decide (after a short delay, so people can follow them), strikes the clock for timed
chance (Ready Set Bet's rolls, at the table's pace, with pause and resume) and lets bots take
free actions at each strike. People's actions come in through :meth:`TableRunner.act`.
After every accepted change the ``on_change`` callbacks run, still under the lock: the server
persists there, so an action is stored before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any, Callable

from hippodrome.core.game import Action
from hippodrome.table.clock import Clock
from hippodrome.table.table import Table

log = logging.getLogger(__name__)

Listener = Callable[[Table], None]


class TableRunner:
    def __init__(self, table: Table, *, bot_delay: float = 0.6, roll_interval: float = 2.0,
                 paused: bool = False, on_change: list[Listener] | None = None):
        self.table = table
        self.bot_delay = bot_delay
        self.clock = Clock(roll_interval, paused)
        self.lock = asyncio.Lock()
        self.on_change: list[Listener] = list(on_change or [])
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._rng = random.Random()
        self._clock_epoch: int | None = None  # the step the clock was last restarted for

    # -- people -------------------------------------------------------------------
    async def act(self, seat: int, action: Action, state_id: int | None) -> None:
        """Apply a person's action (raises IllegalAction / StaleState, state unchanged)."""
        async with self.lock:
            self.table.act(seat, action, state_id)
            self._changed()

    async def pause(self) -> None:
        async with self.lock:
            self.clock.pause()
            self._changed(state=False)

    async def resume(self) -> None:
        async with self.lock:
            self.clock.resume()
            self._changed(state=False)

    # -- the loop -----------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def _changed(self, state: bool = True) -> None:
        for listener in self.on_change:
            try:
                listener(self.table)
            except Exception:  # a listener must never stop the game
                log.exception("table listener failed")
        self._wake.set()

    async def _sleep_or_wake(self, seconds: float) -> bool:
        """Sleep ``seconds`` unless something changes first; True if it slept the whole time."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
            return False
        return True

    async def _run(self) -> None:
        while True:
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table runner step failed")
                await asyncio.sleep(1.0)

    async def _step(self) -> None:
        self._wake.clear()
        table = self.table
        if table.over:
            await self._wake.wait()
            return
        if table.bot_to_move() is not None:
            state_id = table.state_id
            if await self._sleep_or_wake(self.bot_delay) or table.state_id == state_id:
                async with self.lock:
                    if table.state_id == state_id and table.bot_move():
                        self._changed()
            return
        if table.waits_for_clock():
            if self._clock_epoch != table.epoch:
                # back to the clock after a decision or at a new step (a new race): a full
                # interval before the next strike, so people have time to look and bet
                self._clock_epoch = table.epoch
                self.clock.restart()
            strike = asyncio.ensure_future(self.clock.wait())
            wake = asyncio.ensure_future(self._wake.wait())
            done, _ = await asyncio.wait({strike, wake}, return_when=asyncio.FIRST_COMPLETED)
            for task in (strike, wake):
                if task not in done:
                    task.cancel()
            if strike in done:
                async with self.lock:
                    if table.waits_for_clock():
                        table.tick()
                        self._changed()
                    if table.bot_free_moves(self._rng):
                        self._changed()
            return
        await self._wake.wait()
