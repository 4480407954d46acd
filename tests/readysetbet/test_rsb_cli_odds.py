"""``hippodrome readysetbet odds``: JSON format, the last roll (R1) and refused input (exit 2)."""

import json

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.readysetbet.dice_race import HORSES

runner = CliRunner()
START = "2/3=0,4=0,5=0,6=0,7=0,8=0,9=0,10=0,11/12=0"


def odds(*args):
    return runner.invoke(app, ["readysetbet", "odds", *args])


def test_odds_json_format():
    result = odds("--positions", START, "--json", "--seed", "1", "--simulations", "4000")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["simulations"] == 4000 and list(data["horses"]) == list(HORSES)
    assert all(set(v) == {"win", "place", "show"} for v in data["horses"].values())
    assert data["horses"]["7"]["win"] > data["horses"]["2/3"]["win"]


def test_r1_last_roll_bonus_changes_the_odds_and_the_flag_removes_the_bonus():
    base = "4=11,7=13,8=13"
    bonus = json.loads(odds("--positions", base, "--last-roll", "4", "--json", "--seed", "2").stdout)
    none = json.loads(odds("--positions", base, "--last-roll", "4", "--last-roll-was-bonus", "--json",
                           "--seed", "2").stdout)
    assert bonus["horses"]["4"]["win"] > none["horses"]["4"]["win"] + 0.03


@pytest.mark.parametrize("args,message", [
    (["--positions", "13=2"], "unknown horse"),
    (["--positions", "4=16"], "outside 0-15"),
    (["--positions", "4=-1"], "outside 0-15"),
    (["--positions", "4=15"], "finished"),
    (["--positions", "4=x"], "not a whole number"),
    (["--positions", "4"], "HORSE=SPACE"),
    (["--positions", "4=2", "--last-roll", "13"], "2 to 12"),
    (["--positions", "4=0", "--last-roll", "4"], "must then stand"),
    (["--positions", "4=2", "--last-roll-was-bonus"], "needs --last-roll"),
])
def test_bad_input_refused_with_exit_status_2(args, message):
    result = odds(*args, "--json")
    assert result.exit_code == 2
    assert message in result.stderr


def test_r4_ev_of_every_space_for_every_token():
    result = odds("--positions", "7=12,8=11", "--ev", "--prop", "8>5,9", "--exotic", "by-a-nose", "--json",
                  "--seed", "3", "--simulations", "5000")
    assert result.exit_code == 0, result.output
    spaces = json.loads(result.stdout)["spaces"]
    assert len(spaces) == 63 + 4 + 1 + 3
    row = spaces["win:7:L"]  # 3x, red circle 4
    assert set(row["ev"]) == {"2", "3", "4", "5"}
    assert row["ev"]["5"] == pytest.approx(row["p"] * 15 - (1 - row["p"]) * 4)
    assert odds("--positions", "7=1", "--ev", "--prop", "1>2").exit_code == 2


def test_r5_the_table_of_every_space_names_spaces_in_words_as_the_board_prints_them():
    """People read spaces as the board shows them (R5: its multiplier and red circle), never an id
    such as "win:7:L"; the JSON's expected values are rounded to a hundredth of a cent."""
    result = odds("--positions", "7=12,8=11", "--ev", "--prop", "8>5,9", "--exotic", "by-a-nose",
                  "--seed", "3", "--simulations", "2000")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert not any(f"{kind}:" in line for line in lines for kind in ("win", "place", "show", "prop", "exotic", "colour"))
    assert any(line.startswith("Win on horse 7 (×3, -$4) ") for line in lines), result.stdout   # win:7:L
    assert any(line.startswith("Win on horse 7 (×3, -$3) ") for line in lines)                  # win:7:M
    assert any(line.startswith("7 finishes 5th or worse (×4) ") for line in lines)
    assert any(line.startswith("By a Nose (space 1) (×5, -$3) ") for line in lines)
    spanish = odds("--positions", "7=12", "--ev", "--seed", "3", "--simulations", "500", "--lang", "es")
    assert "Ganador al caballo 7 (×3, -4 $)" in spanish.stdout.replace("\xa0", " "), spanish.stdout
    data = json.loads(odds("--positions", "7=12,8=11", "--ev", "--json", "--seed", "3", "--simulations", "2000").stdout)
    assert all(value == round(value, 4) for row in data["spaces"].values() for value in row["ev"].values())
