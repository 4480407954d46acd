"""Where would this card take my horse? A look-ahead for the TurfMaster page (the "preview"
look-up of both TurfMaster games' descriptions), and the races a meeting has run (its public
"races" look-up, for the page's move log).

Playing a card (or choosing a die) cannot be taken back, so the page asks first: the look-up
applies the option to a *clone* of the game and reports every consequence the page shows
before the player commits:

* ``squares``: the squares the horse may then end on (the next ``square`` decision's options, or
  the one square it moved to when there was no choice), each with ``falls``: whether the horse
  falls there at a fence (a card round, T11);
* ``points`` and ``steps``: the points the card or die gives and how many of them the horse can
  use (fewer when it is boxed in, T5; 0 when it cannot move at all);
* ``limit``: the horse's handicap limit this round (None when unhandicapped), and ``spent``:
  whether the card is above it, so that it is spent and the horse does not move (T6).

Only ``card`` and ``die`` options are previewed: their outcome depends on nothing hidden (no dice
are drawn on the clone; a chance step stops the look-ahead), whereas claiming bonus cards, for
instance, would reveal cards from the deck.
"""

from __future__ import annotations

from typing import Any, Mapping

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.i18n import Message
from hippodrome.turfmaster.cards import card_value
from hippodrome.turfmaster.race import race_view

PREVIEWABLE = frozenset({"card", "die"})


def preview(game: Any, seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"squares": [{"lane", "square", "falls"}, ...], "points", "steps", "limit", "spent"}``: what
    ``params["action"]``, one of ``seat``'s options now, would do (IllegalAction if it is not one, or
    cannot be previewed)."""
    action = params.get("action")
    if not isinstance(action, dict):
        raise IllegalAction(Message("'preview' needs 'action': one of your options"))
    return consequences(game, seat, action)


def consequences(game: Any, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(action.get("type"), str) or action["type"] not in PREVIEWABLE:
        raise IllegalAction(Message("only a card or a die can be previewed"))
    pending = game.pending()
    if not isinstance(pending, Decision) or pending.seat != seat or not pending.allows(action):
        raise IllegalAction(Message("that is not one of your options now"))
    horse = action.get("horse")
    limit = pending.context.get("limit")
    state = game.clone()
    seen = len(race_view(state.view(seat)).get("history", ()))
    state.apply(action)
    after = state.pending()
    if isinstance(after, Decision) and after.seat == seat and after.kind == "square" \
            and after.context.get("horse") == horse:
        falls = after.context.get("falls") or []
        squares = [{"lane": o["lane"], "square": o["square"],
                    "falls": {"lane": o["lane"], "square": o["square"]} in falls}
                   for o in after.options if o.get("type") == "square" and o.get("horse") == horse]
        return {"squares": squares, "points": after.context["points"], "steps": after.context["steps"],
                "limit": limit, "spent": False}
    events = [e for e in race_view(state.view(seat)).get("history", [])[seen:] if e.get("horse") == horse]
    moves = [e for e in events if e.get("event") == "move"]
    if moves:
        move = moves[-1]
        return {"squares": [{**move["to"], "falls": bool(move.get("fell"))}], "points": move["points"],
                "steps": move["steps"], "limit": limit, "spent": False}
    spent = any(e.get("event") == "card" and "handicapped" in e for e in events)
    points = card_value(action["card"]) if action["type"] == "card" else action["value"]
    return {"squares": [], "points": points, "steps": 0, "limit": limit, "spent": spent}


def races(game: Any, seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The "races" look-up (public): the meeting's races run so far, each with its history, so that
    a page's move log holds the whole meeting (the view carries the race in progress only)."""
    past = getattr(game, "past_races", None)
    return {"races": past() if past else []}
