"""The full-screen TurfMaster game in a terminal (``hippodrome turfmaster play``), as ``less`` or
``htop`` show theirs: each decision redraws one screen in place, the terminal's alternate screen,
that holds at once the course with its horses, the horses' standing, the player's hands and the
question. At 80x24 the roomy drawing (the course in a panel, the horses' table, the options with
their notes) does not fit: the compact one does (the course without its frame, the horses in a
few lines, the options in columns, their notes on demand: ``?`` and the option's number). Below
MIN_WIDTH x MIN_HEIGHT the screen says the size it needs; ``--scroll`` prints the game as a
scrolling log instead (screen readers, pipes).
"""

from __future__ import annotations

from typing import Any, Mapping

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from hippodrome.cli.turfmaster_view import (
    _hands, _lines, _title, course_map, describe_option, horse_letters, horse_style, horses_table, option_note,
    options_block, prompt_text, screen, shows_course, stalls_line, title_lines,
)
from hippodrome.i18n import Listing, Ordinal, Plural, colon, localize_text, translate
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.cards import handicap_number

MIN_WIDTH, MIN_HEIGHT = 60, 20
#: lines kept below the screen: the answer's line and one for a refusal or an option's note
BELOW = 2


def too_small(width: int, height: int, lang: str) -> Text | None:
    """What a terminal below MIN_WIDTH x MIN_HEIGHT is told, or None."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    # NOTE: TurfMaster terminal: the window is too small for the full-screen game; "--scroll" is an option's name.
    return Text(translate(lang, "This terminal is {width}x{height}: the full-screen game needs at least {min_width}x{min_height}. "
                                "Make the window larger, or play with --scroll.", width=width, height=height,
                          min_width=MIN_WIDTH, min_height=MIN_HEIGHT), style="bold")


def horses_lines(view: Mapping[str, Any], lang: str, width: int = 80) -> Text:
    """Each horse in a few words, several to a line: its letter on the course, its name, where it
    stands in the race (its place, fallen, finished), its handicap (T6) and its cards."""
    race = view.get("race") or {}
    by_id = {h["id"]: h for h in race.get("horses", [])} if view["phase"] == "race" else {}
    current = (view.get("pending") or {}).get("horse")
    items = []
    for horse in view["horses"]:
        entry = by_id.get(horse["id"], {})
        item = Text(f" {horse_letters(lang)[horse['id']]} ", style=horse_style(horse["id"]))
        item.append(" " + localize_text(horse_name(horse["id"]), lang), style="bold" if horse["id"] == current else "")
        words = []
        if entry.get("stage") == "finished":
            words.append(translate(lang, "finished {place}", place=Ordinal(entry["place"])))
        elif entry.get("stage") == "fallen":
            words.append(translate(lang, "fell"))
        if entry.get("stage") == "racing" and entry.get("limit"):
            # NOTE: TurfMaster terminal, the horses in short: a handicap as the rulebooks number it and its limit, "9 (at most 8)".
            words.append(translate(lang, "{handicap} (at most {limit})", handicap=handicap_number(entry["limit"]), limit=entry["limit"]))
        # NOTE: TurfMaster terminal, the horses in short: the cards a horse holds.
        words.append(Plural("{n} card", "{n} cards", horse["cards"]).translate(lang))
        item.append(colon(lang) + Listing(words).translate(lang))
        if horse["id"] == current:
            item.append(" ◀", style="bold")
        items.append(item)
    # as many to a line as fit, an item never cut in two
    text, line = Text(), 0
    for item in items:
        if line and line + 3 + len(item) > width:
            text.append("\n")
            line = 0
        if line:
            text.append("   ")
            line += 3
        text.append(item)
        line += len(item)
    return text


def compact_options(view: Mapping[str, Any], lang: str, warnings: Mapping[int, str], width: int,
                    help_line: bool = True) -> Text:
    """The question and its options in as many columns as fit (read down, as ``ls`` lists files), a
    star on those with a note (read with ?N)."""
    pending = view.get("pending") or {}
    options = pending.get("options") or []
    labels = []
    for index, option in enumerate(options):
        noted = bool(option_note(pending, index, lang) or warnings.get(index))
        labels.append(f"{index + 1:>2}) {describe_option(option, lang, view.get('names'))}{' *' if noted else ''}")
    rows = len(labels)
    for columns in range(len(labels), 0, -1):
        rows = -(-len(labels) // columns)
        widths = [max(len(label) for label in labels[c * rows:(c + 1) * rows]) + 3 for c in range(-(-len(labels) // rows))]
        if sum(widths) - 3 <= width:
            break
    text = Text(prompt_text(view, lang) + "\n", style="bold cyan")
    for row in range(rows):
        cells = labels[row::rows]
        text.append("".join(cell.ljust(widths[c]) for c, cell in enumerate(cells)).rstrip() + "\n")
    noted = [number for number, label in enumerate(labels, 1) if label.endswith(" *")]
    if help_line and noted:
        # NOTE: TurfMaster terminal: how to read the note of an option marked with a star; keep "?" and
        # "*"; {n} is the number of the first option with a note, as an example ("?5").
        text.append(translate(lang, "* has a note: type ? and its number to read it (?{n})", n=noted[0]) + "\n",
                    style="yellow")
    return text


def note_of(view: Mapping[str, Any], index: int, warnings: Mapping[int, str], lang: str) -> str:
    """Option ``index``'s note and warning, in full (the answer to ``?N``)."""
    pending = view.get("pending") or {}
    return "; ".join(part for part in (option_note(pending, index, lang), warnings.get(index)) if part)


def frame(view: Mapping[str, Any], events: list[str], lang: str, width: int, height: int,
          warnings: Mapping[int, str]) -> Group:
    """One full screen, ``height - BELOW`` lines at most: the roomy drawing when its course, its
    horses' table, the hands and the question fit, else the compact one."""
    room = height - BELOW
    measure = Console(width=width)
    question = options_block(view, lang, warnings)
    roomy = [Text(_title(view, lang))] + ([Text("")] if view["phase"] == "prepare" and view["stalls"] else [])
    if shows_course(view):
        roomy.append(Panel(course_map(view, lang, width), expand=False))
    roomy += [horses_table(view, lang)] + ([_hands(view["hands"], lang)] if view.get("hands") else [])
    if _lines(measure, roomy + [question]) <= room:   # the roomy drawing, with what else fits
        return Group(screen(view, events, lang, width, room - _lines(measure, [question])), question)
    # the compact drawing: what does not fit goes, least needed first (the latest moves, the line on
    # the notes, the horses' lines, the stalls' line); the title, the course, the hands and the
    # question stay
    title = [Text(line, style="bold", no_wrap=True, overflow="ellipsis") for line in title_lines(view, lang, width)]
    stalls = [Text(stalls_line(view["race_no"], view["stalls"], lang), no_wrap=True, overflow="ellipsis")] \
        if view["phase"] == "prepare" and view["stalls"] else []
    course = [course_map(view, lang, width, legend=False, frame=0)] if shows_course(view) else []
    horses = [horses_lines(view, lang, width)]
    hands = [_hands(view["hands"], lang)] if view.get("hands") else []
    options = compact_options(view, lang, warnings, width)
    if _lines(measure, title + stalls + course + horses + hands + [options]) > room:
        options = compact_options(view, lang, warnings, width, help_line=False)
    for drop in (horses, stalls):
        if _lines(measure, title + stalls + course + horses + hands + [options]) > room:
            drop.clear()
    left = room - _lines(measure, title + stalls + course + horses + hands + [options])
    moves = [Text("\n".join(events[-min(left, 3):]), style="dim")] if events and left > 0 else []
    parts = title + stalls + course + horses + hands + moves
    return Group(*parts, options)
