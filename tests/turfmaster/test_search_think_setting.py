"""The search bot's thinking time where none is given: HIPPODROME_SEARCH_THINK (set by `hippodrome
serve --think`), else 1 s; a wrong value is refused with what a right one looks like."""

import subprocess
import sys

import pytest

from hippodrome.turfmaster.bots import make_bot
from hippodrome.turfmaster.search import DEFAULT_THINK, THINK_VARIABLE, SearchBot


def test_one_second_by_default(monkeypatch):
    monkeypatch.delenv(THINK_VARIABLE, raising=False)
    assert SearchBot().think == DEFAULT_THINK == 1.0


def test_the_variable_sets_it_and_a_given_time_wins(monkeypatch):
    monkeypatch.setenv(THINK_VARIABLE, "0.25")
    assert SearchBot().think == 0.25
    assert make_bot("search", 1).think == 0.25
    assert SearchBot(think=2.0).think == 2.0


@pytest.mark.parametrize("text", ["fast", "0", "-1", "nan", "61"])
def test_a_wrong_value_is_refused_in_words(monkeypatch, text):
    monkeypatch.setenv(THINK_VARIABLE, text)
    with pytest.raises(ValueError, match="seconds above 0 and at most 60, such as 0.5"):
        SearchBot()


def test_serve_refuses_a_think_time_out_of_range():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--think", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--think" in result.stderr
