"""The bots' free actions (Ready Set Bet's bets): after each clock strike, every bot at the table
may take one, after a reaction time of its own drawn per strike (:data:`FREE_DELAY`)."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

from hippodrome.core.errors import IllegalAction

if TYPE_CHECKING:
    from hippodrome.table.runner import TableRunner

#: seconds between a strike and a bot's free action (a bet), drawn per bot and strike
FREE_DELAY = (0.6, 2.5)


class FreeBots:
    """Each bot's reaction to a strike is a timer on the loop, not a task: most reactions find the
    next strike come (or the clock paused) and end at once, and a timer costs the loop much less
    than a task that sleeps. A task is made only for a bot that may still act."""

    def __init__(self, runner: "TableRunner", delay: tuple[float, float] = FREE_DELAY):
        self.runner = runner
        self.delay = (min(delay), max(delay))
        self.strikes = 0   # clock strikes that drew a roll, so far
        self.tasks: set[asyncio.Task] = set()
        self.waiting: list[asyncio.TimerHandle] = []   # the reactions to the last strike, not due yet
        self.rng = random.Random()

    def struck(self) -> None:
        """The clock struck: every bot reacts, each after its own delay."""
        self.strikes += 1
        self.waiting = []   # (those of the strike before find it closed when they are due)
        for seat, player in enumerate(self.runner.table.players):
            if player.bot is not None:
                self._react_after(seat, self.rng.uniform(*self.delay), self.strikes)

    def _react_after(self, seat: int, delay: float, strike: int) -> None:
        self.waiting.append(asyncio.get_running_loop().call_later(delay, self._react, seat, strike))

    def stop(self) -> list[asyncio.Task]:
        """No more reactions: those not due yet are dropped; the tasks under way (to be cancelled)."""
        for handle in self.waiting:
            handle.cancel()
        self.waiting = []
        return list(self.tasks)

    def _still_open(self, strike: int) -> bool:
        """A bot's free action belongs to the strike it reacted to: none once the next one came,
        or while the clock is paused or the game is not playing."""
        return strike == self.strikes and self.runner.plays_on_clock()

    def _react(self, seat: int, strike: int) -> None:
        if not self._still_open(strike):   # the next strike came: too late, nothing to copy
            return
        task = asyncio.get_running_loop().create_task(self._act(seat, strike))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _act(self, seat: int, strike: int) -> None:
        runner = self.runner
        table = runner.table
        async with runner.locked_change():
            if not (self._still_open(strike) and table.state.may_act_freely(seat)):
                return   # (a bettor with every token placed: nothing to think about)
            state_id, capture = table.state_id, runner.capture(table.match, seat)
        action = await runner.think(seat, capture, free=True)
        if action is None:
            return
        async with runner.locked_change():
            if not self._still_open(strike):
                return
            try:
                table.act(seat, action, state_id)
            except IllegalAction:  # somebody was quicker (the space is taken): too late
                return
            await runner.changed()
