"""Courses as data (ruling T12): loading, validation and a fast runtime form.

A course file lists every square of every lane with its index along the lane (0 = start
square), its line (how far along the race it is: squares on one line are level), its
neighbours ahead (``next`` in the lane, ``in`` / ``out`` the diagonal step towards the rail /
away from it) and its drawing cell (four corners in SVG coordinates). A file with an error is
refused with a :class:`CourseError` naming the file, the square and the fault.

At run time a square is a small integer id; the arrays of :class:`Course` are indexed by it.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import Message

NO_SQUARE = -1


class CourseError(InvalidSetup):
    """A course file that does not describe a playable course."""


@dataclass(frozen=True)
class Fence:
    number: int | str
    line: int
    note: str


class Course:
    """A loaded, validated course. Square ids are dense ints; use :meth:`square` to find one."""

    def __init__(self, data: dict[str, Any], source: str):
        self.source = source
        self.data = data
        self.name: str = data["name"]
        self.title: str = data.get("title", self.name)
        self.lanes: int = data["lanes"]
        self.fences: tuple[Fence, ...] = tuple(
            Fence(f["number"], f["line"], f.get("note", "")) for f in data.get("fences", ())
        )
        squares = data["squares"]
        self.lane_of: list[int] = [s["lane"] for s in squares]
        self.index_of: list[int] = [s["index"] for s in squares]
        self.line_of: list[int] = [s["line"] for s in squares]
        #: each square's place in move order (T2), smallest first: the farthest line first, the inner
        #: lane first on a line (no two squares share a line and a lane)
        self.move_order_key: list[int] = [self.lanes * -s["line"] + s["lane"] for s in squares]
        self._ids: dict[tuple[int, int], int] = {
            (s["lane"], s["index"]): i for i, s in enumerate(squares)
        }

        def ref(pair):
            return NO_SQUARE if pair is None else self._ids[tuple(pair)]

        self.next: list[int] = [ref(s["next"]) for s in squares]
        self.inward: list[int] = [ref(s["in"]) for s in squares]
        self.outward: list[int] = [ref(s["out"]) for s in squares]
        self.prev: list[int] = [NO_SQUARE] * len(squares)
        for sid, ahead in enumerate(self.next):
            if ahead != NO_SQUARE:
                self.prev[ahead] = sid
        #: the squares a horse on a square blocks for the others (T4): its own, and the ones right
        #: ahead of and behind it in its lane
        self.blocks: list[tuple[int, ...]] = [
            tuple(s for s in (sid, self.next[sid], self.prev[sid]) if s != NO_SQUARE) for sid in range(len(squares))
        ]
        #: each square's bit in a bit mask of squares (bit ``s`` for square ``s``)
        self.bit: list[int] = [1 << sid for sid in range(len(squares))]
        #: the last square of each square's lane; a lane's squares have consecutive ids (checked)
        self.lane_last: list[int] = [0] * len(squares)
        for sid in reversed(range(len(squares))):
            ahead = self.next[sid]
            if ahead not in (NO_SQUARE, sid + 1):
                raise CourseError(Message("{file}: the squares of a lane must be listed in order, lane by lane",
                                          file=source))
            self.lane_last[sid] = sid if ahead == NO_SQUARE else self.lane_last[ahead]
        #: moves on this course when no horse is near (movement._free_moves fills it, by fences)
        self.free_moves: dict[frozenset[int], dict[int, Any]] = {}
        #: one of the built-in courses (load_course): its tables of moves are kept on disk (move_cache)
        self.built_in = False
        self.finish_index: tuple[int, ...] = tuple(data["finish"])
        self.crossed: list[bool] = [
            s["index"] >= self.finish_index[s["lane"]] for s in squares
        ]
        fence_lines = {f.line for f in self.fences}
        self.fence_squares: frozenset[int] = frozenset(
            i for i, line in enumerate(self.line_of) if line in fence_lines
        )
        self.start_squares: tuple[int, ...] = tuple(self._ids[(lane, 0)] for lane in range(self.lanes))

    def __len__(self) -> int:
        return len(self.lane_of)

    def __repr__(self) -> str:
        return f"Course({self.name!r}, {len(self)} squares)"

    def square(self, lane: int, index: int) -> int:
        """The id of the square at ``index`` along ``lane``; InvalidSetup if there is none."""
        try:
            return self._ids[(lane, index)]
        except KeyError:
            if not 0 <= lane < self.lanes:
                # NOTE: {course} is the course's id ("oval" or "triangle"); a position file counts lanes from 0,
                # the inner lane.
                raise InvalidSetup(Message(
                    "lane {lane} does not exist on the {course} course: lanes are 0 (the inner lane) to {last}",
                    lane=str(lane), course=self.name, last=self.lanes - 1,
                )) from None
            last = max(i for (l, i) in self._ids if l == lane)
            # NOTE: {course} is the course's id ("oval" or "triangle"); square 0 is the start.
            raise InvalidSetup(Message(
                "square {index} does not exist in lane {lane} of the {course} course: squares are 0 (start) to {last}",
                index=str(index), lane=lane, course=self.name, last=last,
            )) from None

    def name_of(self, sid: int) -> dict[str, int]:
        return {"lane": self.lane_of[sid], "square": self.index_of[sid]}


def _at(source: str, square: dict) -> dict[str, str]:
    """The placeholders that name a square of a course file: {file}, {lane}, {index}."""
    return {"file": source, "lane": str(square.get("lane")), "index": str(square.get("index"))}


# The messages below name the file, then the square (lane, index) when there is one, then the
# fault. JSON keys in quotes ('lanes', 'next', 'in', 'out') stay in English in every language.

def validate(data: Any, source: str) -> None:
    """Raise CourseError naming the file, the square and the fault of the first error."""
    if not isinstance(data, dict):
        raise CourseError(Message("{file}: the file must hold a JSON object", file=source))
    for key in ("name", "lanes", "finish", "squares"):
        if key not in data:
            raise CourseError(Message("{file}: missing key {key}", file=source, key=repr(key)))
    lanes = data["lanes"]
    if not isinstance(lanes, int) or not 1 <= lanes <= 8:
        raise CourseError(Message("{file}: 'lanes' must be a whole number from 1 to 8, not {lanes}",
                                  file=source, lanes=repr(lanes)))
    squares = data["squares"]
    if not isinstance(squares, list) or not squares:
        raise CourseError(Message("{file}: 'squares' must be a non-empty list", file=source))
    by_key: dict[tuple[int, int], dict] = {}
    for square in squares:
        if not isinstance(square, dict):
            raise CourseError(Message("{file}: every square must be an object, not {square}",
                                      file=source, square=repr(square)))
        for key in ("lane", "index", "line", "next", "in", "out", "cell"):
            if key not in square:
                raise CourseError(Message("{file}: square (lane {lane}, index {index}) missing key {key}",
                                          key=repr(key), **_at(source, square)))
        lane, index = square["lane"], square["index"]
        if not isinstance(lane, int) or not 0 <= lane < lanes:
            raise CourseError(Message("{file}: square (lane {lane}, index {index}) lane must be 0 to {last}",
                                      last=str(lanes - 1), **_at(source, square)))
        if not isinstance(index, int) or index < 0:
            raise CourseError(Message("{file}: square (lane {lane}, index {index}) index must be a whole number, "
                                      "0 or more", **_at(source, square)))
        if (lane, index) in by_key:
            raise CourseError(Message("{file}: square (lane {lane}, index {index}) appears twice", **_at(source, square)))
        by_key[(lane, index)] = square
        cell = square["cell"]
        if (not isinstance(cell, list) or len(cell) < 3
                or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(c, (int, float)) for c in p)
                           for p in cell)):
            raise CourseError(Message("{file}: square (lane {lane}, index {index}) cell must be a list of at least "
                                      "3 [x, y] points", **_at(source, square)))
        if not isinstance(square["line"], int):
            raise CourseError(Message("{file}: square (lane {lane}, index {index}) line must be a whole number",
                                      **_at(source, square)))
    for lane in range(lanes):
        indices = sorted(i for (l, i) in by_key if l == lane)
        if not indices:
            raise CourseError(Message("{file}: lane {lane} has no squares", file=source, lane=str(lane)))
        if indices != list(range(len(indices))):
            gap = next(i for i, expected in zip(indices, range(len(indices))) if i != expected)
            raise CourseError(Message("{file}: lane {lane} skips from index {previous} to {index}; indices must "
                                      "run 0, 1, 2 ...", file=source, lane=str(lane), previous=str(gap - 1),
                                      index=str(gap)))
    finish = data["finish"]
    if not isinstance(finish, list) or len(finish) != lanes:
        raise CourseError(Message("{file}: 'finish' must list one index per lane ({lanes})",
                                  file=source, lanes=str(lanes)))
    for lane, index in enumerate(finish):
        if (lane, index) not in by_key:
            raise CourseError(Message("{file}: finish index {index} of lane {lane} is not a square of that lane",
                                      file=source, index=str(index), lane=str(lane)))
    lines_by_lane: dict[int, list[tuple[int, int]]] = {lane: [] for lane in range(lanes)}
    for (lane, index), square in by_key.items():
        lines_by_lane[lane].append((square["line"], index))
    for entries in lines_by_lane.values():
        entries.sort()
    for (lane, index), square in by_key.items():
        line = square["line"]
        ahead = square["next"]
        if ahead is None:
            if (lane, index + 1) in by_key:
                raise CourseError(Message("{file}: square (lane {lane}, index {index}) 'next' is null but "
                                          "(lane {lane}, index {following}) exists",
                                          following=str(index + 1), **_at(source, square)))
        else:
            if list(ahead) != [lane, index + 1]:
                raise CourseError(Message("{file}: square (lane {lane}, index {index}) 'next' must be {expected}, "
                                          "not {found}", expected=repr([lane, index + 1]), found=repr(ahead),
                                          **_at(source, square)))
            if by_key[(lane, index + 1)]["line"] <= line:
                raise CourseError(Message("{file}: square (lane {lane}, index {index}) the next square of the lane "
                                          "is not on a line ahead", **_at(source, square)))
        for key, neighbour_lane in (("in", lane - 1), ("out", lane + 1)):
            target = square[key]
            if not 0 <= neighbour_lane < lanes:
                if target is not None:
                    raise CourseError(Message("{file}: square (lane {lane}, index {index}) {key} must be null: "
                                              "lane {neighbour} does not exist", key=repr(key),
                                              neighbour=str(neighbour_lane), **_at(source, square)))
                continue
            entries = lines_by_lane[neighbour_lane]
            at = bisect.bisect_right(entries, (line, float("inf")))
            expected_ref = [neighbour_lane, entries[at][1]] if at < len(entries) else None
            if (None if target is None else list(target)) != expected_ref:
                raise CourseError(Message(
                    "{file}: square (lane {lane}, index {index}) {key} must be the nearest square strictly ahead "
                    "in lane {neighbour}: {expected}, not {found}", key=repr(key), neighbour=str(neighbour_lane),
                    expected=repr(expected_ref), found=repr(target), **_at(source, square)))
    lines = {s["line"] for s in squares}
    for fence in data.get("fences", []):
        if not isinstance(fence, dict) or "line" not in fence or "number" not in fence:
            raise CourseError(Message("{file}: a fence needs a 'number' and a 'line': {fence}",
                                      file=source, fence=repr(fence)))
        if fence["line"] not in lines:
            raise CourseError(Message("{file}: fence {fence} stands on line {line}, which has no square",
                                      file=source, fence=str(fence["number"]), line=str(fence["line"])))
        on_line = [s for s in squares if s["line"] == fence["line"]]
        if len(on_line) != lanes:
            raise CourseError(Message("{file}: fence {fence} must stand on a line with a square in every lane",
                                      file=source, fence=str(fence["number"])))


def load_course_file(path: str | Path) -> Course:
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as error:
        # NOTE: {reason} is the system's reason, such as "No such file or directory".
        raise CourseError(Message("{file}: cannot be read ({reason})", file=str(path), reason=error.strerror)) from None
    except json.JSONDecodeError as error:
        # NOTE: {reason} is the JSON reader's reason, in English.
        raise CourseError(Message("{file}: not valid JSON (line {line}, column {column}: {reason})", file=str(path),
                                  line=str(error.lineno), column=str(error.colno), reason=error.msg)) from None
    validate(data, str(path))
    return Course(data, str(path))


COURSE_NAMES = ("oval", "triangle")


@cache
def load_course(name: str) -> Course:
    """One of the built-in courses, by name ('oval' or 'triangle')."""
    if name not in COURSE_NAMES:
        # NOTE: {name} is what was asked for; {courses} lists the courses' ids ("oval", "triangle").
        raise InvalidSetup(Message("unknown course {name}; choose one of: {courses}", name=repr(name),
                                   courses=", ".join(COURSE_NAMES)))
    path = resources.files("hippodrome.turfmaster") / "courses" / f"{name}.json"
    with resources.as_file(path) as real_path:
        course = load_course_file(real_path)
    course.built_in = True
    return course
