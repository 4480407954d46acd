"""Load on two `hippodrome serve` processes sharing one PostgreSQL database and one Redis bus.

    python bench/cluster_load.py [--tables 50] [--seconds 30] [--postgres URL] [--redis URL]

The tables and the players of bench/load.py (half TurfMaster meetings, half Ready Set Bet, one
person and bots each, two spectators), created alternately on the two processes, so each runs
half. A table's person and first spectator connect to the process that runs it; its second
spectator connects to the other process, whose connection is relayed to the owner. Latency: the
time from a person's act to each spectator's first state that includes it. Prints p50/p99 for
both kinds of spectator, the processes' CPU (of one core) and memory. `--idle N` adds N tables
that wait for their person all along (held and renewed, nobody connected). With `--takeover`: no
play; the tables wait for their people, process 1 is killed with SIGKILL, and the script times
until process 2 holds every lease. With `--rolling`: tables of bots playing, process 1 stopped
with SIGTERM mid-game (a rolling restart's first step: it drains), and the script times until
process 2 holds every lease and how long process 1's spectators wait for process 2's first state.

Local only: the servers are started here on loopback ports, in a fresh PostgreSQL schema (of
`--postgres`, default the tests' `postgresql://postgres@127.0.0.1:5432/test`, dropped at the end)
and with `--redis` (default `redis://127.0.0.1:6379/0`, loopback only); the run is bounded by
`--seconds` after every connection is open.
"""

from __future__ import annotations

import argparse
import asyncio
import copy as pycopy
import json
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import load  # noqa: E402  (bench/load.py: the tables, the players, the statistics)

from tests.server.services import with_search_path  # noqa: E402


def watched_elsewhere(table_load: load.TableLoad, other_url: str, results: load.Results) -> load.TableLoad:
    """The same table watched through the other process (a relayed connection): the acts it times
    are the table's own (shared), its latencies counted in ``results``."""
    copy = pycopy.copy(table_load)   # shares the person's sent-at times
    copy.ws_url = other_url.replace("http://", "ws://") + "/ws/" + table_load.ws_url.split("/ws/", 1)[1]
    copy.results = results
    return copy


async def run(urls: list[str], tables: int, seconds: float, seed: int, pids: list[int], idle: int = 0) -> None:
    rng = random.Random(seed)
    direct, relayed = load.Results(), load.Results()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for n in range(idle):   # tables that wait for their person, held (leases renewed) all along
        await loop.run_in_executor(None, load.create_table, urls[n % 2], 0, False)
    tasks = []
    for n in range(tables):
        owner, other = urls[n % 2], urls[(n + 1) % 2]
        table = await loop.run_in_executor(None, load.create_table, owner, n // 2, False)
        table_load = load.TableLoad(owner, table, direct, random.Random(rng.random()), stop)
        tasks += [asyncio.ensure_future(table_load.person()), asyncio.ensure_future(table_load.spectator()),
                  asyncio.ensure_future(watched_elsewhere(table_load, other, relayed).spectator())]
    await asyncio.sleep(3)   # connections open, first states arrive
    direct.latencies.clear()
    relayed.latencies.clear()
    before = [load.proc_stat(pid) for pid in pids]
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    after = [load.proc_stat(pid) for pid in pids]
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"tables: {tables} on 2 processes ({tables * 3} connections, {tables} of them relayed), "
          f"{idle} more waiting; {elapsed:.0f} s")
    print(f"actions sent: {direct.acts} (refused {direct.refused})")
    for name, latencies in (("at the owner", direct.latencies),
                            ("relayed", relayed.latencies)):
        lat = [x * 1000 for x in latencies]
        print(f"act -> spectator {name}: {len(lat)} timed, p50 {load.percentile(lat, 0.5):.1f} ms, "
              f"p99 {load.percentile(lat, 0.99):.1f} ms, max {max(lat, default=float('nan')):.1f} ms")
    for n, (b, a) in enumerate(zip(before, after)):
        print(f"process {n + 1}: CPU {100 * (a[0] - b[0]) / elapsed:.0f}% of one core, memory {a[1]:.0f} MiB")


def takeover(db: str, processes: list[tuple[subprocess.Popen, str]], tables: int) -> None:
    """``tables`` waiting tables (a person seat each, nobody connected) made on the two processes
    alternately; the first is killed with SIGKILL; how long until the second holds all of them."""
    import psycopg
    created = []
    started = time.perf_counter()
    for n in range(tables):
        created.append((time.perf_counter(), load.create_table(processes[n % 2][1], 0, False)["id"]))
    making = time.perf_counter() - started
    with psycopg.connect(db, autocommit=True) as conn:
        def owners() -> dict[str, int]:
            return dict(conn.execute("SELECT owner, count(*) FROM leases GROUP BY owner").fetchall())
        print(f"{tables} tables made in {making:.1f} s ({1000 * making / tables:.1f} ms each); leases: "
              f"{sorted(owners().values())}")
        processes[0][0].kill()
        killed = time.perf_counter()
        first = None
        while len(owners()) > 1 or conn.execute(
                "SELECT count(*) FROM leases WHERE expires > clock_timestamp()").fetchone()[0] < tables:
            if time.perf_counter() - killed > 60:
                sys.exit(f"not taken over within 60 s: {owners()}")
            if first is None and sorted(owners().values()) != [tables // 2, tables - tables // 2]:
                first = time.perf_counter() - killed
            time.sleep(0.05)
        took = time.perf_counter() - killed
    print(f"process 1 killed (SIGKILL): its {tables // 2 + tables % 2} tables run by process 2 after {took:.2f} s "
          f"(the first after {first or took:.2f} s)")


def rolling(db: str, processes: list[tuple[subprocess.Popen, str]], tables: int) -> None:
    """``tables`` tables of bots (Ready Set Bet, a roll every 0.05 s) made on the two processes
    alternately, each watched by a spectator connected to the process that runs it; process 1 is
    stopped with SIGTERM (it drains, server/drain.py) mid-game. Times until process 2 holds every
    lease, and each of process 1's spectators' wait from its connection's close to its first
    state from process 2 (reconnected at once, as a page behind a load balancer does); checks that
    no spectator's state went back."""
    import psycopg
    created = [load.create_table(processes[n % 2][1], n, True) for n in range(tables)]
    waits: list[float] = []
    lost: list[str] = []
    retries: list[int] = []   # reconnects a spectator needed
    stopped_at: list[float] = []

    async def watch(table: dict, url: str, other: str, ready: asyncio.Event) -> None:
        path = f"/ws/tables/{table['id']}"
        last = -1
        async with websockets.connect(url.replace("http://", "ws://") + path, max_size=2 ** 22) as ws:
            await ws.send(json.dumps({"v": 1, "type": "join"}))
            try:
                async for raw in ws:
                    state_id = load.state_id_of(raw if isinstance(raw, bytes) else raw.encode())
                    if state_id is not None:
                        last = max(last, state_id)
                        ready.set()
            except websockets.ConnectionClosed:
                pass
        closed = time.perf_counter()
        if not stopped_at:
            return   # not closed by the drain
        for retry in range(20):   # as web/net.js reconnects: after 0.3 s, 0.6 s, 1.2 s... (5 s at most)
            if retry:
                await asyncio.sleep(min(5.0, 0.3 * 2 ** (retry - 1)))
            try:
                async with websockets.connect(other.replace("http://", "ws://") + path, max_size=2 ** 22) as ws:
                    await ws.send(json.dumps({"v": 1, "type": "join"}))
                    async for raw in ws:
                        state_id = load.state_id_of(raw if isinstance(raw, bytes) else raw.encode())
                        if state_id is not None:
                            waits.append(time.perf_counter() - closed)
                            retries.append(retry)
                            if state_id < last:
                                lost.append(f"{table['id']}: saw {last}, then {state_id}")
                            return
            except (websockets.ConnectionClosed, OSError):
                continue

    async def scenario() -> float:
        first = [t for n, t in enumerate(created) if n % 2 == 0]
        readies = [asyncio.Event() for _ in first]
        watchers = [asyncio.ensure_future(watch(t, processes[0][1], processes[1][1], ready))
                    for t, ready in zip(first, readies)]
        for ready in readies:
            await asyncio.wait_for(ready.wait(), 60)
        await asyncio.sleep(1.0)   # mid-game
        stopped_at.append(time.perf_counter())
        processes[0][0].send_signal(signal.SIGTERM)
        with psycopg.connect(db, autocommit=True) as conn:
            while len(conn.execute("SELECT DISTINCT owner FROM leases WHERE expires > clock_timestamp()").fetchall()) > 1 \
                    or conn.execute("SELECT count(*) FROM leases WHERE expires > clock_timestamp()").fetchone()[0] < tables:
                if time.perf_counter() - stopped_at[0] > 60:
                    sys.exit("not handed over within 60 s")
                await asyncio.sleep(0.02)
        handed = time.perf_counter() - stopped_at[0]
        await asyncio.wait_for(asyncio.gather(*watchers), 60)
        return handed

    handed = asyncio.run(scenario())
    print(f"process 1 stopped (SIGTERM, drained) mid-game: its {len(created[::2])} tables held by process 2 after "
          f"{handed:.2f} s; its spectators' wait from the close to process 2's first state: p50 "
          f"{1000 * load.percentile(waits, 0.5):.0f} ms, max {1000 * max(waits, default=float('nan')):.0f} ms "
          f"({len(waits)} of {len(created[::2])} back; {sum(1 for r in retries if r)} needed more than one reconnect); "
          f"states gone back: {len(lost)}{': ' + '; '.join(lost[:3]) if lost else ''}")


def start(db: str, bus: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--host", "127.0.0.1",
                                "--port", "0", "--db", db, "--bus", bus, "--bot-delay", "0.3",
                                "--quota-tables", "100000", "--quota-connections", "100000",
                                "--connections-per-address", "100000"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = re.search(r"(http://127\.0\.0\.1:\d+)/", process.stdout.readline())
    if found is None:
        process.kill()
        sys.exit("a server did not start")
    log = Path(tempfile.gettempdir()) / f"hippodrome-cluster-{process.pid}.log"
    threading.Thread(target=lambda: log.write_text("".join(process.stdout)), daemon=True).start()
    print(f"server {found.group(1)}: its log in {log}")
    return process, found.group(1)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:   # still closing hundreds of connections
        process.kill()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables with a person and two spectators")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure (bounded)")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--idle", type=int, default=0, help="tables that wait for their person meanwhile")
    parser.add_argument("--takeover", action="store_true", help="no play: make the tables, kill process 1 "
                        "(SIGKILL) and time until process 2 runs all its tables")
    parser.add_argument("--rolling", action="store_true", help="tables of bots playing; process 1 stopped "
                        "with SIGTERM mid-game (it drains): how long until process 2 runs them, how long its "
                        "spectators wait, whether any state went back")
    args = parser.parse_args()
    if not 2 <= args.tables <= 1000 or not 0 <= args.idle <= 1000 or not 1 <= args.seconds <= 600:
        sys.exit("--tables 2..1000, --idle 0..1000, --seconds 1..600")
    for url in (args.postgres, args.redis):
        load.loopback_only(url.replace("postgresql://", "http://").replace("redis://", "http://"))
    import psycopg
    schema = f"bench_{secrets.token_hex(4)}"
    with psycopg.connect(args.postgres, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        processes = []
        try:
            db = with_search_path(args.postgres, schema)
            processes = [start(db, args.redis) for _ in range(2)]
            if args.takeover:
                takeover(db, processes, args.tables)
            elif args.rolling:
                rolling(db, processes, args.tables)
            else:
                asyncio.run(run([url for _, url in processes], args.tables, args.seconds, args.seed,
                                [process.pid for process, _ in processes], args.idle))
        finally:
            for process, _ in processes:
                stop(process)
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
