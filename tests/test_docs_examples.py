"""The Python examples of the docs run as written (a reader copies them): each ```python block of
README.md and of docs/*.md is executed in a fresh namespace. The research ones need the research
extra (see tests/research). A page whose blocks are sketches of an API, with elisions and names
left undefined, is listed in SKETCHES and not run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: pages whose ```python blocks sketch an API rather than run
SKETCHES = {"docs/i18n.md": "the API's calls shown one by one, with `app` and other names undefined"}
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RESEARCH = ("numpy", "pettingzoo", "pyspiel", "hippodrome.envs", "hippodrome.openspiel")


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


BLOCKS = [(page.relative_to(ROOT).as_posix(), block) for page in PAGES
          if page.relative_to(ROOT).as_posix() not in SKETCHES
          for block in python_blocks(page.read_text(encoding="utf-8"))]


def first_line(block: str) -> str:
    return next(line for line in block.splitlines() if line.strip() and not line.startswith(("import ", "from ")))


def test_the_docs_have_python_examples():
    pages = {page for page, _ in BLOCKS}
    assert {"README.md", "docs/turfmaster.md", "docs/readysetbet.md", "docs/research.md"} <= pages, pages
    assert len(BLOCKS) >= 8


def test_the_sketches_are_pages_with_python_blocks():
    for page in SKETCHES:
        assert python_blocks((ROOT / page).read_text(encoding="utf-8")), f"{page} has no sketch left: unlist it"


@pytest.mark.parametrize("page, block", BLOCKS, ids=[f"{page}: {first_line(block)[:40]}" for page, block in BLOCKS])
def test_an_example_runs_as_written(page, block):
    if any(re.search(rf"^(from|import) {re.escape(name)}\b", block, flags=re.M) for name in RESEARCH):
        from tests.research import need_extra
        need_extra()
    exec(compile(block, str(ROOT / page), "exec"), {"__name__": "docs_example"})
