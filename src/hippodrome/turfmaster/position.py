"""Positions on a course, as people write them: ``{"id": "red", "lane": 0, "square": 5}``.

Used by the ``destinations`` command and by races set up mid-way (tests, puzzles): the
squares are checked against the course, and two horses on one square, an unknown lane or
square, or a horse standing on a fence are refused with a message that says what is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hippodrome.core.errors import InvalidSetup, given
from hippodrome.i18n import Message
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
        # NOTE: 'course' is a JSON key; {courses} lists the courses' ids ("oval", "triangle"): keep them in English.
        raise InvalidSetup(Message("'course' must be one of {courses}, not {value}", courses=", ".join(COURSE_NAMES),
                                   value=given(name)))
    course = load_course(name)
    if not isinstance(steeplechase, bool):
        # NOTE: 'steeplechase' is a JSON key, true and false its values: keep them in English.
        raise InvalidSetup(Message("'steeplechase' must be true or false, not {value}", value=given(steeplechase)))
    if steeplechase and not course.fences:
        # NOTE: TurfMaster, rule T11; {course} and {courses} are courses' ids ("oval", "triangle").
        raise InvalidSetup(Message("the {course} course has no fences; steeplechase is run on: {courses}", course=name,
                                   courses=", ".join(n for n in COURSE_NAMES if load_course(n).fences)))
    return course, steeplechase


def place_horses(course: Course, steeplechase: bool, horses: Any) -> dict[str, int]:
    """Square ids of ``[{"id", "lane", "square"}, ...]``, validated."""
    if not isinstance(horses, list) or not horses:
        # NOTE: 'horses' is a JSON key and {{"id": ..., "lane": L, "square": Q}} the form of an entry: keep them.
        raise InvalidSetup(Message("'horses' must be a non-empty list of {{\"id\": ..., \"lane\": L, \"square\": Q}}"))
    squares: dict[str, int] = {}
    taken: dict[int, str] = {}
    fences = course.fence_squares if steeplechase else frozenset()
    for entry in horses:
        if not isinstance(entry, dict) or not {"id", "lane", "square"} <= entry.keys():
            # NOTE: "id", "lane" and "square" are JSON keys: keep them in English.
            raise InvalidSetup(Message("each horse needs \"id\", \"lane\" and \"square\": got {entry}", entry=given(entry)))
        horse, lane, index = entry["id"], entry["lane"], entry["square"]
        if not isinstance(horse, str) or not horse:
            raise InvalidSetup(Message("a horse id must be a non-empty string, not {value}", value=given(horse)))
        if horse in squares:
            # NOTE: {horse} is a horse's id, in quotes.
            raise InvalidSetup(Message("horse {horse} is listed twice", horse=given(horse)))
        if not isinstance(lane, int) or isinstance(lane, bool) or not isinstance(index, int) or isinstance(index, bool):
            raise InvalidSetup(Message("horse {horse}: lane and square must be whole numbers", horse=given(horse)))
        square = course.square(lane, index)
        if square in taken:
            # NOTE: TurfMaster, rule T4; {first} and {second} are horses' ids, in quotes.
            raise InvalidSetup(Message(
                "horses {first} and {second} are both on lane {lane}, square {square}: "
                "only one horse may stand on a square",
                first=given(taken[square]), second=given(horse), lane=lane, square=index,
            ))
        if square in fences:
            # NOTE: TurfMaster, rule T11; {horse} is a horse's id, in quotes.
            raise InvalidSetup(Message(
                "horse {horse} stands on a fence (lane {lane}, square {square}); "
                "no horse ever stands on a fence square",
                horse=given(horse), lane=lane, square=index,
            ))
        taken[square] = horse
        squares[horse] = square
    return squares


def parse_position(data: Any) -> Position:
    """A position file: ``{"course": ..., "steeplechase": false, "horses": [...]}``."""
    if not isinstance(data, dict):
        # NOTE: 'course', 'steeplechase' and 'horses' are JSON keys: keep them in English.
        raise InvalidSetup(Message("a position must be a JSON object with 'course', 'steeplechase' and 'horses'"))
    if "course" not in data:
        # NOTE: 'course' is a JSON key, oval and triangle its values: keep them in English.
        raise InvalidSetup(Message("missing 'course' (oval or triangle)"))
    course, steeplechase = course_and_fences(data["course"], data.get("steeplechase", False))
    ignored = tuple(sorted(set(data) - set(POSITION_KEYS)))
    return Position(course, steeplechase, place_horses(course, steeplechase, data.get("horses")), ignored)
