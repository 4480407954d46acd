"""TurfMaster engine benchmarks (not tests): python bench/bench_turfmaster.py [--against COMMIT]

Prints, for one core:
- legal-move generation per second (destinations() over the perft positions), and the
  ratio against the naive reference implementation of the tests, run in the same process;
- random full races per second (8 horses, oval, random legal choices, through Match);
- clone() per second of a mid-race state, and the ratio against copy.deepcopy of the same state;
- search steps per second: from a dealt 8-horse race, ``clone()``, the pending step's legal options
  and ``apply`` of a random one (chance drawn too), step after step to the end of the race, as a
  search does at each node: through the race itself, and through the lean search state
  (hippodrome.turfmaster.search_state) when the code has one.
Each figure is the best of several repeats in CPU time (time.process_time), since these machines are
noisy.

``--against COMMIT`` also measures the code of COMMIT (its ``src`` taken with ``git archive`` into
a temporary directory): the two run in separate processes, alternating, ``--rounds`` times each,
and the table gives the best of each and the ratio. Run it pinned to one core on a quiet
machine: ``taskset -c 0 python bench/bench_turfmaster.py --against a94e544``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 5
HORSES = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]
#: (key, what, unit) of each figure, in the order printed
FIGURES = [
    ("moves", "legal-move generation (destinations(), perft positions)", "moves/s"),
    ("races", "random 8-horse oval races through Match", "races/s"),
    ("clones", "clone() of a mid-race state", "clones/s"),
    ("race_steps", "search steps through the race (clone + options + apply)", "steps/s"),
    ("lean_steps", "search steps through the lean search state", "steps/s"),
]


def best_rate(work, count) -> float:
    """``count`` over the least CPU time ``work(repeat)`` took over the repeats (the process's own
    time: a busy machine slows the clock on the wall more than this)."""
    best = float("inf")
    for repeat in range(REPEATS):
        started = time.process_time()
        work(repeat)
        best = min(best, time.process_time() - started)
    return count / best


def race_setup() -> dict:
    return {"course": "oval", "horses": [{"id": h, "owner": i} for i, h in enumerate(HORSES)]}


def random_race(seed: int):
    from hippodrome.core import Match

    match = Match("turfmaster-race", race_setup(), seed)
    rng = random.Random(seed)
    pending = match.pending()
    while pending is not None:
        match.act(pending.seat, rng.choice(pending.options))
        pending = match.pending()
    return match


def dealt_race(seed: int):
    from hippodrome.core import Match

    match = Match("turfmaster-race", race_setup(), seed)
    match.pending()  # the deal is drawn
    return match.state


def race_playout(state, rng: random.Random) -> int:
    """Steps of a search's random playout through the race: clone, options, apply."""
    from hippodrome.core.game import Chance

    steps = 0
    while True:
        state = state.clone()
        pending = state.pending()
        if pending is None:
            return steps
        state.apply(pending.sample(rng) if isinstance(pending, Chance) else rng.choice(pending.options))
        steps += 1


def lean_playout(state, rng: random.Random) -> int:
    """The same through the lean search state (its roll is one of 36 equally likely actions)."""
    steps = 0
    while True:
        state = state.clone()
        legal = state.legal()
        if not legal:
            return steps
        state.apply(rng.choice(legal))
        steps += 1


def playout_rate(starts, playout) -> float:
    """Steps per second of playouts from each of ``starts`` (new random choices at each repeat)."""
    best = float("inf")
    for repeat in range(REPEATS):
        rngs = [random.Random(f"{repeat}:{n}") for n in range(len(starts))]
        started = time.process_time()
        steps = sum(playout(state, rng) for state, rng in zip(starts, rngs))
        best = min(best, (time.process_time() - started) / steps)
    return 1 / best


def measure() -> dict[str, float]:
    """Every figure of the code on sys.path, in this process."""
    import hippodrome.turfmaster.race  # noqa: F401
    from hippodrome.core import Match
    from hippodrome.turfmaster.movement import blocked_squares, destinations
    from hippodrome.turfmaster.perft import perft_positions

    queries = []
    for position in perft_positions().values():
        course = position.course
        for horse, square in position.squares.items():
            blocked = blocked_squares(course, [s for h, s in position.squares.items() if h != horse])
            for points in range(1, 13):
                queries.append((course, square, points, blocked, position.fences))
    figures = {"moves": best_rate(lambda _: [destinations(*q) for q in queries], len(queries))}
    sys.path.insert(0, str(ROOT / "tests"))
    from turfmaster.reference_movement import reference_destinations

    sample = queries[::7]
    figures["naive_moves"] = best_rate(lambda _: [reference_destinations(*q) for q in sample], len(sample))

    # other races at each repeat: a cache of moves (since the search state's work) must not get the
    # same races again
    races = 40
    figures["races"] = best_rate(lambda repeat: [random_race(repeat * races + n) for n in range(races)], races)

    match = Match("turfmaster-race", race_setup(), 3)
    rng = random.Random(3)
    for _ in range(120):  # a mid-race state
        pending = match.pending()
        match.act(pending.seat, rng.choice(pending.options))
    state = match.state
    figures["clones"] = best_rate(lambda _: [state.clone() for _ in range(20_000)], 20_000)
    # deepcopy sharing the (immutable) course, as clone() does: the fair baseline
    figures["deepcopy"] = best_rate(lambda _: [copy.deepcopy(state, {id(state.course): state.course})
                                             for _ in range(2000)], 2000)

    starts = [dealt_race(1000 + seed) for seed in range(10)]
    figures["race_steps"] = playout_rate(starts, race_playout)
    try:
        from hippodrome.turfmaster.search_state import SearchRace
    except ImportError:
        return figures
    figures["lean_steps"] = playout_rate([SearchRace.from_race(state) for state in starts], lean_playout)
    return figures


def print_figures(figures: dict[str, float]) -> None:
    for key, what, unit in FIGURES:
        if key in figures:
            print(f"{what:60} {figures[key]:12,.0f} {unit}")
    print(f"(moves: {figures['moves'] / figures['naive_moves']:.0f}x the naive reference; "
          f"clones: {figures['clones'] / figures['deepcopy']:.0f}x copy.deepcopy)")


def source_of(commit: str, into: Path) -> Path:
    """The ``src`` directory of ``commit``, unpacked under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def measured_in(src: Path) -> dict[str, float]:
    """The figures of the code in ``src``, measured in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--json"], check=True, capture_output=True, text=True,
                         env=env).stdout
    return json.loads(out)


def compare(commit: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base_src = source_of(commit, Path(tmp))
        runs: dict[str, list[dict[str, float]]] = {"this": [], commit: []}
        for number in range(rounds):
            for name, src in (("this", ROOT / "src"), (commit, base_src)):
                runs[name].append(measured_in(src))
                print(f"round {number + 1}/{rounds}, {name}: done", file=sys.stderr)
    print(f"| what | this tree | {commit} | ratio |")
    print("|---|---|---|---|")
    for key, what, unit in FIGURES:
        ours = [run[key] for run in runs["this"] if key in run]
        theirs = [run[key] for run in runs[commit] if key in run]
        if not ours:
            continue
        ours_text = f"{min(ours):,.0f} - {max(ours):,.0f} {unit}"
        if key == "lean_steps":  # the base has none: against its search steps through the race
            theirs = [run["race_steps"] for run in runs[commit]]
            what += f" (against {commit}'s steps through the race)"
        theirs_text = f"{min(theirs):,.0f} - {max(theirs):,.0f} {unit}"
        ratios = [o / t for o, t in zip(ours, theirs)]
        print(f"| {what} | {ours_text} | {theirs_text} | {max(ours) / max(theirs):.2f}x "
              f"(best of each; round by round {min(ratios):.2f}x - {max(ratios):.2f}x, "
              f"median {statistics.median(ratios):.2f}x) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON (used by --against)")
    parser.add_argument("--against", metavar="COMMIT", help="also measure COMMIT, alternating, and give ratios")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each side with --against")
    args = parser.parse_args()
    if args.against:
        compare(args.against, args.rounds)
    elif args.json:
        print(json.dumps(measure()))
    else:
        print_figures(measure())


if __name__ == "__main__":
    main()
