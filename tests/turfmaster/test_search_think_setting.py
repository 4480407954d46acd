"""The search bot's thinking time: a budget given to its level (`hippodrome serve --think`,
`simulate --think`), else 1 s; a budget out of range is refused with what a right one looks like."""

import subprocess
import sys

from fastapi.testclient import TestClient

from hippodrome.core.registry import description_of
from hippodrome.server.app import create_app
from hippodrome.table.bots import make_bot
from hippodrome.turfmaster.search import DEFAULT_THINK, SearchBot


def test_one_second_by_default():
    assert SearchBot().think == DEFAULT_THINK == 1.0
    assert make_bot("turfmaster", "search", 1).think == DEFAULT_THINK


def test_the_level_that_searches_takes_a_budget_and_the_others_ignore_it():
    levels = {level.name: level for level in description_of("turfmaster").bots}
    assert [name for name, level in levels.items() if level.budget] == ["search"]
    assert make_bot("turfmaster", "search", 1, 0.25).think == 0.25
    assert make_bot("turfmaster", "tactical", 1, 0.25).name == "tactical"


def test_a_server_gives_its_budget_to_the_search_bots_of_its_tables(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.db"), bot_delay=0, bot_budget=0.3)) as client:
        made = client.post("/api/tables", json={
            "game": "turfmaster-race", "setup": {"course": "oval", "horses": [
                {"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
            "seats": [{"name": "Ana", "kind": "person"}, {"name": "S", "kind": "bot", "level": "search"}]}).json()
        room = client.app.state.hub.rooms[made["id"]]
        assert room.table.players[1].bot.think == 0.3


def test_serve_refuses_a_think_time_out_of_range():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--think", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--think" in result.stderr
