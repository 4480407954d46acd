"""Benchmark of Ready Set Bet's live odds (src/hippodrome/readysetbet/odds.py).

Run: .venv/bin/python bench/bench_readysetbet_odds.py
Prints, for several simulation counts and race states, the median time of one odds
computation (all nine horses, win/place/show) over repeated runs, and the largest standard
error among the 27 probabilities.
"""

from __future__ import annotations

import statistics
import time

from hippodrome.readysetbet.board import race_spaces
from hippodrome.readysetbet.dice_race import RaceState, parse_race_state
from hippodrome.readysetbet.odds import race_odds
from hippodrome.readysetbet.settlement import player_tokens

STATES = {
    "start": RaceState.start(),
    "mid-race": parse_race_state("2/3=2,4=3,5=5,6=6,7=8,8=4,9=3,10=1,11/12=0", 7),
    "late": parse_race_state("2/3=2,4=11,5=9,6=12,7=13,8=10,9=7,10=4,11/12=3", 8),
}


def bench(state, simulations, repeats=15):
    times, odds = [], None
    race_odds(state, simulations, seed=0)  # warm-up
    for seed in range(repeats):
        start = time.perf_counter()
        odds = race_odds(state, simulations, seed=seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times), odds.max_standard_error()


def main():
    print(f"{'state':>9} {'simulations':>11} {'median ms':>9} {'max SE (points)':>15}")
    for name, state in STATES.items():
        for simulations in (10_000, 20_000, 50_000):
            seconds, se = bench(state, simulations)
            print(f"{name:>9} {simulations:>11} {1000 * seconds:9.1f} {100 * se:15.3f}")
    odds = race_odds(STATES["start"], 20_000, seed=0)
    spaces = race_spaces(["8>5,9", "4>9", "9>8", "5>8", "4>5"], ["by-a-nose", "blow-out", "tight-race", "late-start"])
    start = time.perf_counter()
    odds.space_values(spaces, player_tokens(4))
    print(f"expected values of all {len(spaces)} spaces x 5 tokens (on 20000 finishes): "
          f"{1000 * (time.perf_counter() - start):.1f} ms")


if __name__ == "__main__":
    main()
