"""bench/search_budget.py: the search bot's meetings at a budget played batch by batch,
never the same seed twice, and added up with a Wilson interval (T9: the meetings' winners)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from hippodrome.arena.summary import wilson

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("search_budget", ROOT / "bench" / "search_budget.py")
search_budget = importlib.util.module_from_spec(spec)
spec.loader.exec_module(search_budget)


def batch(table, think, seed, games, search_wins, tactical_wins, search_points=100.0, tactical_points=80.0):
    return {"table": table, "think": think, "seed": seed, "games": games, "seconds": 3600.0,
            "started": "2026-11-27T04:00:00+00:00",
            "result": {"games": games, "bots": {"search": {"wins": search_wins, "mean_points": search_points},
                                                "tactical": {"wins": tactical_wins, "mean_points": tactical_points}}}}


def test_the_report_adds_batches_up_per_table_and_budget():
    rows = search_budget.report([batch("four", 1.0, "a", 8, 3, 6), batch("four", 1.0, "b", 12, 6, 7, 120.0, 70.0),
                                 batch("two", 1.0, "c", 8, 6, 2), batch("four", 0.05, "d", 4, 1, 3)])
    four = next(r for r in rows if r["table"] == "four" and r["think"] == 1.0)
    assert four["games"] == 20 and four["batches"] == 2 and four["hours"] == 2.0
    search = four["bots"]["search"]
    assert search["wins"] == 9 and search["win_rate"] == pytest.approx(0.45)
    assert search["ci95"] == list(wilson(9, 20))
    assert search["mean_points"] == pytest.approx((8 * 100 + 12 * 120) / 20)
    assert four["fair_share"] == 0.25
    assert {(r["table"], r["think"]) for r in rows} == {("four", 1.0), ("four", 0.05), ("two", 1.0)}


def test_the_report_splits_a_table_by_the_meetings_played_at_once_with_their_share_of_a_core():
    alone = batch("two", 1.0, "a", 8, 8, 0)
    crowded = {**batch("two", 1.0, "b", 8, 6, 2), "workers": 8, "seconds": 1000.0, "cpu_seconds": 2000.0}
    (row,) = search_budget.report([alone, crowded])
    assert row["games"] == 16 and row["bots"]["search"]["wins"] == 14
    one, eight = row["by_workers"]
    assert (one["workers"], one["games"], one["bots"]["search"]["wins"], one["core_share"]) == (1, 8, 8, None)
    assert (eight["workers"], eight["games"], eight["bots"]["search"]["wins"]) == (8, 8, 6)
    assert eight["core_share"] == 0.25   # 2,000 CPU seconds over 8 meetings' 1,000 s each


def test_a_batch_takes_the_next_seed_and_the_seats_in_turn():
    batches = [{"seed": search_budget.batch_seed("two", 1.0, 1)}, {"seed": search_budget.batch_seed("two", 1.0, 2)}]
    assert search_budget.next_batch(batches, "two", 1.0) == 3
    assert search_budget.next_batch(batches, "four", 1.0) == 1
    # two runs at once, each with a file of its own, never take the same number
    assert search_budget.next_batch(batches, "two", 1.0, lane=1, lanes=2) == 3
    assert search_budget.next_batch(batches, "two", 1.0, lane=2, lanes=2) == 4


@pytest.mark.slow
def test_two_tiny_batches_are_played_and_kept(tmp_path):
    results = tmp_path / "budget.jsonl"
    for _ in range(2):
        subprocess.run([sys.executable, str(ROOT / "bench" / "search_budget.py"), "--file", str(results), "run",
                        "--table", "two", "--games", "1", "--think", "0.002"], check=True, capture_output=True,
                       cwd=ROOT, timeout=300)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [line["seed"] for line in lines] == ["budget:two:0.002:1", "budget:two:0.002:2"]
    assert all(line["games"] == 2 and line["result"]["games"] == 2 for line in lines)   # rounded up to the seats
    assert all(0 < line["cpu_seconds"] for line in lines)   # the meetings' processes' CPU, measured
    shown = subprocess.run([sys.executable, str(ROOT / "bench" / "search_budget.py"), "--file", str(results),
                            "report", "--json"], check=True, capture_output=True, text=True, cwd=ROOT)
    (row,) = json.loads(shown.stdout)
    assert row["games"] == 4 and 0 <= row["bots"]["search"]["wins"] <= 4
