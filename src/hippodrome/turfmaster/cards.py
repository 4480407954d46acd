"""The TurfMaster deck (ruling T7) and the handicap limits (T6), read from data/deck.json.

A card is a short string: "7" is a plain 7, "J12" the joker 12.
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads((resources.files("hippodrome.turfmaster") / "data" / "deck.json").read_text())

JOKER_PREFIX = "J"
HAND_SIZE: int = _DATA["hand_size"]
BONUS_CARDS: int = _DATA["bonus_cards"]
HORSE_COLOURS: dict[str, str] = {h["id"]: h["colour"] for h in _DATA["horses"]}
HORSE_IDS: tuple[str, ...] = tuple(HORSE_COLOURS)
#: position (competition ranking) -> the most squares a horse there may move
HANDICAP_LIMITS: dict[int, int] = {int(k): v for k, v in _DATA["handicaps"].items()}
#: position -> the handicap's number as the rulebooks print it, one above the limit ("1ª Posición =
#: Hándicap 9 ► máximo 8 casillas"): players read "handicap 9" or "at most 8", never one for the other
HANDICAP_NUMBERS: dict[int, int] = {int(k): v for k, v in _DATA["handicap_numbers"].items()}


def _deck_in_order() -> tuple[str, ...]:
    deck = [f"{JOKER_PREFIX}{value}" for value in _DATA["jokers"]]
    for value, count in _DATA["cards"].items():
        deck.extend([value] * count)
    return tuple(deck)


_DECK = _deck_in_order()
#: the cards in one horse's deck
DECK_SIZE = len(_DECK)


def full_deck() -> list[str]:
    """The 32 cards of one horse's deck, in a fixed order (shuffle it with a chance step)."""
    return list(_DECK)


_VALUES = {card: int(card.removeprefix(JOKER_PREFIX)) for card in set(full_deck())}


def card_value(card: str) -> int:
    return _VALUES[card]


def is_joker(card: str) -> bool:
    return card.startswith(JOKER_PREFIX)


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in _VALUES


def handicap_number(limit: int) -> int:
    """The rulebooks' number of the handicap whose limit is ``limit``: ``handicap_number(8) == 9``."""
    return next(HANDICAP_NUMBERS[rank] for rank, at_most in HANDICAP_LIMITS.items() if at_most == limit)
