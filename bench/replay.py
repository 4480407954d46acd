"""What a replay costs (issue 35.3): building one from a finished game's record (every entry
applied once, a copy of the state every 64 steps) and answering one step (the nearest copy cloned,
at most 63 entries applied, the view made), for a TurfMaster meeting and a Ready Set Bet game
played by random choices.

    .venv/bin/python bench/replay.py [--games 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine_info import describe  # noqa: E402
from hippodrome.core.game import Decision  # noqa: E402
from hippodrome.core.match import Match  # noqa: E402
from hippodrome.server.replays import build  # noqa: E402

GAMES = {"turfmaster": {"players": 4, "horses_per_player": 2}, "readysetbet": {"players": 4}}


def played(game: str, setup: dict, seed: int) -> dict:
    rng = random.Random(seed)
    match = Match(game, setup, seed=f"bench:{seed}")
    while (pending := match.pending()) is not None:
        if isinstance(pending, Decision):
            match.act(pending.seat, rng.choice(pending.options))
        else:
            match.tick()
    return match.record()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    games = parser.parse_args().games
    print(f"{games} games each, {describe()}")
    for game, setup in GAMES.items():
        builds, steps, step_ms = [], [], []
        for seed in range(games):
            record = played(game, setup, seed)
            started = time.perf_counter()
            replay = build(record)
            builds.append((time.perf_counter() - started) * 1000)
            steps.append(replay.steps)
            for step in random.Random(seed).sample(range(replay.steps + 1), 20):
                started = time.perf_counter()
                replay.shown(step, None)
                step_ms.append((time.perf_counter() - started) * 1000)
        print(f"  {game:12} {statistics.mean(steps):6.0f} steps: build {statistics.mean(builds):6.1f} ms, "
              f"a step {statistics.median(step_ms):5.1f} ms median, {max(step_ms):5.1f} ms at most")


if __name__ == "__main__":
    main()
