"""Bots thinking in worker processes (hippodrome.table.thinking, `serve --bot-workers`): legal
choices from the seat's view alone, a bot kept in its worker between thoughts and forgotten when
the server drops it, a killed worker replaced, bots that cannot travel kept in threads, no worker
left behind when the server's process is killed, and whole games played through a worker."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.match import Match
from hippodrome.readysetbet.bots import ValueBettor
from hippodrome.server.app import create_app
from hippodrome.table import thinking
from hippodrome.table.thinking import ProcessThinker, thinker_for, worker_pids, THREADS
from hippodrome.table.thought import QUICK_THOUGHTS_AT_ONCE, WORKER_NICENESS, _Lanes, _think_in_worker, thinks_long
from hippodrome.turfmaster.bots import TacticalBot

from tests.server.conftest import join, make_table, receive


def pending_decision(game="turfmaster-race", setup=None, seed=3):
    match = Match(game, setup or {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                  seed)
    match.resolve_chance()
    pending = match.state.pending()
    return match, pending


def held_keys(thinker: ProcessThinker) -> set[str]:
    """The keys of the bots the (single) worker holds, asked of the worker itself."""
    async def ask():
        return await thinker._workers[0].ask("held")
    return set(asyncio.run(ask()))


@pytest.fixture
def thinker():
    made = ProcessThinker(1)
    yield made
    made.close()


def test_a_tactical_bot_thinks_in_a_worker_and_chooses_a_legal_option(thinker):
    match, pending = pending_decision()
    bot = TacticalBot()
    observe_calls = []

    def observe():
        observe_calls.append(1)
        return match.state.observation(pending.seat)

    choice = asyncio.run(thinker.think(bot, observe, pending.options))
    assert pending.allows(choice)
    assert observe_calls == [1]             # the view is built here, once, and sent
    assert list(worker_pids(thinker)) and os.getpid() not in worker_pids(thinker)
    # the bots think at a lower priority than the server's event loop (#15: the loop comes first)
    assert all(os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)
               for pid in worker_pids(thinker))
    key = thinker._keys[id(bot)]
    assert held_keys(thinker) == {key}
    # a second thought sends the key only: the worker's copy of the bot answers
    assert key in thinker._workers[0].holds
    assert pending.allows(asyncio.run(thinker.think(bot, observe, pending.options)))


def test_a_bot_the_server_drops_is_forgotten_by_its_worker(thinker):
    match, pending = pending_decision()
    first, second = TacticalBot(), TacticalBot(seed=1)
    view = match.state.observation(pending.seat)
    for bot in (first, second):
        asyncio.run(thinker.think(bot, lambda: view, pending.options))
    first_key, second_key = thinker._keys[id(first)], thinker._keys[id(second)]
    assert held_keys(thinker) == {first_key, second_key}
    del first
    gc.collect()
    asyncio.run(thinker.think(second, lambda: view, pending.options))   # tells the worker
    assert held_keys(thinker) == {second_key}


def test_a_killed_worker_is_replaced_and_its_bots_sent_again(thinker):
    match, pending = pending_decision()
    bot = TacticalBot()
    view = match.state.observation(pending.seat)
    assert pending.allows(asyncio.run(thinker.think(bot, lambda: view, pending.options)))
    (pid,) = worker_pids(thinker)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    answers = []
    while time.monotonic() < deadline:   # the death is seen at the next thought (a failed one: None)
        answers.append(asyncio.run(thinker.think(bot, lambda: view, pending.options)))
        if answers[-1] is not None:
            break
    assert pending.allows(answers[-1])
    assert pid not in worker_pids(thinker)
    assert answers[:-1] in ([], [None])


def test_a_send_to_a_dead_worker_marks_it_stopped_at_once(monkeypatch):
    """The next thought must start a new worker even when the thread that reads the worker's answers
    has not yet seen its pipe close (CI once saw three failed thoughts in a row after a kill)."""
    from hippodrome.table import thinking
    monkeypatch.setattr(thinking._Worker, "_read", lambda self: None)   # a reader that never notices
    worker = thinking._Worker()
    try:
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(10)

        async def ask():
            return await worker.ask("held")
        with pytest.raises(thinking.WorkerStopped):
            asyncio.run(ask())
        assert worker.stopped
    finally:
        worker.stop()


class StandIn:
    """A test's bot: not the project's own, so it thinks in a thread of this process."""

    def __init__(self):
        self.pids = []

    def choose(self, observation, options):
        self.pids.append(os.getpid())
        return options[0]


def test_bots_that_cannot_travel_think_in_threads(thinker):
    match, pending = pending_decision()
    stand_in = StandIn()
    assert asyncio.run(thinker.think(stand_in, lambda: match.state.observation(pending.seat), pending.options)) == \
        pending.options[0]
    assert stand_in.pids == [os.getpid()]
    unpicklable = TacticalBot()
    unpicklable.hook = lambda: None   # a lambda does not pickle
    assert pending.allows(asyncio.run(thinker.think(unpicklable, lambda: match.state.observation(pending.seat),
                                                    pending.options)))
    assert id(unpicklable) in thinker._in_threads


def test_free_actions_of_a_value_bettor_come_from_the_worker(thinker):
    """R4: a bet is one of the free options open to the seat (or none: it waits)."""
    match = Match("readysetbet", {"players": 2, "races": 1}, 5)
    match.resolve_chance()
    options = match.state.free_options(0)
    assert options
    bot = ValueBettor(seed=2)
    choices = [asyncio.run(thinker.think(bot, lambda: match.state.observation(0), options, free_seed=n)) for n in range(5)]
    assert all(choice is None or choice in options for choice in choices)
    assert thinker._keys[id(bot)] in held_keys(thinker)


def test_no_workers_means_threads():
    assert thinker_for(0) is THREADS
    assert isinstance(thinker_for(2), ProcessThinker)
    with pytest.raises(ValueError):
        ProcessThinker(0)


def test_a_worker_never_holds_an_unknown_bot():
    assert _think_in_worker("nobody", None, [], {}, (), None) == "unknown bot"


def test_a_worker_stops_when_the_server_process_is_killed(tmp_path):
    script = textwrap.dedent("""
        import asyncio, os, signal, sys
        from hippodrome.core.match import Match
        from hippodrome.table.thinking import ProcessThinker, worker_pids
        from hippodrome.turfmaster.bots import TacticalBot
        match = Match("turfmaster-race", {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                       {"id": "blue", "owner": 1}]}, 1)
        match.resolve_chance()
        pending = match.state.pending()
        thinker = ProcessThinker(1)
        asyncio.run(thinker.think(TacticalBot(), lambda: match.state.observation(pending.seat), pending.options))
        print(*worker_pids(thinker), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == -signal.SIGKILL, done.stderr
    (pid,) = [int(word) for word in done.stdout.split()]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}") and not _zombie(pid):
        time.sleep(0.2)
    assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), "the bot worker outlived the server"


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.fixture
def worker_client(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.db"), bot_delay=0, bot_workers=1)) as test_client:
        yield test_client


@pytest.mark.slow
def test_a_table_of_bots_plays_a_whole_race_through_a_worker(worker_client, monkeypatch):
    from hippodrome.turfmaster.race import Race
    clones = []
    real_clone = Race.clone
    monkeypatch.setattr(Race, "clone", lambda self: clones.append(1) or real_clone(self))
    table = make_table(worker_client, seats=[{"name": "R", "kind": "bot", "level": "tactical"},
                                             {"name": "B", "kind": "bot", "level": "random"}])
    hub = worker_client.app.state.hub
    with worker_client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        final = receive(ws, predicate=lambda m: m["over"], limit=5000)
    assert sorted(final["view"]["places"] + final["view"]["fallen"]) == ["blue", "red"]
    assert list(worker_pids(hub.thinker))
    room = hub.rooms[table["id"]]
    bots = [seat.bot for seat in room.table.players]
    # both bots thought in the worker, on its replica of the table's match (#15: no copy, no view on the loop)
    assert set(hub.thinker._keys) == {id(bots[0]), id(bots[1]), id(room.table.match)}
    (sent,) = hub.thinker._workers[0].replicas.values()   # the log up to the last bot's question
    assert len(room.table.match.log) - 2 <= sent <= len(room.table.match.log)
    assert clones == []   # no bot's question copied the state in the server's process


def test_ready_set_bet_bots_bet_through_a_worker(worker_client):
    """R4, R5: the value bettors' bets reach the board from the worker, on free spaces."""
    table = make_table(worker_client, game="readysetbet", setup={"players": 2, "races": 1},
                       seats=[{"name": "V", "kind": "bot", "level": "value"},
                              {"name": "W", "kind": "bot", "level": "value"}], pace=0.3,
                       bot_free_delay_min=0, bot_free_delay_max=0.05)
    with worker_client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        state = receive(ws, predicate=lambda m: any(s["tokens"] for s in m["view"]["board"]), limit=5000)
    held = [t for s in state["view"]["board"] for t in s["tokens"]]
    assert held and all(t["seat"] in (0, 1) for t in held)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


@pytest.mark.slow
def test_serve_runs_its_bots_in_one_lasting_worker(tmp_path):
    """`hippodrome serve` (one bot worker by default): a table of bots plays a whole race, its
    bots' thoughts answered by one worker that stays (none failed and was replaced: a worker that
    cannot start, such as one that re-ran the command line, would be replaced at every thought)."""
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0",
                                "--bot-delay", "0", "--db", str(tmp_path / "served.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(0)
        body = json.dumps({"game": "turfmaster-race",
                           "setup": {"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                           "seats": [{"name": "A", "kind": "bot", "level": "tactical"},
                                     {"name": "B", "kind": "bot", "level": "tactical"}]}).encode()
        request = urllib.request.Request(url + "api/tables", data=body, headers={"Content-Type": "application/json"})
        table = json.loads(urllib.request.urlopen(request, timeout=30).read())
        deadline, workers = time.monotonic() + 120, set()
        while time.monotonic() < deadline:
            workers |= {pid for pid in _children(process.pid) if _is_worker(pid)}
            if json.loads(urllib.request.urlopen(f"{url}api/tables/{table['id']}", timeout=30).read())["over"]:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the table of bots did not finish its race")
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert len(workers) == 1, workers
    assert "worker process stopped" not in output and "cannot think in a worker" not in output, output


def _is_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read()
    except OSError:
        return False
    return b"spawn_main" in command


def test_a_long_thought_holds_up_no_other_bot_in_the_same_worker(thinker):
    """Search bots' budgets run in threads of their own in the worker: a tactical bot sent to the
    same worker meanwhile answers while they are all still thinking (three of them, more than the
    worker's quick lane holds: they must be taken as long thoughts). Their budget is far longer than
    any machine takes for the tactical bot's move (it shares the worker's interpreter with them);
    the worker is stopped once it has answered, dropping the searches."""
    from hippodrome.table.bots import make_bot
    match, pending = pending_decision()
    view = match.state.observation(pending.seat)

    async def both():
        searching = [asyncio.ensure_future(thinker.think(make_bot("turfmaster", "search", seed, 120.0), lambda: view,
                                                         pending.options)) for seed in range(QUICK_THOUGHTS_AT_ONCE + 1)]
        await asyncio.sleep(0.3)   # the searches are under way in the worker
        quick = await thinker.think(TacticalBot(), lambda: view, pending.options)
        still_thinking = not any(search.done() for search in searching)
        thinker.close()
        return quick, still_thinking, await asyncio.gather(*searching, return_exceptions=True)

    quick, still_thinking, searched = asyncio.run(both())
    assert pending.allows(quick)
    assert still_thinking
    assert searched == [None] * len(searched)   # dropped with the worker: a failed thought, no move


def test_a_worker_runs_quick_thoughts_a_few_at_a_time_beside_long_ones():
    """#15: quick thoughts take turns in a few threads (64 at once thrashed on the interpreter's
    lock: a worker at a full core, bots a second late), while a long one runs beside them."""
    lanes = _Lanes()
    running, most, lock = [0], [0], threading.Lock()
    release = threading.Event()
    long_started = threading.Event()

    def quick_thought():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(5)
        with lock:
            running[0] -= 1

    for _ in range(6):
        lanes.submit(False, quick_thought)
    lanes.submit(True, long_started.set)
    assert long_started.wait(5), "a long thought waited for the quick ones"
    time.sleep(0.2)
    assert most[0] == 2   # two at a time, the others waiting their turn
    release.set()
    lanes.quick.shutdown(wait=True)
    lanes.long.shutdown(wait=True)
    assert running[0] == 0 and most[0] == 2


def test_only_bots_that_think_long_say_so():
    from hippodrome.readysetbet.board_bot import BoardBettor
    from hippodrome.table.bots import make_bot
    assert thinks_long(make_bot("turfmaster", "search", 0, 1.0))
    assert not any(thinks_long(bot) for bot in (TacticalBot(), ValueBettor(), BoardBettor(), make_bot("turfmaster", "random", 0)))


def exit_at_once(conn, parent):
    """A worker's main function that stops as soon as it starts (a broken install, say)."""
    os._exit(3)


@pytest.mark.slow
def test_workers_that_keep_stopping_as_they_start_leave_the_bots_to_threads(monkeypatch):
    """Not a process started for every thought, forever: after three workers in a row stop as soon
    as they start, the bots think in threads (and still choose legal options). "As soon": within a
    minute here, so that a busy machine, slow to start a process, counts their stops as quick."""
    monkeypatch.setattr(thinking, "QUICK_STOP_SECONDS", 60.0)
    thinker = ProcessThinker(1, target=exit_at_once)
    try:
        match, pending = pending_decision()
        bot = TacticalBot()
        view = match.state.observation(pending.seat)
        answers, started = [], set()
        for _ in range(12):
            answers.append(asyncio.run(thinker.think(bot, lambda: view, pending.options)))
            started.update(worker_pids(thinker))
            if thinker.closed:
                break
        assert thinker.closed and len(started) <= 3
        assert pending.allows(asyncio.run(thinker.think(bot, lambda: view, pending.options)))
        assert not list(worker_pids(thinker))
    finally:
        thinker.close()


def _bot_of(game: str, level: str, seed: int):
    """A bot of ``level``; the search bot bounded by iterations, not time, so that it decides
    the same way whenever it is given the same view."""
    if level == "search":
        from hippodrome.turfmaster.search import SearchBot
        return SearchBot(seed, think=0, iterations=30)
    from hippodrome.table.bots import make_bot
    return make_bot(game, level, seed)


@pytest.mark.parametrize("game, setup", [
    ("turfmaster", {"players": 3, "horses_per_player": 2, "steeplechase": True}),
    ("readysetbet", {"players": 4}),
    ("readysetbet", {"players": 3, "variant": "rotating_house"}),
])
def test_every_bot_level_decides_the_same_on_its_view_as_it_travels_to_a_worker(game, setup):
    """(#15) A view and its options go to a bot worker as JSON (orjson writes them in a quarter of
    pickle's time, on the event loop): each level of the game, at decisions and bets across a
    random game, chooses the same on the view and options as they arrive there as on themselves."""
    import copy
    import random

    import orjson

    from hippodrome.core.game import Chance
    from hippodrome.core.registry import game_class
    from hippodrome.table.bots import free_choice
    from hippodrome.table.thought import observation_payload

    levels = [bot.name for bot in game_class(game).description.bots]
    match, rng, checked = Match(game, setup, seed=4), random.Random(4), 0
    while (pending := match.pending()) is not None and checked < 40:
        state = match.state
        bettors = [s for s in range(getattr(state, "seats", 0)) if state.free_action_types and state.free_options(s)]
        if isinstance(pending, Chance) and not bettors:
            match.tick() if pending.timed else match.resolve_chance()
            continue
        seat = rng.choice(bettors) if bettors else pending.seat
        options = state.free_options(seat) if bettors else pending.options
        view = state.observation(seat)
        payload, options_sent = observation_payload(view), observation_payload(options)
        assert isinstance(payload, bytes) and isinstance(options_sent, bytes)
        travelled, arrived = orjson.loads(payload), tuple(orjson.loads(options_sent))
        assert arrived == tuple(options)
        if rng.random() < 0.5:
            checked += 1
            for level in levels:
                bot = _bot_of(game, level, checked)
                if bettors:
                    seed = rng.getrandbits(32)
                    assert (free_choice(copy.deepcopy(bot), view, options, random.Random(seed))
                            == free_choice(copy.deepcopy(bot), travelled, arrived, random.Random(seed))), level
                else:
                    assert copy.deepcopy(bot).choose(view, options) == copy.deepcopy(bot).choose(travelled, arrived), level
        if bettors:
            match.act(seat, rng.choice(options))
        else:
            match.act(pending.seat, rng.choice(pending.options))
    assert checked >= 20


def test_a_view_json_cannot_carry_as_it_is_goes_to_the_worker_as_it_is():
    from hippodrome.table.thought import observation_payload

    view = {"seat": 0, "points": {1: 50}}
    assert observation_payload(view) is view
    assert observation_payload({"seat": 0, "hand": ("8", "9")}) == b'{"seat":0,"hand":["8","9"]}'
