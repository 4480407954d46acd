"""A TurfMaster race as a picture (``render_mode="rgb_array"``): an RGB array drawn with NumPy from
the course data the web page draws (every square's cell, in the course file's SVG coordinates),
in the page's colours: the squares lane by lane, the fences, the start line, the finish line,
and each horse as a disc of its colour on its square (a finished or fallen horse is not on the
course).

>>> from hippodrome.turfmaster.race import Race
>>> picture(Race.new({"players": 2}), width=200).shape
(109, 200, 3)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from hippodrome.core.game import Game
from hippodrome.turfmaster.cards import HORSE_COLOURS
from hippodrome.turfmaster.course import Course
from hippodrome.turfmaster.race import RACING, Race

#: the page's colours (web/style.css: the mown ground, the squares, the fences' squares, the start)
GROUND = "#2e7a3f"
SQUARE, SQUARE_ALT = "#5aa865", "#62b06c"
FENCE = "#6b3f1d"
START = "#7fbf6f"
FINISH = "#111111"
BORDER = "#3d8c4a"
MARGIN = 12
DEFAULT_WIDTH = 640


def rgb(colour: str) -> np.ndarray:
    """``"#rrggbb"`` as three bytes."""
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], np.uint8)


def picture(state: Game, width: int = DEFAULT_WIDTH) -> np.ndarray:
    """The race being run (a race, or a meeting's current race; the course alone between races)
    as a ``(height, width, 3)`` array of bytes."""
    race = state if isinstance(state, Race) else getattr(state, "race", None)
    if race is None:
        from hippodrome.turfmaster.course import load_course

        return course_picture(load_course(state.course_name), state.steeplechase, width).copy()
    image = course_picture(race.course, race.steeplechase, width).copy()
    scale, origin = _frame(race.course, width)
    radius = max(2.0, 8.0 * scale)
    for horse in race.ids:
        if race.stage[horse] != RACING:
            continue
        cell = np.asarray(race.course.data["squares"][race.square[horse]]["cell"], float)
        centre = (cell.mean(axis=0) - origin) * scale + MARGIN
        _disc(image, centre, radius + 1, rgb("#111111"))
        _disc(image, centre, radius, rgb(HORSE_COLOURS.get(horse, "#ffffff")))
    return image


@lru_cache(maxsize=8)
def course_picture(course: Course, steeplechase: bool, width: int) -> np.ndarray:
    """The course without horses (kept: read-only, copy before drawing on it)."""
    scale, origin = _frame(course, width)
    extent = _extent(course)
    height = int(np.ceil((extent[1][1] - extent[0][1]) * scale)) + 2 * MARGIN
    image = np.empty((height, width, 3), np.uint8)
    image[:] = rgb(GROUND)
    fences = course.fence_squares if steeplechase else frozenset()
    finish = {course.square(lane, index) for lane, index in enumerate(course.finish_index)}
    for sid, square in enumerate(course.data["squares"]):
        cell = (np.asarray(square["cell"], float) - origin) * scale + MARGIN
        if sid in fences:
            colour = FENCE
        elif sid in finish:
            colour = FINISH
        elif square["index"] == 0:
            colour = START
        else:
            colour = SQUARE if (square["lane"] + square["index"]) % 2 == 0 else SQUARE_ALT
        _polygon(image, cell, rgb(BORDER))
        _polygon(image, _shrunk(cell, 0.6 * scale), rgb(colour))
    image.flags.writeable = False
    return image


def _extent(course: Course) -> tuple[np.ndarray, np.ndarray]:
    corners = np.array([point for square in course.data["squares"] for point in square["cell"]], float)
    return corners.min(axis=0), corners.max(axis=0)


def _frame(course: Course, width: int) -> tuple[float, np.ndarray]:
    """Pixels per course unit, and the course's top-left corner."""
    low, high = _extent(course)
    return (width - 2 * MARGIN) / (high[0] - low[0]), low


def _shrunk(cell: np.ndarray, by: float) -> np.ndarray:
    """The cell's corners moved ``by`` pixels towards its centre (the border shows around it)."""
    centre = cell.mean(axis=0)
    away = cell - centre
    length = np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-9)
    return centre + away * np.maximum(0.0, 1 - by / length)


def _polygon(image: np.ndarray, corners: np.ndarray, colour: np.ndarray) -> None:
    """Fill a convex polygon: the pixels whose centres lie on the inner side of every edge."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1] - 1), min(y1, image.shape[0] - 1)
    if x1 < x0 or y1 < y0:
        return
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    sides = []
    for (ax, ay), (bx, by) in zip(corners, np.roll(corners, -1, axis=0)):
        sides.append((bx - ax) * (ys - ay) - (by - ay) * (xs - ax))
    sides = np.array(sides)
    inside = np.all(sides >= 0, axis=0) | np.all(sides <= 0, axis=0)
    image[y0:y1 + 1, x0:x1 + 1][inside] = colour


def _disc(image: np.ndarray, centre: np.ndarray, radius: float, colour: np.ndarray) -> None:
    x0, y0 = np.maximum(np.floor(centre - radius).astype(int), 0)
    x1 = min(int(np.ceil(centre[0] + radius)), image.shape[1] - 1)
    y1 = min(int(np.ceil(centre[1] + radius)), image.shape[0] - 1)
    if x1 < x0 or y1 < y0:
        return
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    inside = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= radius * radius
    image[y0:y1 + 1, x0:x1 + 1][inside] = colour
