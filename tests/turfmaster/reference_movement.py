"""A deliberately naive second implementation of movement (T3, T4, T5, T11), for tests only.

It enumerates every path as an explicit list of steps, finds the diagonal neighbour by
scanning the neighbouring lane's lines (not the course file's "in"/"out"), and checks the
lane-change windows on the finished path.
"""

from __future__ import annotations


def _lane_squares(course):
    by_lane = {}
    for sid in range(len(course)):
        by_lane.setdefault(course.lane_of[sid], []).append(sid)
    for squares in by_lane.values():
        squares.sort(key=lambda s: course.index_of[s])
    return by_lane


def _diagonal(course, by_lane, square, lane):
    if lane not in by_lane:
        return None
    line = course.line_of[square]
    ahead = [s for s in by_lane[lane] if course.line_of[s] > line]
    return min(ahead, key=lambda s: course.line_of[s]) if ahead else None


def _straight(course, by_lane, square):
    lane, index = course.lane_of[square], course.index_of[square]
    squares = by_lane[lane]
    return squares[index + 1] if index + 1 < len(squares) else None


def all_paths(course, start, points, blocked, fences):
    """Every legal path: lists of (square, points used after the step, kind) steps."""
    by_lane = _lane_squares(course)
    results = []

    def extend(path, square, used):
        results.append(list(path))
        if used == points:
            return
        ahead = _straight(course, by_lane, square)
        if ahead is not None and ahead in fences:
            landing = _straight(course, by_lane, ahead)
            if used + 4 <= points and landing is not None and landing not in blocked and ahead not in blocked:
                path.append((landing, used + 4, "jump"))
                extend(path, landing, used + 4)
                path.pop()
            return
        candidates = [(ahead, "straight")]
        lane = course.lane_of[square]
        candidates += [(_diagonal(course, by_lane, square, lane - 1), "change"),
                       (_diagonal(course, by_lane, square, lane + 1), "change")]
        for nxt, kind in candidates:
            if nxt is None or nxt in blocked or nxt in fences:
                continue
            path.append((nxt, used + 1, kind))
            if _windows_ok(path, opening_jump=_straight(course, by_lane, start) in fences):
                extend(path, nxt, used + 1)
            path.pop()

    extend([], start, 0)
    return results


def _windows_ok(path, opening_jump):
    change_points = [used for (_, used, kind) in path if kind == "change"]
    late = 8 if opening_jump else 7
    early = [p for p in change_points if p == 1]
    later = [p for p in change_points if p >= late]
    return len(early) + len(later) == len(change_points) and len(later) <= 1


def reference_destinations(course, start, points, blocked, fences=frozenset()):
    paths = all_paths(course, start, points, blocked, fences)
    best = max((p[-1][1] if p else 0) for p in paths)
    ends = sorted({(p[-1][0] if p else start) for p in paths if (p[-1][1] if p else 0) == best})
    return best, ends
