"""perft for TurfMaster movement: distinct legal end squares summed over fixed positions.

Like chess perft, one number per position pins down the whole movement generator: any change
to T3, T4, T5 or T11 handling shows up as a changed count. ``python -m
hippodrome.turfmaster.perft`` prints the counts (and the time it took).
"""

from __future__ import annotations

import json
from importlib import resources

from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.position import Position, parse_position

MOVE_VALUES = range(1, 13)


def perft_positions() -> dict[str, Position]:
    data = json.loads((resources.files(__package__) / "positions.json").read_text())
    return {name: parse_position(position) for name, position in data["positions"].items()}


def perft(position: Position, values=MOVE_VALUES) -> int:
    course, total = position.course, 0
    for horse, square in position.squares.items():
        others = [s for h, s in position.squares.items() if h != horse]
        blocked = blocked_squares(course, others)
        for points in values:
            total += len(destinations(course, square, points, blocked, position.fences).ends)
    return total


def main() -> None:  # pragma: no cover - a convenience for people
    import time

    for name, position in perft_positions().items():
        started = time.perf_counter()
        count = perft(position)
        print(f"{name:32} {count:6d}   {1e3 * (time.perf_counter() - started):.2f} ms")  # i18n: developer tool


if __name__ == "__main__":  # pragma: no cover
    main()
