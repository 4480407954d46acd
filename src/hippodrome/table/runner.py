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
table's progress is committed (``commit``, awaited under the lock, so nothing else moves the
table meanwhile and commits keep the order of the changes), and only then do the ``on_change``
callbacks run (the server tells its connections there): what was never stored is never shown.

When a commit fails (the disk is full, the database locked or unreadable) the table pauses
while the lock stays held: the clock and the countdown between races stand still, no bot
moves, people's actions are refused in words (:data:`SAVING_FAILED`), the ``on_saving``
callbacks hear ``True``, and the commit is tried again after 0.5 s, then after twice as long
each time up to 10 s, until it is stored; then ``on_saving`` hears ``False``, the table goes on,
and the change is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Awaitable, Callable, Iterable, Iterator

from hippodrome.core.bot import Bot
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action
from hippodrome.core.match import Match
from hippodrome.i18n import Message, Seat
from hippodrome.table.clock import Clock
from hippodrome.table.lifecycle import BETWEEN_RACES, PLAYING, WAITING, Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.positions import Position
from hippodrome.table.table import Table
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker

log = logging.getLogger(__name__)

Listener = Callable[[Table], None]
#: stores the table's progress (raises when that failed)
Commit = Callable[[Table], Awaitable[None]]
#: hears True when saving fails (the table pauses), False when it works again (the table goes on)
SavingListener = Callable[[bool], None]
#: seconds between a strike and a bot's free action (a bet), drawn per bot and strike
FREE_DELAY = (0.6, 2.5)
#: seconds before the first retry of a failed commit, and the most between two (doubling)
RETRY = (0.5, 10.0)
SAVING_FAILED = Message("the table is paused: saving the game failed, retrying")


def retry_delays(first: float, most: float) -> Iterator[float]:
    """``first``, then twice as long each time, never more than ``most``."""
    delay = first
    while True:
        yield delay
        delay = min(most, delay * 2)


class TableRunner:
    def __init__(self, table: Table, *, bot_delay: float = 0.6, roll_interval: float = 2.0,
                 paused: bool = False, on_change: list[Listener] | None = None,
                 lifecycle: Lifecycle | None = None, free_delay: tuple[float, float] = FREE_DELAY,
                 now: Callable[[], float] = time.monotonic, commit: Commit | None = None,
                 on_saving: list[SavingListener] | None = None, retry: tuple[float, float] = RETRY,
                 pacer: Pacer | None = None, thinker: ThreadThinker | ProcessThinker = THREADS):
        self.table = table
        self.thinker = thinker
        self.pacer = pacer
        self.bot_delay = bot_delay
        self.free_delay = (min(free_delay), max(free_delay))
        self.clock = Clock(roll_interval, paused, now)
        self.lifecycle = lifecycle if lifecycle is not None else Lifecycle(())
        self.lifecycle.pause(paused)
        self.lifecycle.observe(table.state.between_races())
        self.lock = asyncio.Lock()
        self.on_change: list[Listener] = list(on_change or [])
        self.commit = commit
        self.on_saving: list[SavingListener] = list(on_saving or [])
        self.retry = retry
        # seconds a change of this table spent not working on the loop, in all: awaiting its commit
        # (the writer's thread does that work), and, once told, waiting for the loop to get back
        # to it (other tables' work meanwhile: a group commit answers many changes at once)
        self.store_wait = 0.0
        self.saving_failed = False            # the last commit failed: the table is paused, retrying
        self.stored_state_id = table.state_id  # the state id of the last change stored (and shown)
        self._stored = asyncio.Event()         # set while no change waits for its commit
        self._stored.set()
        self._told_early = False               # the change under way was told by stored_now()
        self._held = False                     # the clock paused because saving failed (not by people)
        self._presence: set[int] | None = None  # who came or went while saving failed
        self._stopping = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._free_tasks: set[asyncio.Task] = set()
        self._thinking: dict[int, asyncio.Lock] = {}  # one thought at a time per bot
        self._rng = random.Random()
        self._clock_epoch: int | None = None  # the step the clock was last restarted for
        self._strikes = 0                     # clock strikes that drew a roll, so far
        #: the state id at which the bot to decide between races was found to face a move of the
        #: next race: it waits for the gate (None: no bot waits so)
        self._held_between: int | None = None

    @property
    def status(self) -> str:
        return self.lifecycle.status(self.table.over)

    @property
    def paused(self) -> bool:
        """The clock is paused by the table's people (a pause while saving fails is not theirs)."""
        return self.clock.paused and not self._held

    @property
    def stored(self) -> bool:
        """No change waits for its commit: what the table holds now may be shown."""
        return self._stored.is_set()

    async def until_stored(self) -> None:
        """Return once no change waits for its commit."""
        while not self._stored.is_set():
            await self._stored.wait()

    # -- people -------------------------------------------------------------------
    async def act(self, seat: int, action: Action, state_id: int | None) -> None:
        """Apply a person's action (raises IllegalAction / StaleState, state unchanged)."""
        async with self._people_change():
            self._check_person_may_act(seat, action)
            self.table.act(seat, action, state_id)
            await self._changed()

    @contextlib.asynccontextmanager
    async def _people_change(self):
        """The lock, for a change people ask for: refused in words while saving fails (before
        waiting for the lock, and once it is taken)."""
        self._refuse_while_saving_fails()
        async with self.lock:
            self._refuse_while_saving_fails()
            yield

    def _refuse_while_saving_fails(self) -> None:
        if self.saving_failed:
            raise IllegalAction(SAVING_FAILED)

    def _check_person_may_act(self, seat: int, action: Action) -> None:
        status = self.status
        if status == WAITING:
            raise IllegalAction(Message("the game has not started yet: it starts when every player is ready"))
        if seat in self.lifecycle.handed:
            raise IllegalAction(Message("a bot plays this seat now: the host handed it to a bot while nobody was "
                                        "connected to it"))
        if status == BETWEEN_RACES and not self._between_races_after(action):
            raise IllegalAction(Message("the next race has not started yet: press Next race, then play"))

    async def ready(self, seat: int) -> None:
        """A person seat is ready; the game starts when every person seat is."""
        async with self._people_change():
            self.lifecycle.mark_ready(seat)
            await self._changed(state=False)

    async def start_now(self, make_bot: Callable[[int], Bot], host_seat: int | None = None) -> list[int]:
        """The host starts the game: only the empty seats go to bots. A person seat that is ready,
        that has a connection now (its person is here, ready or not: the button promises bots for
        the empty seats only) or that the host plays (``host_seat``: pressing Start counts as the
        host being ready) stays its person's; each other person seat is handed to
        ``make_bot(seat)``. Returns the seats handed over."""
        async with self._people_change():
            lifecycle = self.lifecycle
            if lifecycle.started:
                raise IllegalAction(Message("the game has already started"))
            handed = sorted(lifecycle.empty_seats(host_seat))
            for seat in handed:
                self.table.seats[seat].bot = make_bot(seat)
            lifecycle.start(handed)
            await self._changed(state=False)
            return handed

    async def hand(self, seat: int, make_bot: Callable[[int], Bot], host_seat: int | None = None,
                   connected: Iterable[int] = ()) -> None:
        """The host hands the person seat ``seat`` to ``make_bot(seat)`` while the game runs (playing
        or between races): its person has left (nobody is connected to it), and the game must not
        wait for them. ``host_seat``: the seat of the host's own connection, which is never handed;
        ``connected``: seats with a connection now, besides those the lifecycle knows present.
        Refused (IllegalAction, nothing changed) otherwise. If the seat is to decide now, its bot
        takes the decision as any bot would (between races: a choice between races at once)."""
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
            if seat not in lifecycle.persons:
                raise IllegalAction(Message("{seat} is played by a bot already: only a seat a person plays can be "
                                            "handed to a bot", seat=Seat(seat)))
            if not lifecycle.may_hand(seat) or seat in set(connected):
                raise IllegalAction(Message("{seat} is connected: only a seat nobody is connected to can be "
                                            "handed to a bot", seat=Seat(seat)))
            self.table.seats[seat].bot = make_bot(seat)
            lifecycle.hand(seat)
            self._held_between = None   # its bot may take a choice between races now
            await self._changed(state=False)

    async def next_race(self, seat: int | None) -> None:
        """A person seat (None: the host) is ready for the next race."""
        async with self._people_change():
            if self.status != BETWEEN_RACES:
                raise IllegalAction(Message("no race is waiting to start now"))
            self.lifecycle.press_next(seat)
            await self._changed(state=False)

    async def set_present(self, seats: Iterable[int]) -> bool:
        """The person seats with a connection now (the gate may open when one leaves). True once
        stored; False while saving fails: noted then, and stored once saving works again."""
        if self.saving_failed:
            self._presence = set(seats)
            return False
        async with self.lock:
            self.lifecycle.set_present(seats)
            await self._changed(state=False)
        return True

    async def pause(self) -> None:
        async with self._people_change():
            self.clock.pause()
            self.lifecycle.pause(True)
            await self._changed(state=False)

    async def resume(self) -> None:
        async with self._people_change():
            self.clock.resume()
            self.lifecycle.pause(False)
            await self._changed(state=False)

    # -- the loop -----------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self._stopping = True
        tasks = [task for task in (self._task, *self._free_tasks) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None

    async def _changed(self, state: bool = True) -> None:
        """After a change (under the lock): commit it, then tell the listeners. The change is made,
        so it is stored and told even when the one who made it is cancelled (a connection gone):
        the lock is kept until then."""
        if self.commit is not None:
            # from the moment the change is made (just now, in this same step of the loop) it is not
            # stored: nothing may show it before its commit is done
            self._stored.clear()
        if state:
            self.lifecycle.observe(self.table.state.between_races())
        if self.lifecycle.gate_open:
            self._clock_epoch = None  # a full interval before the first roll of the next race
        self._told_early = False
        told = asyncio.ensure_future(self._store_and_tell(self._start_commit()))
        try:
            told_at = await asyncio.shield(told)
        except asyncio.CancelledError:
            while not told.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait({told})
            raise
        self.store_wait += time.perf_counter() - told_at

    def _start_commit(self) -> Awaitable[None] | None:
        """The change's commit, started now where the commit can start at once (the server's
        writer queues it in this same step of the loop, not a step later); None without one."""
        if self.commit is None:
            return None
        try:
            return self.commit(self.table)
        except Exception as error:   # failed at once: handled as a failed commit (tried again)
            failed = asyncio.get_running_loop().create_future()
            failed.set_exception(error)
            return failed

    async def _store_and_tell(self, first: Awaitable[None] | None) -> float:
        """Commit the change (``first``: its commit already started), then tell the listeners;
        returns when (perf_counter) they were told."""
        started = time.perf_counter()
        try:
            await self._store(first)
        finally:
            self.store_wait += time.perf_counter() - started
        if self._told_early:   # stored_now() told it when the commit's answer came
            self._told_early = False
        else:
            self._tell()
        return time.perf_counter()

    def _tell(self) -> None:
        for listener in self.on_change:
            try:
                listener(self.table)
            except Exception:  # a listener must never stop the game
                log.exception("table listener failed")
        self._wake.set()

    def stored_now(self) -> None:
        """The commit of the change under way has just succeeded (a commit may call this on the
        loop the moment its answer arrives): the change is told now, under the lock its maker
        still holds, rather than a step of the loop later when the coroutine awaiting the commit
        resumes (on a busy loop a step can take tens of milliseconds). Nothing while saving fails
        (the retries tell it), nor when the change is told already."""
        if self.commit is None or self.saving_failed or self._stopping or self._stored.is_set():
            return
        started = time.perf_counter()
        self.stored_state_id = self.table.state_id
        self._stored.set()
        self._told_early = True
        self._tell()
        # telling is the change's own work on the loop, not part of its wait for the commit
        self.store_wait -= time.perf_counter() - started

    @contextlib.asynccontextmanager
    async def _locked_change(self):
        """The table's lock, around a change the loop makes itself (a roll, a bot's move or bet).
        A table of bots only first waits for its turn at the pacer and then tells it how long the
        change took on the loop: from the lock taken to the change told, less the wait for its
        commit (the writer's thread does that work) and the wait for the loop to come back to the
        change once told (``store_wait``). The wait for the lock is no loop time either: another
        change of the table holds it while its own commit is under way."""
        if self.pacer is None or not self.table.seats or any(seat.bot is None for seat in self.table.seats):
            async with self.lock:
                yield
            return
        await self.pacer.turn()
        async with self.lock:
            started, waited = time.perf_counter(), self.store_wait
            try:
                yield
            finally:
                self.pacer.spent(time.perf_counter() - started - (self.store_wait - waited))

    # -- storing ------------------------------------------------------------------
    async def _store(self, first: Awaitable[None] | None) -> None:
        """Commit the table as it is now (``first``: that commit, already started; the change was
        marked unstored when it was made, in ``_changed``), trying again (the table paused) until
        it is stored."""
        if self.commit is None:
            self.stored_state_id = self.table.state_id
            return
        delays = retry_delays(*self.retry)
        while True:
            attempt, first = first, None
            try:
                await (attempt if attempt is not None else self.commit(self.table))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self._stopping:  # the server stops: the change stays unstored and unshown
                    raise
                delay = next(delays)
                log.warning("saving the table failed (%s); trying again in %.1f s", error, delay)
                if not self.saving_failed:
                    self._saving_fails()
                await asyncio.sleep(delay)
                continue
            if not self.saving_failed:
                break
            self._saving_works()
            if self._presence is None:
                break
            self.lifecycle.set_present(self._presence)  # who came or went meanwhile: stored too
            self._presence = None
        self.stored_state_id = self.table.state_id
        self._stored.set()

    def _saving_fails(self) -> None:
        self.saving_failed = True
        self._held = not self.clock.paused
        if self._held:
            self.clock.pause()
            self.lifecycle.pause(True)
        self._tell_saving(True)

    def _saving_works(self) -> None:
        self.saving_failed = False
        if self._held:
            self._held = False
            self.clock.resume()
            self.lifecycle.pause(False)
        self._tell_saving(False)

    def _tell_saving(self, failing: bool) -> None:
        for listener in self.on_saving:
            try:
                listener(failing)
            except Exception:  # a listener must never stop the game
                log.exception("saving listener failed")

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
                    await self._changed(state=False)

    async def _bot_decides(self) -> None:
        table = self.table
        state_id = table.state_id
        if not (await self._sleep_or_wake(self.bot_delay) or table.state_id == state_id):
            return
        async with self._locked_change():
            if not (self._bot_may_decide() and table.state_id == state_id):
                return
            if self.status == BETWEEN_RACES:
                options = table.pending().options   # alike: the first tells a move of the next race from a choice
                if not (options and self._between_races_after(options[0])):
                    self._held_between = state_id   # a move of the next race: after the gate
                    return
            turn = table.bot_request(self._capture)
        if turn is None:
            return
        action = await self._think(turn.seat, turn.state)
        async with self._locked_change():
            if not self._bot_may_decide():
                return
            if self.status == BETWEEN_RACES and table.state_id == turn.state_id and not (
                    turn.pending.allows(action) and self._between_races_after(action)):
                self._held_between = turn.state_id   # (a bot that failed decides once the gate opens)
                return
            if table.bot_apply(turn, action):
                await self._changed()

    def _bot_may_decide(self) -> bool:
        """Bots decide while the game plays, and between races (their own choices between races)."""
        return self.status in (PLAYING, BETWEEN_RACES)

    def _between_races_after(self, action: Action) -> bool:
        """Whether the decision ``action`` keeps the game between races: a choice between races (VIP
        cards, cards to keep), not a move of the next race nor a free action (a bet). IllegalAction
        for an action the state refuses: a person hears why; a bot's actions here are legal (an
        option of the pending decision, or one it allows)."""
        return not self.table.is_free(action) and self.table.probe(action).between_races()

    def _capture(self, match: Match, seat: int) -> Position:
        """What the bot of ``seat`` will read, taken under the lock (the thinker's kind of copy)."""
        return self.thinker.capture(self.table.seats[seat].bot, match, seat)

    async def _think(self, seat: int, position: Position, free: bool = False) -> Action | None:
        """The bot of ``seat`` takes its decision at ``position`` (its free action with ``free``: None
        when none is open to it) from its view there, off the loop (the thinker's thread or
        process); one thought at a time for each bot."""
        async with self._thinking.setdefault(seat, asyncio.Lock()):
            return await self.thinker.think_at(self.table.seats[seat].bot, position,
                                               self._rng.getrandbits(64) if free else None)

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
        async with self._locked_change():
            if self.status != PLAYING or not table.waits_for_clock() or not self.clock.strike_due():
                return
            if table.tick():
                self._strikes += 1
                await self._changed()
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
        async with self._locked_change():
            if not (self._free_still_open(strike) and table.state.may_act_freely(seat)):
                return   # (a bettor with every token placed: nothing to think about)
            state_id, position = table.state_id, self._capture(table.match, seat)
        action = await self._think(seat, position, free=True)
        if action is None:
            return
        async with self._locked_change():
            if not self._free_still_open(strike):
                return
            try:
                table.act(seat, action, state_id)
            except IllegalAction:  # somebody was quicker (the space is taken): too late
                return
            await self._changed()
