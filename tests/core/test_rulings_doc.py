"""docs/rulings.md defines every ruling id the code and the tests cite (T1.., R1..), and names for
each the rules-page paragraph the game's ``ANCHORS`` gives it; the files it points to exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hippodrome.readysetbet.rules import ANCHORS as RSB_ANCHORS
from hippodrome.turfmaster.rules import ANCHORS as TM_ANCHORS

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "docs" / "rulings.md"
#: the rules page and the anchors of each family of ids
GAMES = {"T": ("turfmaster", TM_ANCHORS), "R": ("readysetbet", RSB_ANCHORS)}
RULE_ID = re.compile(r"\b([TR](?:1[0-9]|[1-9]))\b")


def sections() -> dict[str, str]:
    """Each ruling's section of docs/rulings.md (``### T6: handicaps`` up to the next heading)."""
    text = RULINGS.read_text(encoding="utf-8")
    found = {}
    for match in re.finditer(r"^### ([TR]\d+): .*?$(.*?)(?=^#)", text + "\n#", flags=re.M | re.S):
        assert match.group(1) not in found, f"{match.group(1)} is defined twice"
        found[match.group(1)] = match.group(2)
    return found


def cited_ids() -> dict[str, set[str]]:
    """Every ruling id cited in src/ and tests/, with where: in ``Ruled(...)`` and ``Obstacle(...)``
    and ``rule=`` arguments, in test names and in docstrings."""
    cited: dict[str, set[str]] = {}

    def cite(text: str, where: str) -> None:
        for rule in RULE_ID.findall(text):
            cited.setdefault(rule, set()).add(where)

    for path in sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        where = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                cite(ast.get_docstring(node) or "", where)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                cite(node.name.replace("_", " "), where)
            if isinstance(node, ast.Call):
                named = getattr(node.func, "id", getattr(node.func, "attr", None))
                values = [*(node.args if named in ("Ruled", "Obstacle") else ()),
                          *(k.value for k in node.keywords if k.arg == "rule")]
                for value in values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        cite(value.value, where)
    return cited


@pytest.fixture(scope="module")
def cited() -> dict[str, set[str]]:
    """cited_ids(), read once for the module's tests (every file of src/ and tests/ parsed)."""
    return cited_ids()


def test_the_code_and_tests_cite_rulings(cited):
    assert {"T4", "T6", "T11", "R2", "R4", "R8"} <= set(cited), sorted(cited)


@pytest.mark.slow
def test_every_ruling_cited_or_anchored_is_defined(cited):
    defined = set(sections())
    missing = {rule: sorted(where)[:3] for rule, where in cited.items() if rule not in defined}
    assert not missing, f"cited but not in docs/rulings.md: {missing}"
    anchored = set(TM_ANCHORS) | set(RSB_ANCHORS)
    assert anchored <= defined, sorted(anchored - defined)


@pytest.mark.parametrize("rule", sorted(set(TM_ANCHORS) | set(RSB_ANCHORS), key=lambda r: (r[0], int(r[1:]))))
def test_each_ruling_names_its_rules_page_paragraph(rule):
    page, anchors = GAMES[rule[0]]
    named = re.findall(r"^\*\*Rules page:\*\* `/rules/([\w-]+)#([\w-]+)`$", sections()[rule], flags=re.M)
    assert named == [(page, anchors[rule])], f"{rule} should name /rules/{page}#{anchors[rule]}, names {named}"


def test_a_ruling_without_an_anchor_would_be_found():
    """The checks above can fail: a section lacking its anchor line is seen as naming nothing."""
    assert re.findall(r"^\*\*Rules page:\*\* `/rules/([\w-]+)#([\w-]+)`$", "**Rule.** text\n", flags=re.M) == []
    assert "T14" not in sections()


def test_the_files_the_rulings_point_to_exist():
    text = RULINGS.read_text(encoding="utf-8")
    paths = set(re.findall(r"`((?:src|tests|tools)/[\w./-]+)`", text))
    assert len(paths) >= 8
    assert [p for p in sorted(paths) if not (ROOT / p).exists()] == []
