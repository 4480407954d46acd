"""Game.warm_up: TurfMaster fills each built-in course's table of empty-course moves (T3, T5: every
square and every value of a card or a roll; T11: with the course's fences) once per process (the
server in a thread when its first table of the game is made), so that no table's first move waits."""

import pytest

from hippodrome.turfmaster.course import COURSE_NAMES, load_course
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race


def course_tables():
    return {name: set(load_course(name).free_moves) for name in COURSE_NAMES}


def expected_tables():
    return {name: {frozenset(), load_course(name).fence_squares} for name in COURSE_NAMES}


@pytest.mark.parametrize("warm_up", [Race.warm_up, Meeting.warm_up])
def test_warm_up_fills_every_course_with_and_without_its_fences(warm_up, monkeypatch):
    for name in COURSE_NAMES:
        monkeypatch.setattr(load_course(name), "free_moves", {})
    assert all(not tables for tables in course_tables().values())
    warm_up()
    assert course_tables() == expected_tables()
    for name in COURSE_NAMES:
        course = load_course(name)
        for table in course.free_moves.values():
            assert len(table) >= len(course)   # every square, at least one value each


def test_the_server_warms_a_game_once_beside_the_loop(monkeypatch):
    import threading

    from hippodrome.server import rooms

    calls, done = [], threading.Event()
    monkeypatch.setattr(rooms, "_warmed", set())
    monkeypatch.setattr(Meeting, "warm_up", classmethod(lambda cls: (calls.append(threading.current_thread()),
                                                                     done.set())))
    rooms.warm_up_in_background("turfmaster")
    rooms.warm_up_in_background("turfmaster")
    assert done.wait(30)
    assert len(calls) == 1 and calls[0] is not threading.main_thread()
