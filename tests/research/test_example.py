"""examples/research.py runs every part within a tiny budget (it needs PyTorch, which the test
extra leaves out: skipped without it)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.research import need_extra

need_extra()
pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "research.py"


def test_the_worked_example_races_trains_and_prints_its_win_rate_against_the_value_bettor():
    done = subprocess.run([sys.executable, str(EXAMPLE), "--minutes", "0.1", "--simulations", "3", "--seed", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for contestant in ("OpenSpiel ISMCTS", "OpenSpiel MCTS (resampled)", "hippodrome random", "hippodrome tactical"):
        assert re.search(rf"^{re.escape(contestant)} +[1-9]\d* +\d+%", out, re.M), out
    assert re.search(r"the policy trained for \d+ s \([1-9]\d* games against the value bettor\)", out), out
    assert re.search(r"^trained \(greedy\) +\d+ +\d+%", out, re.M), out
    assert re.search(r"^random among legal actions +\d+ +\d+%", out, re.M), out
