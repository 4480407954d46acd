"""Drawing a TurfMaster meeting in the terminal with Rich: from a seat's view only.

The course is drawn unrolled, one row per lane (rail on top), one column per rail square:
a square of an outer lane goes in the column of the rail square level with it (its "line",
T12), so horses level on the track stand in one column. ``#`` is a fence, ``┃`` the finish
line, ``~`` in the ruler marks a curve.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from hippodrome.turfmaster.cards import HORSE_COLOURS
from hippodrome.turfmaster.course import Course, load_course

LETTER = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "black": "K", "white": "W", "brown": "N",
          "purple": "P"}
DARK_TEXT = {"yellow", "white"}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def horse_label(horse: str) -> Text:
    style = f"bold {'black' if horse in DARK_TEXT else 'white'} on {HORSE_COLOURS[horse]}"
    return Text(f" {LETTER[horse]} ", style=style) + Text(f" {horse}")


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


def course_map(view: dict[str, Any], width: int = 100) -> Text:
    race = view.get("race") or {}
    course = load_course(view["course"])
    columns, _, finish = _columns(course.name)
    fences = course.fence_squares if view.get("steeplechase") else frozenset()
    at: dict[tuple[int, int], str] = {}
    horse_columns = []
    for entry in race.get("horses", []):
        if entry["status"] == "racing":
            square = course.square(entry["lane"], entry["square"])
            at[(entry["lane"], columns[square])] = entry["id"]
            horse_columns.append(columns[square])
    last = finish + 8
    first = max(0, min(horse_columns, default=0) - 6)
    first = max(0, min(first, last - width))
    shown = range(first, min(last, first + width) + 1)
    fence_cells = {(course.lane_of[s], columns[s]) for s in fences}
    curves = _curve_columns(course)
    text = Text()
    ruler = Text("       ")
    for column in shown:
        if column == finish:
            ruler.append("┃", style="bold red")
        elif column % 10 == 0:
            ruler.append(str(column // 10 % 10), style="dim")
        else:
            ruler.append("~" if column in curves else "-", style="dim")
    text.append(Text(f"rail squares {first} to {shown[-1]}:  ┃ finish line   # fence   ~ curve   "
                     "letters: horses (see the table)\n", style="dim"))
    text.append(ruler)
    text.append("\n")
    for lane in range(course.lanes):
        row = Text(f"lane {lane} ", style="dim")
        for column in shown:
            horse = at.get((lane, column))
            if horse:
                style = f"bold {'black' if horse in DARK_TEXT else 'white'} on {HORSE_COLOURS[horse]}"
                row.append(LETTER[horse], style=style)
            elif (lane, column) in fence_cells:
                row.append("#", style="bold yellow")
            elif column == finish:
                row.append("┃", style="red")
            else:
                row.append("·", style="green" if column < finish else "dim")
        text.append(row)
        if lane < course.lanes - 1:
            text.append("\n")
    return text


def horses_table(view: dict[str, Any]) -> RichTable:
    race = view.get("race") or {}
    by_id = {h["id"]: h for h in race.get("horses", [])}
    table = RichTable(title="Horses", title_justify="left", expand=False)
    for column in ("horse", "owner", "where", "handicap", "cards", "bonus"):
        table.add_column(column)
    order = race.get("order") or []
    current = (view.get("pending") or {}).get("horse")
    for horse in view["horses"]:
        entry = by_id.get(horse["id"], {})
        status = entry.get("status")
        if status == "finished":
            where = f"finished {ordinal(entry['place'])}"
        elif status == "fallen":
            where = "fell"
        elif status == "racing":
            where = f"lane {entry['lane']} sq {entry['square']}"
            if horse["id"] in order:
                where += f"  (moves {order.index(horse['id']) + 1})"
        else:
            where = "-"
        limit = entry.get("limit") if status == "racing" else None
        bonus = "unclaimed" if horse["bonus_taken_in"] is None else f"taken (race {horse['bonus_taken_in']})"
        label = horse_label(horse["id"])
        if horse["id"] == current:
            label.append("  ◀", style="bold")
        table.add_row(label, view["names"][horse["owner"]], where, f"max {limit}" if limit else "",
                      str(horse["cards"]), bonus)
    return table


def standings_table(view: dict[str, Any], title: str = "Points") -> RichTable:
    table = RichTable(title=title, title_justify="left")
    table.add_column("rank")
    table.add_column("player")
    for number in range(1, 4):
        table.add_column(f"race {number}", justify="right")
    table.add_column("total", justify="right", style="bold")
    for row in view["standings"]:
        races = [str(p) for p in row["races"]] + [""] * (3 - len(row["races"]))
        name = view["names"][row["seat"]] + ("  (you)" if row["seat"] == view.get("seat") else "")
        table.add_row(str(row["rank"]), name, *races, str(row["total"]))
    return table


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    kind = event.get("event")
    if kind == "card":
        extra = f" - above its limit of {event['handicapped']}, it stays put" if "handicapped" in event else ""
        return f"{event['horse']} plays {event['card']}{extra}"
    if kind == "move":
        fell = " and FALLS at the fence" if event.get("fell") else ""
        lost = f" (only {event['steps']} of {event['points']} possible)" if event["steps"] < event["points"] else ""
        return (f"{event['horse']} moves {event['steps']}{lost} to lane {event['to']['lane']} "
                f"sq {event['to']['square']}{fell}")
    if kind == "roll":
        return f"dice roll by {names[event['roller']]}: {event['dice'][0]} and {event['dice'][1]}"
    if kind == "dice_use":
        return f"the dice are used: {'the sum' if event['use'] == 'sum' else 'one die'}, {event['value']}"
    if kind == "finish":
        return f"{event['horse']} finishes {ordinal(event['place'])}"
    if kind == "no_card":
        return f"{event['horse']} has no card left and stands still"
    return str(event)


def describe_option(option: dict[str, Any]) -> str:
    kind = option["type"]
    if kind == "card":
        return f"play {option['card']} for {option['horse']}"
    if kind == "square":
        return f"{option['horse']} ends on lane {option['lane']}, square {option['square']}"
    if kind == "dice_use":
        return "use the sum of both dice" if option["use"] == "sum" else f"use one die: {option['value']}"
    if kind == "die":
        return f"{option['horse']} moves {option['value']} (one die)"
    if kind == "claim_bonus":
        return f"claim the 2 bonus cards of {option['horse']}"
    if kind == "decline_bonus":
        return f"not now: keep {option['horse']}'s bonus cards for later"
    if kind == "discard":
        return f"give up a {option['card']} from {option['horse']}'s hand"
    return str(option)


def prompt_text(view: dict[str, Any]) -> str:
    pending = view.get("pending") or {}
    context = pending.get("context") or {}
    kind = pending.get("kind")
    horse = context.get("horse")
    if kind == "card":
        limit = context.get("limit")
        return f"Card round: choose a card for {horse}" + (f" (handicap: max {limit})" if limit else "")
    if kind == "square":
        return f"{horse} moves {context.get('steps')} of {context.get('points')} points: choose its end square"
    if kind == "dice_use":
        dice = context.get("dice")
        return f"You rolled {dice[0]} and {dice[1]}: choose how all horses move"
    if kind == "die":
        return f"{horse} is handicapped (max {context.get('limit')}): move one die of {context.get('dice')}"
    if kind == "claim_bonus":
        return f"Before race {context.get('race')}: claim {horse}'s 2 bonus cards?"
    if kind == "keep":
        return (f"Before race {context.get('race')}: {horse} holds {len(context['hand'])} cards, the limit is "
                f"{context['limit']}: give up {context['to_discard']} (one at a time)")
    return str(kind)


def screen(view: dict[str, Any], events: list[str], width: int = 100) -> Group:
    """Everything a seat sees: header, course, horses, own hands, points, recent events, the choice."""
    race = view.get("race") or {}
    title = (f"TurfMaster - {view['course']}{' steeplechase' if view['steeplechase'] else ''} - "
             f"race {view['race_no']} of 3")
    if view["phase"] == "race" and race:
        kind = "card round" if race["round_kind"] == "card" else "dice round"
        title += f" - round {race['round']} ({kind})"
        if race.get("dice"):
            title += f" - dice {race['dice'][0]}+{race['dice'][1]}"
    roller = view.get("roller") if view["phase"] != "race" else race.get("roller")
    if roller is not None:
        title += f" - next dice roller: {view['names'][roller]}"
    parts: list[Any] = [Text(title, style="bold")]
    if view["phase"] == "prepare" and view["stalls"]:
        parts.append(Text(f"Stalls for race {view['race_no']} (inner first): " + ", ".join(view["stalls"])))
    if race and view["phase"] == "race":
        parts.append(Panel(course_map(view, width), title="course", expand=False))
    parts.append(horses_table(view))
    hands = view.get("hands") or {}
    if hands:
        text = Text("Your hands: ", style="bold")
        for horse, cards in hands.items():
            text.append(horse_label(horse))
            text.append(": " + (" ".join(cards) if cards else "(none)") + "   ")
        parts.append(text)
    parts.append(standings_table(view))
    if events:
        parts.append(Panel(Text("\n".join(events[-8:])), title="what happened", expand=False))
    return Group(*parts)


def options_block(view: dict[str, Any]) -> Text:
    pending = view.get("pending") or {}
    text = Text(prompt_text(view) + "\n", style="bold cyan")
    notes = pending.get("notes") or []
    for number, option in enumerate(pending.get("options") or [], start=1):
        text.append(f"  {number:>2}) {describe_option(option)}")
        note = notes[number - 1] if number - 1 < len(notes) else ""
        if note:
            text.append(f"   [{note}]", style="yellow")
        text.append("\n")
    return text


def final_block(view: dict[str, Any]) -> Group:
    rows = [standings_table(view, "Final table (T9: points, then best single places)")]
    for result in view["results"]:
        line = Text(f"race {result['race']}: ")
        for place, horse in enumerate(result["places"], start=1):
            line.append(f"{ordinal(place)} ")
            line.append(horse_label(horse))
            line.append("  ")
        if result["fallen"]:
            line.append("fell: " + ", ".join(result["fallen"]))
        rows.append(line)
    return Group(*rows)
