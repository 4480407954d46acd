"""Bots in a worker process read their view from the worker's replica of their table's match
(hippodrome.table.capture): the event loop sends only the log's new entries, never a copy
of the state or the view; the replica holds no seed; a bot decides on it as on the view the loop
built; a question the table has moved past is not asked; a lost replica is sent whole again; a
table the server drops is forgotten by the worker."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import signal
import time

import pytest

from hippodrome.core.game import Decision
from hippodrome.core.match import Match, replay
from hippodrome.readysetbet.bots import ValueBettor
from hippodrome.table import thinking
from hippodrome.table.capture import Capture, Replicas, copied, logged
from hippodrome.table.thinking import THREADS, ProcessThinker, worker_pids
from hippodrome.turfmaster.bots import TacticalBot

TWO_HORSES = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}


@pytest.fixture
def thinker():
    made = ProcessThinker(1)
    yield made
    made.close()


@pytest.fixture
def questions(monkeypatch):
    """Every question the server sends its workers: (name, args)."""
    asked: list[tuple[str, tuple]] = []
    real = thinking._Worker.ask

    def ask(self, name, *args, long=False):
        asked.append((name, args))
        return real(self, name, *args, long=long)
    monkeypatch.setattr(thinking._Worker, "ask", ask)
    return asked


def random_moves(match: Match, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        pending = match.pending()
        if not isinstance(pending, Decision):
            return
        match.act(pending.seat, rng.choice(pending.options))


def worker_tables(thinker: ProcessThinker) -> list[str]:
    async def ask():
        return await thinker._workers[0].ask("tables")
    return asyncio.run(ask())


def test_a_bot_in_a_worker_reads_the_workers_replica_sent_once_then_by_new_entries(thinker, questions):
    match = Match("turfmaster-race", TWO_HORSES, seed=5)
    match.resolve_chance()
    bot, rng, sent_before = TacticalBot(), random.Random(1), 0
    for round_ in range(4):
        pending = match.pending()
        position = thinker.capture(bot, match, pending.seat)
        assert position.copy is None and position.entries == len(match.log)   # no copy of the state on the loop
        before = len(questions)
        assert pending.allows(asyncio.run(thinker.think_at(bot, position)))
        (name, args), = questions[before:]
        assert name == "think_at"
        table, record, start, entries, seat = args[3:8]
        if round_ == 0:   # the first question sends the record (without its seed), no entries
            assert record == {"game": "turfmaster-race", "setup": TWO_HORSES, "rulings": 1, "log": match.log} and "seed" not in record   # and its rulings
            assert (start, entries) == (0, [])
        else:             # later ones only the entries the worker has not seen
            assert record is None and entries == match.log[start:] and start == sent_before
        assert seat == pending.seat
        sent_before = len(match.log)
        assert thinker._workers[0].replicas == {table: len(match.log)}
        random_moves(match, 3, rng)
    assert worker_tables(thinker) == [table]


@pytest.mark.parametrize("game, setup, make_bot", [
    ("turfmaster-race", TWO_HORSES, lambda: TacticalBot(seed=7)),
    ("readysetbet", {"players": 3, "races": 1}, lambda: ValueBettor()),
])
def test_a_bot_decides_on_the_replica_as_on_the_view_the_loop_built(thinker, game, setup, make_bot):
    """The same bot, asked at the same positions of a game, chooses the same on the worker's replica
    (think_at) as on the view built here and sent (think), its decisions and its free actions."""
    match, rng = Match(game, setup, seed=11), random.Random(2)
    match.resolve_chance()
    on_replica, on_view = make_bot(), make_bot()
    compared = 0
    for _ in range(60):
        pending = match.pending()
        if pending is None:
            break
        seat = pending.seat if isinstance(pending, Decision) else rng.randrange(setup.get("players", 2))
        free = not isinstance(pending, Decision)
        seed = rng.getrandbits(32) if free else None
        options = match.state.free_options(seat) if free else pending.options
        if options:
            state = match.state.clone()
            expected = asyncio.run(thinker.think(on_view, lambda: state.observation(seat), options, seed))
            assert asyncio.run(thinker.think_at(on_replica, thinker.capture(on_replica, match, seat), seed)) == expected
            compared += 1
        if isinstance(pending, Decision):
            match.act(pending.seat, rng.choice(pending.options))
        else:
            match.tick()
    assert compared >= 20


def test_a_question_the_table_has_moved_past_is_not_asked(thinker, questions):
    match = Match("turfmaster-race", TWO_HORSES, seed=5)
    match.resolve_chance()
    first, second = TacticalBot(), TacticalBot(seed=1)
    late = thinker.capture(first, match, match.pending().seat)     # taken, then held up (its bot busy)
    random_moves(match, 2, random.Random(3))
    pending = match.pending()
    assert pending.allows(asyncio.run(thinker.think_at(second, thinker.capture(second, match, pending.seat))))
    asked = len(questions)
    assert asyncio.run(thinker.think_at(first, late)) is None      # the worker's replica is past it
    assert len(questions) == asked


def test_a_replica_the_worker_lost_is_sent_whole_again(thinker, questions):
    match = Match("turfmaster-race", TWO_HORSES, seed=5)
    match.resolve_chance()
    bot = TacticalBot()
    pending = match.pending()
    assert pending.allows(asyncio.run(thinker.think_at(bot, thinker.capture(bot, match, pending.seat))))
    (pid,) = worker_pids(thinker)
    os.kill(pid, signal.SIGKILL)
    random_moves(match, 2, random.Random(3))
    pending = match.pending()
    deadline, answer = time.monotonic() + 30, None
    while answer is None and time.monotonic() < deadline:   # the death is seen at the next thought
        answer = asyncio.run(thinker.think_at(bot, thinker.capture(bot, match, pending.seat)))
    assert pending.allows(answer)
    name, args = questions[-1]
    assert args[4] == {"game": "turfmaster-race", "setup": TWO_HORSES, "rulings": 1, "log": match.log}   # the whole record


def test_a_replica_at_another_length_is_refused_and_the_record_sent(thinker, questions, monkeypatch):
    match = Match("turfmaster-race", TWO_HORSES, seed=5)
    match.resolve_chance()
    bot = TacticalBot()
    pending = match.pending()
    assert pending.allows(asyncio.run(thinker.think_at(bot, thinker.capture(bot, match, pending.seat))))
    table = thinker._keys[id(match)]
    thinker._workers[0].replicas[table] -= 1   # the server's count goes wrong: the worker must notice
    random_moves(match, 2, random.Random(3))
    pending = match.pending()
    asked = len(questions)
    assert pending.allows(asyncio.run(thinker.think_at(bot, thinker.capture(bot, match, pending.seat))))
    first, again = questions[asked:]
    assert first[1][4] is None and again[1][4] == {"game": "turfmaster-race", "setup": TWO_HORSES, "rulings": 1, "log": match.log}
    assert thinker._workers[0].replicas[table] == len(match.log)


def test_a_table_the_server_drops_is_forgotten_by_the_worker(thinker):
    bot = TacticalBot()
    kept, dropped = (Match("turfmaster-race", TWO_HORSES, seed=n) for n in (1, 2))
    for match in (kept, dropped):
        match.resolve_chance()
        position = thinker.capture(bot, match, match.pending().seat)
        assert match.pending().allows(asyncio.run(thinker.think_at(bot, position)))
    kept_key, dropped_key = thinker._keys[id(kept)], thinker._keys[id(dropped)]
    assert sorted(worker_tables(thinker)) == sorted([kept_key, dropped_key])
    del match, dropped, position
    gc.collect()
    asyncio.run(thinker.think_at(bot, thinker.capture(bot, kept, kept.pending().seat)))   # tells the worker
    assert worker_tables(thinker) == [kept_key]


def test_a_bot_with_no_free_action_open_is_not_asked_to_choose():
    """R4: a bettor whose tokens are all placed has no bet to make: None, from the thread as from
    the worker (nothing to choose is answered without the bot)."""
    match = Match("readysetbet", {"players": 2, "races": 1}, seed=4)
    match.resolve_chance()
    state = match.state
    seat = 0
    while state.free_options(seat):
        match.act(seat, state.free_options(seat)[0])
    position = copied(match, seat)
    assert asyncio.run(THREADS.think_at(ValueBettor(), position, free_seed=1)) is None
    made = ProcessThinker(1)
    try:
        assert asyncio.run(made.think_at(ValueBettor(), made.capture(ValueBettor(), match, seat), free_seed=1)) is None
    finally:
        made.close()


def test_replicas_follow_a_match_entry_by_entry_and_refuse_any_other_length():
    match = Match("readysetbet", {"players": 3, "races": 1}, seed=9)
    match.resolve_chance()
    replicas = Replicas(limit=2)
    start = logged(match, 0)
    assert replicas.advance("t", start.record(), 0, []) is not None
    rng = random.Random(4)
    for _ in range(40):
        before = len(match.log)
        if not match.tick():
            break
        seat = rng.randrange(3)
        if match.state.free_options(seat):
            match.act(seat, rng.choice(match.state.free_options(seat)))
        state = replicas.advance("t", None, before, match.log[before:])
        assert state.observation(seat) == match.state.observation(seat)
    assert replicas.advance("t", None, len(match.log) - 1, []) is None   # another length: refused ...
    assert replicas.keys() == []                                           # ... and dropped
    for key in "abc":                                                      # the oldest go past the limit
        replicas.advance(key, start.record(), 0, [])
    assert replicas.keys() == ["b", "c"]
    replicas.forget(["b"])
    assert replicas.keys() == ["c"]


def test_a_position_rebuilds_its_state_from_the_log_when_a_thread_must_think():
    match = Match("turfmaster-race", TWO_HORSES, seed=5)
    match.resolve_chance()
    position = logged(match, 0)
    view = match.state.observation(0)
    random_moves(match, 4, random.Random(1))
    assert isinstance(position, Capture) and position.state().observation(0) == view
    assert replay(position.record()).observation(0) == view
