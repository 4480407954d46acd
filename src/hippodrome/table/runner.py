"""Drive a :class:`~hippodrome.table.table.Table` in real time with asyncio.

One :class:`TableRunner` per table: a lock that every change goes through, and a loop that
follows the table's :class:`~hippodrome.table.lifecycle.Lifecycle`: nothing happens while the
table waits for its people or stands between races (until the gate opens: everyone pressed
"Next race", the host did, or the countdown ran out); while it plays, bots decide (after a short
delay, so people can follow them), the clock strikes for timed chance (Ready Set Bet's rolls, at
the table's pace, with pause and resume), and after each strike every bot may take one free
action after its own reaction time, drawn per bet.

A bot never thinks on the event loop: the runner copies the state under the lock, the bot
chooses in a worker thread from its seat's view of the copy, and its choice is taken under the
lock only if the table is still where the bot looked (its legality checked again).

A table of bots only takes its turn at the process's :class:`~hippodrome.table.pacing.Pacer`
before each change (when the runner is given one), so that such tables never crowd out the
tables of people.

People's actions come in through :meth:`TableRunner.act`. After every accepted change the
``on_change`` callbacks run, still under the lock: the server persists there, so an action is
stored before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any, Callable, Iterable

from hippodrome.core.bot import Bot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action
from hippodrome.i18n import Message
from hippodrome.table.bots import free_choice
from hippodrome.table.clock import Clock
from hippodrome.table.lifecycle import BETWEEN_RACES, PLAYING, WAITING, Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.table import Table, think

log = logging.getLogger(__name__)

Listener = Callable[[Table], None]
#: seconds between a strike and a bot's free action (a bet), drawn per bot and strike
FREE_DELAY = (0.6, 2.5)


class TableRunner:
    def __init__(self, table: Table, *, bot_delay: float = 0.6, roll_interval: float = 2.0,
                 paused: bool = False, on_change: list[Listener] | None = None,
                 lifecycle: Lifecycle | None = None, free_delay: tuple[float, float] = FREE_DELAY,
                 now: Callable[[], float] = time.monotonic, pacer: Pacer | None = None):
        self.table = table
        self.pacer = pacer
        self.bot_delay = bot_delay
        self.free_delay = (min(free_delay), max(free_delay))
        self.clock = Clock(roll_interval, paused, now)
        self.lifecycle = lifecycle if lifecycle is not None else Lifecycle(())
        self.lifecycle.pause(paused)
        self.lifecycle.observe(table.state.between_races())
        self.lock = asyncio.Lock()
        self.on_change: list[Listener] = list(on_change or [])
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._free_tasks: set[asyncio.Task] = set()
        self._thinking: dict[int, asyncio.Lock] = {}  # one thought at a time per bot
        self._rng = random.Random()
        self._clock_epoch: int | None = None  # the step the clock was last restarted for
        self._strikes = 0                     # clock strikes that drew a roll, so far

    @property
    def status(self) -> str:
        return self.lifecycle.status(self.table.over)

    # -- people -------------------------------------------------------------------
    async def act(self, seat: int, action: Action, state_id: int | None) -> None:
        """Apply a person's action (raises IllegalAction / StaleState, state unchanged)."""
        async with self.lock:
            self._check_person_may_act(seat, action)
            self.table.act(seat, action, state_id)
            self._changed()

    def _check_person_may_act(self, seat: int, action: Action) -> None:
        status = self.status
        if status == WAITING:
            raise IllegalAction(Message("the game has not started yet: it starts when every player is ready"))
        if seat in self.lifecycle.handed:
            raise IllegalAction(Message("a bot plays this seat now: the host handed it over when the game started"))
        if status != BETWEEN_RACES:
            return
        if self.table.is_free(action):
            raise IllegalAction(Message("the next race has not started yet: press Next race, then play"))
        if not self.table.probe(action).between_races():
            raise IllegalAction(Message("the next race has not started yet: press Next race, then play"))

    async def ready(self, seat: int) -> None:
        """A person seat is ready; the game starts when every person seat is."""
        async with self.lock:
            self.lifecycle.mark_ready(seat)
            self._changed(state=False)

    async def start_now(self, make_bot: Callable[[int], Bot]) -> list[int]:
        """The host starts the game: each person seat not ready is handed to ``make_bot(seat)``.
        Returns the seats handed over."""
        async with self.lock:
            if self.lifecycle.started:
                raise IllegalAction(Message("the game has already started"))
            handed = sorted(self.lifecycle.persons - self.lifecycle.ready)
            for seat in handed:
                self.table.seats[seat].bot = make_bot(seat)
            self.lifecycle.start(handed)
            self._changed(state=False)
            return handed

    async def next_race(self, seat: int | None) -> None:
        """A person seat (None: the host) is ready for the next race."""
        async with self.lock:
            if self.status != BETWEEN_RACES:
                raise IllegalAction(Message("no race is waiting to start now"))
            self.lifecycle.press_next(seat)
            self._changed(state=False)

    async def set_present(self, seats: Iterable[int]) -> None:
        """The person seats with a connection now (the gate may open when one leaves)."""
        async with self.lock:
            self.lifecycle.set_present(seats)
            self._changed(state=False)

    async def pause(self) -> None:
        async with self.lock:
            self.clock.pause()
            self.lifecycle.pause(True)
            self._changed(state=False)

    async def resume(self) -> None:
        async with self.lock:
            self.clock.resume()
            self.lifecycle.pause(False)
            self._changed(state=False)

    # -- the loop -----------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        tasks = [task for task in (self._task, *self._free_tasks) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None

    def _changed(self, state: bool = True) -> None:
        if state:
            self.lifecycle.observe(self.table.state.between_races())
        if self.lifecycle.gate_open:
            self._clock_epoch = None  # a full interval before the first roll of the next race
        for listener in self.on_change:
            try:
                listener(self.table)
            except Exception:  # a listener must never stop the game
                log.exception("table listener failed")
        self._wake.set()

    @contextlib.asynccontextmanager
    async def _paced(self):
        """Around a change the loop makes itself (a roll, a bot's move or bet): a table of bots
        only first waits for its turn at the pacer and then tells it how long the change took."""
        if self.pacer is None or not self.table.seats or any(seat.bot is None for seat in self.table.seats):
            yield
            return
        await self.pacer.turn()
        started = time.perf_counter()
        try:
            yield
        finally:
            self.pacer.spent(time.perf_counter() - started)

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
        status = self.status
        if status == BETWEEN_RACES:
            await self._count_down()
        elif status != PLAYING:
            await self._wake.wait()
        elif self.table.bot_to_move() is not None:
            await self._bot_decides()
        elif self.table.waits_for_clock():
            await self._clock_step()
        else:
            await self._wake.wait()

    async def _count_down(self) -> None:
        left = self.lifecycle.countdown()
        if left is None or self.lifecycle.paused:
            await self._wake.wait()
        elif await self._sleep_or_wake(left):
            async with self.lock:
                if self.lifecycle.countdown_ran_out():
                    self._changed(state=False)

    async def _bot_decides(self) -> None:
        table = self.table
        state_id = table.state_id
        if not (await self._sleep_or_wake(self.bot_delay) or table.state_id == state_id):
            return
        async with self._paced(), self.lock:
            turn = table.bot_request() if self.status == PLAYING and table.state_id == state_id else None
        if turn is None:
            return
        action = await self._think(turn.seat, think, table.seats[turn.seat].bot, turn)
        async with self._paced(), self.lock:
            if self.status == PLAYING and table.bot_apply(turn, action):
                self._changed()

    async def _think(self, seat: int, function: Callable, *args: Any) -> Any:
        """``function(*args)`` in a worker thread, one at a time for the bot of ``seat``."""
        async with self._thinking.setdefault(seat, asyncio.Lock()):
            return await asyncio.get_running_loop().run_in_executor(None, function, *args)

    async def _clock_step(self) -> None:
        table = self.table
        if self._clock_epoch != table.epoch:
            # back to the clock after a decision or at a new step (a new race): a full
            # interval before the next strike, so people have time to look and bet
            self._clock_epoch = table.epoch
            self.clock.restart()
        due = asyncio.ensure_future(self.clock.until_due())
        wake = asyncio.ensure_future(self._wake.wait())
        await asyncio.wait({due, wake}, return_when=asyncio.FIRST_COMPLETED)
        for task in (due, wake):
            task.cancel()
        async with self._paced(), self.lock:
            if self.status != PLAYING or not table.waits_for_clock() or not self.clock.strike_due():
                return
            if table.tick():
                self._strikes += 1
                self._changed()
                self._schedule_free_bots()

    # -- bots' free actions (bets), each after its own reaction time ---------------------
    def _schedule_free_bots(self) -> None:
        for seat, entry in enumerate(self.table.seats):
            if entry.bot is not None:
                delay = self._rng.uniform(*self.free_delay)
                task = asyncio.get_running_loop().create_task(self._free_bot(seat, delay, self._strikes))
                self._free_tasks.add(task)
                task.add_done_callback(self._free_tasks.discard)

    def _free_still_open(self, strike: int) -> bool:
        """A bot's free action belongs to the strike it reacted to: none once the next one came,
        or while the clock is paused or the game is not playing."""
        return strike == self._strikes and not self.clock.paused and self.status == PLAYING

    async def _free_bot(self, seat: int, delay: float, strike: int) -> None:
        await asyncio.sleep(delay)
        table = self.table
        if not self._free_still_open(strike):   # the next strike came: too late, nothing to copy
            return
        async with self._paced(), self.lock:
            request = table.free_request(seat) if self._free_still_open(strike) else None
        if request is None:
            return
        options, state_id, copy = request
        bot = table.seats[seat].bot
        action = await self._think(seat, lambda: free_choice(bot, copy.view(seat), options, self._rng))
        if action is None:
            return
        async with self._paced(), self.lock:
            if not self._free_still_open(strike):
                return
            try:
                table.act(seat, action, state_id)
            except IllegalAction:  # somebody was quicker (the space is taken): too late
                return
            self._changed()
