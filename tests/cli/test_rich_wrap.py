"""The terminal never breaks a line at a no-break space: French puts one before : ; ! ? (issue
39's typography), and Rich, left alone, wrapped "lettres\u00a0: chevaux" as "lettres" and ": chevaux"
(Textualize/rich#4196); hippodrome.cli.rich_wrap keeps such spaces inside the words they join."""

import io
import re

import pytest
from rich.console import Console

import hippodrome.cli  # noqa: F401  (the package sets Rich's wrapping)
from hippodrome.cli.rich_wrap import keep_no_break_spaces
from hippodrome.cli.turfmaster_view import screen
from tests.turfmaster.test_terminal_width import race_view


def printed(text_or_renderable, width):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(text_or_renderable)
    return console.file.getvalue().splitlines()


def test_the_installed_rich_wraps_by_the_pattern_that_keeps_no_break_spaces():
    assert keep_no_break_spaces(), "Rich's wrapping changed: see hippodrome/cli/rich_wrap.py"


@pytest.mark.parametrize("width", range(10, 30))
def test_a_line_is_never_broken_at_a_no_break_space(width):
    text = "lettres\u00a0: chevaux (voir le tableau)\u00a0; «\u00a0Rouge\u00a0» gagne\u202f! Et le bleu\u00a0?"
    lines = printed(text, width)
    assert not [line for line in lines if re.match(r"\s*[:;!?»]", line)], lines
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())


@pytest.mark.parametrize("width", [60, 72, 80, 90, 100])
def test_the_french_course_legend_wraps_at_its_spaces_only(width):
    """The roomy screen's course, its legend ("lettres\u00a0: chevaux (voir le tableau)") wrapped to
    the terminal's width, as a race goes on (the squares it shows change its first words)."""
    for decisions in (0, 30, 80):
        view = race_view({"players": 2, "horses_per_player": 2}, seed="legend", decisions=decisions)
        lines = printed(screen(view, ["a move"], "fr", width), width)
        starts = [line for line in lines if re.match(r"[│\s]*[:;!?»]", line)]
        assert not starts, starts
