"""``simulate --save DIR`` and ``review RECORD.json`` of both games (issue 36): the records written
are those ``replay`` and ``review`` read; ``--json`` prints only the documented shape; a bad record
is refused in words with exit status 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app

runner = CliRunner()
PLAYER_KEYS = {"seat", "name", "accuracy", "points_lost"}
DECISION_KEYS = {"seat", "step", "chosen", "best", "loss", "stderr", "mark"}


def check_review_json(output: str, seats: int) -> dict:
    data = json.loads(output)   # the whole standard output is one JSON document
    assert set(data) == {"players", "decisions"}
    assert [p["seat"] for p in data["players"]] == list(range(seats))
    assert all(set(p) == PLAYER_KEYS for p in data["players"])
    assert data["decisions"] and all(set(d) == DECISION_KEYS for d in data["decisions"])
    assert all(d["mark"] in ("good", "inaccuracy", "mistake", "blunder") for d in data["decisions"])
    return data


@pytest.mark.slow
def test_T9_turfmaster_simulate_saves_records_that_replay_and_review(tmp_path, monkeypatch):
    # two playouts a decision at least, not eight: what is checked here is the command (the records it
    # saves and reads back, its JSON), not the review's values (tests/turfmaster/test_review.py)
    monkeypatch.setattr("hippodrome.turfmaster.review.MIN_PLAYOUTS", 2)
    folder = tmp_path / "meetings"
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "2", "--bots", "random,random",
                                 "--workers", "1", "--seed", "save", "--json", "--save", str(folder)])
    assert result.exit_code == 0, result.output
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["meeting-1.json", "meeting-2.json"]
    record = json.loads(files[0].read_text())
    assert record["game"] == "turfmaster" and record["seed"] == "save:0"
    replayed = runner.invoke(app, ["turfmaster", "replay", str(files[0]), "--final-only", "--lang", "en"])
    assert replayed.exit_code == 0, replayed.output
    reviewed = runner.invoke(app, ["turfmaster", "review", str(files[0]), "--json", "--budget", "0.001"])
    assert reviewed.exit_code == 0, reviewed.output
    data = check_review_json(reviewed.stdout, 2)
    assert all(record["log"][d["step"]]["by"] == d["seat"] for d in data["decisions"])


@pytest.mark.slow
def test_readysetbet_simulate_saves_records_that_review_in_words(tmp_path):
    folder = tmp_path / "games"
    result = runner.invoke(app, ["readysetbet", "simulate", "--games", "1", "--bots", "value,random",
                                 "--save", str(folder), "--lang", "en"])
    assert result.exit_code == 0, result.output
    (path,) = folder.iterdir()
    reviewed = runner.invoke(app, ["readysetbet", "review", str(path), "--json"])
    assert reviewed.exit_code == 0, reviewed.output
    check_review_json(reviewed.stdout, 2)
    words = runner.invoke(app, ["readysetbet", "review", str(path), "--lang", "de"])
    assert words.exit_code == 0, words.output
    assert "Spieler 1" in words.stdout and "Genauigkeit" in words.stdout
    assert "win:" not in words.stdout and "prop:" not in words.stdout   # spaces in words, never ids


@pytest.mark.parametrize("game", ["turfmaster", "readysetbet"])
def test_a_bad_record_is_refused_in_words_with_status_2(tmp_path, game):
    not_json = tmp_path / "broken.json"
    not_json.write_text("{")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "chess", "setup": {}, "seed": 0, "log": []}))
    bad_log = tmp_path / "bad_log.json"
    setup = {"players": 2} if game == "turfmaster" else {"players": 2}
    bad_log.write_text(json.dumps({"game": game, "setup": setup, "seed": 0, "log": [{"by": 5, "action": {}}]}))
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps({"game": game, "setup": setup, "seed": 0, "log": []}))
    for path, words in ((tmp_path / "missing.json", "cannot read"), (not_json, "not valid JSON"),
                        (other, "records a 'chess' game"), (bad_log, "does not replay"),
                        (unfinished, "stops before the end")):
        result = runner.invoke(app, [game, "review", str(path), "--lang", "en"])
        assert result.exit_code == 2, (path, result.output)
        assert words in result.stderr and "Traceback" not in result.output
