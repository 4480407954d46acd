"""Nothing shown that was not stored (issue 15, part 2): a change goes out only after its commit;
a failed commit pauses the table, tells its players in words and is tried again until it is
stored; writes happen on the storage writer's thread, so a database locked by another process
never freezes the event loop.

Real SQLite throughout; the faults are SQLite's own (a full database, a lock held by another
process) or, where a test must say when saving fails and when it works again, a wrapper that
makes ``save_progress`` raise SQLite's "database or disk is full" until it is healed."""

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from hippodrome.i18n import LANGUAGES
from hippodrome.server.rooms import SAVING_WORKS, Connection
from hippodrome.server.storage import Storage
from hippodrome.server.writer import StoreWriter, WriterClosed
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.journal import SAVING_FAILED, retry_delays
from hippodrome.table.runner import TableRunner
from hippodrome.table.table import Player, Table
from tests.server.conftest import join, make_table, receive
from tests.table.helpers import RecordingKeeper

FAST_RETRY = (0.05, 0.2)


class FullDisk:
    """A storage whose ``save_progress`` and ``save_many`` fail as SQLite does on a full disk while ``failing`` is
    set (every other method, and every call once healed, goes to the real storage)."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self.failing = threading.Event()
        self.failures = 0
        self.stored_state_ids: list[int] = []   # state ids of the commits that succeeded, in order

    def __getattr__(self, name):
        return getattr(self.storage, name)

    #: failures before it heals by itself (a test that fails while saving fails still ends)
    LIMIT = 150

    def save_progress(self, table_id, log, state_id, *args, **kwargs):
        if self.failing.is_set() and self.failures < self.LIMIT:
            self.failures += 1
            raise sqlite3.OperationalError("database or disk is full")
        stored = self.storage.save_progress(table_id, log, state_id, *args, **kwargs)
        self.stored_state_ids.append(state_id)
        return stored

    def save_many(self, saves):
        """The server's path: its writer stores the waiting tables' saves together."""
        if self.failing.is_set() and self.failures < self.LIMIT:
            self.failures += 1
            raise sqlite3.OperationalError("database or disk is full")
        stored = self.storage.save_many(saves)
        self.stored_state_ids.extend(save.state_id for save in saves)
        return stored

    def fail(self):
        """Saving fails from now on (until ``failing`` is cleared); the commits seen so far are forgotten."""
        self.stored_state_ids.clear()
        self.failing.set()


def stored_state_id(db: str, table_id: str) -> int:
    """The state id the database holds, read by a connection of its own."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT state_id FROM tables WHERE id = ?", (table_id,)).fetchone()[0]


def wait_until(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.01)


def settled(room):
    """Wait until no change of the room waits for its commit (joins and presence are stored too)."""
    wait_until(lambda: room.runner.stored and not room.runner.lock.locked())


def until_new_state(ws, before):
    """Every message up to the first state past ``before``; the states before it show ``before``."""
    seen = [ws.receive_json()]
    while seen[-1]["type"] != "state" or seen[-1]["state_id"] == before:
        assert seen[-1]["type"] != "state" or seen[-1]["state_id"] == before, seen
        seen.append(ws.receive_json())
    return seen


def fail_writes(client, table):
    """The table's room now stores through a FullDisk (healthy until told), retrying fast."""
    room = client.app.state.hub.rooms[table["id"]]
    room.storage = disk = FullDisk(room.storage)
    room.runner.journal.retry = FAST_RETRY
    return room, disk


@pytest.mark.slow
def test_no_state_goes_out_before_its_commit_and_the_table_pauses_until_it_is_stored(client, db):
    table = make_table(client)
    room, disk = fail_writes(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as mover, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as other, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        join(mover, table["seats"][0]["token"])
        state = receive(mover)
        join(other, table["seats"][1]["token"])
        join(spectator)
        # T1: red (seat 0) plays first; wait until every connection is settled on this state
        receive(other, predicate=lambda m: m["lifecycle"]["present"] == [0, 1])
        receive(spectator, predicate=lambda m: m["lifecycle"]["present"] == [0, 1])
        state = receive(mover, predicate=lambda m: m["lifecycle"]["present"] == [0, 1])
        before = state["state_id"]
        settled(room)
        disk.fail()
        mover.send_json({"v": 1, "type": "act", "state_id": before, "action": state["decision"]["options"][0]})
        told = receive(mover, "storage")
        assert told["saving"] == "failing" and told["message"] == "the table is paused: saving the game failed, retrying"
        assert receive(spectator, "storage")["saving"] == "failing"
        assert receive(other, "storage")["saving"] == "failing"
        # paused: people's actions are refused in words, the lobby says so, nothing is stored
        other.send_json({"v": 1, "type": "act", "state_id": before, "action": {"type": "card", "card": "1"}})
        refusal = receive(other, "error")
        assert refusal["message"] == "the table is paused: saving the game failed, retrying"
        assert refusal["state_id"] == before, "the refusal names the last state stored, not the one waiting"
        other.send_json({"v": 1, "type": "pause"})
        assert receive(other, "error")["message_i18n"]["msgid"] == SAVING_FAILED.msgid
        wait_until(lambda: disk.failures >= 3)   # tried again, and again
        summary = client.get(f"/api/tables/{table['id']}").json()
        assert summary["saving"] == "failing" and summary["state_id"] == before
        assert stored_state_id(db, table["id"]) == before
        assert client.get(f"/api/tables/{table['id']}/odds").status_code == 404  # the lobby still answers
        disk.failing.clear()
        # stored at last: first the words, then the state, which the database holds already
        ok = receive(mover)
        assert disk.stored_state_ids[0] == ok["state_id"] == before + 1
        assert stored_state_id(db, table["id"]) >= before + 1
        for connection in (spectator, other):
            messages = [m for m in until_new_state(connection, before) if m["type"] != "state" or m["state_id"] > before]
            assert [m["type"] for m in messages] == ["storage", "state"], messages
            assert messages[0]["saving"] == "ok" and messages[0]["message"] == "the game is saved again: play goes on"
            assert messages[1]["state_id"] == before + 1
        assert client.get(f"/api/tables/{table['id']}").json()["saving"] == "ok"


@pytest.mark.slow
def test_the_acting_seat_hears_only_words_until_its_move_is_stored(client):
    table = make_table(client)
    room, disk = fail_writes(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as mover:
        join(mover, table["seats"][0]["token"])
        state = receive(mover, predicate=lambda m: 0 in m["lifecycle"]["present"])
        settled(room)
        disk.fail()
        threading.Thread(target=lambda: (wait_until(lambda: disk.failures >= 3), disk.failing.clear())).start()
        mover.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": state["decision"]["options"][0]})
        seen = until_new_state(mover, state["state_id"])
        kinds = [m["type"] for m in seen if m["type"] != "state" or m["state_id"] > state["state_id"]]
        assert kinds == ["storage", "storage", "state"], seen
        assert [m["saving"] for m in seen if m["type"] == "storage"] == ["failing", "ok"]
        assert disk.failures >= 1 and seen[-1]["state_id"] == state["state_id"] + 1 == disk.stored_state_ids[0]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_players_are_told_in_their_language(client, lang):
    table = make_table(client)
    room, disk = fail_writes(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as mover, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as reader:
        join(mover, table["seats"][0]["token"])
        state = receive(mover, predicate=lambda m: 0 in m["lifecycle"]["present"])
        reader.send_json({"v": 1, "type": "join", "lang": lang})
        receive(reader, "welcome")
        receive(reader)
        settled(room)
        disk.fail()
        mover.send_json({"v": 1, "type": "act", "state_id": state["state_id"], "action": state["decision"]["options"][0]})
        failing = receive(reader, "storage")
        assert failing["message"] == SAVING_FAILED.translate(lang) != SAVING_FAILED.msgid
        assert failing["message_i18n"] == {"msgid": SAVING_FAILED.msgid, "params": {}}
        disk.failing.clear()
        ok = receive(reader, "storage")
        assert ok["message"] == SAVING_WORKS.translate(lang) != SAVING_WORKS.msgid


def test_a_player_joining_while_saving_fails_is_welcomed_and_told(client):
    """Bo's arrival is itself a change to store (who is present): it fails, yet Bo gets the
    welcome and the words, and a spectator coming meanwhile too; then the state, once stored."""
    table = make_table(client)
    room, disk = fail_writes(client, table)
    settled(room)
    disk.fail()
    with client.websocket_connect(f"/ws/tables/{table['id']}") as bo, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        join(bo, table["seats"][1]["token"])
        assert receive(bo, "storage")["saving"] == "failing"
        join(spectator)
        assert receive(spectator, "storage")["saving"] == "failing"
        assert disk.stored_state_ids == [] and room.runner.saving_failed
        disk.failing.clear()
        assert receive(bo, "storage")["saving"] == "ok"
        assert 1 in receive(bo)["lifecycle"]["present"]
        assert receive(spectator, "storage")["saving"] == "ok"


@pytest.mark.slow
def test_no_roll_and_no_bet_while_saving_fails_then_play_goes_on(client):
    """Ready Set Bet of bots, a roll every 0.1 s: while saving fails the table stands still (only
    the change waiting for its commit is made); once it is stored, the rolls go on."""
    table = make_table(client, game="readysetbet", setup={"players": 2}, pace=0.1, bot_free_delay_min=0,
                       bot_free_delay_max=0.05,
                       seats=[{"name": "A", "kind": "bot", "level": "random"}, {"name": "B", "kind": "bot", "level": "random"}])
    room, disk = fail_writes(client, table)
    wait_until(lambda: room.table.state_id >= 3)
    disk.failing.set()
    wait_until(lambda: disk.failures >= 1)
    waiting, stored_before = room.table.state_id, len(disk.stored_state_ids)
    wait_until(lambda: disk.failures >= 4)
    assert room.table.state_id == waiting, "a roll or a bet was made while saving failed"
    assert room.runner.clock.paused and room.runner.saving_failed and not room.runner.paused
    assert room.runner.stored_state_id < waiting
    disk.failing.clear()
    wait_until(lambda: room.table.state_id >= waiting + 3)
    assert disk.stored_state_ids[stored_before] == waiting, "the change that waited is stored first"
    assert not room.runner.clock.paused and not room.runner.saving_failed


#: SQLite's busy timeout of the lock test: how long a commit waits for another process's lock
LOCK_WAIT_SECONDS = 2.0


def test_a_lock_held_by_another_process_never_freezes_the_event_loop(client, db):
    """Another process holds the database's write lock: this table's commit waits on the writer's
    thread (SQLite's busy timeout, here 2 s, then a retry), while another table, the lobby and
    the pings answer within half of it, however busy the machine: an event loop that waited for the
    lock would answer after the busy timeout. Once the lock is released the move is stored, then shown."""
    table, neighbour = make_table(client), make_table(client)
    room = client.app.state.hub.rooms[table["id"]]
    room.runner.journal.retry = FAST_RETRY
    client.app.state.hub.storage.conn.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT_SECONDS * 1000)}")
    with client.websocket_connect(f"/ws/tables/{table['id']}") as mover, \
            client.websocket_connect(f"/ws/tables/{neighbour['id']}") as next_door:
        join(mover, table["seats"][0]["token"])
        state = receive(mover, predicate=lambda m: 0 in m["lifecycle"]["present"])
        join(next_door)
        receive(next_door)
        settled(room)
        holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "locked"
            mover.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                             "action": state["decision"]["options"][0]})
            assert receive(mover, "storage")["saving"] == "failing"   # database is locked, past its busy timeout
            for _ in range(5):
                started = time.monotonic()
                assert client.get("/api/tables").status_code == 200
                assert client.get("/api/tables/nosuchtable").status_code == 404   # read from the database
                next_door.send_json({"v": 1, "type": "ping"})
                receive(next_door, "pong")
                assert time.monotonic() - started < LOCK_WAIT_SECONDS / 2, "the event loop waited for the lock"
            assert stored_state_id(db, table["id"]) == state["state_id"]
        finally:
            holder.stdin.close()   # the other process commits and lets go
            holder.wait(10)
        assert receive(mover, "storage")["saving"] == "ok"
        after = receive(mover)
        assert after["state_id"] == state["state_id"] + 1 == stored_state_id(db, table["id"])


LOCK_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("COMMIT")
"""


def test_a_table_cannot_be_made_while_saving_fails_and_nothing_is_listed(client):
    hub = client.app.state.hub
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, hub.storage.path], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    hub.storage.conn.execute("PRAGMA busy_timeout = 100")
    try:
        assert holder.stdout.readline().strip() == "locked"
        response = client.post("/api/tables", json={"game": "turfmaster-race", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                                                    "setup": {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                                          {"id": "blue", "owner": 1}]}})
    finally:
        holder.stdin.close()
        holder.wait(10)
    assert response.status_code == 503 and response.headers["retry-after"] == "5"
    assert response.json()["detail"] == "saving the new table failed, so it was not made; try again in a moment"
    assert client.get("/api/tables").json()["tables"] == []
    make_table(client)   # once the lock is gone, tables are made again


# -- the parts on their own ---------------------------------------------------------------
def test_a_full_database_refuses_a_commit_and_takes_it_once_there_is_room(tmp_path):
    """SQLite's own "database or disk is full" (the file may not grow): the commit fails, nothing of
    it is stored, the storage stays usable, and the same commit succeeds once there is room."""
    storage = Storage(tmp_path / "full.sqlite3")
    storage.create_table("t", "turfmaster-race", {}, "seed", [], "host", {})
    storage.save_progress("t", [{"seat": 0, "action": {"type": "card", "card": "1"}}], 1, False, False)
    pages = storage.conn.execute("PRAGMA page_count").fetchone()[0]
    storage.conn.execute(f"PRAGMA max_page_count = {pages}")
    log = [{"seat": 0, "action": {"type": "card", "card": "1"}}, {"seat": 1, "action": {"note": "x" * 20000}}]
    with pytest.raises(sqlite3.OperationalError, match="full"):
        storage.save_progress("t", log, 2, False, False, stored=1)
    assert not storage.conn.in_transaction
    assert storage.load("t")["state_id"] == 1 and len(storage.load("t")["log"]) == 1
    storage.conn.execute(f"PRAGMA max_page_count = {pages * 100}")
    assert storage.save_progress("t", log, 2, False, False, stored=1) == 2
    assert storage.load("t")["state_id"] == 2 and storage.load("t")["log"] == log
    storage.close()


def test_the_writer_runs_calls_in_order_on_one_thread_off_the_loop():
    async def main():
        writer = StoreWriter()
        seen = []

        def record(n):
            time.sleep(0.01 if n % 2 else 0)
            seen.append((n, threading.current_thread().name))
            return n * 10

        def fail():
            raise sqlite3.OperationalError("database is locked")

        results = await asyncio.gather(*(writer.call(record, n) for n in range(6)))
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await writer.call(fail)
        writer.close()
        with pytest.raises(WriterClosed):
            await writer.call(record, 7)
        return results, seen

    results, seen = asyncio.run(main())
    assert results == [0, 10, 20, 30, 40, 50]
    assert [n for n, _ in seen] == list(range(6))
    assert len({name for _, name in seen}) == 1 and seen[0][1] != threading.main_thread().name


def test_retries_wait_half_a_second_doubling_to_ten():
    delays = retry_delays(0.5, 10.0)
    assert [next(delays) for _ in range(8)] == [0.5, 1, 2, 4, 8, 10, 10, 10]


@pytest.mark.slow
def test_a_server_killed_at_any_moment_has_stored_every_state_a_client_saw(tmp_path):
    """kill -9 while a table of bots rolls every 0.05 s and a spectator watches: the database holds
    at least the newest state the spectator was shown, each of three times; the server resumes."""
    import json
    import random

    from websockets.sync.client import connect

    from tests.browser.conftest import Server, create

    db = tmp_path / "tables.sqlite3"
    server = Server(db).start()
    try:
        table = create(server, {"game": "readysetbet", "setup": {"players": 2}, "pace": 0.05,
                                "seats": [{"name": "A", "kind": "bot", "level": "random"},
                                          {"name": "B", "kind": "bot", "level": "random"}]})
        for _ in range(3):
            seen = -1
            with connect(server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}", open_timeout=30) as ws:
                ws.send(json.dumps({"v": 1, "type": "join"}))
                deadline = time.monotonic() + random.uniform(0.5, 1.5)
                while time.monotonic() < deadline or seen < 0:
                    message = json.loads(ws.recv(timeout=30))
                    if message["type"] == "state":
                        seen = max(seen, message["state_id"])
                server.kill()   # at once, mid-game
            assert stored_state_id(str(db), table["id"]) >= seen > 0
            server.start()
    finally:
        server.stop()


class HeldDisk(FullDisk):
    """A storage whose commits wait from :meth:`hold` until ``released`` is set."""

    def __init__(self, storage):
        super().__init__(storage)
        self.released = threading.Event()
        self.released.set()

    def hold(self):
        self.released.clear()

    def save_many(self, saves):
        assert self.released.wait(30), "the test never released the commit"
        return super().save_many(saves)


def test_while_the_next_change_is_committed_connections_are_shown_the_last_stored_state(client):
    """A change is stored and its connections told; before they are sent it, the next change is
    made and its commit takes a while. They are shown the stored state at once (made when it was
    stored), not the new one (not stored yet) and not nothing until the new one is stored: a
    person's move reaches the spectators without waiting for the bots' next changes."""
    table = make_table(client)
    room = client.app.state.hub.rooms[table["id"]]
    settled(room)
    room.storage = disk = HeldDisk(room.storage)

    async def scenario():
        spectator = Connection(joined=True, welcomed=True)
        room.connections.add(spectator)
        pending = room.table.pending()
        await room.runner.act(pending.seat, pending.options[0], room.table.state_id)
        stored = room.table.state_id
        assert spectator.dirty.is_set()   # told; its sender has not run yet
        disk.hold()
        pending = room.table.pending()
        following = asyncio.ensure_future(room.runner.act(pending.seat, pending.options[0], stored))
        await asyncio.sleep(0)            # the next change is made; its commit has not even started
        assert room.table.state_id > stored and not room.runner.stored
        shown = json.loads(room.update_for(spectator))
        disk.released.set()
        await following
        latest = json.loads(room.update_for(spectator))
        room.connections.discard(spectator)
        return stored, shown, latest

    stored, shown, latest = client.portal.call(scenario)
    assert shown["type"] == "state" and shown["state_id"] == stored
    assert latest["state_id"] == room.table.state_id > stored


def test_a_changes_commit_is_queued_in_the_same_step_of_the_loop_as_the_change():
    """(#15) The server's commit is queued with the writer as the change is made, not a turn of
    the loop later (under load each turn of the loop is milliseconds of other tables' work)."""
    async def scenario():
        table = Table("turfmaster-race", {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                      {"id": "blue", "owner": 1}]},
                      [Player("Ana"), Player("Bo")], seed=5)
        queued = []

        def commit(progress, stored):
            queued.append(progress.state_id)
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done

        runner = TableRunner(table, keeper=RecordingKeeper(table, commit),
                             lifecycle=Lifecycle(table.players, started=True))
        pending = table.pending()
        acting = asyncio.ensure_future(runner.act(pending.seat, pending.options[0], table.state_id))
        await asyncio.sleep(0)   # the act's first step: the change is made
        queued_with_the_change = list(queued)
        await acting
        return queued_with_the_change, table.state_id

    queued, state_id = asyncio.run(scenario())
    assert queued == [state_id]


def two_horse_table() -> Table:
    return Table("turfmaster-race", {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                 [Player("Ana"), Player("Bo")], seed=5)


def test_a_change_is_told_in_the_step_its_commits_answer_arrives():
    """A commit that calls its ``stored`` callback as its answer arrives (the server's writer does)
    has the change told there and then, not a step of the loop later when the coroutine awaiting
    the commit resumes; it is told once, and only what was stored."""
    async def scenario():
        table = two_horse_table()
        seen_at_answer = []
        loop = asyncio.get_running_loop()

        def commit(progress, stored):
            done = loop.create_future()
            committed = progress.state_id

            def answer():   # as the writer's answer: stored, then the future settled
                stored()
                seen_at_answer.append((committed, list(keeper.told)))
                done.set_result(None)
            loop.call_soon(answer)
            return done

        keeper = RecordingKeeper(table, commit)
        told = keeper.told
        runner = TableRunner(table, keeper=keeper, lifecycle=Lifecycle(table.players, started=True))
        for _ in range(3):
            pending = table.pending()
            await runner.act(pending.seat, pending.options[0], table.state_id)
        return told, seen_at_answer, runner

    told, seen_at_answer, runner = asyncio.run(scenario())
    assert len(told) == 3 and len(set(told)) == 3          # each change told once
    for committed, told_then in seen_at_answer:
        assert told_then[-1] == committed                  # told as the answer came, before the future
    assert runner.stored_state_id == told[-1]


def test_while_saving_fails_the_stored_callback_tells_nothing_and_the_retry_tells_the_change_once():
    async def scenario():
        table = two_horse_table()
        attempts = []
        loop = asyncio.get_running_loop()

        def commit(progress, stored):
            attempts.append(progress.state_id)
            done = loop.create_future()
            if len(attempts) == 1:
                loop.call_soon(done.set_exception, sqlite3.OperationalError("database or disk is full"))
            else:
                def answer():
                    stored()   # saving failed before: the retry's own path tells it
                    done.set_result(None)
                loop.call_soon(answer)
            return done

        keeper = RecordingKeeper(table, commit)
        told = keeper.told
        runner = TableRunner(table, keeper=keeper, lifecycle=Lifecycle(table.players, started=True), retry=FAST_RETRY)
        pending = table.pending()
        await runner.act(pending.seat, pending.options[0], table.state_id)
        return told, attempts, runner

    told, attempts, runner = asyncio.run(scenario())
    # the players hear that saving works again, then see the change
    assert len(attempts) == 2 and told == ["failing", "works again", attempts[-1]] and not runner.saving_failed
