"""Benchmark of the game reviews (issue 36, docs/review.md): CPU seconds of one core to review a
whole TurfMaster meeting at the default budget, and a whole Ready Set Bet game.

Run: .venv/bin/python bench/review.py [--meetings N] [--games N] [--budget SECONDS]
     .venv/bin/python bench/review.py --versus search,random --meetings 4 [--iterations N]

Each meeting is played first by bots (tactical against random, seeded), then reviewed in this
process, one thread: the figure is ``time.process_time()`` around the review, with the decisions
reviewed and the playouts they took (a decision's budget is the reviewing thread's CPU time, so a
loaded machine gives fewer playouts, not more seconds). Prints one JSON line per review and a
summary. The promises: a meeting within 60 s of one core, a Ready Set Bet game within 20 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from hippodrome.arena.readysetbet import play_bot_game
from hippodrome.arena.turfmaster import play_meeting
from hippodrome.readysetbet.review import review as review_game
from hippodrome.table.table import Player, Table
from hippodrome.table.bots import make_bot
from hippodrome.turfmaster.review import review as review_meeting
from hippodrome.turfmaster.search import SearchBot

MEETINGS = {
    "2 players, 2 horses each": ({"players": 2, "horses_per_player": 2, "course": "oval", "steeplechase": False},
                                 ["tactical", "random"]),
    "4 players, 1 horse each": ({"players": 4, "horses_per_player": 1, "course": "oval", "steeplechase": False},
                                ["tactical", "random", "tactical", "random"]),
    "2 players, 4 horses each": ({"players": 2, "horses_per_player": 4, "course": "oval", "steeplechase": False},
                                 ["tactical", "random"]),
}


def cpu(function, *args, **kwargs):
    start = time.process_time()
    result = function(*args, **kwargs)
    return time.process_time() - start, result


def versus_meeting(setup: dict, levels: list[str], seed: str, iterations: int) -> dict:
    """A meeting of bots whose search bots think ``iterations`` iterations a decision (not seconds:
    the same play on a loaded machine as on an idle one); its record."""
    seats = [Player(f"{level} {n}", SearchBot(f"{seed}:{n}", think=600, iterations=iterations) if level == "search"
                  else make_bot("turfmaster", level, f"{seed}:{n}")) for n, level in enumerate(levels)]
    table = Table("turfmaster", setup, seats, seed=seed)
    table.run_bots()
    return table.record()


def versus(levels: list[str], meetings: int, iterations: int, budget: float | None) -> None:
    """``--versus A,B``: meetings of two players (two horses each) between two bot levels, seats
    swapped every meeting, each reviewed; the mean points lost per race and accuracy of each level."""
    setup, _ = MEETINGS["2 players, 2 horses each"]
    lost: dict[str, list[float]] = {level: [] for level in levels}
    accuracy: dict[str, list[float]] = {level: [] for level in levels}
    for n in range(meetings):
        seated = levels if n % 2 == 0 else levels[::-1]
        record = versus_meeting(setup, seated, f"bench-versus:{n}", iterations)
        seconds, data = cpu(review_meeting, record, budget=budget)
        for player in data["players"]:
            lost[seated[player["seat"]]].append(player["points_lost"])
            accuracy[seated[player["seat"]]].append(player["accuracy"])
        print(json.dumps({"meeting": n, "seats": seated, "cpu_seconds": round(seconds, 1),
                          "points_lost": [p["points_lost"] for p in data["players"]],
                          "accuracy": [p["accuracy"] for p in data["players"]]}), flush=True)
    for level in levels:
        print(f"{level}: {statistics.mean(lost[level]):.1f} points lost per race "
              f"(sd {statistics.stdev(lost[level]) if len(lost[level]) > 1 else 0:.1f}), "
              f"accuracy {statistics.mean(accuracy[level]):.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meetings", type=int, default=2, help="meetings of each table reviewed")
    parser.add_argument("--games", type=int, default=3, help="Ready Set Bet games reviewed")
    parser.add_argument("--budget", type=float, default=None,
                        help="TurfMaster seconds per decision (default: the review's own, review.default_budget)")
    parser.add_argument("--versus", help="two bot levels (search,random): their losses over --meetings meetings")
    parser.add_argument("--iterations", type=int, default=200, help="the search bot's iterations per decision (--versus)")
    args = parser.parse_args()
    if args.versus:
        versus(args.versus.split(","), args.meetings, args.iterations, args.budget)
        return
    summary = {}
    for label, (setup, bots) in MEETINGS.items():
        times = []
        for n in range(args.meetings):
            record = play_meeting(setup, bots, f"bench-review:{n}")["record"]
            seconds, data = cpu(review_meeting, record, budget=args.budget)
            times.append(seconds)
            print(json.dumps({"game": "turfmaster", "table": label, "budget": round(data["budget"], 4),
                              "cpu_seconds": round(seconds, 2), "decisions": len(data["decisions"])}), flush=True)
        summary[f"turfmaster, {label}"] = (statistics.mean(times), max(times))
    times = []
    for n in range(args.games):
        record = play_bot_game({"players": 4}, ["value", "random", "board", "random"], f"bench-review:{n}").record()
        seconds, data = cpu(review_game, record)
        times.append(seconds)
        print(json.dumps({"game": "readysetbet", "table": "4 players, 4 races", "cpu_seconds": round(seconds, 2),
                          "decisions": len(data["decisions"])}), flush=True)
    summary["readysetbet, 4 players, 4 races"] = (statistics.mean(times), max(times))
    for label, (mean, most) in summary.items():
        print(f"{label}: mean {mean:.1f} s, most {most:.1f} s of CPU")


if __name__ == "__main__":
    main()
