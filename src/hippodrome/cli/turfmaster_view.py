"""Drawing a TurfMaster meeting in the terminal with Rich: from a seat's view only, in one language.

The course is drawn unrolled, one row per lane (rail on top), one column per rail square:
a square of an outer lane goes in the column of the rail square level with it (its "line",
T12), so horses level on the track stand in one column. ``#`` is a fence, ``┃`` the finish
line, ``~`` in the ruler marks a curve.

Every word goes through the catalogs (docs/i18n.md): each function takes the language ``lang``.
What happened in a race (the race history's events) and the choices offered (a decision's
options) are told by whole sentences looked up in ``EVENT_SENTENCES`` and ``OPTION_SENTENCES``,
keyed by the event's or option's kind; their placeholders are filled by ``sentence_params``.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from itertools import groupby
from operator import itemgetter
from typing import Any, Mapping

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.cells import cell_len
from rich.text import Text

from hippodrome.i18n import (
    Listing, Message, N_, Ordinal, Plural, colon, format_number, localize_text, message_from_json, translate,
)
from hippodrome.i18n.vocabulary import TURFMASTER_COURSES, horse_name, term
from hippodrome.turfmaster.cards import HORSE_COLOURS, HORSE_IDS, handicap_number
from hippodrome.turfmaster.course import Course, load_course
from hippodrome.turfmaster.choice_words import OPTION_SENTENCES, option_key, sentence_params
from hippodrome.turfmaster.square_words import lane_number, square_params

DARK_TEXT = {"yellow", "white"}
RACES = 3


# -- words ------------------------------------------------------------------------------------

def horse_list(horses: list[str], lang: str) -> str:
    return Listing([horse_name(horse) for horse in horses]).translate(lang)


def course_label(course: str, steeplechase: bool) -> Message | str:
    name = term(TURFMASTER_COURSES, course) if course in TURFMASTER_COURSES else course
    if not steeplechase:
        return name
    # NOTE: TurfMaster: a course with its fences up, e.g. "Oval, steeplechase" (rule T11).
    return Message("{course}, steeplechase", course=name)


@cache
def horse_letters(lang: str) -> dict[str, str]:
    """One letter per horse for the course map: the first letter of its name in ``lang`` that no
    horse before it took ("R" for Red, "L" for Black after Blue took "B"; "Ü" for Grün after Gelb)."""
    letters: dict[str, str] = {}
    for horse in HORSE_IDS:
        name = localize_text(horse_name(horse), lang).upper()
        letters[horse] = next((c for c in name if c.isalpha() and c not in letters.values()), horse[0].upper())
    return letters


def horse_style(horse: str) -> str:
    return f"bold {'black' if horse in DARK_TEXT else 'white'} on {HORSE_COLOURS[horse]}"


def horse_label(horse: str, lang: str) -> Text:
    name = localize_text(horse_name(horse), lang)
    return Text(f" {horse_letters(lang)[horse]} ", style=horse_style(horse)) + Text(f" {name}")


# -- the sentences: what happened, and what may be chosen -----------------------------------------

def event_key(event: Mapping[str, Any]) -> str:
    """Which sentence of EVENT_SENTENCES tells ``event`` (a race history or meeting event)."""
    kind = str(event.get("event"))
    if kind == "card" and "handicapped" in event:
        return "card_above_limit"
    if kind == "move":
        short = "_short" if event["steps"] < event["points"] else ""
        return f"move{short}{'_fell' if event.get('fell') else ''}"
    if kind == "dice_use":
        return f"dice_use_{event.get('use')}"
    return kind


#: What happened, one whole sentence per kind of event: the race history's events, then the
#: meeting's own (bonus cards and cards given up between races, rule T8).
EVENT_SENTENCES: Mapping[str, str] = {
    # NOTE: TurfMaster, a card played for a horse: {card} is the card ("7", "J12" a joker 12).
    "card": N_("{horse} plays {card}"),
    # NOTE: TurfMaster, rule T6: a non-joker card above the horse's handicap limit is spent without moving.
    "card_above_limit": N_("{horse} plays {card}: above its limit of {limit}, it does not move"),
    "move": N_("{horse} moves {steps} to lane {lane}, square {square}"),
    # NOTE: TurfMaster, rule T5: the horse was boxed in and could use only {steps} of its {points} points.
    "move_short": N_("{horse} moves {steps} (only {steps} of {points} possible) to lane {lane}, square {square}"),
    # NOTE: TurfMaster, rule T11: the horse moves and falls at the fence it could not jump.
    "move_fell": N_("{horse} moves {steps} to lane {lane}, square {square} and falls at the fence"),
    # NOTE: TurfMaster, rules T5 and T11: boxed in, then falls at the fence.
    "move_short_fell": N_("{horse} moves {steps} (only {steps} of {points} possible) to lane {lane}, "
                          "square {square} and falls at the fence"),
    "roll": N_("{name} rolls {a} and {b}"),
    "dice_use_sum": N_("The roller uses the sum: {n}"),
    "dice_use_die": N_("The roller uses one die: {n}"),
    "finish": N_("{horse} finishes {place}"),
    "no_card": N_("{horse} has no card left and stands still"),
    "claim_bonus": N_("{horse} takes its bonus cards"),
    "bonus_dealt": N_("{horse} is dealt its bonus cards"),
    "bonus_discard": N_("{horse} loses {n} cards at random"),
    "keep_discard": N_("{horse} gives up a card"),
}

def _sentence(sentences: Mapping[str, str], key: str, item: Mapping[str, Any], names: list[str],
              lang: str) -> str:
    try:
        return translate(lang, sentences[key], **sentence_params(item, names))
    except KeyError:  # a kind this screen does not know, or a malformed one: show the data as it is
        return str(dict(item))


def describe_event(event: Mapping[str, Any], names: list[str], lang: str) -> str:
    return _sentence(EVENT_SENTENCES, event_key(event), event, names, lang)


def describe_option(option: Mapping[str, Any], lang: str, names: list[str] | None = None) -> str:
    return _sentence(OPTION_SENTENCES, option_key(option), option, names or [], lang)


#: What a player is asked, by the kind of decision (the decision's context gives the placeholders).
PROMPTS: Mapping[str, str] = {
    # NOTE: TurfMaster: the owner picks a card for a horse in a round of cards.
    "card": N_("Round of cards: choose a card for {horse}"),
    # NOTE: TurfMaster, rule T6: the horse's handicap limit is shown with the question.
    "card_limit": N_("Round of cards: choose a card for {horse} (handicap: at most {limit})"),
    # NOTE: TurfMaster, rule T5: the owner picks the square where the move ends.
    "square": N_("{horse} moves {steps} of {points} points: choose the square where it ends"),
    # NOTE: TurfMaster, rule T1: the dice roller decides how every horse moves.
    "dice_use": N_("You rolled {a} and {b}: choose how all horses move"),
    # NOTE: TurfMaster, rule T6: {a} and {b} are the two dice.
    "die": N_("{horse} is handicapped (at most {limit}): move it by one die, {a} or {b}"),
    # NOTE: TurfMaster, rule T8.
    "claim_bonus": N_("Before race {race}: claim the 2 bonus cards of {horse}?"),
    # NOTE: TurfMaster, rule T8: the horse's turn in a round of cards finds its hand empty.
    "empty_hand": N_("{horse} has no card left: claim its bonus cards, or let it stand still"),
    "keep": N_("{horse} holds {n} cards and may keep {limit}: give up {k} more."),
}


def prompt_text(view: Mapping[str, Any], lang: str) -> str:
    pending = view.get("pending") or {}
    context = dict(pending.get("context") or {})
    kind = str(pending.get("kind"))
    if kind == "card" and context.get("limit"):
        kind = "card_limit"
    if kind not in PROMPTS:
        return kind
    if "horse" in context:
        context["horse"] = horse_name(context["horse"])
    if context.get("dice"):
        context["a"], context["b"] = context["dice"]
    if "hand" in context:
        context["n"], context["k"] = len(context["hand"]), context.get("to_discard")
    return translate(lang, PROMPTS[kind], **{key: value for key, value in context.items() if value is not None})


# -- notes on the options ------------------------------------------------------------------------

def option_note(pending: Mapping[str, Any], index: int, lang: str) -> str:
    """The note on option ``index``: from ``notes_i18n`` when the view has it, else ``notes``."""
    notes_i18n = pending.get("notes_i18n")
    if notes_i18n is not None:
        note = notes_i18n[index] if index < len(notes_i18n) else None
        return localize_text(message_from_json(note), lang) if note else ""
    notes = pending.get("notes") or []
    return localize_text(notes[index], lang) if index < len(notes) and notes[index] else ""


# -- the course ---------------------------------------------------------------------------------

@cache
def _columns(course_name: str) -> tuple[list[int], list[int], int]:
    """(column of every square, rail lines, the finish column)."""
    course = load_course(course_name)
    rail = sorted((course.line_of[s], course.index_of[s]) for s in range(len(course)) if course.lane_of[s] == 0)
    rail_lines = [line for line, _ in rail]
    columns = []
    for square in range(len(course)):
        position = bisect_right(rail_lines, course.line_of[square]) - 1
        columns.append(rail[max(position, 0)][1])
    return columns, rail_lines, course.finish_index[0]


def _curve_columns(course: Course) -> set[int]:
    curves, start = set(), 0
    for section in course.data["sections"]:
        if section["kind"] == "curve":
            curves.update(range(start, start + section["rail_squares"]))
        start += section["rail_squares"]
    return curves


def _ruler(shown: range, finish: int, curves: set[int], margin: int) -> Text:
    ruler = Text(" " * margin)
    for column in shown:
        if column == finish:
            ruler.append("┃", style="bold red")
        elif column % 10 == 0:
            ruler.append(str(column // 10 % 10), style="dim")
        else:
            ruler.append("~" if column in curves else "-", style="dim")
    return ruler


#: the course panel's border and padding, in columns
PANEL_FRAME = 4


def course_map(view: Mapping[str, Any], lang: str, width: int = 80, legend: bool = True,
               frame: int = PANEL_FRAME) -> Text:
    """The course unrolled, one row per lane, in a panel ``width`` columns wide at most: the rows
    show the stretch of the course around the horses that fits beside the lane labels. ``legend``:
    the line saying what the signs mean, above; ``frame``: the columns taken by a panel around it."""
    race = view.get("race") or {}
    course = load_course(view["course"])
    columns, _, finish = _columns(course.name)
    fences = course.fence_squares if view.get("steeplechase") else frozenset()
    at: dict[tuple[int, int], str] = {}
    horse_columns = []
    # before a race, once its stalls are drawn, the horses stand in them (T10: stall n, lane n)
    placed = ([(horse, lane, 0) for lane, horse in enumerate(view["stalls"])] if view["phase"] == "prepare" and view.get("stalls")
              else [(e["id"], e["lane"], e["square"]) for e in race.get("horses", []) if e["stage"] == "racing"])
    for horse, lane, index in placed:
        square = course.square(lane, index)
        at[(lane, columns[square])] = horse
        horse_columns.append(columns[square])
    # NOTE: TurfMaster terminal: the label of a row of the course map, {lane} 1 (the rail) to 8; keep it short.
    lane_labels = [translate(lang, "lane {lane}", lane=lane_number(lane)) + " " for lane in range(course.lanes)]
    margin = max(len(label) for label in lane_labels)
    squares = max(10, width - margin - frame) - 1  # columns of squares, less one
    last = finish + 8
    first = max(0, min(horse_columns, default=0) - 6)
    first = max(0, min(first, last - squares))
    shown = range(first, min(last, first + squares) + 1)
    fence_cells = {(course.lane_of[s], columns[s]) for s in fences}
    text = Text()
    if legend:
        # NOTE: TurfMaster terminal: the legend above the course map; keep the signs ┃ # ~ as they are.
        text.append(Text(translate(lang, "inner lane squares {first} to {last}:  ┃ finish line   # fence   ~ curve   "
                                         "letters: horses (see the table)", first=first, last=shown[-1]) + "\n",
                         style="dim"))
    text.append(_ruler(shown, finish, _curve_columns(course), margin))
    text.append("\n")
    letters = horse_letters(lang)
    for lane, label in enumerate(lane_labels):
        row = Text(label.ljust(margin), style="dim")
        cells = []
        for column in shown:
            horse = at.get((lane, column))
            if horse:
                cells.append((letters[horse], horse_style(horse)))
            elif (lane, column) in fence_cells:
                cells.append(("#", "bold yellow"))
            elif column == finish:
                cells.append(("┃", "red"))
            else:
                cells.append(("·", "green" if column < finish else "dim"))
        # a run of squares in one style is one span: a row of a thousand spans takes Rich as long
        # to draw as the rest of the screen
        for style, run in groupby(cells, key=itemgetter(1)):
            row.append("".join(sign for sign, _ in run), style=style)
        text.append(row)
        if lane < course.lanes - 1:
            text.append("\n")
    return text


# -- the tables ----------------------------------------------------------------------------------

def _where(entry: Mapping[str, Any]) -> Message | str:
    """Where a horse is: finished (and its place), fallen, or its lane and square."""
    stage = entry.get("stage")
    if stage == "finished":
        # NOTE: TurfMaster horses table: {place} is an ordinal ("1st").
        return Message("finished {place}", place=Ordinal(entry["place"]))
    if stage == "fallen":
        return Message("fell")
    if stage != "racing":
        return "-"
    return Message("lane {lane}, square {square}", **square_params(entry))


def _bonus(taken_in: int | None) -> Message:
    if taken_in is None:
        # NOTE: TurfMaster horses table: the horse's bonus cards have not been taken yet (T8).
        return Message("unclaimed")
    # NOTE: TurfMaster horses table: the race in which the bonus cards were taken (T8).
    return Message("taken (race {race})", race=taken_in)


def _add_columns(table: RichTable, headers: list[Message], right_from: int | None, lang: str) -> None:
    for number, header in enumerate(headers):
        table.add_column(header.translate(lang), justify="right" if right_from is not None and number >= right_from
                         else "left")


def _stall(view: Mapping[str, Any], horse: str) -> Message | str:
    """Where a horse waits before a race: its stall, counted from the inside (T10)."""
    stalls = view.get("stalls") or []
    # NOTE: TurfMaster: a horse's starting stall before a race, counted from the inside (rule T10).
    return Message("stall {n}", n=stalls.index(horse) + 1) if horse in stalls else "-"


def horses_table(view: Mapping[str, Any], lang: str) -> RichTable:
    """The horses in a table; before a race (and between races) each in its stall, the race run
    being told apart (its places and falls in the log, its points in the points table)."""
    race = view.get("race") or {}
    running = view["phase"] == "race"
    by_id = {h["id"]: h for h in race.get("horses", [])} if running else {}
    table = RichTable(title=translate(lang, "Horses"), title_justify="left", expand=False)
    # NOTE: TurfMaster horses table, a column header: the horse's turn in this round's move order (T2).
    headers = [Message("Horse"), Message("Owner"), Message("Where"), Message("Turn"), Message("Handicap"),
               Message("Cards"), Message("Bonus cards")]
    _add_columns(table, headers, None, lang)
    order = race.get("order") or []
    current = (view.get("pending") or {}).get("horse")
    for horse in view["horses"]:
        entry = by_id.get(horse["id"], {})
        racing = entry.get("stage") == "racing"
        limit = entry.get("limit") if racing else None
        turn = format_number(order.index(horse["id"]) + 1, lang) if racing and horse["id"] in order else ""
        label = horse_label(horse["id"], lang)
        if horse["id"] == current:
            label.append("  ◀", style="bold")
        # NOTE: TurfMaster horses table, under "Handicap": the handicap's number as the rulebooks print it and
        # the most squares it allows, "9 (at most 8)" (T6); the web page's table says the same.
        where = _where(entry) if running else _stall(view, horse["id"])
        table.add_row(label, view["names"][horse["owner"]], localize_text(where, lang), turn,
                      translate(lang, "{handicap} (at most {limit})", handicap=handicap_number(limit), limit=limit)
                      if limit else "",
                      format_number(horse["cards"], lang), localize_text(_bonus(horse["bonus_taken_in"]), lang))
    return table


def standings_table(view: Mapping[str, Any], lang: str, title: Message | None = None) -> RichTable:
    table = RichTable(title=localize_text(title or Message("Points"), lang), title_justify="left")
    # NOTE: TurfMaster points table: column headers.
    headers = [Message("Rank"), Message("Player")]
    headers += [Message("Race {n}", n=number) for number in range(1, RACES + 1)]
    headers.append(Message("Total"))
    _add_columns(table, headers, 2, lang)
    table.columns[-1].style = "bold"
    for row in view["standings"]:
        races = [format_number(p, lang) for p in row["races"]] + [""] * (RACES - len(row["races"]))
        name = view["names"][row["seat"]]
        if row["seat"] == view.get("seat"):
            # NOTE: TurfMaster points table: the player reading the screen.
            name = translate(lang, "{name}  (you)", name=name)
        table.add_row(format_number(row["rank"], lang), name, *races, format_number(row["total"], lang))
    return table


# -- the screen ----------------------------------------------------------------------------------

#: The header's round, by the round's kind (rule T1).
ROUND_TITLES: Mapping[str, str] = {"card": N_("round {n}: cards"), "dice": N_("round {n}: dice")}


def _title(view: Mapping[str, Any], lang: str, width: int | None = None) -> str:
    """The header: game, course, race, round and its kind, dice, the dice roller (this round's in a
    dice round, else the next one). Within ``width`` columns, where given, the game's name and then
    the course are left out first (the screen shows both otherwise), so that the race, the round,
    the dice and the roller are read whole."""
    return " - ".join(_title_words(view, lang, width))


def title_lines(view: Mapping[str, Any], lang: str, width: int) -> list[str]:
    """The header within ``width`` columns: one line (:func:`_title`), or, where the race, the round,
    the dice and the roller are longer than that (a dice round in Spanish, a long name), two: the
    roller on a line of its own, so that nothing of them is cut."""
    words = _title_words(view, lang, width)
    title = " - ".join(words)
    if cell_len(title) <= width or len(words) < 2:
        return [title]
    return [" - ".join(words[:-1]), words[-1]]


def _title_words(view: Mapping[str, Any], lang: str, width: int | None) -> list[str]:
    """The header's parts, in the reader's language, less those :func:`_title` leaves out."""
    race = view.get("race") or {}
    parts: list[Any] = [translate(lang, "TurfMaster"), course_label(view["course"], view["steeplechase"]),
                        Message("Race {n} of 3", n=view["race_no"])]
    if view["phase"] == "race" and race:
        round_title = ROUND_TITLES[race["round_kind"]]
        parts.append(Message(round_title, n=race["round"]))
        if race.get("dice"):
            parts.append(translate(lang, "dice:") + f" {race['dice'][0]}+{race['dice'][1]}")
    roller = view.get("roller") if view["phase"] != "race" else race.get("roller")
    if roller is not None and view["phase"] == "race" and race.get("round_kind") == "dice" and not race.get("over"):
        # the right to roll passes at the end of each dice round (T10): during one, it is this round's
        parts.append(Message("dice roller this round: {name}", name=view["names"][roller]))
    elif roller is not None:
        parts.append(Message("next dice roller: {name}", name=view["names"][roller]))
    words = [localize_text(part, lang) for part in parts]
    for first in (0, 1, 2):   # the game's name, then the course, left out while the rest is too long
        if width is None or cell_len(" - ".join(words[first:])) <= width:
            break
    return words[first:]


def _hands(hands: Mapping[str, list[str]], lang: str) -> Text:
    text = Text(translate(lang, "Your hands:") + " ", style="bold")
    for horse, cards in hands.items():
        text.append(horse_label(horse, lang))
        # NOTE: TurfMaster terminal: a horse's hand holds no card.
        text.append(colon(lang) + (" ".join(cards) if cards else translate(lang, "(none)")) + "   ")
    return text


def shows_course(view: Mapping[str, Any]) -> bool:
    """The course is drawn while a race runs, and before one once its stalls are drawn."""
    return bool((view.get("race") and view["phase"] == "race") or (view["phase"] == "prepare" and view.get("stalls")))


#: the most lines of the move log a screen shows
MOVES_SHOWN = 8


def screen(view: Mapping[str, Any], events: list[str], lang: str, width: int = 80,
           height: int | None = None) -> Group:
    """Everything a seat sees: header, course, horses, own hands, points, recent events.

    ``height``: the lines the screen may take (a terminal's, less the question below it). What does
    not fit is left out, least needed first: the points table, then the move log's older lines,
    then the horses table; the header, the course and the seat's hands stay."""
    title = [Text(_title(view, lang), style="bold")]
    if view["phase"] == "prepare" and view["stalls"]:
        title.append(Text(stalls_line(view["race_no"], view["stalls"], lang)))
    course = ([Panel(course_map(view, lang, width), title=translate(lang, "The course"), expand=False)]
              if shows_course(view) else [])
    horses = [horses_table(view, lang)]
    hands = [_hands(view["hands"], lang)] if view.get("hands") else []
    points = [standings_table(view, lang)]

    def moves(lines: int) -> list[Any]:
        shown = events[-lines:] if lines > 0 else []
        return [Panel(Text("\n".join(shown)), title=translate(lang, "Moves"), expand=False)] if shown else []

    if height is None:
        return Group(*title, *course, *horses, *hands, *points, *moves(MOVES_SHOWN))
    measure = Console(width=width)
    left = height - _lines(measure, title + course + hands)
    horses_lines = _lines(measure, horses)
    if horses_lines > left:
        horses, horses_lines = [], 0
    left -= horses_lines
    log = moves(min(MOVES_SHOWN, len(events), left - 2))   # a panel's two borders
    left -= _lines(measure, log)
    if _lines(measure, points) > left:
        points = []
    return Group(*title, *course, *horses, *hands, *points, *log)


def _lines(console: Console, parts: list[Any]) -> int:
    """How many lines ``parts`` take on ``console`` (its width)."""
    return sum(len(console.render_lines(part, pad=False)) for part in parts)


def options_block(view: Mapping[str, Any], lang: str, warnings: Mapping[int, str] | None = None) -> Text:
    """The question and its numbered options with their notes; ``warnings``: more words on some
    options (by index), what playing them would lead to (:func:`hippodrome.cli.turfmaster.consequence_warnings`)."""
    pending = view.get("pending") or {}
    text = Text(prompt_text(view, lang) + "\n", style="bold cyan")
    for index, option in enumerate(pending.get("options") or []):
        text.append(f"  {index + 1:>2}) {describe_option(option, lang, view.get('names'))}")
        note = "; ".join(part for part in (option_note(pending, index, lang), (warnings or {}).get(index)) if part)
        if note:
            text.append(f"   [{note}]", style="yellow")
        text.append("\n")
    return text


def stalls_line(race_no: int, stalls: list[str], lang: str) -> str:
    # NOTE: TurfMaster: the starting stalls of a race (rule T10), the inner stall first.
    return translate(lang, "Stalls for race {race} (inner first): {horses}", race=race_no,
                     horses=horse_list(stalls, lang))


def race_over_line(result: Mapping[str, Any], lang: str) -> str:
    """A race run, for the log of what happened: its places with the points each earns (T9), and
    the horses that fell (T11): the terminal's small screens have no room for the points table."""
    # NOTE: TurfMaster: a horse's place in a race run ({place}: "1st") and the points it earns.
    places = [Plural("{place} {horse}: {n} point", "{place} {horse}: {n} points", result["points"][horse],
                     place=Ordinal(number), horse=horse_name(horse))
              for number, horse in enumerate(result["places"], start=1)]
    if result["fallen"]:
        places.append(Message("fell: {horses}", horses=horse_list(result["fallen"], lang)))
    # NOTE: TurfMaster terminal: a race run; {places} lists its places and points, separated by semicolons.
    return translate(lang, "Race {n} is over: {places}", n=result["race"], places=Listing(places, "; "))


def _result_line(result: Mapping[str, Any], lang: str) -> Text:
    line = Text(translate(lang, "Race {n}", n=result["race"]) + colon(lang))
    for place, horse in enumerate(result["places"], start=1):
        line.append(localize_text(Ordinal(place), lang) + " ")
        line.append(horse_label(horse, lang))
        line.append("  ")
    if result["fallen"]:
        # NOTE: TurfMaster final table: the horses that fell in a race (rule T11).
        line.append(translate(lang, "fell: {horses}", horses=horse_list(result["fallen"], lang)))
    return line


def final_block(view: Mapping[str, Any], lang: str) -> Group:
    # NOTE: TurfMaster, rule T9: the final table is ordered by points, then by the best single places.
    title = Message("Final table (points, then best single places)")
    return Group(standings_table(view, lang, title), *(_result_line(result, lang) for result in view["results"]))

