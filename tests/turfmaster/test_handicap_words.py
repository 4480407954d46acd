"""T6 as every rulebook prints it (issue 39): "1ª Posición = Hándicap 9 ► máximo 8 casillas" (000),
"handicap 9 ... limité à 8 cases" (002), "handicap 9, dus maximaal acht" (004), "Handicap 9 =»
maximum 8 Squares" (001). A handicap's number is one above its limit; a text says the limit ("at
most 8 squares") or the number ("handicap 9"), never one for the other."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from hippodrome.cli.turfmaster_view import horses_table
from hippodrome.core import Match
from hippodrome.turfmaster.cards import HANDICAP_LIMITS, HANDICAP_NUMBERS, handicap_number
from hippodrome.turfmaster.description import public_data
from hippodrome.turfmaster.puzzles import load_puzzles, position, words_of
import hippodrome.turfmaster.meeting  # noqa: F401

COLOURS = ("red", "blue", "yellow", "green", "black", "white", "brown", "purple")


def test_T6_the_handicaps_are_numbered_as_the_rulebooks_print_them():
    assert HANDICAP_LIMITS == {1: 8, 2: 9, 3: 10}
    assert HANDICAP_NUMBERS == {1: 9, 2: 10, 3: 11}
    assert all(HANDICAP_NUMBERS[rank] == limit + 1 for rank, limit in HANDICAP_LIMITS.items())
    assert [handicap_number(limit) for limit in (8, 9, 10)] == [9, 10, 11]
    with pytest.raises(StopIteration):
        handicap_number(7)


def test_T6_the_pages_get_each_limit_with_its_handicap_number():
    assert public_data()["handicap_numbers"] == {"8": 9, "9": 10, "10": 11}


def _meeting_view_with_handicaps():
    """Seat 0's view of a meeting a few rounds in, when horses race with handicaps."""
    match = Match("turfmaster", {"players": 4, "horses_per_player": 1}, seed="handicap words")
    for _ in range(200):
        view = match.state.observation(0)
        race = view.get("race") or {}
        if any(h.get("stage") == "racing" and h.get("limit") for h in race.get("horses", [])):
            return view
        pending = match.pending()
        match.act(pending.seat, pending.options[0])
    raise AssertionError("no handicapped horse in 200 decisions")


@pytest.mark.parametrize("lang, words", [("en", "{handicap} (at most {limit})"), ("es", "{handicap} (máximo {limit})"),
                                         ("de", "{handicap} (höchstens {limit})")])
def test_T6_the_terminal_horses_table_shows_the_handicap_and_its_limit(lang, words):
    view = _meeting_view_with_handicaps()
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(horses_table(view, lang))
    table = console.file.getvalue()
    for horse in view["race"]["horses"]:
        if horse.get("stage") == "racing" and horse.get("limit"):
            assert words.format(handicap=horse["limit"] + 1, limit=horse["limit"]) in table, table
    assert "max " not in table and "Limit" not in table


@pytest.mark.parametrize("puzzle", load_puzzles(), ids=lambda p: p.key)
def test_T6_a_puzzle_says_each_horse_s_limit_as_the_position_sets_it(puzzle):
    """A puzzle's words are written by hand: "Black may move at most 10 squares", "White (at most
    8)", "above Red's limit of 8" must be the limit the position gives that horse this round."""
    race = position(puzzle)
    words = words_of(puzzle)
    text = " ".join(m.translate("en") for m in (words.title, words.question, words.explanation))
    names = "|".join(c.capitalize() for c in COLOURS)
    said = [(h, int(n)) for h, n in re.findall(rf"\b({names}),? (?:who )?may move at most (\d+)", text)]
    said += [(h, int(n)) for h, n in re.findall(rf"\b({names}) \(at most (\d+)", text)]
    said += [(h, int(n)) for h, n in re.findall(rf"\babove ({names})'s limit of (\d+)", text)]
    for horse, limit in said:
        assert race.limits.get(horse.lower()) == limit, (puzzle.key, horse, limit, race.limits)
