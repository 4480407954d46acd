"""Action ids as the environments take them: a whole number (a NumPy integer included), the mask
of the legal ones, and the legal ones in an error message."""

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


def legal_text(legal: Iterable[int]) -> str:
    """The legal ids for an error message, runs of consecutive ids as ranges: "0-68, 72, 77 (71 ids)"
    (a Ready Set Bet roll offers hundreds)."""
    ids = sorted(legal)
    if not ids:
        return "none"
    runs: list[str] = []
    start = previous = ids[0]
    for number in ids[1:] + [None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return f"{', '.join(runs)} ({len(ids)} {'id' if len(ids) == 1 else 'ids'})"


def mask_of(legal: Iterable[int] | None, size: int) -> np.ndarray:
    """1 for each legal id, as an int8 vector of ``size`` (set in a ``bytearray``, which NumPy
    wraps without a copy: cheaper than a NumPy assignment for a few ids)."""
    mask = bytearray(size)
    for number in legal or ():
        mask[number] = 1
    return np.frombuffer(mask, _INT8)


_INT8 = np.dtype(np.int8)
