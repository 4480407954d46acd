"""Fixed-size observation vectors, built sparsely: a :class:`Layout` names the slices of the vector,
a :class:`Vector` collects (index, value) pairs and makes the NumPy array in one assignment.

Every value is scaled into [0, 1], so an observation space is ``Box(0, 1, (size,), float32)``.

>>> layout = Layout()
>>> dice = layout.add("dice", 6)
>>> money = layout.add("money", 1)
>>> vector = Vector(layout.size)
>>> vector.one_hot(dice, 4 - 1)
>>> vector.scaled(money, 45, 90)
>>> vector.array().tolist()
[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5]
"""

from __future__ import annotations

import numpy as np


class Layout:
    """Named slices of an observation vector, allocated in order."""

    def __init__(self) -> None:
        self.size = 0
        self.fields: dict[str, tuple[int, int]] = {}

    def add(self, name: str, width: int) -> int:
        """Allocate ``width`` entries for ``name``; returns where they start."""
        start = self.size
        self.fields[name] = (start, width)
        self.size += width
        return start


class Vector:
    """The non-zero entries of one observation, then :meth:`array`."""

    __slots__ = ("size", "index", "value")

    def __init__(self, size: int) -> None:
        self.size = size
        self.index: list[int] = []
        self.value: list[float] = []

    def set(self, index: int, value: float = 1.0) -> None:
        if value:
            self.index.append(index)
            self.value.append(value)

    def one_hot(self, start: int, position: int) -> None:
        self.index.append(start + position)
        self.value.append(1.0)

    def scaled(self, index: int, value: float, bound: float) -> None:
        """``value / bound``, clipped into [0, 1]."""
        if value > 0:
            self.index.append(index)
            self.value.append(min(1.0, value / bound))

    def counts(self, start: int, items: list, position: dict, bound: float) -> None:
        """How many times each item occurs in ``items``, at ``start + position[item]``, over ``bound``."""
        tally: dict = {}
        for item in items:
            tally[item] = tally.get(item, 0) + 1
        for item, count in tally.items():
            self.scaled(start + position[item], count, bound)

    def array(self) -> np.ndarray:
        vector = np.zeros(self.size, dtype=np.float32)
        vector[self.index] = self.value
        return vector
