"""Action ids as the environments take them: a whole number (a NumPy integer included), and the
mask of the legal ones."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np


def action_id(value: Any) -> int | None:
    """``value`` as an int id, or None when it is no whole number (3.5, "3", None)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number == value else None


def mask_of(legal: Iterable[int] | None, size: int) -> np.ndarray:
    """1 for each legal id, as an int8 vector of ``size`` (set in a ``bytearray``, which NumPy
    wraps without a copy: cheaper than a NumPy assignment for a few ids)."""
    mask = bytearray(size)
    for number in legal or ():
        mask[number] = 1
    return np.frombuffer(mask, _INT8)


_INT8 = np.dtype(np.int8)
