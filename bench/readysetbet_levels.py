"""Ready Set Bet bot levels against each other: win shares per seat with 95% Wilson intervals.

    python bench/readysetbet_levels.py --bots board,value --games 200 [--workers 2] [--seed 1]
                                       [--variant standard] [--minutes 30] [--json]

Plays whole games (four races, props, exotic finishes, VIP cards) through the arena's roll
clock (:func:`hippodrome.arena.readysetbet.play_bot_game`: each roll every bot may bet once, in
a random order of arrival), game ``k`` seeded ``<seed>:<k>`` with the levels rotated by ``k``
seats, on ``--workers`` processes. A shared win counts as a fraction for each seat sharing it.
``--minutes`` bounds the run: games still running then are dropped and the games played are counted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hippodrome.arena.elo import run_games  # noqa: E402
from hippodrome.arena.readysetbet import play_bot_game  # noqa: E402
from hippodrome.arena.turfmaster import seat_bots, wilson  # noqa: E402


def one_game(args: tuple[dict, list[str], str, int], think: float = 0.0) -> dict:
    setup, levels, seed, k = args
    seated = seat_bots(levels, k)
    state = play_bot_game(setup, seated, f"{seed}:{k}").state
    winners = state.winners()
    return {"levels": seated, "money": list(state.money), "share": [1 / len(winners) if s in winners else 0.0
                                                                   for s in range(len(seated))]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="board,value", help="level per seat, comma-separated")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this many minutes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.games < 1 or args.workers < 1 or len(levels) < 1:
        parser.error("--games and --workers must be at least 1, --bots must name a level")
    players = len(levels) - 1 if args.variant == "house_bets" else len(levels)
    setup = {"players": players, "variant": args.variant}
    jobs = [(setup, levels, args.seed, k) for k in range(args.games)]
    outcomes: list[dict] = []
    played = run_games(jobs, 0.0, args.workers, args.minutes * 60, outcomes.append, play=one_game)
    rows = {}
    for level in dict.fromkeys(levels):
        seats = [(o["share"][s], o["money"][s]) for o in outcomes for s, name in enumerate(o["levels"]) if name == level]
        wins = sum(share for share, _ in seats)
        low, high = wilson(wins, len(seats))
        rows[level] = {"seat_games": len(seats), "win_rate": round(wins / len(seats), 4),
                       "ci95": [round(low, 4), round(high, 4)],
                       "mean_money": round(sum(m for _, m in seats) / len(seats), 2)}
    report = {"games": played, "bots": levels, "variant": args.variant, "fair_share": round(1 / len(levels), 4),
              "levels": rows}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{played} games, seats {','.join(levels)} ({args.variant}); fair share {1 / len(levels):.1%} per seat")
    for level, row in rows.items():
        low, high = row["ci95"]
        print(f"{level:>8}: wins {row['win_rate']:.1%} per seat (95% {low:.1%} - {high:.1%}), "
              f"mean money ${row['mean_money']:.1f} over {row['seat_games']} seat-games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
