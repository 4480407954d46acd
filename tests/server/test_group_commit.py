"""The writer stores the tables' saves that wait while it is busy in one transaction, a group
commit (issue #15: at a hundred tables one sync to the disk per change kept the writer's thread
from keeping up, and every change waits for its commit before it is shown). Each save still gets
its own answer, a table's saves keep their order, and a group that fails because of one table
stores the others."""

from __future__ import annotations

import asyncio
import threading

import pytest

from hippodrome.server.storage import Save, open_storage
from hippodrome.server.writer import StoreWriter
from tests.server.services import postgres_url  # noqa: F401  (a fixture)
from tests.server.test_storage import LIFECYCLE, SEATS, entry


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}" if request.param == "sqlite" else \
        request.getfixturevalue("postgres_url")
    made = open_storage(url)
    for n in range(30):
        made.create_table(f"t{n}", "turfmaster-race", {}, "seed", SEATS, "h" * 64, {})
    yield made
    made.close()


def saves_while_busy(writer: StoreWriter, storage, saves: list[Save]) -> list:
    """Hold the writer's thread, queue every save from the loop, let it go: the answers, in order."""
    held = threading.Event()

    async def run():
        blocker = asyncio.ensure_future(writer.call(held.wait, 30))
        await asyncio.sleep(0)   # the thread is held from now on
        waiting = [writer.save(storage, save) for save in saves]   # each queued at once
        await asyncio.sleep(0.05)
        held.set()
        await blocker
        return await asyncio.gather(*waiting, return_exceptions=True)
    return asyncio.run(run())


def test_saves_waiting_for_the_writer_go_in_one_transaction_each_with_its_answer(storage):
    writer = StoreWriter()
    try:
        saves = [Save(f"t{n}", [entry(k) for k in range(n % 4 + 1)], n + 1, n % 5 == 0, False, 0, LIFECYCLE)
                 for n in range(30)]
        answers = saves_while_busy(writer, storage, saves)
    finally:
        writer.close()
    assert answers == [n % 4 + 1 for n in range(30)]
    assert (writer.groups, writer.grouped) == (1, 30)
    for n in range(30):
        record = storage.load(f"t{n}")
        assert record["state_id"] == n + 1 and record["over"] == (n % 5 == 0)
        assert record["log"] == [entry(k) for k in range(n % 4 + 1)]


class OneTableFails:
    """A storage on which one table cannot be written (as a table whose lease another process
    took): a transaction holding it fails whole."""

    def __init__(self, storage, bad: str):
        self.storage, self.bad, self.transactions = storage, bad, 0

    def save_many(self, saves):
        self.transactions += 1
        if any(save.table_id == self.bad for save in saves):
            raise RuntimeError(f"table {self.bad} is run by another process now")
        return self.storage.save_many(saves)


def test_a_group_that_fails_because_of_one_table_stores_the_others(storage):
    writer = StoreWriter()
    failing = OneTableFails(storage, "t3")
    try:
        saves = [Save(f"t{n}", [entry(0)], 7, False, False, 0) for n in range(6)]
        answers = saves_while_busy(writer, failing, saves)
    finally:
        writer.close()
    assert isinstance(answers[3], RuntimeError) and "t3" in str(answers[3])
    assert [answers[n] for n in (0, 1, 2, 4, 5)] == [1] * 5
    assert failing.transactions == 1 + 6     # the group, then each save alone
    assert storage.load("t3")["state_id"] == 0
    assert all(storage.load(f"t{n}")["state_id"] == 7 for n in (0, 1, 2, 4, 5))


def test_a_tables_saves_keep_their_order_and_a_lone_save_is_stored_at_once(storage):
    writer = StoreWriter()

    async def run():
        for n in range(1, 6):   # one save under way at a time, as a table's runner does
            assert await writer.save(storage, Save("t0", [entry(k) for k in range(n)], n, False, False, n - 1)) == n
    try:
        asyncio.run(run())
    finally:
        writer.close()
    assert writer.groups == 5
    assert storage.load("t0")["log"] == [entry(k) for k in range(5)]


def test_a_saves_at_once_runs_on_the_loop_as_it_is_stored_before_its_future_is_settled(storage):
    """(#15) ``at_once`` runs in the step of the loop in which the writer's answer arrives, before
    the future is settled (what awaits it resumes a step later); not when the save failed."""
    writer = StoreWriter()
    failing = OneTableFails(storage, "t1")
    calls = []

    async def run():
        loop_thread = threading.get_ident()
        futures = {}

        def at_once(table_id):
            calls.append((table_id, futures[table_id].done(), threading.get_ident() == loop_thread))

        for table_id in ("t0", "t1"):
            futures[table_id] = writer.save(failing, Save(table_id, [entry(0)], 1, False, False, 0),
                                            at_once=lambda table_id=table_id: at_once(table_id))
        return await asyncio.gather(*futures.values(), return_exceptions=True)
    try:
        answers = asyncio.run(run())
    finally:
        writer.close()
    assert answers[0] == 1 and isinstance(answers[1], RuntimeError)
    assert calls == [("t0", False, True)]
