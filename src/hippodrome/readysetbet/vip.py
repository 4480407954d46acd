"""VIP cards (ruling R8) as data, and what a player's cards in play allow.

The deck is the project's reconstruction (the printed list is not available): comp chips,
bandwagon, bonus tokens, per-roll payouts and last call, read from data/vip.json.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Iterable

from hippodrome.readysetbet.settlement import Token

VIP_DATA: dict[str, Any] = json.loads((resources.files("hippodrome.readysetbet") / "data" / "vip.json").read_text())
VIP_CARDS: dict[str, dict[str, Any]] = {card["id"]: card for card in VIP_DATA["cards"]}
VIP_DRAW: int = VIP_DATA["draw"]
VIP_AFTER_RACES: tuple[int, ...] = tuple(VIP_DATA["after_races"])


def deck_ids() -> list[str]:
    """The 32 cards dealt (R8)."""
    return [card["id"] for card in VIP_DATA["cards"] if not card.get("retired")]


def previous_deck_ids() -> list[str]:
    """The 30-card deck of games stored before ruling R8 was changed (one Snake Eyes & Boxcars card
    where there are now a Snake Eyes and a Boxcars): still accepted when such a game replays."""
    retired = [card["id"] for card in VIP_DATA["cards"] if card.get("retired")]
    replaced = {"snake-eyes-1", "snake-eyes-2", "boxcars-1", "boxcars-2"}
    return [card for card in deck_ids() if card not in replaced] + retired


def comp_chips(card_id: str) -> int:
    """Money paid once, when the card is taken."""
    card = VIP_CARDS[card_id]
    return card["amount"] if card["kind"] == "comp_chips" else 0


def bonus_token(card_id: str) -> Token | None:
    """The black or white bonus token a card gives, with its own red circle (R8)."""
    card = VIP_CARDS[card_id]
    if card["kind"] != "bonus_token":
        return None
    return {"id": card_id, "value": card["token"], "penalty": card["penalty"],
            "cancels_loss": card["cancels_loss"]}


def roll_payout(cards: Iterable[str], dice_sum: int) -> int:
    """Dollars paid for this roll by Snake Eyes & Boxcars and Lucky number cards."""
    return sum(VIP_CARDS[c]["amount"] for c in cards
               if VIP_CARDS[c]["kind"] == "roll_payout" and dice_sum in VIP_CARDS[c]["sums"])


def bandwagon_values(cards: Iterable[str]) -> set[int]:
    """Token values that may go on a space already holding a token."""
    return {VIP_CARDS[c]["token"] for c in cards if VIP_CARDS[c]["kind"] == "bandwagon"}


def has_last_call(cards: Iterable[str]) -> bool:
    return any(VIP_CARDS[c]["kind"] == "last_call" for c in cards)
