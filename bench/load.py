"""Load on one `hippodrome serve` process: many tables played at once, latency as spectators see it.

    python bench/load.py [--tables 50[,100,...]] [--bot-tables 0] [--seconds 30] [--patches]
                         [--url http://127.0.0.1:PORT | --server-src PATH] [--bot-workers N] [--warmup 5]
                         [--reviews N [--review-share FRACTION]]

Half the tables are TurfMaster meetings (one person and two tactical bots), half Ready Set Bet
(one person and three value bettors, a roll a second); each has its person's connection and two
spectators. The person plays at a human pace: a TurfMaster decision after 0.2 to 0.6 s, a Ready
Set Bet bet now and then on an open space. `--bot-tables` adds tables of bots only (Ready Set
Bet, a roll every 0.05 s), the noisy neighbours, made as the measurement starts (it prints how
many changes they made and how many finished). For every action a person makes that the server
accepts, the latency is the time from sending it to each spectator's first state that includes
it (its state id). Prints p50/p99 of those latencies, the server's CPU use (of one core) and
memory, its bot workers' CPU, and this script's own CPU and how late its own event loop ran (a
lateness every latency it times includes; its garbage collector is off while it measures, so that
its pauses are not timed as the server's). The tables start one by one over the
first `--warmup` seconds (5; each person presses Ready at a random moment in them, as tables of a
lobby start, where `--warmup 0` starts them all at once); those seconds (and the bot workers'
start) are reported apart and left out of the figures.

Without `--url` a server is started on a free loopback port with a fresh SQLite file (its
per-address quotas raised: every table comes from this one address) and stopped at the end;
`--url` must be a loopback address (this script never loads another machine); start that server
with `--quota-tables` and `--quota-connections` high enough. `--server-src` starts the server
from another checkout's ``src`` (the code before a change, measured in the same session). The
run is bounded by `--seconds` after every connection is open.

`--reviews N` keeps N reviews of finished tables running all along (issue 36: a review must not
slow the live tables): finished TurfMaster meetings of random bots (``simulate --save``) are
stored in the server's database before it starts (`--server-src` cannot be used with it), the server
runs N review workers (``--review-workers N``), and as soon as a review is ready the next finished
table's is asked for (``POST /api/tables/ID/review``), at the default budget. It prints how many
reviews and decisions were made meanwhile; the review workers' CPU is counted with the bot workers'.
`--review-share` is the server's (the share of a core a review may take while the live tables keep
it busy; its default without it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import ipaddress
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import websockets

from hippodrome.server import jsonpatch

SERVER_START_TIMEOUT = 60


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)   # seconds, act sent -> spectator's state
    acts: int = 0
    refused: int = 0
    messages: int = 0
    bytes: int = 0


def loopback_only(url: str) -> str:
    host = urllib.parse.urlparse(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        sys.exit(f"--url must be a loopback address (127.0.0.1, ::1, localhost), not {host!r}")
    return url.rstrip("/")


def start_server(db: Path, src: str | None, bot_workers: int | None = None,
                 reviews: int = 0, review_share: float | None = None) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, **({"PYTHONPATH": src} if src else {})}
    workers = [] if bot_workers is None else ["--bot-workers", str(bot_workers)]
    if reviews:
        workers += ["--review-workers", str(reviews), "--reviews-at-once", str(reviews)]
    if review_share is not None:
        workers += ["--review-share", str(review_share)]
    # every connection comes from this one address (a checkout older than the cap has no option)
    serve_source = Path(src or Path(__file__).resolve().parents[1] / "src") / "hippodrome" / "cli" / "serve.py"
    cap = ["--connections-per-address", "100000"] if "--connections-per-address" in serve_source.read_text() else []
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--host", "127.0.0.1",
                                "--port", "0", "--db", str(db), "--bot-delay", "0.3",
                                "--quota-tables", "100000", "--quota-connections", "100000", *cap, *workers],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    said = []   # what it printed: a refusal of an option, or of the database, says why in words
    for line in process.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if found:
            return process, found.group(1)
        said.append(line)
        if time.monotonic() > deadline:
            break
    process.kill()
    sys.exit("the server did not start:\n" + "".join(said))


def stop_server(process: subprocess.Popen) -> None:
    """Stop the server this script started (a busy machine may take a while; then it is killed)."""
    process.terminate()
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def create_table(url: str, index: int, bots_only: bool) -> dict:
    if bots_only:
        body = {"game": "readysetbet", "setup": {"players": 4}, "pace": 0.05,
                "seats": [{"name": f"bot {n}", "kind": "bot", "level": "value"} for n in range(4)]}
    elif index % 2 == 0:
        body = {"game": "turfmaster", "setup": {"players": 3},
                "seats": [{"name": "Ana", "kind": "person"}] + [{"name": f"bot {n}", "kind": "bot",
                                                                 "level": "tactical"} for n in (1, 2)]}
    else:
        body = {"game": "readysetbet", "setup": {"players": 4}, "pace": 1.0,
                "seats": [{"name": "Bea", "kind": "person"}] + [{"name": f"bot {n}", "kind": "bot",
                                                                 "level": "value"} for n in (1, 2, 3)]}
    request = urllib.request.Request(url + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Origin": url})
    return json.loads(urllib.request.urlopen(request, timeout=60).read())


def fetch_json(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url, timeout=60).read())


#: finished meetings stored for each review kept running (a review takes about 40 s; a run, a few minutes)
FINISHED_PER_REVIEW = 6


def store_finished_meetings(db: Path, count: int) -> list[str]:
    """``count`` meetings of random bots played (``turfmaster simulate --save``) and stored in
    ``db`` as finished tables, before the server opens it: their table ids."""
    from hippodrome.server.imported import store_record
    from hippodrome.server.storage import open_storage

    folder = Path(tempfile.mkdtemp(prefix="hippodrome-meetings-"))
    subprocess.run([sys.executable, "-m", "hippodrome", "turfmaster", "simulate", "--games", str(count),
                    "--bots", "random,random", "--seed", "load", "--workers", "1", "--save", str(folder)],
                   check=True, stdout=subprocess.DEVNULL)
    storage = open_storage(str(db))
    try:
        ids = []
        for path in sorted(folder.glob("*.json")):
            ids.append(f"finished-{path.stem}")
            store_record(storage, ids[-1], json.loads(path.read_text()), ["Ana", "Bo"])
        return ids
    finally:
        storage.close()


async def keep_reviewing(url: str, finished: list[str], running: int, stop: asyncio.Event, made: Counter) -> None:
    """``running`` reviews under way at all times: each one ready is followed by the next table's."""
    loop = asyncio.get_running_loop()
    waiting = list(finished)
    under_way: dict[str, int] = {}

    def post(table_id: str) -> None:
        request = urllib.request.Request(f"{url}/api/tables/{table_id}/review", data=b"", method="POST",
                                         headers={"Origin": url})
        urllib.request.urlopen(request, timeout=60).read()
    while not stop.is_set():
        while len(under_way) < running and waiting:
            table_id = waiting.pop(0)
            await loop.run_in_executor(None, post, table_id)
            under_way[table_id] = 0
        for table_id in list(under_way):
            status = await loop.run_in_executor(None, fetch_json, f"{url}/api/tables/{table_id}/review")
            made["decisions"] += status["done"] - under_way[table_id]
            under_way[table_id] = status["done"]
            if status["status"] != "running":
                made[status["status"]] += 1
                del under_way[table_id]
        await asyncio.sleep(1.0)


class TableLoad:
    """One table: its person (who acts) and its spectators (who time what they see)."""

    def __init__(self, url: str, table: dict, results: Results, rng: random.Random, stop: asyncio.Event,
                 patches: bool = False, stagger: float = 0.0):
        self.patches = patches
        self.stagger = stagger             # the person presses Ready within this many seconds
        self.ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        self.table, self.results, self.rng, self.stop = table, results, rng, stop
        self.sent: dict[int, float] = {}   # state id the act was made on -> when it was sent
        self.seen_by: dict[int, int] = {}  # that state id -> spectators that saw a later state
        self.latest: dict | None = None    # the person's last state
        self.changed = asyncio.Event()
        self.last_act: int | None = None   # the state id the person's last act was made on

    async def connect(self, token: str | None):
        ws = await websockets.connect(self.ws_url, open_timeout=60, origin=self.ws_url.replace("ws://", "http://")
                                      .split("/ws/")[0], max_size=2 ** 22)
        await ws.send(json.dumps({"v": 1, "type": "join", **({"patches": True} if self.patches else {}),
                                  **({"token": token} if token else {})}))
        return ws

    async def spectator(self) -> None:
        ws = await self.connect(None)
        async with ws:
            while True:
                try:
                    raw = await ws.recv(decode=False)   # the message's UTF-8 bytes, not decoded to text
                except websockets.ConnectionClosedOK:
                    return
                now = time.perf_counter()
                self.results.messages += 1
                self.results.bytes += len(raw)
                state_id = state_id_of(raw)   # a spectator times state ids: a patch carries its own
                if state_id is None:
                    continue
                for made_on, when in list(self.sent.items()):
                    if state_id > made_on:
                        self.results.latencies.append(now - when)
                        self.seen_by[made_on] = self.seen_by.get(made_on, 0) + 1
                        if self.seen_by[made_on] >= 2:
                            del self.sent[made_on]
                if self.stop.is_set():
                    return

    async def person(self) -> None:
        seat = next(s for s in self.table["seats"] if s["kind"] == "person")
        ws = await self.connect(seat["token"])
        async with ws:
            receiver = asyncio.ensure_future(self._receive(ws))
            try:
                while not self.stop.is_set():
                    await self.changed.wait()
                    self.changed.clear()
                    latest = self.latest
                    if latest.get("status") == "waiting":
                        if self.stagger:   # tables start one by one, as a lobby's do, not all at once
                            await asyncio.sleep(self.rng.uniform(0, self.stagger))
                            self.stagger = 0.0
                        await ws.send(json.dumps({"v": 1, "type": "ready"}))
                    elif latest.get("status") == "between_races":
                        await ws.send(json.dumps({"v": 1, "type": "next_race"}))
                    action = self.choose(latest, seat["seat"])
                    if action is None:
                        continue
                    await asyncio.sleep(self.rng.uniform(0.2, 0.6))   # a person's reaction time
                    if self.latest is not latest and not latest.get("free_actions"):
                        self.changed.set()   # the table moved on while "thinking": look again
                        continue
                    self.last_act = self.latest["state_id"]
                    self.sent[self.last_act] = time.perf_counter()
                    self.results.acts += 1
                    await ws.send(json.dumps({"v": 1, "type": "act", "state_id": self.last_act, "action": action}))
            finally:
                receiver.cancel()

    async def _receive(self, ws) -> None:
        async for raw in ws:
            message = orjson.loads(raw)
            if message.get("type") in ("state", "patch"):
                self.latest = updated(self.latest, message)
                self.changed.set()
            elif message.get("type") == "error":
                self.results.refused += 1
                self.sent.pop(self.last_act, None)   # a refused act changes nothing: nothing to time

    def choose(self, state: dict, seat: int) -> dict | None:
        decision = state.get("decision") or {}
        if decision.get("seat") == seat and decision.get("options"):
            return self.rng.choice(decision["options"])
        view = state.get("view") or {}
        if "bet" in (state.get("free_actions") or []) and view.get("phase") == "race" and self.rng.random() < 0.3:
            tokens = [t for t in view["tokens"][seat] if not t["used"]]
            spaces = [s for s in view["board"] if not s["closed"] and not s["tokens"]]
            if tokens and spaces:
                return {"type": "bet", "token": self.rng.choice(tokens)["id"], "space": self.rng.choice(spaces)["id"]}
        return None


#: the head of a state or patch as the server writes it (``Room.state_message``, ``ViewCache``):
#: the protocol's version, its type, then (a state) the table and the game, then the state id
_HEAD = re.compile(rb'\{(?:"v":\d+,)?"type":"(?:state|patch)",(?:"table":"[^"\\]*","game":"[^"\\]*",)?"state_id":(\d+)[,}]')


def state_id_of(raw: bytes) -> int | None:
    """The state id of a state or patch message, None for another message. Read from the head of
    the message where it is written as the server writes it, without parsing the whole view (600
    connections' worth of parsing on this script's one loop is a lag every latency would carry);
    any other layout is parsed."""
    head = _HEAD.match(raw)
    if head:
        return int(head.group(1))
    message = orjson.loads(raw)
    return message["state_id"] if message.get("type") in ("state", "patch") else None


def updated(state: dict | None, message: dict) -> dict | None:
    """The state a client holds after ``message``: a whole state, a patch applied to the one it
    held, or (any other message) the one it held."""
    if message.get("type") == "state":
        return message
    if message.get("type") == "patch" and state is not None:
        return jsonpatch.apply(state, message["ops"])
    return state


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (the server's bot workers), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return found


def workers_cpu(pid: int) -> float:
    """CPU seconds used by the server's child processes still running (its bot workers)."""
    total = 0.0
    for child in children(pid):
        try:
            total += proc_stat(child)[0]
        except OSError:
            pass
    return total


def proc_stat(pid: int, thread: int | None = None) -> tuple[float, float]:
    """(CPU seconds used, resident MiB) of a process, or of one of its threads, from /proc."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread is not None else f"/proc/{pid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    return cpu, rss


def table_progress(loads: list["TableLoad"]) -> dict[str, int]:
    """The state ids the people's connections last saw, summed per game: changes made so far."""
    made: dict[str, int] = {}
    for load in loads:
        made[load.table["game"]] = made.get(load.table["game"], 0) + (load.latest or {}).get("state_id", 0)
    return made


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(url: str, tables: int, bot_tables: int, seconds: float, seed: int, pid: int | None,
              patches: bool, warmup: float = 0.0, finished: list[str] = (), reviews: int = 0) -> None:
    rng = random.Random(seed)
    results = Results()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    reviewed: Counter = Counter()
    reviewing = asyncio.ensure_future(keep_reviewing(url, list(finished), reviews, stop, reviewed)) if reviews else None
    made = [await loop.run_in_executor(None, create_table, url, n, False) for n in range(tables)]
    tasks = []
    loads = []
    for table in made:
        load = TableLoad(url, table, results, random.Random(rng.random()), stop, patches, warmup)
        loads.append(load)
        tasks += [asyncio.ensure_future(load.person()), asyncio.ensure_future(load.spectator()),
                  asyncio.ensure_future(load.spectator())]
    await asyncio.sleep(2)   # connections open, first states arrive
    results.latencies.clear()
    if warmup:   # the tables start one by one meanwhile: their people press Ready, the first deals
        await asyncio.sleep(warmup)
        start_burst = [x * 1000 for x in results.latencies]
        print(f"the first {warmup:.0f} s (the tables starting, not counted below): "
              f"p50 {percentile(start_burst, 0.5):.1f} ms, p99 {percentile(start_burst, 0.99):.1f} ms, "
              f"{len(start_burst)} deliveries")
        results.latencies.clear()
    lags: list[float] = []
    lag_watch = asyncio.ensure_future(watch_lag(lags, stop))
    # the script's own garbage collector would stop it for up to half a second at a time (the
    # states it parses, each replacing the last): that would be timed as the server's latency.
    # It is off while the script measures (a bounded run: what it keeps is freed at the end).
    gc.disable()
    before = proc_stat(pid) if pid else None
    loop_before = proc_stat(pid, pid)[0] if pid else 0.0   # the main thread: the event loop's
    workers_before = workers_cpu(pid) if pid else 0.0
    client_before = time.process_time()
    progress_before = table_progress(loads)
    reviewed_before = Counter(reviewed)
    started = time.perf_counter()
    # the tables of bots start with the measurement (a game of theirs lasts about a minute)
    bots = [(await loop.run_in_executor(None, create_table, url, n, True))["id"] for n in range(bot_tables)]
    await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - started)))
    elapsed = time.perf_counter() - started
    after = proc_stat(pid) if pid else None
    loop_after = proc_stat(pid, pid)[0] if pid else 0.0
    workers_after = workers_cpu(pid) if pid else 0.0
    client = time.process_time() - client_before
    progress = {game: made_now - progress_before[game] for game, made_now in table_progress(loads).items()}
    bot_changes = 0
    if bots:
        changes = [await loop.run_in_executor(None, fetch_json, f"{url}/api/tables/{table_id}") for table_id in bots]
        bot_changes = sum(c['state_id'] for c in changes)
        print(f"tables of bots: {bot_changes} changes in all, "
              f"{sum(c['over'] for c in changes)} of {bot_tables} finished")
    reviewed_during = Counter({key: reviewed[key] - reviewed_before[key] for key in reviewed})
    stop.set()
    gc.enable()
    lag_watch.cancel()
    if reviewing is not None:
        reviewing.cancel()
        print(f"reviews kept running: {reviews}; during the measurement {reviewed_during['ready']} finished, "
              f"{reviewed_during['failed']} failed, {reviewed_during['decisions']} decisions reviewed")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = [x * 1000 for x in results.latencies]
    print(f"tables: {tables} played ({tables * 3} connections) + {bot_tables} all-bot tables; {elapsed:.0f} s")
    print(f"actions sent: {results.acts} (refused {results.refused}); spectator deliveries timed: {len(lat)}")
    print(f"act -> spectator latency: p50 {percentile(lat, 0.5):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
          f"max {max(lat, default=float('nan')):.1f} ms")
    print(f"messages to spectators: {results.messages}, mean {results.bytes / max(results.messages, 1) / 1024:.1f} KiB")
    per_game = Counter(load.table["game"] for load in loads)
    print("changes the tables made (bots late to think show here as fewer): " + ", ".join(
        f"{game} {progress[game]} ({progress[game] / per_game[game] / elapsed:.1f} a table a second)"
        for game in sorted(per_game)))
    if before and after:
        print(f"server: CPU {100 * (after[0] - before[0]) / elapsed:.0f}% of one core, memory {after[1]:.0f} MiB; "
              f"its bot workers {100 * (workers_after - workers_before) / elapsed:.0f}%")
        made_in_all = sum(progress.values()) + bot_changes
        print(f"server's event loop (its main thread): CPU {100 * (loop_after - loop_before) / elapsed:.0f}% of one "
              f"core, {1e6 * (loop_after - loop_before) / max(made_in_all, 1):.0f} µs a change the tables made "
              f"(steadier than the latency from one run to the next: compare code with it)")
    lag = [x * 1000 for x in lags]
    print(f"this load script: CPU {100 * client / elapsed:.0f}% of one core; its own loop's lag "
          f"(a {LAG_TICK * 1000:.0f} ms sleep's overshoot, part of every latency above): p50 {percentile(lag, 0.5):.1f} ms, "
          f"p99 {percentile(lag, 0.99):.1f} ms, max {max(lag, default=float('nan')):.1f} ms")


#: how often the script checks its own event loop's lag
LAG_TICK = 0.01


async def watch_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late this script's own loop wakes from a short sleep: the time it adds to what it measures."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        lags.append(time.perf_counter() - started - LAG_TICK)


def table_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= count <= 1000 for count in counts):
        raise argparse.ArgumentTypeError(f"--tables: counts from 1 to 1000, separated by commas, not {text!r}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=table_counts, default=[50],
                        help="tables with a person and two spectators (25,50,100: each in turn)")
    parser.add_argument("--bot-tables", type=int, default=0, help="extra Ready Set Bet tables of bots only")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure (bounded)")
    parser.add_argument("--url", help="a running server on a loopback address (default: start one)")
    parser.add_argument("--server-src", help="start the server from this src folder (another checkout)")
    parser.add_argument("--patches", action="store_true",
                        help="clients ask for patches rather than whole states (the web pages ask for whole states)")
    parser.add_argument("--bot-workers", type=int, default=None,
                        help="the server's --bot-workers (default: the server's own default; 0: threads)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds after the tables start that are reported apart, not in the figures (0: none)")
    parser.add_argument("--reviews", type=int, default=0,
                        help="reviews of finished tables kept running all along (the server's --review-workers)")
    parser.add_argument("--review-share", type=float, default=None,
                        help="the server's --review-share (default: the server's own)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 0 <= args.bot_tables <= 1000 or not 1 <= args.seconds <= 600 or not 0 <= args.warmup <= 120:
        sys.exit("--bot-tables 0..1000, --seconds 1..600, --warmup 0..120")
    if not 0 <= args.reviews <= 16 or args.reviews and (args.url or args.server_src):
        sys.exit("--reviews 0..16, with a server this script starts from this checkout (no --url, no --server-src)")
    for tables in args.tables:
        process, finished = None, []
        if args.url:
            url, pid = loopback_only(args.url), None
        else:
            db = Path(tempfile.mkdtemp(prefix="hippodrome-load-")) / "load.sqlite3"
            finished = store_finished_meetings(db, args.reviews * FINISHED_PER_REVIEW) if args.reviews else []
            process, url = start_server(db, args.server_src, args.bot_workers, args.reviews, args.review_share)
            pid = process.pid
        try:
            asyncio.run(run(url, tables, args.bot_tables, args.seconds, args.seed, pid, args.patches, args.warmup,
                            finished, args.reviews))
        finally:
            if process:
                stop_server(process)


if __name__ == "__main__":
    main()
