"""``simulate --json`` of both games: only the JSON on standard output, in the documented shape,
with numbers that agree (wins / games is the win rate, the 95% interval holds it), and the
shared first places of T9 / R9 counted as a win for every level sharing them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hippodrome.arena.summary import levels_won, summary_json, wilson
from hippodrome.cli.main import app

runner = CliRunner()
ROW_KEYS = {"wins", "win_rate", "ci95", "mean_points"}


def check_shape(data: dict, games: int, levels: list[str]) -> None:
    assert set(data) == {"games", "bots"} and data["games"] == games
    assert list(data["bots"]) == levels
    for row in data["bots"].values():
        assert set(row) == ROW_KEYS
        assert isinstance(row["wins"], int) and 0 <= row["wins"] <= games
        assert row["win_rate"] == pytest.approx(row["wins"] / games)
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1 and low < high
        assert isinstance(row["mean_points"], (int, float))


def test_T9_turfmaster_simulate_json_prints_the_shape_and_nothing_else():
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "4", "--bots", "tactical,random",
                                 "--workers", "1", "--seed", "json", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the whole standard output is one JSON document: no table, no bar
    check_shape(data, 4, ["tactical", "random"])
    # two seats, one first place (shared or not) per meeting: every meeting is won by somebody
    assert sum(row["wins"] for row in data["bots"].values()) >= 4
    assert all(row["mean_points"] > 0 for row in data["bots"].values())


def test_T9_a_level_at_several_seats_wins_a_meeting_when_any_of_its_seats_does():
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "3", "--bots", "random,random,tactical",
                                 "--horses", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    check_shape(data, 3, ["random", "tactical"])
    assert data["bots"]["random"]["wins"] + data["bots"]["tactical"]["wins"] >= 3


def test_R9_readysetbet_simulate_json_prints_the_shape_with_mean_money():
    result = runner.invoke(app, ["readysetbet", "simulate", "--bots", "value,random", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    check_shape(data, 2, ["value", "random"])


def test_a_shared_first_place_is_a_win_for_each_level_sharing_it():
    assert levels_won(["a", "b", "a"], [1, 2]) == {"a", "b"}
    data = summary_json(2, ["a", "b"], {"a": 2, "b": 1}, {"a": 30, "b": 10}, {"a": 4, "b": 2})
    assert data == {"games": 2, "bots": {
        "a": {"wins": 2, "win_rate": 1.0, "ci95": list(wilson(2, 2)), "mean_points": 7.5},
        "b": {"wins": 1, "win_rate": 0.5, "ci95": list(wilson(1, 2)), "mean_points": 5.0}}}
    assert data["bots"]["a"]["ci95"][1] == 1.0 and data["bots"]["a"]["ci95"][0] < 1.0


@pytest.mark.parametrize("wins, games", [(0, 1), (1, 1), (0, 500), (500, 500), (7, 13), (1, 3)])
def test_the_wilson_interval_always_holds_the_rate(wins, games):
    low, high = wilson(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
