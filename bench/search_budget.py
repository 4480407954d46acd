"""The search bot at a thinking budget, over more meetings than one sitting can play, kept in a file.

    python bench/search_budget.py run --table two|four [--games 8] [--think 1.0] [--workers 1]
                                      [--lane K/N] [--file bench/results/search_budget.jsonl]
    python bench/search_budget.py report [--file ...]

Issue #16 measures the search bot at 1 s a decision over 500 meetings a table. At 1 s a meeting
costs the search bot 1.5 to 3 minutes of thought (four players with a horse each; two players
with two horses each), so 500 meetings are 12 to 25 hours of one core a table: more than a
working session. This script plays them a few at a time and keeps every batch:

``run`` plays ``--games`` meetings of one table (``two``: search against tactical, 2 horses each;
``four``: search against three tactical bots, a horse each; flat oval) with ``hippodrome turfmaster
simulate --json``, seeded ``budget:<table>:<think>:<batch>`` for the next batch number not yet in
the file (so no meeting is played twice), and adds one line to the file: the table, the budget,
the seed, the simulate answer, when it started, how long it took, and the machine (processor,
cores, load average before and after: a budget is wall-clock time, so a busy machine makes a
weaker bot), and the CPU time its meetings' processes spent (``cpu_seconds``): divided by the
batch's seconds and ``--workers``, the share of a core each meeting had. ``--games`` is rounded up to a multiple of the table's seats, so that each bot sits
at every seat equally often.

``report`` adds the batches up per table and budget: meetings, the search bot's wins, its win
rate with a 95% Wilson interval, its fair share, and both levels' mean points per seat; then the
same split by how many meetings ran at once (``--workers``), with the share of a core they had
where the batches measured it: meetings played side by side on a crowded machine give the search
less thought in its second than a free core would, so their win rate is a lower bound of the
budget's. ``--json`` prints that as one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hippodrome.arena.summary import summary_json  # noqa: E402
from machine_info import processor  # noqa: E402

DEFAULT_FILE = Path(__file__).resolve().parent / "results" / "search_budget.jsonl"
#: the tables issue #16 sets goals for: the bots at the table and the horses each
TABLES = {
    "two": {"bots": ["search", "tactical"], "horses": 2},
    "four": {"bots": ["search", "tactical", "tactical", "tactical"], "horses": 1},
}


def read_batches(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def batch_seed(table: str, think: float, batch: int) -> str:
    return f"budget:{table}:{think:g}:{batch}"


def next_batch(batches: list[dict[str, Any]], table: str, think: float, lane: int = 1, lanes: int = 1) -> int:
    """The first batch number whose seed is not in the file for this table and budget; of
    ``lanes`` runs at once (each with a file of its own), lane ``lane`` takes the numbers
    ``lane``, ``lane + lanes``, ... so that no two play the same seed."""
    used = {b["seed"] for b in batches}
    batch = lane
    while batch_seed(table, think, batch) in used:
        batch += lanes
    return batch


def machine() -> dict[str, Any]:
    return {"cpu": processor(), "cores": os.cpu_count()}


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes, theirs included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_batch(path: Path, table: str, games: int, think: float, workers: int, lane: int = 1,
              lanes: int = 1) -> dict[str, Any]:
    """Play one batch and add its line to ``path``; returns the line."""
    setup = TABLES[table]
    seats = len(setup["bots"])
    games = max(seats, math.ceil(games / seats) * seats)
    batch = next_batch(read_batches(path), table, think, lane, lanes)
    seed = batch_seed(table, think, batch)
    command = [sys.executable, "-m", "hippodrome", "turfmaster", "simulate", "--games", str(games),
               "--bots", ",".join(setup["bots"]), "--horses", str(setup["horses"]), "--think", str(think),
               "--workers", str(workers), "--seed", seed, "--json"]
    started, load_before, clock = datetime.now(timezone.utc), load_average(), time.monotonic()
    cpu_before = children_cpu()
    answer = subprocess.run(command, check=True, capture_output=True, text=True)
    cpu_seconds = children_cpu() - cpu_before
    line = {"table": table, "think": think, "seed": seed, "batch": batch, "games": games,
            "result": json.loads(answer.stdout), "started": started.isoformat(timespec="seconds"),
            "seconds": round(time.monotonic() - clock, 1), "workers": workers, **machine(),
            "load_before": load_before, "load_after": load_average(), "cpu_seconds": round(cpu_seconds, 1)}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(json.dumps(line) + "\n")
    return line


def report(batches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The batches added up per table and budget (see the module docstring): each row holds the
    batches' facts and, under ``games`` and ``bots``, what ``simulate --json`` prints for them all."""
    groups: dict[tuple[str, float], list[dict[str, Any]]] = {}
    for batch in batches:
        groups.setdefault((batch["table"], batch["think"]), []).append(batch)
    rows = []
    for (table, think), group in sorted(groups.items()):
        by_workers: dict[int, list[dict[str, Any]]] = {}
        for batch in group:
            by_workers.setdefault(batch.get("workers", 1), []).append(batch)
        rows.append({"table": table, "think": think, "fair_share": 1 / len(TABLES[table]["bots"]), **added_up(group),
                     "by_workers": [{"workers": workers, **added_up(part)} for workers, part in sorted(by_workers.items())]})
    return rows


def added_up(group: list[dict[str, Any]]) -> dict[str, Any]:
    """Batches of one table added up: their count, hours, dates, the share of a core a meeting had
    (``None`` where no batch measured its CPU) and what ``simulate --json`` prints for them all."""
    seats = Counter(TABLES[group[0]["table"]]["bots"])   # a level's seats at the table: its mean points are per seat
    games, wins, points, seat_games = 0, Counter(), Counter(), Counter()
    for batch in group:
        played = batch["result"]["games"]
        games += played
        for level, entry in batch["result"]["bots"].items():
            wins[level] += entry["wins"]
            points[level] += entry["mean_points"] * played * seats[level]
            seat_games[level] += played * seats[level]
    measured = [b for b in group if "cpu_seconds" in b]
    core_share = (round(sum(b["cpu_seconds"] for b in measured) / sum(b["seconds"] * b["workers"] for b in measured), 2)
                  if measured else None)
    return {"batches": len(group), "hours": round(sum(b["seconds"] for b in group) / 3600, 2),
            "since": min(b["started"] for b in group)[:10], "until": max(b["started"] for b in group)[:10],
            "core_share": core_share, **summary_json(games, seats, wins, points, seat_games)}


def print_report(rows: list[dict[str, Any]]) -> None:
    if not rows:
        print("no batches yet")
        return
    for row in rows:
        search = row["bots"]["search"]
        others = [level for level in row["bots"] if level != "search"]
        print(f"{row['table']} players, {row['think']:g} s a decision: {row['games']} meetings in "
              f"{row['batches']} batches ({row['hours']} h, {row['since']} to {row['until']}): search wins "
              f"{100 * search['win_rate']:.1f}% (95% CI {100 * search['ci95'][0]:.1f}% - {100 * search['ci95'][1]:.1f}%; "
              f"fair share {100 * row['fair_share']:.0f}%), mean points search {search['mean_points']:.1f}"
              + "".join(f", {level} {row['bots'][level]['mean_points']:.1f}" for level in others))
        for part in row["by_workers"]:
            search = part["bots"]["search"]
            share = ("share of a core not measured" if part["core_share"] is None
                     else f"{100 * part['core_share']:.0f}% of a core a meeting")
            print(f"  {part['workers']} at once ({share}): {part['games']} meetings, search wins "
                  f"{100 * search['win_rate']:.1f}% (95% CI {100 * search['ci95'][0]:.1f}% - {100 * search['ci95'][1]:.1f}%)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the batches' file (JSON lines)")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play one batch and add it to the file")
    run.add_argument("--table", choices=sorted(TABLES), required=True)
    run.add_argument("--games", type=int, default=8)
    run.add_argument("--think", type=float, default=1.0)
    run.add_argument("--workers", type=int, default=1)
    run.add_argument("--lane", default="1/1", help="K/N: the K-th of N runs at once, each with its own --file")
    shown = commands.add_parser("report", help="add the batches up")
    shown.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "run":
        if args.games < 1 or not 0 < args.think <= 60 or args.workers < 1:
            parser.error("--games and --workers must be at least 1, --think above 0 and at most 60")
        lane, _, lanes = args.lane.partition("/")
        if not (lane.isdigit() and lanes.isdigit() and 1 <= int(lane) <= int(lanes)):
            parser.error(f"--lane must be K/N with 1 <= K <= N, such as 2/3, not {args.lane}")
        line = run_batch(args.file, args.table, args.games, args.think, args.workers, int(lane), int(lanes))
        print(json.dumps(line))
        return 0
    rows = report(read_batches(args.file))
    if args.json:
        print(json.dumps(rows))
    else:
        print_report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
