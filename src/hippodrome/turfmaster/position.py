"""Positions on a course, as people write them: ``{"id": "red", "lane": 0, "square": 5}``.

Used by the ``destinations`` command and by races set up mid-way (tests, puzzles): the
squares are checked against the course, and two horses on one square, an unknown lane or
square, or a horse standing on a fence are refused with a message that says what is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hippodrome.core.errors import InvalidSetup
from hippodrome.turfmaster.course import COURSE_NAMES, Course, load_course


POSITION_KEYS = ("course", "steeplechase", "horses")


@dataclass(frozen=True)
class Position:
    course: Course
    steeplechase: bool
    squares: dict[str, int]  # horse id -> square id, in the order given
    ignored_keys: tuple[str, ...] = ()  # keys of the file that a position does not have

    @property
    def fences(self) -> frozenset[int]:
        return self.course.fence_squares if self.steeplechase else frozenset()


def course_and_fences(name: Any, steeplechase: Any) -> tuple[Course, bool]:
    if not isinstance(name, str):
        raise InvalidSetup(f"'course' must be one of {', '.join(COURSE_NAMES)}, not {name!r}")
    course = load_course(name)
    if not isinstance(steeplechase, bool):
        raise InvalidSetup(f"'steeplechase' must be true or false, not {steeplechase!r}")
    if steeplechase and not course.fences:
        raise InvalidSetup(f"the {name} course has no fences; steeplechase is run on: "
                           + ", ".join(n for n in COURSE_NAMES if load_course(n).fences))
    return course, steeplechase


def place_horses(course: Course, steeplechase: bool, horses: Any) -> dict[str, int]:
    """Square ids of ``[{"id", "lane", "square"}, ...]``, validated."""
    if not isinstance(horses, list) or not horses:
        raise InvalidSetup("'horses' must be a non-empty list of {\"id\": ..., \"lane\": L, \"square\": Q}")
    squares: dict[str, int] = {}
    taken: dict[int, str] = {}
    fences = course.fence_squares if steeplechase else frozenset()
    for entry in horses:
        if not isinstance(entry, dict) or not {"id", "lane", "square"} <= entry.keys():
            raise InvalidSetup(f"each horse needs \"id\", \"lane\" and \"square\": got {entry!r}")
        horse, lane, index = entry["id"], entry["lane"], entry["square"]
        if not isinstance(horse, str) or not horse:
            raise InvalidSetup(f"a horse id must be a non-empty string, not {horse!r}")
        if horse in squares:
            raise InvalidSetup(f"horse {horse!r} is listed twice")
        if not isinstance(lane, int) or isinstance(lane, bool) or not isinstance(index, int) or isinstance(index, bool):
            raise InvalidSetup(f"horse {horse!r}: lane and square must be whole numbers")
        square = course.square(lane, index)
        if square in taken:
            raise InvalidSetup(
                f"horses {taken[square]!r} and {horse!r} are both on lane {lane}, square {index}: "
                "only one horse may stand on a square (T4)"
            )
        if square in fences:
            raise InvalidSetup(
                f"horse {horse!r} stands on a fence (lane {lane}, square {index}); "
                "no horse ever stands on a fence square (T11)"
            )
        taken[square] = horse
        squares[horse] = square
    return squares


def parse_position(data: Any) -> Position:
    """A position file: ``{"course": ..., "steeplechase": false, "horses": [...]}``."""
    if not isinstance(data, dict):
        raise InvalidSetup("a position must be a JSON object with 'course', 'steeplechase' and 'horses'")
    if "course" not in data:
        raise InvalidSetup("missing 'course' (oval or triangle)")
    course, steeplechase = course_and_fences(data["course"], data.get("steeplechase", False))
    ignored = tuple(sorted(set(data) - set(POSITION_KEYS)))
    return Position(course, steeplechase, place_horses(course, steeplechase, data.get("horses")), ignored)
