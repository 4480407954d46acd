"""The rules page's diagrams, played on the engine, and where each ruling is explained.

``ANCHORS`` maps each ruling of docs/rulings.md (T1 ..) to the paragraph of the rules
page (``/rules/turfmaster#blocking``) that explains it to players, so that a page can link a
refusal or a note to its paragraph. ``diagrams()`` builds every diagram of that page from the real
course and the real engine: the squares drawn are the course file's squares (lane, index and
drawing cell), the reachable squares come from ``movement.destinations``, and the handicaps, the
dice round, the fall and the finish are races run by ``Race`` from a prepared position. The page
(web/rules/turfmaster.js) only draws what this returns (``GET /api/games/turfmaster/rules``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable

from hippodrome.turfmaster.cards import HAND_SIZE, HORSE_COLOURS, HORSE_IDS, full_deck
from hippodrome.turfmaster.course import Course, load_course
from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.race import CARD_ROUND, Race

#: ruling -> the paragraph of the rules page that explains it
ANCHORS: dict[str, str] = {
    "T1": "rounds", "T2": "order", "T3": "lane-changes", "T4": "blocking", "T5": "full-move",
    "T6": "handicap", "T7": "cards", "T8": "bonus-cards", "T9": "finish", "T10": "stalls",
    "T11": "fences", "T12": "course", "T13": "no-card",
}



def _place(course: Course, sid: int) -> list[int]:
    return [course.lane_of[sid], course.index_of[sid]]


def _window(course: Course, squares: Iterable[int], fences: frozenset[int] = frozenset()) -> list[list[Any]]:
    """The course's squares around ``squares``: one line before and after them, from the rail to
    one lane beyond the outermost; each ``[lane, index, cell, mark]`` (mark: "fence", "past"
    (beyond the finish line) or "")."""
    squares = list(squares)
    lines = [course.line_of[s] for s in squares]
    low, high = min(lines) - 1, max(lines) + 1
    lanes = max(course.lane_of[s] for s in squares) + 1
    cells = course.data["squares"]
    window = []
    for sid in range(len(course)):
        if low <= course.line_of[sid] <= high and course.lane_of[sid] <= lanes:
            mark = "fence" if sid in fences else "past" if course.crossed[sid] else ""
            window.append([course.lane_of[sid], course.index_of[sid], cells[sid]["cell"], mark])
    return window


def _horse(course: Course, horse: str, sid: int, **more: Any) -> dict[str, Any]:
    """A horse of a diagram: its colour, its square, and its number, painted on its token as the
    game's board paints it (its place among the game's horses)."""
    return {"id": horse, "colour": HORSE_COLOURS[horse], "number": HORSE_IDS.index(horse) + 1,
            "at": _place(course, sid), **more}


# -- moves on an empty or crowded straight (T3, T4, T5): the movement function itself -------------
def _move_diagram(course: Course, mover: tuple[str, int, int], points: int,
                  others: Iterable[tuple[str, int, int]] = ()) -> dict[str, Any]:
    horse, lane, index = mover
    start = course.square(lane, index)
    placed = [(h, course.square(l, i)) for h, l, i in others]
    blocked = blocked_squares(course, [s for _, s in placed])
    moves = destinations(course, start, points, blocked)
    shown_blocked = sorted(blocked - {s for _, s in placed})
    return {
        "squares": _window(course, [start, *moves.ends, *blocked]),
        "horses": [_horse(course, horse, start, moving=True)] + [_horse(course, h, s) for h, s in placed],
        "blocked": [_place(course, s) for s in shown_blocked],
        "ends": [_place(course, s) for s in sorted(moves.ends)],
        "points": points, "steps": moves.steps,
    }


# -- races run by the engine from a prepared position ----------------------------------------------
def _race(horses: list[tuple[str, int, int]], *, first_round: str = CARD_ROUND, steeplechase: bool = False,
          cards: dict[str, str] | None = None) -> Race:
    """A race on the oval with ``horses`` (id, lane, square) placed, each horse's hand holding the
    card ``cards`` names for it (the one it plays)."""
    cards = cards or {}
    setup = {"course": "oval", "steeplechase": steeplechase, "first_round": first_round,
             "horses": [{"id": h, "owner": n} for n, (h, _, _) in enumerate(horses)],
             "positions": [{"id": h, "lane": lane, "square": index} for h, lane, index in horses],
             "hands": {h: _hand([cards[h]] if h in cards else []) for h, _, _ in horses}}
    return Race.new(setup)


def _hand(cards: list[str]) -> list[str]:
    """``cards`` (the ones a diagram plays) filled up to a full hand from the rest of the deck."""
    rest = full_deck()
    for card in cards:
        rest.remove(card)
    return cards + rest[:HAND_SIZE - len(cards)]


def _choose_square(race: Race, options: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """A diagram's horse keeps its lane when it can (else the first square offered)."""
    lane = race.course.lane_of[race.square[options[0]["horse"]]]
    return next((o for o in options if o["lane"] == lane), options[0])


def _play_round(race: Race, choices: dict[str, Any]) -> None:
    """Plays the round in progress to its end: ``choices`` gives each horse's card, the roll
    (``"roll"``), the roller's use of it (``"use"``) and a handicapped horse's die (``"die:<horse>"``)."""
    round_no = race.round_no
    while not race.over and race.round_no == round_no:
        pending = race.pending()
        kind = getattr(pending, "kind", None)
        if kind == "roll":
            race.apply({"type": "roll", "dice": choices["roll"]})
        elif kind == "dice_use":
            race.apply(next(o for o in pending.options if o.get("use") == choices["use"]))
        elif kind == "card":
            horse = pending.context["horse"]
            race.apply({"type": "card", "horse": horse, "card": choices[horse]})
        elif kind == "die":
            horse = pending.context["horse"]
            race.apply({"type": "die", "horse": horse, "value": choices[f"die:{horse}"]})
        elif kind == "square":
            race.apply(_choose_square(race, pending.options))
        else:
            raise AssertionError(f"a rules diagram's race stopped at {kind!r}")  # i18n: programming error


def _round_diagram(race: Race, choices: dict[str, Any]) -> dict[str, Any]:
    """A round played: each horse's square before (``from``) and after, its handicap limit, what it
    moved and how, the fall and the places of the horses that finished."""
    course = race.course
    before = dict(race.square)
    limits = dict(race.limits)
    start = len(race.history)
    _play_round(race, choices)
    events = race.history[start:]
    moved = {e["horse"]: e for e in events if e["event"] == "move"}
    played = {e["horse"]: e for e in events if e["event"] == "card"}
    horses = []
    for horse in race.ids:
        entry = _horse(course, horse, race.square[horse], start=_place(course, before[horse]),
                       limit=limits.get(horse))
        if horse in played:
            entry["card"] = played[horse]["card"]
            entry["spent"] = "handicapped" in played[horse]
        if horse in moved:
            entry["points"], entry["steps"] = moved[horse]["points"], moved[horse]["steps"]
            entry["fell"] = bool(moved[horse].get("fell"))
        if horse in race.places:
            entry["place"] = race.places.index(horse) + 1
        horses.append(entry)
    roll = next((e["dice"] for e in events if e["event"] == "roll"), None)
    use = next((e for e in events if e["event"] == "dice_use"), None)
    shown = [*before.values(), *race.square.values()]
    return {"squares": _window(course, shown, race.fences), "horses": horses, "roll": roll,
            "use": None if use is None else {"use": use["use"], "value": use["value"]}}


def _handicap_position() -> list[tuple[str, int, int]]:
    """Two leaders level, a third horse, a fourth and a fifth out of the handicaps (T2, T6)."""
    return [("red", 0, 21), ("blue", 2, 21), ("yellow", 1, 19), ("green", 0, 17), ("black", 2, 15)]


def _handicaps() -> dict[str, Any]:
    race = _race(_handicap_position())
    course = race.course
    line = course.line_of
    # T2: competition ranking by line (two leaders level are both 1st), beside the engine's limits
    rank = {h: 1 + sum(line[race.square[o]] > line[race.square[h]] for o in race.ids) for h in race.ids}
    return {"squares": _window(course, race.square.values()),
            "horses": [_horse(course, h, race.square[h], limit=race.limits.get(h), rank=rank[h],
                              order=race.order.index(h) + 1) for h in race.ids]}


def _dice_round() -> dict[str, Any]:
    race = _race(_handicap_position(), first_round="dice")
    return _round_diagram(race, {"roll": [6, 5], "use": "sum", "die:red": 6, "die:blue": 5, "die:yellow": 6})


def _card_round() -> dict[str, Any]:
    """A card round with a handicap (a 10 spent by the leader) and a joker that ignores it."""
    horses = [("red", 1, 21), ("blue", 3, 19), ("yellow", 0, 17), ("green", 2, 16)]
    cards = {"red": "10", "blue": "J12", "yellow": "8", "green": "11"}
    race = _race(horses, cards=cards)
    return _round_diagram(race, cards)


def _fences() -> dict[str, Any]:
    """The fence on the first straight: one horse jumps (4 points), one falls (T11)."""
    course = load_course("oval")
    fence = next(f for f in course.fences if f.number == 1)
    index = next(course.index_of[s] for s in course.fence_squares if course.line_of[s] == fence.line)
    horses = [("blue", 1, index - 2), ("red", 3, index - 5)]
    cards = {"blue": "8", "red": "7"}
    race = _race(horses, steeplechase=True, cards=cards)
    return {**_round_diagram(race, cards), "jump_cost": 4}


def _finish() -> dict[str, Any]:
    """The last round: horses cross the line and are placed by how far past it they stand (T9)."""
    horses = [("blue", 2, 112), ("green", 3, 112), ("red", 0, 106), ("yellow", 1, 107)]
    cards = {"blue": "7", "green": "J9", "red": "J12", "yellow": "6"}
    race = _race(horses, cards=cards)
    diagram = _round_diagram(race, cards)
    finish = race.course.finish_index
    return {**diagram, "finish": [[lane, finish[lane]] for lane in range(race.course.lanes)]}


@cache
def diagrams() -> dict[str, Any]:
    """Every diagram of the rules page (computed once)."""
    course = load_course("oval")
    return {
        "anchors": ANCHORS,
        "diagrams": {
            "lane-change-short": _move_diagram(course, ("red", 2, 3), 6),
            "lane-change-long": _move_diagram(course, ("red", 2, 3), 12),
            "blocking": _move_diagram(course, ("green", 1, 2), 8, [("blue", 1, 7), ("yellow", 2, 4)]),
            "full-move": _move_diagram(course, ("green", 0, 2), 8, [("blue", 0, 6), ("yellow", 1, 4)]),
            "handicap": _handicaps(),
            "card-round": _card_round(),
            "dice-round": _dice_round(),
            "fences": _fences(),
            "finish": _finish(),
        },
    }

