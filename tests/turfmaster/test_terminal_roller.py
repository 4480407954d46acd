"""The terminal's header names the dice roller as the web page does: during a dice round the one
rolling now ("dice roller this round"), otherwise the one who rolls next (T10: the right to roll
passes at the end of each dice round)."""

import io

from rich.console import Console

from hippodrome.cli.turfmaster_view import screen
from hippodrome.core import Match


def header(view) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(screen(view, [], "en", width=200))
    return console.file.getvalue().splitlines()[0]


def test_the_header_names_who_rolls_this_dice_round_and_who_rolls_next():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": ["Ana", "Bo"]}, seed="roller")
    seen = set()
    while (pending := match.pending()) is not None and len(seen) < 2:
        view = match.state.observation(0)
        race = view.get("race") or {}
        if view["phase"] == "race" and race and not race.get("over"):
            name = view["names"][race["roller"]]
            line = header(view)
            if race["round_kind"] == "dice":
                assert f"dice roller this round: {name}" in line and "next dice roller" not in line, line
            else:
                assert f"next dice roller: {name}" in line, line
            seen.add(race["round_kind"])
        match.act(pending.seat, pending.options[0])
    assert seen == {"card", "dice"}
