"""Every link between README.md and the pages of docs/ reaches a file of the repository and, when it
names one, a heading of that page (as GitHub makes a heading's anchor); README stays a front door."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: [words](target), outside code spans and code blocks
LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The text without fenced blocks, indented code blocks and code spans."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"^    .*$", "", text, flags=re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchor_of(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, seen = set(), {}
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", text, flags=re.M):
        anchor = anchor_of(heading)
        count = seen.get(anchor, 0)
        found.add(anchor if count == 0 else f"{anchor}-{count}")
        seen[anchor] = count + 1
    return found


def links(page: Path) -> list[str]:
    return [target for target in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", target)]


def test_anchors_are_made_as_github_makes_them():
    assert anchor_of("Live odds: `hippodrome readysetbet odds`") == "live-odds-hippodrome-readysetbet-odds"
    assert anchor_of("The search bot at 1 s a decision: `bench/search_budget.py`") == \
        "the-search-bot-at-1-s-a-decision-benchsearch_budgetpy"
    assert anchor_of('"Why?" at the table') == "why-at-the-table"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_link_reaches_its_file_and_heading(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no such heading in {file.relative_to(ROOT)}")
    assert not broken, broken


def test_the_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert {"docs/turfmaster.md", "docs/readysetbet.md", "docs/rulings.md", "docs/server.md",
            "docs/research.md", "docs/benchmarks.md", "docs/development.md"} <= set(links(ROOT / "README.md"))


def test_the_readme_test_command_is_the_one_ci_runs():
    command = ".venv/bin/pip install -q -e '.[test,research,scale]' && .venv/bin/python -m pytest"
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
