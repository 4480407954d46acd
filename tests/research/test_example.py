"""examples/research.py runs every part within a tiny budget (the Ready Set Bet part needs PyTorch,
which the test extra leaves out: that test is skipped without it; the TurfMaster parts run anyway)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.research import need_extra

need_extra()

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "research.py"


def test_the_worked_example_races_trains_and_prints_its_win_rate_against_the_value_bettor():
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, str(EXAMPLE), "--minutes", "0.1", "--simulations", "3", "--seed", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for contestant in ("OpenSpiel ISMCTS", "OpenSpiel MCTS (resampled)", "hippodrome random", "hippodrome tactical"):
        assert re.search(rf"^{re.escape(contestant)} +[1-9]\d* +\d+%", out, re.M), out
    assert re.search(r"the policy trained for \d+ s \([1-9]\d* games against the value bettor\)", out), out
    assert re.search(r"^trained \(greedy\) +\d+ +\d+%", out, re.M), out
    assert re.search(r"^random among legal actions +\d+ +\d+%", out, re.M), out


def test_the_turfmaster_parts_run_without_pytorch():
    """Only the Ready Set Bet training needs PyTorch: without it, --help and the races still run."""
    blocked = Path(__file__).parent / "no_torch"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocked), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(EXAMPLE), "--minutes", "0.03", "--simulations", "2", "--seed", "2"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^hippodrome tactical +[1-9]\d* +\d+%", done.stdout, re.M), done.stdout
    assert "needs PyTorch (pip install torch)" in done.stderr and "Traceback" not in done.stderr
