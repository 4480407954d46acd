"""Drive a :class:`~hippodrome.table.table.Table` in real time with asyncio.

One :class:`TableRunner` per table: a lock that every change goes through, and a loop that
follows the table's :class:`~hippodrome.table.lifecycle.Lifecycle`: nothing happens while the
table waits for its people, and while it stands between races only the seats' own choices
between races are taken (a bot's once its delay has passed), no move of the next race (until
the gate opens: everyone pressed "Next race", the host did, or the countdown ran out); while it
plays, bots decide (after a short
delay, so people can follow them), the clock strikes for timed chance (Ready Set Bet's rolls, at
the table's pace, with pause and resume), and after each strike every bot may take one free
action after its own reaction time, drawn per bet.

A bot never thinks on the event loop: the runner copies the state under the lock, the bot
chooses from its seat's view of the copy in a worker thread or a worker process (the runner's
``thinker``, :mod:`hippodrome.table.thinking`), and its choice is taken under the lock only if
the table is still where the bot looked (its legality checked again).

A table of bots only takes its turn at the process's :class:`~hippodrome.table.pacing.Pacer`
before each change (when the runner is given one), so that such tables never crowd out the
tables of people. The time the change took on the loop is reported to the pacer without the
wait for its commit (the writer's thread does that work, not the loop).

People's actions come in through :meth:`TableRunner.act`. After every accepted change the
table's :class:`~hippodrome.table.journal.Journal` stores it through the table's
:class:`~hippodrome.table.journal.Keeper` (the server's room), awaited under the lock, so nothing
else moves the table meanwhile and commits keep the order of the changes, and only then has the
keeper show it: what was never stored is never shown. While saving fails the table is paused and
people's actions are refused in words (:data:`~hippodrome.table.journal.SAVING_FAILED`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from hippodrome.core.bot import Bot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action
from hippodrome.core.match import Match
from hippodrome.i18n import Message, Seat
from hippodrome.table.capture import Capture
from hippodrome.table.clock import Clock
from hippodrome.table.free_bots import FREE_DELAY, FreeBots
from hippodrome.table.journal import RETRY, SAVING_FAILED, Journal, Keeper, Progress
from hippodrome.table.lifecycle import BETWEEN_RACES, PLAYING, WAITING, Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.table import Table
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker
from hippodrome.table.wake import Wake

log = logging.getLogger(__name__)


@dataclass
class Shown:
    """What a table's state message says of the table around the game, as last stored: its
    status, lifecycle and clock (the protocol's objects), whether its people paused it."""

    status: str
    lifecycle: dict[str, Any]
    clock: dict[str, Any]
    paused: bool


class TableRunner:
    def __init__(self, table: Table, *, keeper: Keeper | None = None, bot_delay: float = 0.6,
                 roll_interval: float = 2.0, paused: bool = False, lifecycle: Lifecycle | None = None,
                 free_delay: tuple[float, float] = FREE_DELAY, now: Callable[[], float] = time.monotonic,
                 retry: tuple[float, float] = RETRY, pacer: Pacer | None = None,
                 thinker: ThreadThinker | ProcessThinker = THREADS):
        self.table = table
        self.thinker = thinker
        self.pacer = pacer
        self.bot_delay = bot_delay
        self._wake = Wake()
        self.clock = Clock(roll_interval, paused, now, on_change=self._woken)
        self.lifecycle = lifecycle if lifecycle is not None else Lifecycle(table.players)
        self.lifecycle.pause(paused)
        self.lifecycle.observe(table.state.between_races())
        self.lifecycle.waiting_for = table.choosing_together()
        self.lock = asyncio.Lock()
        self.journal = Journal(keeper, self.progress, table.state_id, hold=self._hold, woken=self._woken,
                               retry=retry)
        self.free_bots = FreeBots(self, free_delay)
        self._held = False                     # the clock paused because saving failed (not by people)
        self._presence: set[int] | None = None  # who came or went while saving failed
        self._task: asyncio.Task | None = None
        self._thinking: dict[int, asyncio.Lock] = {}  # one thought at a time per bot
        self._rng = random.Random()
        self._clock_epoch: int | None = None  # the step the clock was last restarted for
        #: the state id at which the bot to decide between races was found to face a move of the
        #: next race: it waits for the gate (None: no bot waits so)
        self._held_between: int | None = None

    # -- reading ------------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.lifecycle.status(self.table.over)

    @property
    def paused(self) -> bool:
        """The clock is paused by the table's people (a pause while saving fails is not theirs)."""
        return self.clock.paused and not self._held

    @property
    def saving_failed(self) -> bool:
        return self.journal.saving_failed

    @property
    def stored_state_id(self) -> int:
        return self.journal.stored_state_id

    @property
    def stored(self) -> bool:
        """No change waits for its commit: what the table holds now may be shown."""
        return self.journal.stored

    async def until_stored(self) -> None:
        await self.journal.until_stored()

    @property
    def store_wait(self) -> float:
        return self.journal.store_wait

    def shown(self) -> Shown:
        """The table around the game, for its state messages."""
        over = self.table.over
        return Shown(self.lifecycle.status(over), self.lifecycle.snapshot(over), self.clock.snapshot(), self.paused)

    def progress(self) -> Progress:
        table = self.table
        return Progress(table.match.log, table.state_id, table.over, self.paused, self.lifecycle.to_json(),
                        {seat: table.players[seat].level for seat in self.lifecycle.handed})

    def plays_on_clock(self) -> bool:
        """The game plays and its clock runs (bots' free actions are open)."""
        return not self.clock.paused and self.status == PLAYING

    # -- people -------------------------------------------------------------------
    async def act(self, seat: int, action: Action, state_id: int | None) -> None:
        """Apply a person's action (raises IllegalAction / StaleState, state unchanged)."""
        async with self._people_change():
            self._check_person_may_act(seat, action)
            self.table.act(seat, action, state_id)
            await self.changed()

    async def ask(self, answer: Callable[[], Any]) -> Any:
        """``answer()`` (a look-up on the table's state), under the lock, refused in words while
        saving fails."""
        async with self._people_change():
            return await answer()

    @contextlib.asynccontextmanager
    async def _people_change(self):
        """The lock, for a change people ask for: refused in words while saving fails (before
        waiting for the lock, and once it is taken)."""
        self._refuse_while_saving_fails()
        async with self.lock:
            self._refuse_while_saving_fails()
            yield

    def _refuse_while_saving_fails(self) -> None:
        if self.journal.saving_failed:
            raise IllegalAction(SAVING_FAILED)

    def _check_person_may_act(self, seat: int, action: Action) -> None:
        status = self.status
        if status == WAITING:
            raise IllegalAction(Message("the game has not started yet: it starts when every player is ready"))
        if self.table.players[seat].handed:
            raise IllegalAction(Message("a bot plays this seat now: the host handed it to a bot while nobody was "
                                        "connected to it"))
        if status == BETWEEN_RACES and not self._choice_between_races(seat, action):
            raise IllegalAction(Message("the next race has not started yet: press Next race, then play"))

    async def ready(self, seat: int) -> None:
        """A person seat is ready; the game starts when every person seat is."""
        async with self._people_change():
            self.lifecycle.mark_ready(seat)
            await self.changed(state=False)

    async def start_now(self, make_bot: Callable[[int], Bot], level: str | None,
                        host_seat: int | None = None) -> list[int]:
        """The host starts the game: only the empty seats go to bots. A person seat that is ready,
        that has a connection now (its person is here, ready or not: the button promises bots for
        the empty seats only) or that the host plays (``host_seat``: pressing Start counts as the
        host being ready) stays its person's; each other person seat is handed to
        ``make_bot(seat)``, a bot of ``level``. Returns the seats handed over."""
        async with self._people_change():
            lifecycle = self.lifecycle
            if lifecycle.started:
                raise IllegalAction(Message("the game has already started"))
            handed = sorted(lifecycle.empty_seats(host_seat))
            for seat in handed:
                self.table.players[seat].hand_to(make_bot(seat), level)
            lifecycle.start()
            await self.changed(state=False)
            return handed

    async def hand(self, seat: int, make_bot: Callable[[int], Bot], level: str | None, host_seat: int | None = None,
                   connected: Iterable[int] = ()) -> None:
        """The host hands the person seat ``seat`` to ``make_bot(seat)`` (a bot of ``level``) while
        the game runs (playing or between races): its person has left (nobody is connected to it),
        and the game must not wait for them. ``host_seat``: the seat of the host's own connection,
        which is never handed; ``connected``: seats with a connection now, besides those the
        lifecycle knows present (a seat the table waits for between races may be handed all the
        same: ``Lifecycle.waiting_for``). Refused (IllegalAction, nothing changed) otherwise."""
        async with self._people_change():
            lifecycle, status = self.lifecycle, self.status
            if status == WAITING:
                raise IllegalAction(Message(
                    "the game has not started yet: while the table waits, the host starts it with {example}, "
                    "and bots take the empty seats", example='{"v": 1, "type": "start", "host": ...}'))
            if status not in (PLAYING, BETWEEN_RACES):
                raise IllegalAction(Message("the game is over: no seat can be handed to a bot any more"))
            if seat == host_seat:
                raise IllegalAction(Message("this is your own seat: only the seat of another player who left can be "
                                            "handed to a bot"))
            if not self.table.players[seat].is_person:
                raise IllegalAction(Message("{seat} is played by a bot already: only a seat a person plays can be "
                                            "handed to a bot", seat=Seat(seat)))
            # a seat the table waits for between races (a card everyone chooses at once, R8) may be
            # handed even while its person is connected: the table must not wait for them
            holds = status == BETWEEN_RACES and seat in lifecycle.waiting_for
            if not holds and (not lifecycle.may_hand(seat) or seat in set(connected)):
                raise IllegalAction(Message("{seat} is connected: only a seat nobody is connected to can be "
                                            "handed to a bot", seat=Seat(seat)))
            self.table.players[seat].hand_to(make_bot(seat), level)
            lifecycle.hand(seat)
            self._held_between = None   # its bot may take a choice between races now
            await self.changed(state=False)

    async def next_race(self, seat: int | None) -> None:
        """A person seat (None: the host) is ready for the next race."""
        async with self._people_change():
            if self.status != BETWEEN_RACES:
                raise IllegalAction(Message("no race is waiting to start now"))
            self.lifecycle.press_next(seat)
            await self.changed(state=False)

    async def set_present(self, seats: Iterable[int]) -> bool:
        """The person seats with a connection now (the gate may open when one leaves). True once
        stored; False while saving fails: noted then, and stored once saving works again."""
        if self.journal.saving_failed:
            self._presence = set(seats)
            return False
        async with self.lock:
            self.lifecycle.set_present(seats)
            await self.changed(state=False)
        return True

    async def pause(self) -> None:
        async with self._people_change():
            self.clock.pause()
            self.lifecycle.pause(True)
            await self.changed(state=False)

    async def resume(self) -> None:
        async with self._people_change():
            self.clock.resume()
            self.lifecycle.pause(False)
            await self.changed(state=False)

    # -- the loop -----------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self.journal.stopping = True
        tasks = [task for task in (self._task, *self.free_bots.stop()) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None

    async def changed(self, state: bool = True) -> None:
        """After a change (under the lock): the lifecycle notices where the game stands (``state``:
        the game's state changed), then the journal stores the change and shows it."""
        if state:
            self.lifecycle.observe(self.table.state.between_races())
            self.lifecycle.waiting_for = self.table.choosing_together()
        if self.lifecycle.gate_open:
            self._clock_epoch = None  # a full interval before the first roll of the next race
        await self.journal.commit(self.table.state_id)

    def _woken(self) -> None:
        self._wake.set()

    def _hold(self, failing: bool) -> bool:
        """Saving fails (pause the clock and the countdown, unless people paused them already) or
        works again (resume them; True when who is here changed meanwhile: stored too)."""
        if failing:
            self._held = not self.clock.paused
            if self._held:
                self.clock.pause()
                self.lifecycle.pause(True)
            return False
        if self._held:
            self._held = False
            self.clock.resume()
            self.lifecycle.pause(False)
        if self._presence is None:
            return False
        self.lifecycle.set_present(self._presence)
        self._presence = None
        return True

    @contextlib.asynccontextmanager
    async def locked_change(self):
        """The table's lock, around a change the loop makes itself (a roll, a bot's move or bet).
        A table of bots only first waits for its turn at the pacer and then tells it how long the
        change took on the loop: from the lock taken to the change shown, less the wait for its
        commit and for the loop to come back to it (``store_wait``). The wait for the lock is no
        loop time either: another change of the table holds it while its own commit is under way."""
        players = self.table.players
        if self.pacer is None or not players or any(player.bot is None for player in players):
            async with self.lock:
                yield
            return
        await self.pacer.turn()
        async with self.lock:
            started, waited = time.perf_counter(), self.journal.store_wait
            try:
                yield
            finally:
                self.pacer.spent(time.perf_counter() - started - (self.journal.store_wait - waited))

    async def _sleep_or_wake(self, seconds: float) -> bool:
        """Sleep ``seconds`` unless something changes first; True if it slept the whole time."""
        return await self._wake.wait(seconds)

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
            if self.table.bot_to_move() is not None and self._held_between != self.table.state_id:
                await self._bot_decides()   # a bot's own choice between races (else: held for the gate)
            else:
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
                    # R8: a person still choosing a card everyone chooses at once keeps the first
                    late = [(seat, self.table.state.decision_for(seat).options[0])
                            for seat in self.table.choosing_together() if self.table.players[seat].is_person]
                    for seat, option in late:
                        self.table.act(seat, option)
                    await self.changed(state=bool(late))

    async def _bot_decides(self) -> None:
        table = self.table
        state_id = table.state_id
        if not (await self._sleep_or_wake(self.bot_delay) or table.state_id == state_id):
            return
        async with self.locked_change():
            if not (self._bot_may_decide() and table.state_id == state_id):
                return
            if self.status == BETWEEN_RACES and not table.state.decision_for(table.bot_to_move()).between_races:
                self._held_between = state_id   # a move of the next race: after the gate
                return
            turn = table.bot_request(self.capture)
        if turn is None:
            return
        action = await self.think(turn.seat, turn.state)
        async with self.locked_change():
            if not self._bot_may_decide():
                return
            if self.status == BETWEEN_RACES and table.state_id == turn.state_id and not (
                    turn.pending.allows(action) and turn.pending.between_races):
                self._held_between = turn.state_id   # (a bot that failed decides once the gate opens)
                return
            if table.bot_apply(turn, action):
                await self.changed()

    def _bot_may_decide(self) -> bool:
        """Bots decide while the game plays, and between races (their own choices between races)."""
        return self.status in (PLAYING, BETWEEN_RACES)

    def _choice_between_races(self, seat: int, action: Action) -> bool:
        """Whether ``action`` answers ``seat``'s choice between races (VIP cards, cards to keep: its
        open decision says so), not a move of the next race nor a free action (a bet)."""
        own = self.table.state.decision_for(seat)
        return not self.table.is_free(action) and own is not None and own.between_races

    def capture(self, match: Match, seat: int) -> Capture:
        """What the bot of ``seat`` will read, taken under the lock (the thinker's kind of copy)."""
        return self.thinker.capture(self.table.players[seat].bot, match, seat)

    async def think(self, seat: int, capture: Capture, free: bool = False) -> Action | None:
        """The bot of ``seat`` takes its decision at ``capture`` (its free action with ``free``: None
        when none is open to it) from its view there, off the loop (the thinker's thread or
        process); one thought at a time for each bot."""
        async with self._thinking.setdefault(seat, asyncio.Lock()):
            return await self.thinker.think_at(self.table.players[seat].bot, capture,
                                               self._rng.getrandbits(64) if free else None)

    async def _clock_step(self) -> None:
        table = self.table
        if self._clock_epoch != table.epoch:
            # back to the clock after a decision or at a new step (a new race): a full
            # interval before the next strike, so people have time to look and bet
            self._clock_epoch = table.epoch
            self.clock.restart()
            self._wake.clear()   # (the restart's own news: nothing else ran since the step began)
        if not self.clock.due():
            await self._sleep_or_wake(self.clock.wait_seconds())   # (a change or the clock's own news: look again)
        async with self.locked_change():
            if self.status != PLAYING or not table.waits_for_clock() or not self.clock.strike_due():
                return
            if table.tick():
                await self.changed()
                self.free_bots.struck()
