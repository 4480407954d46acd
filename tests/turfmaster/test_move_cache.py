"""The built-in courses' tables of empty-course moves kept on disk (turfmaster/move_cache.py): a table
read back is the table computed (T3, T4, T5, T11 moves on an empty course), a changed course or a
damaged file is never read, and where the folder cannot be written the table is computed as before."""

import pytest

from hippodrome.turfmaster import move_cache, movement
from hippodrome.turfmaster.course import COURSE_NAMES, load_course, load_course_file


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPPODROME_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def fresh(name):
    """The built-in course ``name`` loaded anew: no table of moves in memory yet."""
    course = load_course_file(load_course(name).source)
    course.built_in = True
    return course


def computing_refused(monkeypatch):
    def refused(*args):
        raise AssertionError("computed where the table should have been read")
    monkeypatch.setattr(movement, "_empty_course_moves", refused)


@pytest.mark.parametrize("name", COURSE_NAMES)
def test_T3_T5_T11_a_table_read_from_the_disk_is_the_table_computed(name, folder, monkeypatch):
    computed = fresh(name)
    fences_sets = {frozenset(), computed.fence_squares}
    for fences in fences_sets:
        movement._free_moves(computed, 0, 1, fences)
    assert len(list(folder.glob("moves-*"))) == len(fences_sets)
    computing_refused(monkeypatch)
    read = fresh(name)
    for fences in fences_sets:
        movement._free_moves(read, 0, 1, fences)
        assert read.free_moves[fences] == computed.free_moves[fences]
        assert all(type(entry[1]) is movement.MoveOptions for entry in read.free_moves[fences].values())
    start = read.square(0, 3)   # a move through the table read: the same as the search over every path
    for fences in fences_sets:
        assert movement.moves_among(read, start, 9, [], fences) == \
            movement._searched_destinations(read, start, 9, set(), fences)


def test_a_changed_course_or_fences_or_code_is_another_table():
    course = fresh("oval")
    key = move_cache.table_key(course, frozenset())
    assert move_cache.table_key(fresh("oval"), frozenset()) == key
    assert move_cache.table_key(course, course.fence_squares) != key
    changed = fresh("oval")
    changed.inward = list(changed.inward)
    changed.inward[5] = changed.outward[5]
    assert move_cache.table_key(changed, frozenset()) != key
    move_cache._code_digest.cache_clear()
    try:
        import sys
        version = sys.version
        sys.version = version + " (another)"
        try:
            assert move_cache.table_key(course, frozenset()) != key
        finally:
            sys.version = version
    finally:
        move_cache._code_digest.cache_clear()
    assert move_cache.table_key(course, frozenset()) == key


def test_a_damaged_or_foreign_file_is_not_read(folder):
    rows = {32: (7, 1, (1,), frozenset(), None)}
    assert move_cache.store("k1", rows)
    assert move_cache.load("k1") == rows
    path = folder / "moves-k1"
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert move_cache.load("k1") is None   # its contents' digest differs
    path.write_bytes(data[:len(data) // 2])
    assert move_cache.load("k1") is None
    (folder / "moves-k2").write_bytes(data)
    assert move_cache.load("k2") is None   # the file names another table
    assert move_cache.load("k3") is None   # no file


def test_a_folder_that_cannot_be_written_or_none_keeps_nothing_and_the_table_is_computed(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("HIPPODROME_CACHE", str(blocker / "cache"))   # under a file: no folder can be made
    assert not move_cache.store("k", {1: 2})
    monkeypatch.setattr(movement, "_TABLED_POINTS", range(1, 2))   # a table of moves of 1 (a twelfth of the time)
    course = fresh("triangle")
    movement._free_moves(course, 0, 1, frozenset())
    assert len(course.free_moves[frozenset()]) == len(course)
    assert course.free_moves[frozenset()][5 * movement._CACHED_POINTS + 1][1] == \
        movement._searched_destinations(course, 5, 1, set(), frozenset())
    monkeypatch.setenv("HIPPODROME_CACHE", "")
    assert move_cache.cache_folder() is None and not move_cache.store("k", {1: 2}) and move_cache.load("k") is None
    monkeypatch.delenv("HIPPODROME_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert move_cache.cache_folder() == tmp_path / "xdg" / "hippodrome"


def test_only_the_newest_tables_are_kept(folder):
    import os
    for number in range(move_cache.KEPT + 3):
        assert move_cache.store(f"k{number}", {number: number})
        os.utime(folder / f"moves-k{number}", (number, number))
    assert move_cache.store("last", {0: 0})
    kept = {path.name for path in folder.glob("moves-*")}
    assert len(kept) == move_cache.KEPT and "moves-last" in kept and "moves-k0" not in kept
    assert not list(folder.glob(".moves-*"))   # no file half written left behind


def test_a_course_loaded_from_a_file_keeps_no_table(folder, monkeypatch):
    monkeypatch.setattr(movement, "_TABLED_POINTS", range(1, 2))
    course = load_course_file(load_course("triangle").source)
    assert not course.built_in and load_course("triangle").built_in
    movement._free_moves(course, 0, 1, frozenset())
    assert not folder.exists()
