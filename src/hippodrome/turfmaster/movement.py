"""Movement of one horse (rulings T3, T4, T5, T11).

A move is a path of single steps. Each step goes to the next square of the lane or, as a
lane change, diagonally to the nearest square strictly ahead in a neighbouring lane. A lane
change may be the step that uses point 1 of the move, and once more a step that uses point 7
or later (point 8 or later when the move starts with a fence jump: T11). No step may end on
or pass an occupied or blocked square (T4). A fence square is only ever jumped: from the
square before it, straight over it to the landing square, for 4 points (T11).

The horse must use the full value if some path of that length exists, and may then end on
any square such a path reaches; otherwise it goes as far (as many points) as some path
allows (T5).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import chain
from typing import Iterable, NamedTuple

from hippodrome.turfmaster import move_cache
from hippodrome.turfmaster.course import NO_SQUARE, Course

FIRST_CHANGE_POINT = 1
LATE_CHANGE_POINT = 7
LATE_CHANGE_POINT_AFTER_OPENING_JUMP = 8
JUMP_COST = 4
#: steps after a move's first one before its late lane change may be taken
_FIRST_TURN = LATE_CHANGE_POINT - 2
#: no turn walked just before (a square id that no square follows)
_NO_RUN = NO_SQUARE - 1
#: a square id above every course's
_NO_STOP = 1 << 30


class MoveOptions(NamedTuple):
    """The outcome of :func:`destinations`.

    ``steps`` is the number of points actually used (equal to the value asked for when a
    full-length path exists); ``ends`` the square ids where the horse may stop.
    ``blocked_by_fence`` holds the ends that are a square right before a fence with points
    left over: the horse could not complete the jump there (in a card round it falls).
    (A named tuple: immutable, and made fast, as a search makes one per move.)
    """

    steps: int
    ends: tuple[int, ...]
    blocked_by_fence: frozenset[int] = frozenset()

    def some_end_falls(self, points: int) -> bool:
        """Whether some end of this move of ``points`` is one the horse falls on in a card round (T11):
        the move stops right before a fence with points left over. The one statement of the rule:
        :meth:`falls_at` and every caller ask here."""
        return self.steps < points and bool(self.blocked_by_fence)

    def falls_at(self, square: int, points: int) -> bool:
        """Whether the horse falls ending this move of ``points`` on ``square``, in a card round (T11)."""
        return square in self.blocked_by_fence and self.some_end_falls(points)


def blocked_squares(course: Course, others: Iterable[int]) -> set[int]:
    """Squares no other horse may end on or pass (T4): each horse's square and the ones
    directly ahead of and behind it in its lane."""
    blocked: set[int] = set()
    block = course.blocks
    for square in others:
        blocked.update(block[square])
    return blocked


def destinations(
    course: Course,
    start: int,
    points: int,
    blocked: set[int] | frozenset[int],
    fences: frozenset[int] = frozenset(),
) -> MoveOptions:
    """Legal end squares of a move of ``points`` from ``start`` (T3, T4, T5, T11)."""
    if points <= 0:
        return MoveOptions(0, (start,))
    near, free, ways = _free_moves(course, start, points, fences)
    if _clear_of(near, blocked):
        return free
    if not fences:
        return _flat_among(course, start, points, (near, free, ways), sorted(blocked))
    return _searched_destinations(course, start, points, blocked, fences)


class _Asked:
    """A stand-in for the blocked squares that blocks nothing and notes every square asked about."""

    def __init__(self) -> None:
        self.squares: set[int] = set()

    def __contains__(self, square: object) -> bool:
        self.squares.add(square)  # type: ignore[arg-type]
        return False


#: the most points a cached move may have (the rest are computed each time: no game moves more)
_CACHED_POINTS = 32


#: the values a table of empty-course moves holds from the start: every card and roll (2 to 12), and 1
_TABLED_POINTS = range(1, 13)


#: an entry of a course's table of empty-course moves: the squares near the move's window (a bit mask),
#: the move, and without fences the ways its paths reach each end (:func:`_ways_to_ends`; None with fences)
FreeMove = tuple[int, MoveOptions, "tuple[tuple[tuple[int, int, int, int], ...], ...] | None"]


def _free_moves(course: Course, start: int, points: int, fences: frozenset[int]) -> FreeMove:
    """:func:`_empty_course_moves`, kept in the course's ``free_moves`` (one table per set of fences,
    keyed by start and points): filled for every square and every value of a card or a roll when
    first asked (about 0.1 - 0.3 s a table, once in a process, or read from the disk for a built-in
    course, :func:`_course_table`, where a table filled as moves come up
    would keep a search slow for thousands of moves, and random races for hundreds of races), then
    one entry per square and value at most, about 8 MB for a course with fences and 16 MB without
    them (the ways to each end), and plain ints and tuples that the garbage collector soon stops
    walking through."""
    table = course.free_moves.get(fences)
    if table is None:
        table = course.free_moves[fences] = _course_table(course, fences)
    if points >= _CACHED_POINTS:
        return _empty_course_moves(course, start, points, fences)
    key = start * _CACHED_POINTS + points
    found = table.get(key)
    if found is None:
        found = table[key] = _empty_course_moves(course, start, points, fences)
    return found


def _course_table(course: Course, fences: frozenset[int]) -> dict[int, FreeMove]:
    """The table :func:`_free_moves` keeps: for a built-in course read from the disk when a process
    before this one computed it (:mod:`~hippodrome.turfmaster.move_cache`), else computed (and kept
    there for the next)."""
    key = move_cache.table_key(course, fences) if course.built_in else None
    rows = move_cache.load(key) if key else None
    if rows is not None:
        options = tuple.__new__
        return {index: (near, options(MoveOptions, (steps, ends, fallen)), ways)
                for index, (near, steps, ends, fallen, ways) in rows.items()}
    table = {square * _CACHED_POINTS + value: _empty_course_moves(course, square, value, fences)
             for square in range(len(course)) for value in _TABLED_POINTS}
    if key:
        move_cache.store(key, {index: (near, *options, ways) for index, (near, options, ways) in table.items()})
    return table


def _empty_course_moves(course: Course, start: int, points: int, fences: frozenset[int]) -> FreeMove:
    """The move of ``points`` from ``start`` on an empty course, with the squares near its window, as
    a bit mask (bit ``s`` for square ``s``).

    The window is every square the search asks about (whether it is blocked); a move whose window
    holds no blocked square is the empty course's, since every question gets the same answer. Near
    it are the squares a horse would block some square of the window from (T4): the window and the
    squares right before and after each of its squares; a field with no horse there, and no blocked
    square there, moves as the empty course. (A bit mask is a few hundred bytes where a set of the
    same squares takes kilobytes.)"""
    if not fences:
        near, free = _free_flat_moves(course, start, points)
        return near, free, _ways_to_ends(course, start, free)
    asked = _Asked()
    free = _searched_destinations(course, start, points, asked, fences)  # type: ignore[arg-type]
    near = 0
    for square in asked.squares:
        for neighbour in (square, course.next[square], course.prev[square]):
            if neighbour != NO_SQUARE:
                near |= 1 << neighbour
    return near, free, None


def _free_flat_moves(course: Course, start: int, points: int) -> tuple[int, MoveOptions]:
    """:func:`_free_moves` without fences, from the walks of :func:`_flat_destinations` on an empty
    course: its window is the squares the walks step on (each a run of consecutive ids), and near
    it each run one square longer at each end within its lane (a walk that :func:`_flat_destinations`
    skips as the same as the one before lies within that one's window)."""
    nxt, inward, outward, prev, last = course.next, course.inward, course.outward, course.prev, course.lane_last
    near = 0
    stops = [(0, start)]

    def walk(square: int, used: int) -> None:
        """A straight walk from ``square`` (reached with ``used`` points) to its end: noted."""
        nonlocal near
        more = min(points - used, last[square] - square)
        stops.append((used + more, square + more))
        low = square - 1 if prev[square] != NO_SQUARE else square
        high = square + more + 1 if nxt[square + more] != NO_SQUARE else square + more
        near |= ((1 << (high - low + 1)) - 1) << low

    for first in (nxt[start], inward[start], outward[start]):
        if first == NO_SQUARE:
            continue
        walk(first, 1)
        walked = stops[-1][0] - 1
        for sides in (inward, outward):
            before = _NO_RUN
            for steps in range(_FIRST_TURN, min(walked, points - 2) + 1):
                side = sides[first + steps]
                if side == NO_SQUARE:
                    before = _NO_RUN
                    continue
                if side != before + 1:  # else the same walk as the turn before (see _flat_destinations)
                    walk(side, steps + 2)
                before = side
    best = max(stops)[0]
    return near, MoveOptions(best, tuple(sorted({square for used, square in stops if used == best})))


def _clear_of(near: int, squares: Iterable[int]) -> bool:
    """Whether none of ``squares`` is in the bit mask ``near``."""
    for square in squares:
        if near >> square & 1:
            return False
    return True


def _searched_destinations(course: Course, start: int, points: int, blocked: set[int] | frozenset[int],
                           fences: frozenset[int]) -> MoveOptions:
    """:func:`destinations` by a search over every path, step by step (any course, fences or not)."""
    nxt, inward, outward = course.next, course.inward, course.outward
    opening_jump = nxt[start] in fences
    late_point = LATE_CHANGE_POINT_AFTER_OPENING_JUMP if opening_jump else LATE_CHANGE_POINT
    best = 0
    ends: set[int] = {start}
    # Depth-first over paths: (square, points used, late change still available). Steps 2 to 6
    # cannot branch, so the tree stays small (a few dozen nodes for a 12).
    stack = [(start, 0, True)]
    pop, push = stack.pop, stack.append
    while stack:
        square, used, late_free = pop()
        if used >= best:
            if used > best:
                best, ends = used, {square}
            else:
                ends.add(square)
        if used == points:
            continue
        ahead = nxt[square]
        if ahead in fences:
            if used + JUMP_COST <= points:
                landing = nxt[ahead]
                if landing != NO_SQUARE and landing not in blocked and ahead not in blocked:
                    push((landing, used + JUMP_COST, late_free))
            continue
        point = used + 1
        if ahead != NO_SQUARE and ahead not in blocked:
            push((ahead, point, late_free))
        if point == FIRST_CHANGE_POINT:
            changes_to_late = late_free
        elif late_free and point >= late_point:
            changes_to_late = False
        else:
            continue
        side = inward[square]
        if side != NO_SQUARE and side not in blocked and side not in fences:
            push((side, point, changes_to_late))
        side = outward[square]
        if side != NO_SQUARE and side not in blocked and side not in fences:
            push((side, point, changes_to_late))
    at_fence = frozenset(s for s in ends if nxt[s] in fences) if best < points else frozenset()
    return MoveOptions(best, tuple(sorted(ends)), at_fence)



def moves_among(course: Course, start: int, points: int, others: list[int],
                fences: frozenset[int] = frozenset()) -> MoveOptions:
    """:func:`destinations` of a horse on ``start`` among horses on the squares ``others``."""
    if points <= 0:
        return MoveOptions(0, (start,))
    table = course.free_moves.get(fences)
    found = table.get(start * _CACHED_POINTS + points) if table is not None and points < _CACHED_POINTS else None
    if found is None:
        found = _free_moves(course, start, points, fences)
    near, free = found[0], found[1]
    bit = course.bit
    for square in others:
        if near & bit[square]:
            break
    else:  # nobody blocks a square the move could ask about
        return free
    # only the horses near the move block a square it asks about (a horse blocks its own square and
    # the ones right before and after it, and ``near`` holds those of every square asked about)
    block = course.blocks
    blocking = [block[square] for square in others if near & bit[square]]
    if fences:
        return _searched_destinations(course, start, points, set().union(*blocking), fences)
    return _flat_among(course, start, points, found, sorted(chain.from_iterable(blocking)))


def _flat_among(course: Course, start: int, points: int, free: FreeMove, blocked: list[int]) -> MoveOptions:
    """The move of ``points`` from ``start`` on a course without fences among the sorted ``blocked``
    squares (some near the move): the ends of the empty course's move (``free``, an entry of the
    course's table) that a path still reaches, else the walks of :func:`_flat_destinations`."""
    return _ends_still_reached(free[1], free[2], blocked) or _flat_destinations(course, start, points, set(blocked))


def _ways_to_ends(course: Course, start: int, moves: MoveOptions) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """The ways the paths of the empty course's move ``moves`` from ``start`` (no fences) reach its
    ends, one tuple of ways per end in the order of ``moves.ends`` (their numbers one object each,
    shared: a table holds hundreds of thousands): a way ``(first, low, high, shift)`` is the
    first step onto ``first``, a straight walk to a square ``t`` from ``low`` to ``high`` (a lane's
    squares have consecutive ids), then the late lane change onto ``t + shift`` and a straight walk
    to the end (``shift`` 0 and ``low == high ==`` the end: no late change). Every path of a flat move
    is such a walk (see :func:`_flat_destinations`), and a path of ``moves.steps`` points ends on
    one of ``moves.ends``."""
    best = moves.steps
    nxt, inward, outward, last = course.next, course.inward, course.outward, course.lane_last
    ways: dict[int, list[list[int]]] = {end: [] for end in moves.ends}
    for first in (nxt[start], inward[start], outward[start]):
        if first == NO_SQUARE:
            continue
        if first + best - 1 <= last[first]:  # straight on
            ways[first + best - 1].append([first, first + best - 1, first + best - 1, 0])
        for sides in (inward, outward):
            run: list[int] | None = None  # the way of the turn before, if the same one turn later
            for turn in range(first + _FIRST_TURN, min(last[first], first + best - 2) + 1):
                side = sides[turn]
                end = side + best - (turn - first + 2)  # the turn takes point turn - first + 2
                if side == NO_SQUARE or end > last[side]:
                    run = None
                elif run is not None and run[3] == side - turn:
                    run[2] = turn
                else:
                    run = [first, turn, turn, side - turn]
                    ways[end].append(run)
    return tuple(tuple(tuple(map(_one_number, way)) for way in ways[end]) for end in moves.ends)


#: one object for each number the tables of moves hold (see :func:`_ways_to_ends`)
_NUMBERS: dict[int, int] = {}


def _one_number(number: int) -> int:
    return _NUMBERS.setdefault(number, number)


def _ends_still_reached(moves: MoveOptions, ways: tuple[tuple[tuple[int, int, int, int], ...], ...],
                        blocked: list[int]) -> MoveOptions | None:
    """The empty course's move ``moves`` among the sorted ``blocked`` squares (no fences), when some
    of its ends is still reached by a path of as many points: those ends (blocking only takes paths
    away, so no other end can be as far); None when none is (the move is shorter: search it)."""
    blocked = [NO_SQUARE, *blocked, _NO_STOP]  # a blocked square below and above every square
    reached = []
    for end, paths in zip(moves.ends, ways):
        behind = blocked[bisect_right(blocked, end) - 1]  # the last blocked square up to the end
        for first, low, high, shift in paths:
            ahead = blocked[bisect_left(blocked, first)]  # the first blocked square from the first step on
            # some t from low to high walks clear from first to t and from t + shift to the end
            if (low if low > behind - shift else behind - shift + 1) <= (high if high < ahead else ahead - 1):
                reached.append(end)
                break
    if not reached:
        return None
    return moves if len(reached) == len(moves.ends) else MoveOptions(moves.steps, tuple(reached))


def _flat_destinations(course: Course, start: int, points: int, blocked: set[int] | frozenset[int]) -> MoveOptions:
    """:func:`destinations` on a course without fences: the same ends found walk by walk rather than
    step by step.

    A path is a first step (ahead, or a lane change on point 1), then a straight walk that may turn
    once into a neighbouring lane on point 7 or later and walk straight on from there. Only where a
    walk stops (out of points, or blocked) can it be among the farthest ends: every square on the way
    was reached with fewer points. A lane's squares have consecutive ids, so a straight walk goes as
    far as the first blocked square above it (found by bisection) or the end of its lane, at once.

    A turn onto the square right after the one the turn before reached (a straight stretch) walks to
    the same end with the same points: the square is free, so the walk before went through it, and
    one point later it has one point less to go. Only the first turn of such a run is walked; a
    blocked square ends the run."""
    if points <= 0:
        return MoveOptions(0, (start,))
    nxt, inward, outward, last = course.next, course.inward, course.outward, course.lane_last
    ordered = sorted(blocked)
    ordered.append(len(course))  # a stop beyond every lane, so that bisection always finds one
    best, ends = 0, [start]
    for first in (nxt[start], inward[start], outward[start]):
        if first == NO_SQUARE or first in blocked:
            continue
        stop = ordered[bisect_right(ordered, first)]
        end = last[first] + 1
        walked = (stop if stop < end else end) - first - 1  # the squares it can walk straight on
        if walked >= points - 1:
            walked = points - 1
        if walked + 1 >= best:
            if walked + 1 > best:
                best, ends = walked + 1, [first + walked]
            else:
                ends.append(first + walked)
        turns = range(first + _FIRST_TURN, first + (walked if walked < points - 2 else points - 2) + 1)
        if not turns:
            continue
        for sides in (inward, outward):
            before = _NO_RUN
            point = _FIRST_TURN + 1
            for square in turns:
                point += 1
                side = sides[square]
                if side == NO_SQUARE or side in blocked:
                    before = _NO_RUN
                    continue
                if side == before + 1:  # the same walk as the turn before
                    before = side
                    continue
                before = side
                stop = ordered[bisect_right(ordered, side)]
                end = last[side] + 1
                more = (stop if stop < end else end) - side - 1
                if more > points - point:
                    more = points - point
                if point + more >= best:
                    if point + more > best:
                        best, ends = point + more, [side + more]
                    else:
                        ends.append(side + more)
    return MoveOptions(best, tuple(sorted(set(ends))))


def reach(course: Course, start: int, limit: int, blocked: set[int] | frozenset[int] = frozenset(),
          fences: frozenset[int] = frozenset(), *, any_lane_change: bool = False) -> dict[int, int]:
    """Every square a path from ``start`` of at most ``limit`` points passes or ends on, with the
    fewest points that reach it: the steps of :func:`destinations` (T3, T4, T11) without its choice
    of the farthest ends (T5). With ``any_lane_change`` every step may change lane (what T3 forbids),
    to tell a square that only more lane changes would reach. For explaining a move, not for search."""
    nxt, inward, outward = course.next, course.inward, course.outward
    late_point = LATE_CHANGE_POINT_AFTER_OPENING_JUMP if nxt[start] in fences else LATE_CHANGE_POINT
    fewest: dict[int, int] = {}
    seen: set[tuple[int, int, bool]] = set()
    stack = [(start, 0, True)]
    while stack:
        square, used, late_free = stack.pop()
        if (square, used, late_free) in seen:
            continue
        seen.add((square, used, late_free))
        if used < fewest.get(square, limit + 1):
            fewest[square] = used
        ahead = nxt[square]
        if ahead in fences:
            landing = nxt[ahead]
            if used + JUMP_COST <= limit and landing != NO_SQUARE and landing not in blocked and ahead not in blocked:
                stack.append((landing, used + JUMP_COST, late_free))
            continue
        point = used + 1
        if point > limit:
            continue
        if ahead != NO_SQUARE and ahead not in blocked:
            stack.append((ahead, point, late_free))
        if any_lane_change or point == FIRST_CHANGE_POINT:
            changes_to_late = late_free
        elif late_free and point >= late_point:
            changes_to_late = False
        else:
            continue
        for side in (inward[square], outward[square]):
            if side != NO_SQUARE and side not in blocked and side not in fences:
                stack.append((side, point, changes_to_late))
    return fewest


def warm_up_courses() -> None:
    """Fill every built-in course's table of empty-course moves (:func:`_free_moves`), with and
    without its fences: the first move on a course otherwise fills it (about 0.15 s, or a few
    hundredths read from the disk)."""
    from hippodrome.turfmaster.course import COURSE_NAMES, load_course

    for name in COURSE_NAMES:
        course = load_course(name)
        for fences in {frozenset(), course.fence_squares}:
            _free_moves(course, 0, 1, fences)
