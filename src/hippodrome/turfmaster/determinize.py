"""A race as a seat might believe it to be: the public race and the seat's own hands from its view,
the other horses' hands drawn at random from the cards that seat has not seen.

This is what a search bot plays forward (information-set Monte Carlo tree search samples one
such *determinisation* per iteration): it is built from the view alone, never from the true
state, so nothing hidden can reach the bot. Each horse has a deck of its own (T7); the cards
still in a horse's hand are drawn from its full deck less the cards it has played in this race
(the view's history). A meeting's view carries only the race in progress, so cards played in
earlier races are not subtracted: a slightly wider prior than a perfect memory would give, and
still consistent with everything in the view (every hand has the count the view shows).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from hippodrome.turfmaster.cards import full_deck
from hippodrome.turfmaster.race import (
    AWAIT_CARD, AWAIT_DIE, AWAIT_EMPTY_HAND, AWAIT_SQUARE, FINISHED, Race, race_view,
)
from hippodrome.turfmaster.search_state import SearchRace

#: the decisions of a race, as its pending decision's kind names them, and what the race awaits then
RACE_DECISIONS = {"card": AWAIT_CARD, "square": AWAIT_SQUARE, "die": AWAIT_DIE,
                  "empty_hand": AWAIT_EMPTY_HAND, "dice_use": None}


def unclaimed_bonus(observation: dict[str, Any]) -> list[str]:
    """Horses whose bonus cards are still unclaimed (T8), as far as the view says: a meeting's view
    lists when each horse took them; a single race's view does not say, so none."""
    return [h["id"] for h in observation.get("horses", ()) if "bonus_taken_in" in h and h["bonus_taken_in"] is None]


def unseen_cards(race: dict[str, Any], horse: str) -> list[str]:
    """The cards of ``horse``'s deck that its view has not shown played in this race."""
    played = Counter(event["card"] for event in race.get("history", ())
                     if event.get("event") == "card" and event.get("horse") == horse)
    left = Counter(full_deck()) - played
    return list(left.elements())


def hidden_hands(race: dict[str, Any]) -> list[tuple[str, list[str], int]]:
    """The horses whose hands the view of ``race`` hides, in its order: each with the cards its
    hand is drawn from (:func:`unseen_cards`) and how many it holds."""
    own = race.get("hands") or {}
    hidden = []
    for entry in race["horses"]:
        if entry["id"] not in own:
            pool = unseen_cards(race, entry["id"])
            hidden.append((entry["id"], pool, min(entry.get("cards_left") or 0, len(pool))))
    return hidden


def determinize(observation: dict[str, Any], seat: int, rng: random.Random) -> Race:
    """A race consistent with ``observation`` (``seat``'s view while one of its race decisions is
    pending), other hands drawn with ``rng``. Raises ValueError when the view holds no such
    decision."""
    race = race_view(observation)
    pending = (observation.get("pending") or {})
    kind = pending.get("kind")
    if not race or kind not in RACE_DECISIONS or pending.get("seat") != seat:
        raise ValueError(f"seat {seat} has no race decision pending in this view")  # i18n: programming error
    context = pending.get("context") or {}
    own = race.get("hands") or {}
    horses = race["horses"]
    drawn = {horse: rng.sample(pool, count) for horse, pool, count in hidden_hands(race)}
    hands = {e["id"]: list(own[e["id"]]) if e["id"] in own else drawn[e["id"]] for e in horses}
    course_square = {"lane": 0, "square": 0}
    squares = {e["id"]: ({"lane": e["lane"], "square": e["square"]} if e["stage"] != FINISHED else course_square)
               for e in horses}
    owners = {e["id"]: e["owner"] for e in horses}
    seats = observation.get("players") or (max(owners.values()) + 1)
    setup = {"course": race["course"], "steeplechase": race["steeplechase"],
             "horses": [{"id": e["id"], "owner": e["owner"]} for e in horses], "seats": seats,
             "hands": {horse: list(cards) for horse, cards in hands.items()}}
    dice, dice_use = race["dice"], race["dice_use"]
    state = {
        "setup": setup, "ids": [e["id"] for e in horses], "owner": owners, "seats": seats,
        "roller": race["roller"], "square": squares, "stage": {e["id"]: e["stage"] for e in horses},
        "places": list(race["places"]), "fallen": list(race["fallen"]), "hands": hands,
        "round_no": race["round"], "round_kind": race["round_kind"], "order": list(race["order"]),
        "limits": {e["id"]: e["limit"] for e in horses if e.get("limit") is not None},
        "turn": race["turn"], "dice": None if dice is None else list(dice),
        "dice_use": None if dice_use is None else dict(dice_use),
        "awaiting": RACE_DECISIONS[kind], "points": context.get("points", 0),
        "bonus_unclaimed": [h for h in unclaimed_bonus(observation) if h in owners],
        "history": list(race.get("history", ())),   # events are never changed: shared with the view
    }
    return Race.from_own_json(state)   # every list and dict above made here, none the view's


def search_draws(observation: dict[str, Any], seat: int) -> Callable[[random.Random], SearchRace]:
    """Many determinisations of one view, as a search draws them: ``draw(rng)`` is the lean search
    state of :func:`determinize` (``SearchRace.from_race(determinize(observation, seat, rng))``, the
    same hands drawn from the same ``rng``), the view read and the race made once: each draw deals
    the hidden hands again into a copy."""
    made = SearchRace.from_race(determinize(observation, seat, random.Random(0)))
    number = {horse: n for n, horse in enumerate(made.ids)}
    hidden = [(number[horse], pool, count) for horse, pool, count in hidden_hands(race_view(observation))]

    def draw(rng: random.Random) -> SearchRace:
        return made.dealt({horse: rng.sample(pool, count) for horse, pool, count in hidden})
    return draw
