"""Course data (T12): the dimensions of both courses, level lines, and refused course files."""

import copy
import json
from fractions import Fraction

import pytest

from hippodrome.turfmaster.course import CourseError, load_course, load_course_file


def lane_length(course, lane):
    return max(course.index_of[s] for s in range(len(course)) if course.lane_of[s] == lane)


@pytest.mark.parametrize("name,lap,curves,finish", [("oval", 100, 2, 113), ("triangle", 111, 3, 124)])
def test_T12_laps_curves_and_finish_line(name, lap, curves, finish):
    course = load_course(name)
    assert course.lanes == 8
    for lane in range(8):
        assert course.finish_index[lane] == finish + curves * lane
        # the lap closes: index lap + curves*lane is level with the start square
        start, after_lap = course.square(lane, 0), course.square(lane, lap + curves * lane)
        assert course.data["squares"][start]["cell"] == course.data["squares"][after_lap]["cell"]
        assert not course.crossed[course.square(lane, finish - 1 + curves * lane)]
        assert course.crossed[course.square(lane, finish + curves * lane)]


def test_T12_each_outer_lane_has_one_more_square_in_every_curve(oval):
    # oval: curve 1 of lane k runs from index 31 to 50 + k
    for lane in range(8):
        first_curve = [s for s in range(len(oval)) if oval.lane_of[s] == lane and 31 <= oval.index_of[s]
                       and oval.line_of[s] < oval.line_of[oval.square(0, 51)]]
        assert len(first_curve) == 20 + lane


def test_T12_straights_are_level_and_curve_ends_are_level(oval, triangle):
    for lane in range(8):
        assert oval.line_of[oval.square(lane, 17)] == oval.line_of[oval.square(0, 17)]
        assert oval.line_of[oval.square(lane, 50 + lane)] == oval.line_of[oval.square(0, 50)]
        assert triangle.line_of[triangle.square(lane, 37 + lane)] == triangle.line_of[triangle.square(0, 37)]


def test_T12_curve_squares_are_level_at_equal_fractions(oval):
    # lane k's j-th curve square stands at j / (20 + k): 10/20 == 11/22 == 12/24
    assert oval.line_of[oval.square(0, 40)] == oval.line_of[oval.square(2, 41)] == oval.line_of[oval.square(4, 42)]
    assert oval.line_of[oval.square(1, 41)] != oval.line_of[oval.square(0, 41)]
    assert Fraction(11, 21) > Fraction(10, 20)
    assert oval.line_of[oval.square(1, 41)] > oval.line_of[oval.square(0, 40)]


def test_T12_every_square_has_a_drawing_cell(oval, triangle):
    for course in (oval, triangle):
        for square in course.data["squares"]:
            assert len(square["cell"]) == 4


def test_T11_T12_six_fences_on_straight_lines_of_the_oval(oval, triangle):
    assert len(oval.fences) == 6 and len(oval.fence_squares) == 48
    assert triangle.fences == ()


@pytest.fixture
def oval_data(oval):
    return copy.deepcopy(oval.data)


def write(tmp_path, data):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("breakage,message", [
    (lambda d: d["squares"][5].update(next=[0, 9]), r"broken.json: square \(lane 0, index 5\) 'next' must be \[0, 6\]"),
    (lambda d: d["squares"][5].update(out=[1, 9]), r"square \(lane 0, index 5\) 'out' must be the nearest square"),
    (lambda d: d["squares"][5].update(cell=[[0, 0]]), r"square \(lane 0, index 5\) cell must be"),
    (lambda d: d["squares"].append(dict(d["squares"][5])), r"square \(lane 0, index 5\) appears twice"),
    (lambda d: d["squares"][7].update(lane=9), r"square \(lane 9, index 7\) lane must be 0 to 7"),
    (lambda d: d.update(finish=[1000] * 8), r"finish index 1000 of lane 0 is not a square"),
    (lambda d: d["fences"].append({"number": 9, "line": 123456}), r"fence 9 stands on line 123456"),
    (lambda d: d["squares"][3].pop("line"), r"square \(lane 0, index 3\) missing key 'line'"),
])
def test_T12_a_broken_course_file_is_refused_naming_file_square_and_fault(tmp_path, oval_data, breakage, message):
    breakage(oval_data)
    with pytest.raises(CourseError, match=message):
        load_course_file(write(tmp_path, oval_data))


def test_T12_unreadable_course_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(CourseError, match="bad.json: not valid JSON"):
        load_course_file(bad)
    with pytest.raises(CourseError, match="missing.json: cannot be read"):
        load_course_file(tmp_path / "missing.json")


def test_T12_a_course_with_other_dimensions_is_a_new_file_not_new_code(tmp_path):
    import importlib.util
    import sys
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("build_courses", Path(__file__).parents[2] / "tools" / "build_courses.py")
    builder = importlib.util.module_from_spec(spec)
    sys.modules["build_courses"] = builder
    spec.loader.exec_module(builder)
    small = {"title": "Small", "lap": [("straight", 10, "a"), ("curve", 6, "b"), ("straight", 10, "c"),
                                       ("curve", 6, "d")], "turn": 3.141592653589793, "finish_after": 5, "fences": []}
    course = load_course_file(write(tmp_path, builder.build("small", small)))
    assert course.finish_index[0] == 32 + 6 and course.finish_index[3] == 38 + 6


def test_committed_course_files_match_their_builder(oval, triangle):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("build_courses2", Path(__file__).parents[2] / "tools" / "build_courses.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    for course in (oval, triangle):
        assert builder.build(course.name, builder.COURSES[course.name]) == course.data
