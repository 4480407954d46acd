"""The server's benchmark scripts still run (bench/broadcast.py once broke unnoticed when Room
grew an argument): tiny runs, their figures' lines checked, not their values."""

from __future__ import annotations

import pytest

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(*args: str, timeout: float = 240) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_broadcast_measures_the_three_ways_for_both_games():
    for game in ("readysetbet", "turfmaster"):
        out = run(str(BENCH / "broadcast.py"), "--game", game, "--changes", "5")
        for way in ("before: a state per connection", "shared whole states", "shared patches"):
            assert re.search(re.escape(way) + r"\s+\d+ µs CPU a change", out), out


@pytest.mark.slow
def test_load_plays_two_tables_on_its_own_server_and_prints_latencies():
    out = run(str(BENCH / "load.py"), "--tables", "2", "--seconds", "3", "--warmup", "0")
    assert re.search(r"act -> spectator latency: p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert re.search(r"server: CPU \d+% of one core, memory \d+ MiB", out), out


@pytest.mark.slow
def test_load_ab_runs_both_trees_in_turn_and_prints_their_ratio():
    out = run(str(BENCH / "load_ab.py"), "--against", "HEAD", "--rounds", "1", "--tables", "2", "--seconds", "2",
              "--warmup", "0")
    assert re.search(r"round 1, this: \d+ µs a change, p99 [\d.]+ ms", out), out
    assert re.search(r"round 1, other: \d+ µs a change, p99 [\d.]+ ms", out), out
    assert re.search(r"this/other, CPU a change: [\d.]+ \(95%: nan-nan\) over 1 rounds", out), out


def test_load_ab_refuses_what_is_neither_a_folder_nor_a_commit():
    done = subprocess.run([sys.executable, str(BENCH / "load_ab.py"), "--against", "no-such-commit"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "neither a folder nor a commit" in done.stderr, done.stderr
