"""``hippodrome turfmaster destinations`` (T3, T4, T5, T11): output format and refusals."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app

runner = CliRunner()


def run(tmp_path, position, *args):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position) if not isinstance(position, str) else position)
    return runner.invoke(app, ["turfmaster", "destinations", str(path), *args])


def test_T5_prints_steps_and_destinations(tmp_path):
    position = {"course": "oval", "steeplechase": False,
                "horses": [{"id": "red", "lane": 0, "square": 5}, {"id": "blue", "lane": 0, "square": 9}]}
    result = run(tmp_path, position, "--horse", "red", "--points", "6")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"steps": 6, "destinations": [{"lane": 1, "square": 11}]}


def test_T5_boxed_in_reports_the_steps_actually_moved(tmp_path):
    position = {"course": "triangle", "steeplechase": False,
                "horses": [{"id": "red", "lane": 0, "square": 5}, {"id": "a", "lane": 0, "square": 8},
                           {"id": "b", "lane": 1, "square": 6}]}
    result = run(tmp_path, position, "--horse", "red", "--points", "6")
    assert json.loads(result.stdout) == {"steps": 1, "destinations": [{"lane": 0, "square": 6}]}


def test_T11_steeplechase_and_falls_in_a_card_round(tmp_path):
    position = {"course": "oval", "steeplechase": True, "horses": [{"id": "red", "lane": 2, "square": 6}]}
    dice = run(tmp_path, position, "--horse", "red", "--points", "5")
    assert json.loads(dice.stdout) == {"steps": 3, "destinations": [
        {"lane": 1, "square": 9}, {"lane": 2, "square": 9}, {"lane": 3, "square": 9}]}
    card = run(tmp_path, position, "--horse", "red", "--points", "5", "--round", "card")
    assert len(json.loads(card.stdout)["falls"]) == 3


@pytest.mark.parametrize("position,args,message", [
    ({"course": "moon", "horses": [{"id": "a", "lane": 0, "square": 0}]}, [], "unknown course 'moon'"),
    ({"course": "oval", "horses": [{"id": "a", "lane": 8, "square": 0}]}, [], "lane 8 does not exist"),
    ({"course": "oval", "horses": [{"id": "a", "lane": 0, "square": 131}]}, [], "square 131 does not exist in lane 0"),
    ({"course": "oval", "horses": [{"id": "a", "lane": 0, "square": 4}, {"id": "b", "lane": 0, "square": 4}]}, [],
     "both on lane 0, square 4"),
    ({"course": "oval", "steeplechase": True, "horses": [{"id": "a", "lane": 0, "square": 10}]}, [], "fence"),
    ({"course": "oval", "horses": [{"id": "a", "lane": 0, "square": 4}]}, ["--horse", "zz"], "no horse 'zz'"),
    ("{not json", [], "not valid JSON"),
    ({"course": "oval", "horses": [{"id": "a", "lane": "0", "square": 4}]}, [], "whole numbers"),
])
def test_invalid_positions_exit_2_with_a_clear_message(tmp_path, position, args, message):
    args = args or ["--horse", "a"]
    result = run(tmp_path, position, *args, "--points", "5")
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_installed_command_runs(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"course": "oval", "horses": [{"id": "red", "lane": 0, "square": 0}]}))
    done = subprocess.run([sys.executable, "-m", "hippodrome", "turfmaster", "destinations", str(path),
                           "--horse", "red", "--points", "3"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"steps": 3, "destinations": [{"lane": 0, "square": 3}, {"lane": 1, "square": 3}]}


def test_unknown_keys_are_ignored_with_a_warning(tmp_path):
    position = {"course": "oval", "steeplchase": True, "horses": [{"id": "a", "lane": 0, "square": 4}]}
    result = run(tmp_path, position, "--horse", "a", "--points", "3")
    assert result.exit_code == 0
    assert "ignoring unknown key(s) steeplchase" in result.stderr
    assert json.loads(result.stdout)["steps"] == 3
