"""Store before show: every change of a running table is stored before anyone is shown it.

After each change the runner asks its :class:`Journal` to :meth:`~Journal.commit` it. The journal
hands the table's :class:`Progress` to the table's :class:`Keeper` (the server's room, which
queues it on the storage writer's thread) and, once it is stored, has the keeper show it
(:meth:`Keeper.show`). The keeper may call the ``stored`` callback it is given the moment the
storage answers, on the loop: the change is then shown at once, under the lock its maker still
holds, rather than a step of the loop later.

When a commit fails (the disk is full, the database locked or unreadable) the table pauses while
its lock stays held (``hold(True)``: the clock and the countdown stand still), the keeper hears
``saving(True)`` and tells its people in words (:data:`SAVING_FAILED`), and the commit is tried
again after 0.5 s, then after twice as long each time up to 10 s, until it is stored; then the
keeper hears ``saving(False)``, the table goes on (``hold(False)``) and the change is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Iterator, Protocol

from hippodrome.i18n import Message

log = logging.getLogger(__name__)

#: seconds before the first retry of a failed commit, and the most between two (doubling)
RETRY = (0.5, 10.0)
SAVING_FAILED = Message("the table is paused: saving the game failed, retrying")


@dataclass
class Progress:
    """What a table's change leaves to store: the match's log, the state id, whether the game is
    over, whether its people paused the clock, the lifecycle (as JSON) and the seats handed to bots
    (seat -> bot level)."""

    log: list[dict[str, Any]]
    state_id: int
    over: bool
    paused: bool
    lifecycle: dict[str, Any]
    handed: dict[int, str | None]


class Keeper(Protocol):
    """Where a running table keeps its progress and shows it: the one interface the table gives
    the server (its room), called only from the table's side."""

    def store(self, progress: Progress, stored: Callable[[], None]) -> Awaitable[Any]:
        """Store ``progress`` (the awaitable raises when that failed); ``stored()`` may be called on
        the loop the moment the storage answered yes."""

    def show(self) -> None:
        """A stored change may be shown now."""

    def saving(self, failing: bool) -> None:
        """Saving failed (the table is paused), or works again."""


def retry_delays(first: float, most: float) -> Iterator[float]:
    """``first``, then twice as long each time, never more than ``most``."""
    delay = first
    while True:
        yield delay
        delay = min(most, delay * 2)


class Journal:
    """A table's store-before-show protocol: commit, retry, pause, tell.

    ``progress()`` is the table's progress now; ``hold(failing)`` pauses the table's clock while
    saving fails and resumes it after (it returns True when something changed meanwhile that must
    be stored too: who came or went); ``woken()`` runs after each change shown."""

    def __init__(self, keeper: Keeper | None, progress: Callable[[], Progress], state_id: int, *,
                 hold: Callable[[bool], bool], woken: Callable[[], None], retry: tuple[float, float] = RETRY):
        self.keeper = keeper
        self.progress = progress
        self.hold = hold
        self.woken = woken
        self.retry = retry
        #: seconds the table's changes spent not working on the loop, in all: awaiting their commit
        #: (the writer's thread does that work), and, once told, waiting for the loop to come back
        self.store_wait = 0.0
        self.saving_failed = False      # the last commit failed: the table is paused, retrying
        self.stored_state_id = state_id  # the state id of the last change stored (and shown)
        self.stopping = False
        self._stored = asyncio.Event()   # set while no change waits for its commit
        self._stored.set()
        self._shown_early = False        # the change under way was shown by stored_now()
        self._state_id = state_id        # the state id of the change under way

    @property
    def stored(self) -> bool:
        """No change waits for its commit: what the table holds now may be shown."""
        return self._stored.is_set()

    async def until_stored(self) -> None:
        while not self._stored.is_set():
            await self._stored.wait()

    async def commit(self, state_id: int) -> None:
        """After a change (under the table's lock): store it, then show it. The change is made, so
        it is stored and shown even when the one who made it is cancelled (a connection gone): the
        caller keeps the lock until then."""
        self._state_id = state_id
        if self.keeper is not None:
            # from this moment (the same step of the loop as the change) nothing may show it
            self._stored.clear()
        self._shown_early = False
        started = time.perf_counter()
        first = self._start()
        if asyncio.isfuture(first):   # the server's keeper: its answer finishes the commit, no task needed
            committed = asyncio.get_running_loop().create_future()
            first.add_done_callback(functools.partial(self._answered, committed))
        else:   # no keeper, or one that answers in a coroutine: a task of its own stores and shows
            committed = asyncio.ensure_future(self._store_and_show(first))
        try:
            await asyncio.shield(committed)
        except asyncio.CancelledError:
            while not committed.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait({committed})
            raise
        finally:
            self.store_wait += time.perf_counter() - started

    def _answered(self, committed: asyncio.Future, first: asyncio.Future) -> None:
        """The keeper answered the change's first commit (on the loop): stored, so shown now unless
        ``stored_now`` showed it already. A failure (or any answer while saving fails) goes on in a
        task that retries, then shows (:meth:`_store_and_show`); its end settles ``committed``."""
        if first.cancelled() or first.exception() is not None or self.saving_failed:
            retrying = asyncio.ensure_future(self._store_and_show(first))
            retrying.add_done_callback(functools.partial(_settle_as, committed))
            return
        self._mark_stored()
        self._show_once()
        committed.set_result(None)

    def _start(self) -> Awaitable[Any] | None:
        """The change's commit, started now (the writer queues it in this same step of the loop)."""
        if self.keeper is None:
            return None
        try:
            return self.keeper.store(self.progress(), self.stored_now)
        except Exception as error:   # failed at once: handled as a failed commit (tried again)
            failed = asyncio.get_running_loop().create_future()
            failed.set_exception(error)
            return failed

    async def _store_and_show(self, first: Awaitable[Any] | None) -> None:
        await self._store(first)
        self._show_once()

    def _show_once(self) -> None:
        """Show the stored change unless ``stored_now`` showed it already."""
        if self._shown_early:
            self._shown_early = False
        else:
            self._show_uncounted()

    def _show_uncounted(self) -> None:
        """Show the change; the time it takes is the change's own work on the loop, not counted
        in its wait for the commit."""
        started = time.perf_counter()
        self.show()
        self.store_wait -= time.perf_counter() - started

    def _mark_stored(self) -> None:
        """The change under way is stored: it may be shown."""
        self.stored_state_id = self._state_id
        self._stored.set()

    def show(self) -> None:
        if self.keeper is not None:
            try:
                self.keeper.show()
            except Exception:  # showing must never stop the game
                log.exception("showing the table failed")
        self.woken()

    def stored_now(self) -> None:
        """The commit under way has just succeeded (called on the loop as the storage answers):
        the change is shown now. Nothing while saving fails (the retries show it), nor when it is
        shown already."""
        if self.keeper is None or self.saving_failed or self.stopping or self._stored.is_set():
            return
        self._mark_stored()
        self._shown_early = True
        self._show_uncounted()

    async def _store(self, first: Awaitable[Any] | None) -> None:
        if self.keeper is None:
            self._mark_stored()
            return
        delays = retry_delays(*self.retry)
        while True:
            attempt, first = first, None
            try:
                await (attempt if attempt is not None else self.keeper.store(self.progress(), self.stored_now))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.stopping:  # the server stops: the change stays unstored and unshown
                    raise
                delay = next(delays)
                log.warning("saving the table failed (%s); trying again in %.1f s", error, delay)
                if not self.saving_failed:
                    self.saving_failed = True
                    self.hold(True)
                    self._tell_saving(True)
                await asyncio.sleep(delay)
                continue
            if not self.saving_failed:
                break
            self.saving_failed = False
            more = self.hold(False)
            self._tell_saving(False)
            if not more:
                break
        self._mark_stored()

    def _tell_saving(self, failing: bool) -> None:
        try:
            self.keeper.saving(failing)
        except Exception:  # telling must never stop the game
            log.exception("telling of saving failed")


def _settle_as(committed: asyncio.Future, done: asyncio.Future) -> None:
    """``committed`` ends as ``done`` ended (a task that finished a commit)."""
    if committed.done():
        return
    if done.cancelled():
        committed.cancel()
    elif done.exception() is not None:
        committed.set_exception(done.exception())
    else:
        committed.set_result(None)
