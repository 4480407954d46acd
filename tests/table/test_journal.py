"""The journal's store-before-show protocol on its own, with a keeper whose answers the test gives:
a change is shown only once stored, shown once, and stored and shown even when its maker is
cancelled meanwhile (a connection gone), which waits until then."""

from __future__ import annotations

import asyncio

from hippodrome.table.journal import Journal, Progress


class HeldKeeper:
    """A keeper whose commits wait for the test: ``answer()`` settles the oldest one as the
    server's writer does (``stored()`` first, on the loop, then the future), ``fail()`` refuses it."""

    def __init__(self):
        self.waiting: list[tuple[asyncio.Future, object]] = []
        self.shown: list[int] = []
        self.said: list[bool] = []
        self.journal: Journal | None = None

    def store(self, progress: Progress, stored):
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((future, stored))
        return future

    def answer(self) -> None:
        future, stored = self.waiting.pop(0)
        stored()
        future.set_result(1)

    def fail(self) -> None:
        future, _stored = self.waiting.pop(0)
        future.set_exception(OSError("disk full"))

    def show(self) -> None:
        self.shown.append(self.journal.stored_state_id)

    def saving(self, failing: bool) -> None:
        self.said.append(failing)


def journal_of(keeper: HeldKeeper, state_id: int = 0) -> Journal:
    progress = lambda: Progress([], state_id, False, False, {}, {})   # noqa: E731 (what is stored is not looked at)
    keeper.journal = Journal(keeper, progress, state_id, hold=lambda failing: False, woken=lambda: None,
                             retry=(0.01, 0.01))
    return keeper.journal


async def turns(count: int = 5) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def change_committing() -> tuple[HeldKeeper, Journal, asyncio.Task]:
    """A change whose commit is under way, its keeper's answer not given yet."""
    keeper = HeldKeeper()
    journal = journal_of(keeper)
    committing = asyncio.ensure_future(journal.commit(1))
    await turns()
    return keeper, journal, committing


def test_a_change_is_shown_once_when_its_commit_is_answered_and_not_before():
    async def main():
        keeper, journal, committing = await change_committing()
        assert keeper.shown == [] and not journal.stored and not committing.done()
        keeper.answer()
        await turns()
        assert keeper.shown == [1] and journal.stored and journal.stored_state_id == 1
        await committing
        assert keeper.shown == [1]   # shown once: as the answer came, not again when the commit ends

    asyncio.run(main())


def test_a_change_whose_maker_is_cancelled_is_still_stored_and_shown_and_the_maker_waits_for_it():
    async def main():
        keeper, journal, committing = await change_committing()
        committing.cancel()
        await turns()
        assert not committing.done(), "the maker keeps the table's lock until its change is stored"
        keeper.answer()
        await turns()
        assert committing.cancelled()
        assert keeper.shown == [1] and journal.stored_state_id == 1

    asyncio.run(main())


def test_a_failed_commit_is_told_retried_and_the_change_shown_once_stored():
    async def main():
        keeper, journal, committing = await change_committing()
        keeper.fail()
        await turns()
        assert keeper.said == [True] and journal.saving_failed and keeper.shown == []
        while not keeper.waiting:   # the retry, after its delay
            await asyncio.sleep(0.005)
        keeper.answer()
        await committing
        assert keeper.said == [True, False] and not journal.saving_failed
        assert keeper.shown == [1] and journal.stored_state_id == 1

    asyncio.run(main())
