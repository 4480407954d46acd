"""An Elo ladder of every bot level of both games, from simulated head-to-head games.

    python bench/elo.py [--games 40] [--turfmaster-games N] [--think 0.05] [--workers 2]
                        [--minutes 30] [--json]

Each pair of levels of a game plays two-player games (TurfMaster: 2 horses each on the flat oval;
Ready Set Bet: the full game, 2 players), seats alternating, every game seeded by its pair and
number (``elo:<game>:<a>-<b>:<k>``), on ``--workers`` processes. ``--minutes`` bounds the run:
games still running then are dropped and the table counts only the games played. The ratings are
maximum-likelihood Bradley-Terry strengths on the Elo scale, ``random`` = 1000 in each game
(:mod:`hippodrome.arena.elo`); the two games' ladders are separate scales. The search bot thinks
``--think`` seconds a decision (wall-clock time, so its strength depends on the machine's load;
every other bot's games are the same on every run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hippodrome.arena.elo import ladder  # noqa: E402
from machine_info import describe  # noqa: E402

LEVELS = {
    "turfmaster": ["random", "tactical", "search"],
    "readysetbet": ["random", "value", "board"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair of levels (Ready Set Bet)")
    parser.add_argument("--turfmaster-games", type=int, default=None,
                        help="games per pair of TurfMaster levels (default: --games)")
    parser.add_argument("--think", type=float, default=0.05, help="the search bot's seconds per decision")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this many minutes")
    parser.add_argument("--game", choices=sorted(LEVELS), action="append", help="only this game (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or (args.turfmaster_games is not None and args.turfmaster_games < 1):
        parser.error("--games and --turfmaster-games must be at least 1")
    if args.think <= 0 or args.workers < 1 or args.minutes <= 0:
        parser.error("--think and --minutes must be above 0 and --workers at least 1")
    chosen = {game: levels for game, levels in LEVELS.items() if not args.game or game in args.game}
    games = {"readysetbet": args.games, "turfmaster": args.turfmaster_games or args.games}
    started = time.monotonic()
    result = ladder(chosen, games, args.think, args.workers, args.minutes * 60)
    elapsed = time.monotonic() - started
    report = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), "machine": describe(),
        "workers": args.workers, "think": args.think, "seconds": round(elapsed, 1),
        "games": {game: {"played": entry["results"].total_games(),
                         "pairs": {f"{a} v {b}": {"games": n, "score": round(entry["results"].score[(a, b)], 1)}
                                   for (a, b), n in entry["results"].games.items() if a < b}}
                  for game, entry in result.items()},
        "ladder": {game: [{"level": r.level, "elo": round(r.elo), "ci95": [round(x) for x in r.ci95],
                           "games": r.games} for r in entry["ratings"]] for game, entry in result.items()},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['date']}, {report['machine']}, {args.workers} workers, {elapsed:.0f} s; "
          f"search thinks {args.think} s a decision; random = 1000 in each game")
    print(f"{'game':<12} {'level':<9} {'Elo':>6} {'95% interval':>14} {'games':>6}")
    for game, rows in report["ladder"].items():
        for row in rows:
            low, high = row["ci95"]
            print(f"{game:<12} {row['level']:<9} {row['elo']:>6} {f'{low} - {high}':>14} {row['games']:>6}")
    for game, entry in report["games"].items():
        pairs = ", ".join(f"{pair}: {p['score']}/{p['games']}" for pair, p in entry["pairs"].items())
        print(f"{game}: {entry['played']} games ({pairs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
