"""A square of the course as players read it.

The data counts lanes from 0 on the rail (JSON fields, actions, stored logs, the engine), as
ruling T12 names them. Players count them from 1: lane 1 is the inside lane, along the rail
(the rulebooks' first stall "à la corde"), lane 8 the outside one. Every text a person reads
takes its lane number from here, at the rendering edge; nothing else adds 1. A square's index
is already what a player counts: squares run from the start line (the start squares are 0, the
first square ahead is 1), so square 7 is seven squares from the start.
"""

from __future__ import annotations

from typing import Any, Mapping


def lane_number(lane: int) -> int:
    """The number a player reads for ``lane`` (0-based in the data): 1 on the rail to 8."""
    return int(lane) + 1


def square_params(square: Mapping[str, Any]) -> dict[str, int]:
    """The ``{lane}`` and ``{square}`` of a sentence about ``square`` (``{"lane", "square"}`` as in
    the data): the lane as players count it, the index as it is."""
    return {"lane": lane_number(square["lane"]), "square": square["square"]}
