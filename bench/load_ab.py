"""Two trees of the server under the same load, run in turn: is one cheaper a change than the other?

    python bench/load_ab.py --against COMMIT_OR_SRC [--rounds 4] [--tables 200] [--seconds 20] [--warmup 5]

Runs ``bench/load.py`` on this checkout's server and on the other tree's (a commit, written out
with ``git archive`` to a temporary folder, or a ``src`` folder), alternating A B, B A, ... so that
a drift of the machine falls on both alike. Prints each run's event-loop CPU a change and its
act-to-spectator p99, then for each tree the median of both, and the ratio this/other: the
geometric mean of the rounds' ratios with its 95% interval (Student's t over their logarithms).
A change of a few percent hides in the machine's noise (a tenth from run to run): an interval
that holds 1 says the two trees are not told apart by these rounds.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Student's t at 97.5% for 1 to 20 degrees of freedom (a 95% two-sided interval)
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)


def other_tree(against: str, scratch: Path) -> str:
    """The ``src`` folder of ``against``: itself if it is a folder, else the commit written out."""
    if Path(against).is_dir():
        return str(Path(against).resolve())
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", against, "src"], capture_output=True)
    if archive.returncode != 0:
        sys.exit(f"--against: neither a folder nor a commit of this repository: {against!r} "
                 f"({archive.stderr.decode().strip()})")
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive.stdout, check=True)
    return str(scratch / "src")


def run_load(src: str | None, tables: int, seconds: float, warmup: float) -> tuple[float, float]:
    """One run of bench/load.py: the event loop's µs of CPU a change and the p99 in ms."""
    command = [sys.executable, str(ROOT / "bench" / "load.py"), "--tables", str(tables), "--seconds", str(seconds),
               "--warmup", str(warmup)]
    if src is not None:
        command += ["--server-src", src]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT).stdout
    cost = re.search(r"(\d+) µs a change", out)
    p99 = re.search(r"latency: p50 [\d.]+ ms, p99 ([\d.]+) ms", out)
    if not cost or not p99:
        sys.exit("bench/load.py printed no figures:\n" + out[-2000:])
    return float(cost.group(1)), float(p99.group(1))


def ratio_interval(ratios: list[float]) -> tuple[float, float, float]:
    """The geometric mean of ``ratios`` and its 95% interval (the interval is nan for one ratio)."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(mean), math.nan, math.nan
    half = T_975[min(len(logs) - 1, len(T_975)) - 1] * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the other tree: a commit of this repository or a src folder")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of one run each (default 4)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0, help="bench/load.py's (the tables starting, not counted)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds: at least 1, not {args.rounds}")
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"this": None, "other": other_tree(args.against, Path(scratch))}
        runs: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
        for round_no in range(args.rounds):
            order = ["this", "other"] if round_no % 2 == 0 else ["other", "this"]
            for name in order:
                cost, p99 = run_load(trees[name], args.tables, args.seconds, args.warmup)
                runs[name].append((cost, p99))
                print(f"round {round_no + 1}, {name}: {cost:.0f} µs a change, p99 {p99:.1f} ms", flush=True)
    for name in ("this", "other"):
        costs, tails = zip(*runs[name])
        print(f"{name}: median {statistics.median(costs):.0f} µs a change ({min(costs):.0f}-{max(costs):.0f}), "
              f"p99 median {statistics.median(tails):.1f} ms ({min(tails):.1f}-{max(tails):.1f})")
    mean, low, high = ratio_interval([a[0] / b[0] for a, b in zip(runs["this"], runs["other"])])
    print(f"this/other, CPU a change: {mean:.3f} (95%: {low:.3f}-{high:.3f}) over {args.rounds} rounds")


if __name__ == "__main__":
    main()
