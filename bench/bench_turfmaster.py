"""TurfMaster engine benchmarks (not tests): python bench/bench_turfmaster.py

Prints, for one core:
- legal-move generation per second (destinations() over the perft positions), and the
  ratio against the naive reference implementation of the tests, run in the same process;
- random full races per second (8 horses, oval, random legal choices, through Match);
- clone() per second, and the ratio against copy.deepcopy of the same state.
Each figure is the best of several repeats, since these machines are noisy.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path

from hippodrome.core import Match
from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.perft import perft_positions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from turfmaster.reference_movement import reference_destinations  # noqa: E402

REPEATS = 5
HORSES = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]


def best_rate(work, count) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return count / best


def move_queries():
    queries = []
    for position in perft_positions().values():
        course = position.course
        for horse, square in position.squares.items():
            blocked = blocked_squares(course, [s for h, s in position.squares.items() if h != horse])
            for points in range(1, 13):
                queries.append((course, square, points, blocked, position.fences))
    return queries


def random_race(seed: int) -> Match:
    match = Match("turfmaster-race", {"course": "oval", "horses": [{"id": h, "owner": i} for i, h in enumerate(HORSES)]},
                  seed)
    rng = random.Random(seed)
    pending = match.pending()
    while pending is not None:
        match.act(pending.seat, rng.choice(pending.options))
        pending = match.pending()
    return match


def main() -> None:
    import hippodrome.turfmaster.race  # noqa: F401

    queries = move_queries()
    fast = best_rate(lambda: [destinations(*q) for q in queries], len(queries))
    sample = queries[::7]
    naive = best_rate(lambda: [reference_destinations(*q) for q in sample], len(sample))
    print(f"legal-move generation: {fast:12,.0f} moves/s   ({fast / naive:.0f}x the naive reference: {naive:,.0f}/s)")

    races = 40
    rate = best_rate(lambda: [random_race(seed) for seed in range(races)], races)
    print(f"random 8-horse oval races: {rate:8,.0f} races/s  ({1e3 / rate:.2f} ms per race)")

    state = random_race(1).state
    # a mid-race state: replay half of a race's log
    match = Match("turfmaster-race", state.setup, 3)
    rng = random.Random(3)
    for _ in range(120):
        pending = match.pending()
        match.act(pending.seat, rng.choice(pending.options))
    state = match.state
    clones = best_rate(lambda: [state.clone() for _ in range(20_000)], 20_000)
    # deepcopy sharing the (immutable) course, as clone() does: the fair baseline
    deep = best_rate(lambda: [copy.deepcopy(state, {id(state.course): state.course}) for _ in range(2000)], 2000)
    print(f"clone(): {clones:20,.0f} clones/s  ({clones / deep:.0f}x copy.deepcopy: {deep:,.0f}/s)")


if __name__ == "__main__":
    main()
