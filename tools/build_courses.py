"""Build the TurfMaster course data files from the section lists of ruling T12.

The JSON files under src/hippodrome/turfmaster/courses/ are the source of truth that the
engine and every front end read; this script is how they were made. Run it again after
changing a section list below:  python tools/build_courses.py
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

LANES = 8
LANE_WIDTH = 1.0
SCALE = 20.0  # drawing units per square length
OUT = Path(__file__).resolve().parent.parent / "src" / "hippodrome" / "turfmaster" / "courses"

# (kind, rail squares); the loop is one lap, run again up to the finish section.
COURSES = {
    "oval": {
        "title": "Oval",
        "lap": [("straight", 30, "home straight"), ("curve", 20, "first curve"),
                ("straight", 30, "back straight"), ("curve", 20, "second curve")],
        "turn": math.pi,
        "finish_after": 12,
        "fences": [
            # number, lap-unrolled section, square of that section, note
            ("start", 4, 1, "on the start line: counts only on the second pass"),
            (1, 0, 10, "counts only on the first pass"),
            (2, 2, 5, ""),
            (3, 2, 12, ""),
            (4, 2, 19, ""),
            (5, 2, 26, ""),
        ],
    },
    "triangle": {
        "title": "Triangle",
        "lap": [("straight", 25, "straight A"), ("curve", 12, "first corner"),
                ("straight", 25, "straight B"), ("curve", 12, "second corner"),
                ("straight", 25, "straight C"), ("curve", 12, "third corner")],
        "turn": 2 * math.pi / 3,
        "finish_after": 12,
        "fences": [],
    },
}


def lane_squares(kind: str, rail: int, lane: int) -> int:
    return rail + lane if kind == "curve" else rail


def lap_cells(spec: dict) -> list[list[list[list[float]]]]:
    """cells[lane][j] for j = 1 .. lap length of that lane (index 0 unused): 4 corners each."""
    cells = [[None] for _ in range(LANES)]
    x, y, heading = 0.0, 0.0, 0.0  # inner edge of the track, running anticlockwise
    for kind, rail, _ in spec["lap"]:
        if kind == "straight":
            dx, dy = math.cos(heading), math.sin(heading)
            rx, ry = math.sin(heading), -math.cos(heading)  # to the right: outwards
            for lane in range(LANES):
                a, b = lane * LANE_WIDTH, (lane + 1) * LANE_WIDTH
                for j in range(1, rail + 1):
                    s0, s1 = j - 1, j
                    cells[lane].append([
                        [x + dx * s0 + rx * a, y + dy * s0 + ry * a],
                        [x + dx * s1 + rx * a, y + dy * s1 + ry * a],
                        [x + dx * s1 + rx * b, y + dy * s1 + ry * b],
                        [x + dx * s0 + rx * b, y + dy * s0 + ry * b],
                    ])
            x, y = x + dx * rail, y + dy * rail
        else:
            turn = spec["turn"]
            radius = rail / turn - 0.5 * LANE_WIDTH
            cx, cy = x - math.sin(heading) * radius, y + math.cos(heading) * radius
            start = heading - math.pi / 2  # angle of the inner edge point seen from the centre
            for lane in range(LANES):
                r0, r1 = radius + lane * LANE_WIDTH, radius + (lane + 1) * LANE_WIDTH
                n = lane_squares(kind, rail, lane)
                for j in range(1, n + 1):
                    a0, a1 = start + turn * (j - 1) / n, start + turn * j / n
                    cells[lane].append([
                        [cx + r0 * math.cos(a0), cy + r0 * math.sin(a0)],
                        [cx + r0 * math.cos(a1), cy + r0 * math.sin(a1)],
                        [cx + r1 * math.cos(a1), cy + r1 * math.sin(a1)],
                        [cx + r1 * math.cos(a0), cy + r1 * math.sin(a0)],
                    ])
            heading += turn
            x, y = cx + radius * math.cos(start + turn), cy + radius * math.sin(start + turn)
    assert abs(x) < 1e-6 and abs(y) < 1e-6, "the lap does not close"
    return cells


def build(name: str, spec: dict) -> dict:
    sections = list(spec["lap"]) + [spec["lap"][0]]
    # progress (section number + fraction of that section) of every square of every lane
    progress: list[list[Fraction]] = []
    section_of: list[list[tuple[int, int]]] = []
    for lane in range(LANES):
        lane_progress, lane_sections = [Fraction(0)], [(-1, 0)]
        for number, (kind, rail, _) in enumerate(sections):
            n = lane_squares(kind, rail, lane)
            for j in range(1, n + 1):
                lane_progress.append(number + Fraction(j, n))
                lane_sections.append((number, j))
        progress.append(lane_progress)
        section_of.append(lane_sections)
    ordinal = {p: i for i, p in enumerate(sorted({p for lane in progress for p in lane}))}

    cells = lap_cells(spec)
    lap_lengths = [len(cells[lane]) - 1 for lane in range(LANES)]
    last = len(sections) - 1

    def cell(lane: int, index: int):
        lap = lap_lengths[lane]
        physical = lap if index == 0 else (index - 1) % lap + 1
        return [[round(px * SCALE, 1), round(-py * SCALE, 1)] for px, py in cells[lane][physical]]

    def nearest_ahead(lane: int, line: int):
        for index, p in enumerate(progress[lane]):
            if ordinal[p] > line:
                return [lane, index]
        return None

    squares = []
    finish = []
    for lane in range(LANES):
        finish.append(next(i for i, (s, j) in enumerate(section_of[lane])
                           if s == last and j == spec["finish_after"] + 1))
        count = len(progress[lane])
        for index in range(count):
            line = ordinal[progress[lane][index]]
            squares.append({
                "lane": lane,
                "index": index,
                "line": line,
                "next": [lane, index + 1] if index + 1 < count else None,
                "in": nearest_ahead(lane - 1, line) if lane > 0 else None,
                "out": nearest_ahead(lane + 1, line) if lane < LANES - 1 else None,
                "cell": cell(lane, index),
            })
    fences = []
    for number, section, j, note in spec["fences"]:
        fences.append({"number": number, "line": ordinal[section + Fraction(j, sections[section][1])],
                       "note": note})
    return {
        "name": name,
        "title": spec["title"],
        "lanes": LANES,
        "sections": [{"kind": kind, "rail_squares": rail, "name": label} for kind, rail, label in sections],
        "finish": finish,
        "fences": fences,
        "squares": squares,
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, spec in COURSES.items():
        data = build(name, spec)
        text = json.dumps(data, separators=(",", ":"))
        # one square per line keeps diffs readable
        text = text.replace('},{"lane"', '},\n{"lane"')
        (OUT / f"{name}.json").write_text(text + "\n")
        print(f"{name}: {len(data['squares'])} squares, finish {data['finish']}")


if __name__ == "__main__":
    main()
