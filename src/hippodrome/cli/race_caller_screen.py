"""The terminal race caller's screen (``hippodrome readysetbet call``): the track across the
terminal's width, the latest calls under it and the keys, redrawn in place by
:func:`hippodrome.cli.race_caller.run_live`.

The track has a row per horse, named as everywhere (2/3, 4, ... 11/12), and a column per space, 0
(the gate) to 15: each space is :func:`space_width` characters wide, so a wider terminal has longer
spaces. Above the rows, the spaces' numbers, and the red line and the finish named (R2): the red
line, between spaces 9 and 10 (a horse crosses it on reaching 10), is drawn down through every
row; the finish is space 15, whose column a post closes. Each row is drawn from the gate to its
horse, so the dots left before the red line and the post are the spaces the horse still has to
run. Below :data:`MIN_WIDTH` x :data:`MIN_HEIGHT` the screen says the size it needs, and the calls
go on under that.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from hippodrome.i18n import N_, translate
from hippodrome.i18n.vocabulary import READYSETBET_TERMS, term
from hippodrome.readysetbet.dice_race import COLOUR, FINISH, HORSES, RED_LINE

# NOTE: the keys of the terminal race caller, shown under the track.
KEYS_HELP = N_("space/p: pause or resume, q: quit")
# NOTE: shown under the terminal caller's track, in place of its keys, once the race is over.
RACE_OVER = N_("The race is over.")
# NOTE: shown under the terminal caller's track while the race is paused.
PAUSED = N_("PAUSED")
# NOTE: the title of the terminal caller's track; {n} is the race's number.
TRACK_TITLE = N_("Race {n}")
# NOTE: the terminal race caller's track: the word over space 15, the last space, where the race
# ends (Ready Set Bet); a few letters, it stands over a narrow column.
FINISH_LABEL = N_("finish")
TRACK_COLOURS = {"blue": "bright_blue", "orange": "dark_orange", "red": "red", "black": "white"}

#: columns the panel around the screen takes: its border and a column of padding, either side
PANEL_FRAME = 4
#: the horses' names, right-aligned, and the column after them
NAMES = max(len(horse) for horse in HORSES) + 1
#: the fewest columns a space takes: room for "15" and a column between two numbers
MIN_SPACE = 3
#: the track's columns besides its spaces: the red line and the finish post
LINES = 2
MIN_WIDTH = PANEL_FRAME + NAMES + LINES + MIN_SPACE * (FINISH + 1)
#: the screen's lines besides the calls: the panel's border (2), the names of the lines and the
#: spaces' numbers (2), a row per horse, a blank line and the keys
FIXED_LINES = 2 + 2 + len(HORSES) + 1 + 1
#: the calls shown at the least, and a line left free under the screen (the terminal's cursor)
MIN_HEIGHT = FIXED_LINES + 1 + 1
RED = "bold red"
POST = "bold"
#: the finish's column, on a terminal that draws backgrounds
FINISH_BACKGROUND = "on grey23"


def space_width(width: int) -> int:
    """The columns each space of the track takes in a terminal ``width`` columns wide."""
    return max(MIN_SPACE, (width - PANEL_FRAME - NAMES - LINES) // (FINISH + 1))


def too_small(width: int, height: int, lang: str) -> Text | None:
    """What a terminal below MIN_WIDTH x MIN_HEIGHT is told, or None."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    # NOTE: the terminal race caller: the window is too small to draw the track; "--plain" is an option's name.
    return Text(translate(lang, "This terminal is {width}x{height}: the race's track needs at least "
                                "{min_width}x{min_height}. Make the window larger, or call the race with --plain.",
                          width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT), style="bold")


class _Row:
    """One line of the track: the name's column, then each space (its cell), the red line before
    space RED_LINE and the finish post after space FINISH."""

    def __init__(self, name: str = "", style: str = ""):
        self.text = Text()
        self.text.append(name.rjust(NAMES - 1), style=style)
        self.text.append(" ")

    def space(self, space: int, cell: str, style: str) -> None:
        if space == RED_LINE:
            self.text.append("┃", style=RED)
        self.text.append(cell, style=style + (" " + FINISH_BACKGROUND if space == FINISH else ""))
        if space == FINISH:
            self.text.append("┃", style=POST)


def mark_column(size: int) -> int:
    """Where, in a space ``size`` columns wide, a horse stands and its number ends."""
    return size // 2


def _labels(size: int, lang: str) -> Text:
    """The names of the red line (over it) and of the finish (ending over its post)."""
    red = term(READYSETBET_TERMS, "red_line").translate(lang)
    finish = translate(lang, FINISH_LABEL)
    post = (FINISH + 1) * size + 1   # the post's column
    finish_at = max(0, post + 1 - len(finish))
    red_at = max(0, min(RED_LINE * size - len(red) // 2, finish_at - 1 - len(red)))
    text = Text(" " * (NAMES + red_at))
    text.append(red, style=RED)
    text.append(" " * max(1, finish_at - red_at - len(red)))
    text.append(finish, style=POST)
    return text


def _numbers(size: int) -> Text:
    """The spaces' numbers, each ending over the place a horse stands on it (none over the gate)."""
    row = _Row()
    at = mark_column(size)
    for space in range(FINISH + 1):
        number = str(space) if space else ""
        row.space(space, number.rjust(at + 1).ljust(size), "dim")
    return row.text


def _lane(horse: str, position: int, size: int) -> Text:
    """A horse's row: a line from the gate to the horse, then a dot on each space it has still to run."""
    colour = TRACK_COLOURS[COLOUR[horse]]
    row = _Row(horse, colour)
    at = mark_column(size)
    for space in range(FINISH + 1):
        if space < position:
            cell, style = (" " * at if space == 0 else "─" * at) + "─" * (size - at), colour
        elif space == position:
            cell, style = (" " * at if space == 0 else "─" * at) + "●" + " " * (size - at - 1), "bold " + colour
        else:
            cell, style = " " * at + "·" + " " * (size - at - 1), "grey50"
        row.space(space, cell, style)
    return row.text


def track(positions: Sequence[int], lang: str, width: int) -> Text:
    """The track in a terminal ``width`` columns wide: the lines' names, the spaces' numbers, a row a horse."""
    size = space_width(width)
    rows = [_labels(size, lang), _numbers(size)] + [_lane(h, p, size) for h, p in zip(HORSES, positions)]
    return Text("\n").join(rows)


def _latest(lines: Sequence[str], room: int, width: int) -> Text:
    """As many of the latest ``lines`` as ``room`` screen lines hold, wrapped at ``width``."""
    measure = Console(width=width)
    shown: list[str] = []
    for line in reversed(lines):
        room -= len(Text(line).wrap(measure, width))
        if room < 0:
            break
        shown.insert(0, line)
    return Text("\n".join(shown))


def screen(positions: Sequence[int], lines: Sequence[str], paused: bool, race_no: int, lang: str,
           width: int, height: int, over: bool = False, stopped: bool = False):
    """The whole screen, ``height - 1`` lines at most: the track, the latest calls and the keys; or
    the size the track needs, the latest calls and the keys. Once the race is ``over`` the keys'
    line says so; once the caller is ``stopped`` (quit) it is left empty: no key does anything then."""
    keys = Text(_status(paused, lang, over, stopped), style="dim")
    small = too_small(width, height, lang)
    if small is not None:
        room = height - 1 - len(small.wrap(Console(width=width), width)) - 1
        return Group(small, _latest(lines, room, width), keys)
    talk = _latest(lines, height - FIXED_LINES - 1, width - PANEL_FRAME)
    return Panel(Group(track(positions, lang, width), Text(""), talk, keys),
                 title=translate(lang, TRACK_TITLE, n=race_no))


def _status(paused: bool, lang: str, over: bool, stopped: bool) -> str:
    """The line under the calls: the keys (and whether the race is paused) while they work."""
    if over:
        return translate(lang, RACE_OVER)
    if stopped:
        return ""
    status = translate(lang, KEYS_HELP)
    return status + "   [" + translate(lang, PAUSED) + "]" if paused else status
