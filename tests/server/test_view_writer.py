"""A table's views written from the parts of the views before them (hippodrome.server.views
ViewWriter, issue 32.9): the same JSON as writing each view whole, over whole games of both games,
for every audience; a list handed out again is not written again; a game that changed what it had
shown is caught where the tests run (HIPPODROME_CHECK_VIEWS)."""

from __future__ import annotations

import json
import random

import pytest

from hippodrome.core.game import Chance
from hippodrome.core.match import Match
from hippodrome.server.views import ViewWriter, json_default


def whole(view):
    return json.loads(json.dumps(view, default=json_default))


@pytest.mark.parametrize("game, setup, players", [
    ("turfmaster", {"players": 3, "horses_per_player": 2}, 3),
    ("readysetbet", {"players": 3}, 3),
])
def test_views_written_from_earlier_parts_read_as_each_view_written_whole(game, setup, players, monkeypatch):
    monkeypatch.delenv("HIPPODROME_CHECK_VIEWS")   # the comparison is this test's own
    match, rng = Match(game, setup, seed=11), random.Random(5)
    writer = ViewWriter()
    assert not writer.check
    changes = 0
    while match.pending() is not None and changes < 900:
        for seat in (None, *range(players)):
            view = match.state.view(seat)
            assert json.loads(writer.write(view).data) == whole(view)
        pending = match.pending()
        if isinstance(pending, Chance):
            match.tick()
        else:
            match.act(pending.seat, rng.choice(pending.options))
        changes += 1
    assert changes > 100


class Counted:
    """An item whose writing is counted (to_json, as a Message is written)."""
    written = 0

    def to_json(self):
        Counted.written += 1
        return "item"


def test_a_list_handed_out_again_or_grown_is_not_written_again(monkeypatch):
    monkeypatch.delenv("HIPPODROME_CHECK_VIEWS")   # (the check writes each view whole as well)
    writer = ViewWriter()
    history = [Counted() for _ in range(10)]
    writer.write({"race": {"history": history}})
    Counted.written = 0
    writer.write({"race": {"history": history}, "round": 2})             # the same list
    assert Counted.written == 0
    grown = [*history, Counted()]
    writer.write({"race": {"history": grown}})      # goes on: from now on kept item by item
    Counted.written = 0
    for more in range(1, 4):
        grown = [*grown, Counted()]
        text = writer.write({"race": {"history": grown}}).data              # its items and one more
        assert Counted.written == more and json.loads(text) == {"race": {"history": ["item"] * (11 + more)}}
    writer.write({"race": {"history": [Counted(), *history]}})             # not a continuation
    assert Counted.written == 3 + 11


def test_a_game_that_changes_what_it_has_shown_is_caught_where_the_tests_run():
    writer = ViewWriter()
    assert writer.check   # tests/conftest.py sets HIPPODROME_CHECK_VIEWS for every test
    events = [{"event": "move", "n": n} for n in range(10)]
    for more in range(3):
        events.append({"event": "roll", "n": more})
        writer.write({"history": list(events)})
    events[3]["n"] = 99   # changed in place after it was shown
    with pytest.raises(AssertionError):
        writer.write({"history": list(events)})
