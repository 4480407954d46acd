"""Players read lanes 1 (the rail) to 8, never the data's 0-based lane (ruling T12 numbers the
data from 0 on the rail; the rulebooks' first stall is the one "à la corde"). The data keeps
its numbers: only what a person reads adds 1, through ``turfmaster.square_words``."""

import io
import re

from rich.console import Console

from hippodrome.cli.turfmaster_view import describe_event, describe_option, horses_table
from hippodrome.core import Match
from hippodrome.i18n import LANGUAGES, localize_text, translate
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.puzzles import load_puzzles, pending_decision, position, words_of
from hippodrome.turfmaster.square_words import lane_number, square_params
import hippodrome.turfmaster.meeting  # noqa: F401

LANE = re.compile(r"\blane (\d+)")


def test_T12_the_rail_is_lane_1_and_the_outside_lane_8_for_players():
    assert [lane_number(lane) for lane in range(8)] == [1, 2, 3, 4, 5, 6, 7, 8]
    # the square's index is already counted from the start line (start squares 0, the first ahead 1)
    assert square_params({"lane": 0, "square": 12, "id": "red"}) == {"lane": 1, "square": 12}


def test_a_square_choice_and_a_move_on_the_rail_say_lane_1_in_every_language():
    option = {"type": "square", "horse": "red", "lane": 0, "square": 7}
    event = {"round": 1, "event": "move", "horse": "red", "points": 7, "steps": 7,
             "from": {"lane": 0, "square": 0}, "to": {"lane": 0, "square": 7}}
    assert describe_option(option, "en") == "Red ends on lane 1, square 7"
    assert describe_event(event, [], "en") == "Red moves 7 to lane 1, square 7"
    for lang in LANGUAGES:
        red = localize_text(horse_name("red"), lang)
        assert describe_option(option, lang) == translate(lang, "{horse} ends on lane {lane}, square {square}",
                                                          horse=red, lane=1, square=7)
        assert describe_event(event, [], lang) == translate(lang, "{horse} moves {steps} to lane {lane}, square {square}",
                                                            horse=red, steps=7, lane=1, square=7)


def _race_views(seed, decisions=60):
    """Every view seat 0 is shown and every option offered early in a meeting (the first option each time)."""
    match = Match("turfmaster", {"players": 4, "horses_per_player": 2}, seed=seed)
    views, options = [], []
    for _ in range(decisions):
        pending = match.pending()
        if pending is None:
            break
        views.append(match.state.observation(0))
        options.extend(pending.options)
        match.act(pending.seat, pending.options[0])
    return views, options


def test_every_lane_a_race_shows_in_the_terminal_counts_from_1():
    views, options = _race_views("lanes")
    squares = [o for o in options if o["type"] == "square"]
    assert squares, "the race offered no square to choose"
    for option in squares:
        assert LANE.search(describe_option(option, "en")).group(1) == str(option["lane"] + 1)
    moves = [e for e in views[-1]["race"]["history"] if e["event"] == "move"]
    assert any(e["to"]["lane"] == 0 for e in moves), "no move to the rail to check"
    for event in moves:
        assert LANE.search(describe_event(event, [], "en")).group(1) == str(event["to"]["lane"] + 1)
    # the horses' table: each racing horse's lane, and the inside lane reads "lane 1"
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(horses_table(views[-1], "en"))
    table = console.file.getvalue()
    racing = [h for h in views[-1]["race"]["horses"] if h["stage"] == "racing"]
    for horse in racing:
        assert f"lane {horse['lane'] + 1}, square {horse['square']}" in table
    assert {int(n) for n in LANE.findall(table)} <= set(range(1, 9))


def test_the_keep_inside_puzzle_names_its_lanes_as_players_count_them():
    """A puzzle's words are written by hand: they must count lanes as the board shows them."""
    puzzle = next(p for p in load_puzzles() if p.key == "keep-inside")
    best = puzzle.solution[0]
    ends = {o["square"]: o["lane"] for o in pending_decision(position(puzzle), puzzle).options}
    text = words_of(puzzle).explanation.translate("en")
    assert best["lane"] == 1 and ends[112] == 2  # the data: the second lane from the rail, and the third
    assert f"square {best['square']} of lane {lane_number(best['lane'])}" in text
    assert f"square 112 of lane {lane_number(ends[112])}" in text
    assert f"Moving out to lane {lane_number(ends[112])}" in text
