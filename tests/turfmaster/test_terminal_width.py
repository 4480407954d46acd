"""The terminal screen fits the terminal: every line of a meeting's screen within the width asked
for (80 columns by default), on both courses, with fences, in every language (issue: TurfMaster at
the table, terminal)."""

import io

import pytest
from rich.console import Console

from hippodrome.cli.turfmaster_view import options_block, screen
from hippodrome.core import Match
from hippodrome.i18n import LANGUAGES


def race_view(setup, seed, decisions):
    """Seat 0's view some decisions into race 1 (every seat plays its last option)."""
    match = Match("turfmaster", setup, seed=seed)
    for _ in range(decisions):
        pending = match.pending()
        match.act(pending.seat, pending.options[-1])
    while match.state.observation(0)["phase"] != "race" or match.pending().seat != 0:
        pending = match.pending()
        match.act(pending.seat, pending.options[-1])
    return match.state.observation(0)


def rendered_lines(view, lang, width):
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
    console.print(screen(view, ["a move"] * 10, lang, width))
    console.print(options_block(view, lang))
    return console.file.getvalue().splitlines()


@pytest.mark.parametrize("setup", [
    {"players": 4, "horses_per_player": 2, "course": "oval", "steeplechase": True},
    {"players": 8, "horses_per_player": 1, "course": "triangle"},
])
@pytest.mark.parametrize("width", [80, 60])
def test_every_line_of_the_screen_fits_the_width(setup, width):
    view = race_view(setup, seed="w", decisions=40)
    for lang in LANGUAGES:
        lines = rendered_lines(view, lang, width)
        too_long = [line for line in lines if len(line) > width]
        assert not too_long, (lang, too_long[:3])
        lanes = [line for line in lines if line.lstrip("│ ").startswith(("lane", "carril", "couloir", "spoor", "Bahn"))]
        assert len(lanes) == 8  # T12: eight lanes, each on one row
        # players count lanes from 1 on the rail (the top row) to 8: the data's lane 0 is never shown
        assert [line.lstrip("│ ").split()[1] for line in lanes] == [str(n) for n in range(1, 9)]


def test_a_wider_terminal_shows_more_of_the_course():
    view = race_view({"players": 2, "horses_per_player": 2}, seed="w", decisions=10)
    narrow = max(len(line) for line in rendered_lines(view, "en", 80) if "lane 8" in line)
    wide = max(len(line) for line in rendered_lines(view, "en", 140) if "lane 8" in line)
    assert narrow <= 80 < wide <= 140


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_on_notes_gives_as_example_an_option_that_has_one(lang):
    """The compact question stars the options with a note (a card over its horse's limit, T6; the
    bonus cards' choice, T8) and its help line shows how to read one: its example, "?N", is the
    first starred option, never a number without a note or beyond the options."""
    import re

    from hippodrome.cli.turfmaster_screen import compact_options
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed="notes")
    examples = set()
    while match.pending() is not None and len(examples) < 4:
        pending = match.pending()
        if pending.seat == 0:
            lines = compact_options(match.state.observation(0), lang, {}, 80).plain.splitlines()
            helps = [line for line in lines if line.startswith("* ")]
            starred = [int(number) for line in lines[1:]
                       for number, label in re.findall(r"(\d+)\) (.*?)(?=\s{3,}\d+\)|$)", line) if label.endswith(" *")]
            assert bool(helps) == bool(starred), lines
            if helps:
                assert re.findall(r"\?\s?(\d+)", helps[0])[-1] == str(min(starred)), (helps[0], starred)
                examples.add(min(starred))
        match.act(pending.seat, pending.options[-1])
    assert len(examples) >= 2, "the meeting showed starred options at several places in the list"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_in_a_dice_round_the_compact_header_shows_the_dice_and_the_roller_whole(lang):
    """T10: in a round of dice the roller rolls two dice; the compact screen's header (80 columns)
    says the race, the round, the dice and who rolls them, nothing cut with "…": on a second line
    where one is too short for them (a long name, Spanish or Dutch words)."""
    from hippodrome.cli.turfmaster_screen import frame
    from hippodrome.i18n import translate
    names = ["Ana", "Tactical bot 2"]
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": names}, seed="header")
    headers = []
    while match.pending() is not None and len(headers) < 6:
        pending = match.pending()
        view = match.state.observation(0)
        race = view.get("race") or {}
        if pending.seat == 0 and view["phase"] == "race" and race.get("round_kind") == "dice" and race.get("dice") \
                and not race.get("over"):
            console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
            console.print(frame(view, ["a move"] * 5, lang, 80, 24, {}))
            lines = console.file.getvalue().splitlines()
            roller = translate(lang, "dice roller this round: {name}", name=names[race["roller"]])
            at = next(n for n, line in enumerate(lines) if roller in line)
            head = " ".join(lines[:at + 1])
            assert at <= 1 and "…" not in head, lines[:3]
            assert f"{race['dice'][0]}+{race['dice'][1]}" in head and translate(lang, "Race {n} of 3", n=view["race_no"]) in head
            assert all(len(line) <= 80 for line in lines) and len(lines) <= 24 - 2
            headers.append(at)
        match.act(pending.seat, pending.options[-1])
    assert len(headers) == 6


def test_the_french_screen_puts_a_no_break_space_before_its_colons():
    """The compact screen (80x24) and the roomy one (120x40) in French: "Rouge\u00a0: 11 cartes",
    "Vos mains\u00a0: R Rouge\u00a0: 3 7 8" and every other colon as French typography writes it (issue 39)."""
    from hippodrome.cli.turfmaster_screen import frame
    from tests.i18n.texts import french_typography_faults
    view = race_view({"players": 2, "horses_per_player": 2}, seed="colons", decisions=10)
    for width, height in ((80, 24), (120, 40)):
        console = Console(file=io.StringIO(), width=width, height=height, color_system=None)
        console.print(frame(view, ["a move"], "fr", width, height, {}))
        text = console.file.getvalue()
        assert "Rouge\u00a0: " in text, text
        faults = [(line, fault) for line in text.splitlines() for fault in french_typography_faults(line)]
        assert not faults, faults
