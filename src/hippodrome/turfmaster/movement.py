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
        mask = 0
        for square in blocked:
            mask |= 1 << square
        return _flat_destinations(course, start, points, mask)
    return _searched_destinations(course, start, points, blocked, fences)


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
    if fences:
        return destinations(course, start, points, blocked_squares(course, others), fences)
    mask, block_mask = 0, course.block_mask
    for square in others:
        mask |= block_mask[square]
    return _flat_destinations(course, start, points, mask)


def _flat_destinations(course: Course, start: int, points: int, mask: int) -> MoveOptions:
    """:func:`destinations` on a course without fences, the squares blocked given as a bit mask (bit
    ``s`` for square ``s``): the same ends found walk by walk rather than step by step.

    A path is a first step (ahead, or a lane change on point 1), then a straight walk that may turn
    once into a neighbouring lane on point 7 or later and walk straight on from there. Only where a
    walk stops (out of points, or blocked) can it be among the farthest ends: every square on the way
    was reached with fewer points. A lane's squares have consecutive ids, so a straight walk goes as
    far as the first blocked square ahead in its lane (the lowest bit of the mask above it) at once."""
    if points <= 0:
        return MoveOptions(0, (start,))
    nxt, inward, outward, last = course.next, course.inward, course.outward, course.lane_last

    def room(square: int) -> int:
        """How many squares a horse on ``square`` can walk straight on."""
        ahead = mask >> (square + 1)
        lane_room = last[square] - square
        if not ahead:
            return lane_room
        blocked_at = (ahead & -ahead).bit_length() - 1
        return blocked_at if blocked_at < lane_room else lane_room

    stops = [(0, start)]  # (points used, square) where a walk stops
    first_turn = LATE_CHANGE_POINT - 2  # steps after the first one before the late turn may be taken
    for first in (nxt[start], inward[start], outward[start]):
        if first == NO_SQUARE or mask >> first & 1:
            continue
        walked = min(points - 1, room(first))
        stops.append((1 + walked, first + walked))
        for steps in range(first_turn, min(walked, points - 2) + 1):
            square, point = first + steps, steps + 2
            for side in (inward[square], outward[square]):
                if side != NO_SQUARE and not mask >> side & 1:
                    more = min(points - point, room(side))
                    stops.append((point + more, side + more))
    best = max(stops)[0]
    return MoveOptions(best, tuple(sorted({square for used, square in stops if used == best})))
