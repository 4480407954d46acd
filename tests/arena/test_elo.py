"""The Elo ladder (bench/elo.py, hippodrome.arena.elo): Bradley-Terry fitted on synthetic results
recovers the gaps it was made from, and a tiny real run of the script works."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from hippodrome.arena.elo import PairResults, expected_gap, fit_bradley_terry, schedule

ROOT = Path(__file__).resolve().parents[2]


def synthetic(true_elo: dict[str, float], games: int) -> PairResults:
    """Results as the model expects them: each pair scores its expected share of ``games``."""
    results = PairResults(list(true_elo))
    levels = list(true_elo)
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            share = 1 / (1 + 10 ** ((true_elo[b] - true_elo[a]) / 400))
            for k in range(games):
                results.add(a, b, 1.0 if k < round(share * games) else 0.0)
    return results


def by_level(ratings):
    return {r.level: r for r in ratings}


def test_known_win_rates_map_to_the_expected_elo_gap():
    assert expected_gap(0.75) == pytest.approx(400 * math.log10(3))  # 190.8
    assert expected_gap(0.5) == 0
    results = PairResults(["random", "strong"])
    for k in range(1000):
        results.add("strong", "random", 1.0 if k % 4 else 0.0)  # 75% wins
    ratings = by_level(fit_bradley_terry(results, "random"))
    assert ratings["random"].elo == 1000 and ratings["random"].se == 0
    assert ratings["strong"].elo - 1000 == pytest.approx(expected_gap(0.75), abs=1.0)
    low, high = ratings["strong"].ci95
    assert low < ratings["strong"].elo < high and high - low < 100


def test_a_stronger_player_gets_a_higher_rating_and_three_levels_are_recovered():
    truth = {"random": 1000.0, "middle": 1250.0, "top": 1400.0}
    ratings = by_level(fit_bradley_terry(synthetic(truth, 2000), "random"))
    assert ratings["top"].elo > ratings["middle"].elo > ratings["random"].elo
    for level, elo in truth.items():
        assert ratings[level].elo == pytest.approx(elo, abs=3)


def test_draws_count_half_and_a_clean_sweep_stays_finite():
    results = PairResults(["random", "other"])
    for _ in range(10):
        results.add("random", "other", 0.5)
    assert by_level(fit_bradley_terry(results, "random"))["other"].elo == pytest.approx(1000)
    sweep = PairResults(["random", "champion"])
    for _ in range(20):
        sweep.add("champion", "random", 1.0)
    champion = by_level(fit_bradley_terry(sweep, "random"))["champion"]
    assert math.isfinite(champion.elo) and champion.elo > 1500


def test_the_schedule_interleaves_pairs_and_alternates_seats():
    jobs = schedule("readysetbet", ["random", "value", "board"], 2)
    assert [job[1:3] for job in jobs[:3]] == [("random", "value"), ("random", "board"), ("value", "board")]
    assert [job[3] for job in jobs] == [0, 0, 0, 1, 1, 1]


@pytest.mark.slow
def test_a_tiny_real_run_of_the_script():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "elo.py"), "--game", "readysetbet", "--games", "1",
                          "--workers", "1", "--json"], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    report = json.loads(run.stdout)
    assert report["games"]["readysetbet"]["played"] == 3
    ladder = {row["level"]: row for row in report["ladder"]["readysetbet"]}
    assert set(ladder) == {"random", "value", "board"} and ladder["random"]["elo"] == 1000
    bad = subprocess.run([sys.executable, str(ROOT / "bench" / "elo.py"), "--games", "0"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert bad.returncode == 2 and "--games" in bad.stderr
