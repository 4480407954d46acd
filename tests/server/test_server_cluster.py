"""Several server processes on one PostgreSQL database and one Redis bus (issue 15.4, 15.5): two
real `hippodrome serve` processes on two ports; a client on each plays the same table; the
owner is killed with SIGKILL and the other takes the table over within 5 s, with every state a
client saw still there."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
import websockets

from tests.server.refusals import refused_serve, said_and_exited_2
from tests.server.services import postgres_url, redis_url, shared_postgres_url, shared_redis_url  # noqa: F401  (fixtures)

TAKEOVER_LIMIT = 5.0


class Server:
    """One `hippodrome serve` process on a free loopback port."""

    def __init__(self, db: str, bus: str, *extra: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0", "--db", db, "--bus", bus,
             "--bot-delay", "0.05", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if found is None:
            self.process.kill()
            raise AssertionError(f"the server did not start: {line}{self.process.stdout.read()}")
        self.url = found.group(0)
        self.ws = self.url.replace("http://", "ws://")
        wait_until(lambda: get(self.url + "/api/tables") is not None, 20)

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        print(f"--- {self.url}:\n{self.process.stdout.read()}")  # shown when a test fails


def get(url: str):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.loads(response.read())
    except OSError:
        return None


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def wait_until(condition, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s")


@pytest.fixture
def two_servers(postgres_url, redis_url):
    servers = [Server(postgres_url, redis_url), Server(postgres_url, redis_url)]
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def shared_servers(shared_postgres_url, shared_redis_url):
    """Two processes on one database and bus, for the tests of this module that kill neither (their
    tables stay: a test looks at its own)."""
    servers = [Server(shared_postgres_url, shared_redis_url), Server(shared_postgres_url, shared_redis_url)]
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture
def doomed(shared_servers, shared_postgres_url, shared_redis_url):
    """A third process on the shared servers' database and bus, for a test to kill or stop: they
    take its tables over."""
    server = Server(shared_postgres_url, shared_redis_url)
    yield server
    server.stop()


class Player:
    """A seat's connection, as the play page makes it: join, ready, act on its decisions."""

    def __init__(self, table: dict, seat: int | None):
        self.table = table
        self.seat = seat   # None: a spectator
        self.token = None if seat is None else table["seats"][seat]["token"]
        self.states: list[dict] = []   # every state this client saw, in order
        self.welcomes = 0

    async def connect(self, server: Server) -> None:
        self.ws = await websockets.connect(f"{server.ws}/ws/tables/{self.table['id']}", proxy=None)
        await self.send("join", **({"token": self.token} if self.token else {}))

    async def send(self, kind: str, **fields) -> None:
        await self.ws.send(json.dumps({"v": 1, "type": kind, **fields}))

    async def next_state(self, timeout: float = 10.0) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message["type"] == "welcome":
                self.welcomes += 1
            elif message["type"] == "state":
                self.states.append(message)
                return message
            elif message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(message)

    def my_options(self) -> list | None:
        if not self.states or self.states[-1]["status"] != "playing":
            return None
        decision = self.states[-1]["decision"]
        return decision.get("options") if decision and decision.get("seat") == self.seat else None


async def play_until(players: list[Player], state_id: int) -> None:
    """Each player acts on its own decisions (its first option) until both saw ``state_id``."""
    async def run(player: Player) -> None:
        acted = -1
        while not player.states or player.states[-1]["state_id"] < state_id:
            options = player.my_options()
            current = player.states[-1]["state_id"] if player.states else -1
            if options and acted != current and not player.states[-1]["over"]:
                acted = current
                await player.send("act", state_id=current, action=options[0])
            await player.next_state()
    await asyncio.gather(*(run(player) for player in players))


async def settle(players: list[Player], quiet: float = 0.5) -> None:
    """Read until no state has come for ``quiet`` seconds."""
    for player in players:
        with pytest.raises(asyncio.TimeoutError):
            while True:
                await player.next_state(timeout=quiet)


@pytest.mark.slow
def test_two_processes_share_a_table_and_a_kill_of_its_owner_loses_nothing(doomed, shared_servers):
    first, second = doomed, shared_servers[1]
    table = post(first.url + "/api/tables", {
        "game": "turfmaster-race", "setup": {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                          {"id": "blue", "owner": 1}]},
        "seats": [{"name": "Ana", "kind": "person"}, {"name": "Bo", "kind": "person"}]})
    # the other process's lobby lists it (through the bus), and answers for it
    assert wait_until(lambda: any(t["id"] == table["id"] for t in get(second.url + "/api/tables")["tables"]), 5)
    assert get(f"{second.url}/api/tables/{table['id']}")["game"] == "turfmaster-race"

    async def scenario() -> None:
        ana, bo = Player(table, 0), Player(table, 1)
        await ana.connect(first)    # at the table's owner
        await bo.connect(second)    # relayed by the other process
        for player in (ana, bo):
            await player.next_state()
            await player.send("ready")
        await play_until([ana, bo], 12)
        await settle([ana, bo])
        seen = {player.seat: player.states[-1] for player in (ana, bo)}
        assert seen[0]["state_id"] == seen[1]["state_id"] >= 12   # both see the same moves
        assert seen[0]["view"]["horses"] == seen[1]["view"]["horses"]
        both_saw = {s["state_id"] for s in ana.states} & {s["state_id"] for s in bo.states}
        assert len(both_saw) >= 6

        first.kill()
        killed = time.monotonic()
        # Bo's connection was relayed: it is joined again to the new owner without a reconnect
        back = await bo.next_state(timeout=TAKEOVER_LIMIT + 2)
        took = time.monotonic() - killed
        print(f"taken over in {took:.2f} s")
        assert took < TAKEOVER_LIMIT, took
        assert bo.welcomes == 2
        # Ana was connected to the killed process: she reconnects, as the page does, to the other
        await ana.connect(second)
        again = await ana.next_state()
        for player, state in ((bo, back), (ana, again)):
            before = seen[player.seat]
            assert state["state_id"] == before["state_id"], (state["state_id"], before["state_id"])
            assert state["view"] == before["view"] and state["decision"] == before["decision"]
        # and the game goes on there
        await play_until([ana, bo], seen[0]["state_id"] + 6)
        await settle([ana, bo])
        assert ana.states[-1]["state_id"] == bo.states[-1]["state_id"] >= seen[0]["state_id"] + 6
        await ana.ws.close()
        await bo.ws.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_table_created_on_either_process_is_run_by_exactly_one(shared_servers):
    first, second = shared_servers
    body = {"game": "turfmaster-race", "setup": {"players": 2},
            "seats": [{"name": "A", "kind": "bot", "level": "random"}, {"name": "B", "kind": "bot", "level": "random"}]}
    tables = [post(server.url + "/api/tables", body)["id"] for server in (first, second, first, second)]
    import psycopg
    with psycopg.connect(first_db(first), autocommit=True) as conn:
        owners = dict(conn.execute("SELECT table_id, owner FROM leases").fetchall())
    assert set(tables) <= set(owners) and len({owners[table] for table in tables}) == 2

    def listed() -> list[dict]:
        return [t for t in get(first.url + "/api/tables")["tables"] if t["id"] in tables]
    # bots play every table to its end wherever it runs; the lobby lists each of the four once
    wait_until(lambda: len(shown := listed()) == 4 and all(t["over"] for t in shown), 60)


def first_db(server: Server) -> str:
    return server.process.args[server.process.args.index("--db") + 1]


def test_bus_without_postgresql_is_refused(tmp_path):
    said = said_and_exited_2(refused_serve("--db", str(tmp_path / "x.sqlite3"), "--bus", "redis://127.0.0.1:6379/0"))
    assert "--bus needs a PostgreSQL --db" in said


def test_a_lease_is_held_by_one_process_until_it_expires(postgres_url):
    from hippodrome.server.lease import Leases
    from hippodrome.server.storage import open_storage
    storage = open_storage(postgres_url)
    storage.create_table("t1", "g", {}, "s", [], "h", {})
    mine, theirs = (Leases(postgres_url, owner, f"http://{owner}", ttl=0.5) for owner in ("a", "b"))
    try:
        assert mine.acquire("t1") and not theirs.acquire("t1") and mine.acquire("t1")
        assert not mine.acquire("no-such-table")
        assert theirs.holder("t1").owner == "a" and theirs.holder("t1").live
        assert mine.renew() == {"t1"} and theirs.renew() == set()
        assert theirs.orphans() == []
        time.sleep(0.7)   # not renewed: expired
        assert not theirs.holder("t1").live and theirs.orphans() == ["t1"]
        assert theirs.acquire("t1") and mine.renew() == set() and not mine.acquire("t1")
    finally:
        mine.close()
        theirs.close()
        storage.close()


def test_a_write_for_a_table_another_process_took_over_is_refused(postgres_url):
    """A process cut off for longer than its lease must not write over its successor (fencing)."""
    from hippodrome.server.lease import Leases
    from hippodrome.server.storage import open_storage
    from hippodrome.server.storage_pg import LeaseLost
    old, new = open_storage(postgres_url), open_storage(postgres_url)
    old.owner, new.owner = "old", "new"
    old.create_table("t1", "g", {}, "s", [], "h", {})
    old_leases, new_leases = Leases(postgres_url, "old", "x", ttl=0.2), Leases(postgres_url, "new", "y")
    try:
        assert old_leases.acquire("t1")
        old.save_progress("t1", [{"n": 0}], 1, False, False)
        time.sleep(0.3)
        assert new_leases.acquire("t1")
        new.save_progress("t1", [{"n": 0}, {"n": 1}], 2, False, False, stored=1)
        with pytest.raises(LeaseLost):
            old.save_progress("t1", [{"n": 0}, {"n": "stale"}], 2, False, False, stored=1)
        assert new.load("t1")["log"] == [{"n": 0}, {"n": 1}]
    finally:
        for closable in (old_leases, new_leases, old, new):
            closable.close()


def _holds_no_lock_on(postgres_url: str, table_id: str) -> bool:
    import psycopg
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        try:
            conn.execute("SELECT 1 FROM leases WHERE table_id = %s FOR UPDATE NOWAIT", (table_id,))
        except psycopg.errors.LockNotAvailable:
            return False
    return True


@pytest.mark.parametrize("locker", ["renewal", "save", "release"])
def test_a_statement_that_waits_for_one_lease_holds_none_after_it(postgres_url, locker):
    """Saves of several tables, renewals and releases lock leases in the order of the tables' ids,
    so they never deadlock one another (a renewal lost to a deadlock loses the process's tables):
    waiting for lease "a", none of them holds lease "b"."""
    import threading
    import psycopg
    from hippodrome.server.lease import Leases
    from hippodrome.server.storage import open_storage
    from hippodrome.server.storage import Save
    storage = open_storage(postgres_url)
    storage.owner = "me"
    for table_id in ("b", "a"):   # "b" first: the heap's order is not the ids'
        storage.create_table(table_id, "g", {}, "s", [], "h", {})
    leases = Leases(postgres_url, "me", "x")
    work = {"renewal": leases.renew, "release": leases.release,
            "save": lambda: storage.save_many([Save("b", [{"n": 0}], 1, False, False),
                                               Save("a", [{"n": 0}], 1, False, False)])}[locker]
    with psycopg.connect(postgres_url) as blocker:
        blocker.execute("SELECT 1 FROM leases WHERE table_id = 'a' FOR UPDATE")
        waiting = threading.Thread(target=work)
        waiting.start()
        try:
            wait_until(lambda: blocker.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))").fetchone()[0], 10)
            assert _holds_no_lock_on(postgres_url, "b")
        finally:
            blocker.rollback()
            waiting.join(10)
    leases.close()
    storage.close()


def test_one_process_on_postgresql_resumes_its_tables_after_a_restart(postgres_url):
    from fastapi.testclient import TestClient
    from hippodrome.server import create_app
    from tests.server.conftest import join, make_table, receive
    with TestClient(create_app(postgres_url, bot_delay=0)) as client:
        table = make_table(client, seats=[{"name": "Ana", "kind": "person"}, {"name": "Bot", "kind": "bot",
                                                                              "level": "random"}])
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            state = receive(ws, predicate=lambda m: m["decision"] and m["decision"].get("seat") == 0)
            ws.send_json({"v": 1, "type": "act", "state_id": state["state_id"],
                          "action": state["decision"]["options"][0]})
            before = receive(ws, predicate=lambda m: m["state_id"] > state["state_id"]
                             and m["decision"] and m["decision"].get("seat") == 0)
    with TestClient(create_app(postgres_url, bot_delay=0)) as client:
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            after = receive(ws)
        assert (after["state_id"], after["view"]) == (before["state_id"], before["view"])


def test_a_process_that_lost_a_lease_stops_the_table_and_closes_its_connections(postgres_url):
    """Another process took the lease (this one was cut off): the table is no longer run here,
    its pages are told to reconnect (1012), and the database refuses this process's writes."""
    import psycopg
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    from hippodrome.server import create_app
    from tests.server.conftest import join, make_table, receive
    with TestClient(create_app(postgres_url, bot_delay=0)) as client:
        table = make_table(client, start=False)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws, table["seats"][0]["token"])
            receive(ws)
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                conn.execute("UPDATE leases SET owner = 'another', expires = clock_timestamp() + interval '30 s' "
                             "WHERE table_id = %s", (table["id"],))
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 1012
        assert table["id"] not in client.app.state.hub.rooms


@pytest.mark.slow
def test_a_process_stopped_cleanly_hands_its_tables_over_at_once(doomed):
    first = doomed
    body = {"game": "turfmaster-race", "setup": {"players": 2}, "seats": [{"name": "A"}, {"name": "B"}]}
    table = post(first.url + "/api/tables", body)["id"]
    import psycopg
    with psycopg.connect(first_db(first), autocommit=True) as conn:
        def owner() -> str:
            return conn.execute("SELECT owner FROM leases WHERE table_id = %s", (table,)).fetchone()
        before = owner()
        first.process.send_signal(signal.SIGTERM)   # Ctrl+C: its leases released and announced
        stopped = time.monotonic()
        wait_until(lambda: owner() not in (None, before), 10)
        assert time.monotonic() - stopped < 2.0   # not after the lease's 3 s


def test_the_bus_carries_public_summaries_only(shared_servers, shared_postgres_url, shared_redis_url):
    """What a process publishes on Redis is the lobby's summary: no token, digest or seed."""
    import redis
    server = shared_servers[0]
    client = redis.Redis.from_url(shared_redis_url)
    import psycopg
    with psycopg.connect(shared_postgres_url, autocommit=True) as conn:
        cluster_id = conn.execute("SELECT value FROM meta WHERE key = 'cluster'").fetchone()[0]
    from hippodrome.server.cluster import bus_name
    channel = f"hippodrome:{bus_name(cluster_id)}:tables"
    assert cluster_id not in channel and cluster_id[:8] not in channel   # the relays' secret stays one
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    table = post(server.url + "/api/tables", {"game": "turfmaster-race", "setup": {"players": 2},
                                              "seats": [{"name": "A"}, {"name": "B"}]})
    published, text = None, ""
    deadline = time.monotonic() + 10
    while published is None and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=1)   # the other tests' tables are on the bus too
        if message is not None and table["id"] in (text := message["data"].decode()):
            published = json.loads(text)
    assert published is not None, "nothing published about the table"
    assert published["table"] == table["id"] and published["summary"]["id"] == table["id"]
    for secret in [table["host_token"]] + [seat["token"] for seat in table["seats"]]:
        assert secret not in text
    assert "token" not in text and "hash" not in text and "seed" not in text
    pubsub.close()
    client.close()


@pytest.mark.slow
def test_a_table_of_bots_rolling_on_its_clock_goes_on_after_its_owner_is_killed(two_servers):
    """Ready Set Bet's rolls (a timed clock) and bots' bets: a spectator watching through the
    other process never sees the table go back, and sees it go on within 5 s of the kill."""
    first, second = two_servers
    table = post(first.url + "/api/tables", {
        "game": "readysetbet", "setup": {"players": 4}, "pace": 0.3,
        "seats": [{"name": f"bot {n}", "kind": "bot", "level": "value"} for n in range(4)]})

    async def scenario() -> None:
        watcher = Player(table, None)
        await watcher.connect(second)
        while len(watcher.states) < 8:
            await watcher.next_state()
        before = watcher.states[-1]
        first.kill()
        killed = time.monotonic()
        while True:
            state = await watcher.next_state(timeout=TAKEOVER_LIMIT + 2)
            assert state["state_id"] >= before["state_id"], "a state the spectator saw was lost"
            if state["state_id"] > before["state_id"]:
                break
        assert time.monotonic() - killed < TAKEOVER_LIMIT + 1   # taken over, and its clock struck again
        ids = [s["state_id"] for s in watcher.states]
        assert ids == sorted(ids) and watcher.welcomes == 2
        await watcher.ws.close()

    asyncio.run(scenario())
