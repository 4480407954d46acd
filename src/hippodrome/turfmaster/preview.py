"""Where would this card take my horse? A look-ahead for the TurfMaster page (the "preview"
look-up of both TurfMaster games' descriptions).

Playing a card (or choosing a die) cannot be taken back, so the page asks first: the look-up
applies the option to a *clone* of the game and reports the squares the horse may then end on
(the next ``square`` decision's options, or the one square it moved to when there was no
choice). Only ``card`` and ``die`` options are previewed: their outcome depends on nothing
hidden (no dice are drawn on the clone; a chance step stops the look-ahead), whereas claiming
bonus cards, for instance, would reveal cards from the deck.
"""

from __future__ import annotations

from typing import Any, Mapping

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.i18n import Message

PREVIEWABLE = frozenset({"card", "die"})


def _race_view(view: dict[str, Any]) -> dict[str, Any] | None:
    if "history" in view and "horses" in view and "round_kind" in view:
        return view
    race = view.get("race")
    return race if isinstance(race, dict) and "history" in race else None


def preview(game: Any, seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"squares": [...]}``: where ``params["action"]``, one of ``seat``'s options now, would let the
    horse end (IllegalAction if it is not one, or cannot be previewed)."""
    action = params.get("action")
    if not isinstance(action, dict):
        raise IllegalAction(Message("'preview' needs 'action': one of your options"))
    return {"squares": squares_after(game, seat, action)}


def squares_after(game: Any, seat: int | None, action: dict[str, Any]) -> list[dict[str, Any]]:
    if not isinstance(action.get("type"), str) or action["type"] not in PREVIEWABLE:
        raise IllegalAction(Message("only a card or a die can be previewed"))
    pending = game.pending()
    if not isinstance(pending, Decision) or pending.seat != seat or not pending.allows(action):
        raise IllegalAction(Message("that is not one of your options now"))
    horse = action.get("horse")
    state = game.clone()
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
