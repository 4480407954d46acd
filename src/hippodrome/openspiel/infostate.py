"""Information states as text: a seat's JSON view (all it may know, the engine says), with the
notes' words left out (they explain options in English and say nothing the options do not) and
whatever a game's information state adds (what the seat saw before and the view no longer shows)."""

from __future__ import annotations

import json
from typing import Any

WORDS = frozenset({"notes", "notes_i18n"})


def without(value: Any, keys: frozenset[str]) -> Any:
    """``value`` with every entry named in ``keys`` left out of it and of the objects it holds (not
    of the objects in its lists: a view's notes are in its decisions, never in its histories)."""
    if isinstance(value, dict):
        return {key: without(item, keys) for key, item in value.items() if key not in keys}
    return value


def text(view: dict[str, Any], drop: frozenset[str] = frozenset(), **more: Any) -> str:
    """``view`` without the notes and the ``drop`` entries, plus ``more``, as compact JSON."""
    return json.dumps({"view": without(view, WORDS | drop), **more}, sort_keys=True, separators=(",", ":"))
