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
    def __init__(self, runner: "TableRunner", delay: tuple[float, float] = FREE_DELAY):
        self.runner = runner
        self.delay = (min(delay), max(delay))
        self.strikes = 0   # clock strikes that drew a roll, so far
        self.tasks: set[asyncio.Task] = set()
        self.rng = random.Random()

    def struck(self) -> None:
        """The clock struck: every bot reacts, each after its own delay."""
        self.strikes += 1
        for seat, player in enumerate(self.runner.table.players):
            if player.bot is not None:
                task = asyncio.get_running_loop().create_task(
                    self._act(seat, self.rng.uniform(*self.delay), self.strikes))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    def _still_open(self, strike: int) -> bool:
        """A bot's free action belongs to the strike it reacted to: none once the next one came,
        or while the clock is paused or the game is not playing."""
        return strike == self.strikes and self.runner.plays_on_clock()

    async def _act(self, seat: int, delay: float, strike: int) -> None:
        await asyncio.sleep(delay)
        runner = self.runner
        table = runner.table
        if not self._still_open(strike):   # the next strike came: too late, nothing to copy
            return
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
