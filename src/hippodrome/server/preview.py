"""Where would this card take my horse? A look-ahead for the TurfMaster page.

Playing a card (or choosing a die) cannot be taken back, so the page asks first: the server
applies the option to a *clone* of the game and reports the squares the horse may then end on
(the next ``square`` decision's options, or the one square it moved to when there was no
choice). Only ``card`` and ``die`` options are previewed: their outcome depends on nothing
hidden (no dice are drawn on the clone; a chance step stops the look-ahead), whereas claiming
bonus cards, for instance, would reveal cards from the deck.
"""

from __future__ import annotations

from typing import Any

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.i18n import Message
from hippodrome.table.table import Table

PREVIEWABLE = frozenset({"card", "die"})


def _race_view(view: dict[str, Any]) -> dict[str, Any] | None:
    if "history" in view and "horses" in view and "round_kind" in view:
        return view
    race = view.get("race")
    return race if isinstance(race, dict) and "history" in race else None


def preview(table: Table, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    if action.get("type") not in PREVIEWABLE:
        raise IllegalAction(Message("only a card or a die can be previewed"))
    pending = table.pending()
    if not isinstance(pending, Decision) or pending.seat != seat or action not in pending.options:
        raise IllegalAction(Message("that is not one of your options now"))
    horse = action.get("horse")
    state = table.state.clone()
    race = _race_view(state.view(seat))
    seen = len(race["history"]) if race else 0
    state.apply(action)
    after = state.pending()
    if isinstance(after, Decision) and after.seat == seat:
        squares = [{"lane": o["lane"], "square": o["square"]} for o in after.options
                   if o.get("type") == "square" and o.get("horse") == horse]
        if squares:
            return squares
    race = _race_view(state.view(seat))
    if race is None:
        return []
    moves = [e for e in race["history"][seen:] if e.get("event") == "move" and e.get("horse") == horse]
    return [dict(moves[-1]["to"])] if moves else []
