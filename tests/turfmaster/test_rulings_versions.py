"""A game replays under the rulings it was played with (issue 35.6). T10 changed on 2026-11-27:
with several horses a player the stall draw has two rounds, where it had one roll for every horse.
A meeting stored before that no longer replayed (its first log entry, the one-round stall roll, was
refused). Rulings now have versions: a record keeps the one it was played under (``rulings``), and
a record made before versions replays under the first version its log fits, 1 first.

``fixtures/meeting_rulings_1.json`` is a meeting of two players with two horses each, recorded by
the engine as it was just before the T10 change (commit 8f3cda1's parent), random choices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.match import Match, record_rulings, replay, replayed
from hippodrome.core.review import finished_game
from hippodrome.server import create_app
from hippodrome.turfmaster.meeting import Meeting

OLD = json.loads((Path(__file__).parent / "fixtures" / "meeting_rulings_1.json").read_text())


def test_T10_a_meeting_recorded_before_the_change_fails_under_todays_rulings():
    assert "rulings" not in OLD
    with pytest.raises(IllegalAction, match="log entry 1 cannot be replayed"):
        replay({**OLD, "rulings": Meeting.rulings_version})


def test_T10_it_replays_under_version_1_found_from_its_log_and_keeps_it():
    state, version = replayed(OLD)
    assert version == 1 and state.over and record_rulings(OLD) == 1
    assert [len(group) for group in Meeting.new_under(OLD["setup"], 1).stall_groups] == [4]   # one round
    assert [len(group) for group in Meeting.new(OLD["setup"]).stall_groups] == [2, 2]          # two rounds
    match = Match.from_record(OLD)
    assert match.rulings == 1 and match.record()["rulings"] == 1
    assert replay(match.record()).to_json() == state.to_json()
    assert finished_game(OLD, "turfmaster").over   # a review reads it too


def test_T10_a_record_of_todays_rulings_keeps_its_version_and_replays_without_it():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed="today")
    assert match.rulings == Meeting.rulings_version == 2 and match.record()["rulings"] == 2
    match.resolve_chance()
    unversioned = {k: v for k, v in match.record().items() if k != "rulings"}
    assert replayed(unversioned)[1] == 2   # version 1 refuses its two-round stall draw


def test_a_version_the_engine_does_not_play_is_refused_in_words():
    with pytest.raises(InvalidSetup, match="plays version 2 of its rulings, not version 7"):
        Meeting.new_under(OLD["setup"], 7)
    with pytest.raises(InvalidSetup, match="plays version 1 of its rulings, not version 2"):
        Match("turfmaster-race", {"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}, rulings=2)
    with pytest.raises(InvalidSetup, match="plays version 2 of its rulings, not version 3"):   # R8 as amended
        Match("readysetbet", {"players": 2}, rulings=3)


def test_a_table_stored_before_the_change_loads_and_replays_on_the_server(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0)) as client:
        storage = client.app.state.hub.storage
        seats = [{"name": name, "kind": "person", "token_hash": name} for name in ("Ana", "Bo")]
        storage.create_table("old", "turfmaster", OLD["setup"], OLD["seed"], seats, "h", {})   # no version
        storage.save_progress("old", OLD["log"], len(OLD["log"]), True, False)
        summary = client.get("/api/tables/old").json()
        assert summary.get("status") != "damaged" and summary["over"] is True
        last = client.get("/api/tables/old/replay?step=0").json()["steps"]
        final = client.get(f"/api/tables/old/replay?step={last}").json()
        assert final["view"]["phase"] == "over"
        made = client.post("/api/tables", json={"game": "turfmaster", "setup": {"players": 2},
                                                "seats": [{"name": "A"}, {"name": "B"}]}).json()
        assert storage.load(made["id"])["rulings"] == Meeting.rulings_version   # a new table keeps its version
