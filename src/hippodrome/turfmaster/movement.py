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

from dataclasses import dataclass
from typing import Iterable

from hippodrome.turfmaster.course import NO_SQUARE, Course

FIRST_CHANGE_POINT = 1
LATE_CHANGE_POINT = 7
LATE_CHANGE_POINT_AFTER_OPENING_JUMP = 8
JUMP_COST = 4


@dataclass(frozen=True)
class MoveOptions:
    """The outcome of :func:`destinations`.

    ``steps`` is the number of points actually used (equal to the value asked for when a
    full-length path exists); ``ends`` the square ids where the horse may stop.
    ``blocked_by_fence`` holds the ends that are a square right before a fence with points
    left over: the horse could not complete the jump there (in a card round it falls).
    """

    steps: int
    ends: tuple[int, ...]
    blocked_by_fence: frozenset[int] = frozenset()

    def falls_at(self, square: int, points: int) -> bool:
        return self.steps < points and square in self.blocked_by_fence


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
    if not fences:
        return _flat_destinations(course, start, points, blocked)
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


def _flat_destinations(course: Course, start: int, points: int, blocked: set[int] | frozenset[int]) -> MoveOptions:
    """:func:`destinations` without fences, the same ends found walk by walk rather than step by step.

    A path is a first step (ahead, or a lane change on point 1), then a straight walk that may turn
    once into a neighbouring lane on point 7 or later and walk straight on from there. Only where a
    walk stops (out of points, or blocked) can it be among the farthest ends: every square on the
    way was reached with fewer points."""
    nxt, inward, outward = course.next, course.inward, course.outward
    stops = [(0, start)]  # (points used, square) where a walk stops
    stop = stops.append
    for first in (nxt[start], inward[start], outward[start]):
        if first == NO_SQUARE or first in blocked:
            continue
        square, used = first, 1
        while used < points:
            point = used + 1
            if point >= LATE_CHANGE_POINT:
                for side in (inward[square], outward[square]):
                    if side != NO_SQUARE and side not in blocked:
                        # the one late change, then straight on
                        turned, turned_used = side, point
                        while turned_used < points:
                            ahead = nxt[turned]
                            if ahead == NO_SQUARE or ahead in blocked:
                                break
                            turned, turned_used = ahead, turned_used + 1
                        stop((turned_used, turned))
            ahead = nxt[square]
            if ahead == NO_SQUARE or ahead in blocked:
                break
            square, used = ahead, point
        stop((used, square))
    best = max(stops)[0]
    return MoveOptions(best, tuple(sorted({square for used, square in stops if used == best})))
