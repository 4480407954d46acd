"""README's Python examples run as written (a reader copies them): each ```python block of README.md
is executed in a fresh namespace. The research ones need the research extra (see tests/research)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)
RESEARCH = ("numpy", "pettingzoo", "pyspiel", "hippodrome.envs", "hippodrome.openspiel")


def first_line(block: str) -> str:
    return next(line for line in block.splitlines() if line.strip() and not line.startswith("import "))


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=[first_line(b)[:40] for b in BLOCKS])
def test_a_readme_example_runs_as_written(block):
    if any(re.search(rf"^(from|import) {re.escape(name)}\b", block, flags=re.M) for name in RESEARCH):
        from tests.research import need_extra
        need_extra()
    exec(compile(block, str(README), "exec"), {"__name__": "readme_example"})
