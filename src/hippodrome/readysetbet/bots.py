"""Ready Set Bet bots: a random bettor and a value bettor that reads the live odds.

Both see only their seat's view. ``choose(observation, options)`` takes turn-based decisions
(VIP 2-keep-1, House tokens, rotating House); ``choose_free(observation, options)`` is asked
between rolls and returns one bet or None to wait (the table's convention for free actions).

The value bettor prices every legal bet with :mod:`hippodrome.readysetbet.pricing` (the expected
money of a token on a space, a loss costing no more than the money it has: R4's $0 floor)
and times its bets: early in the race it takes only clearly good bets, before somebody else
takes the space; as "no more bets" comes closer (red-line crossings, R2) it settles for
smaller edges, and it never places a bet it expects to lose money on.
"""

from __future__ import annotations

import random
from typing import Any


from hippodrome.core.game import Action
from hippodrome.readysetbet.pricing import LiveOdds, price_options
from hippodrome.readysetbet.vip import VIP_CARDS


class RandomBettor:
    """Bets on a random legal space with probability ``rate`` at each chance; random decisions."""

    name = "random"

    def __init__(self, seed: int | str = 0, rate: float = 0.3):
        self.rng = random.Random(seed)
        self.rate = rate

    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        return self.rng.choice(options)

    def choose_free(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action | None:
        if not options or self.rng.random() >= self.rate:
            return None
        return self.rng.choice(options)


#: minimum expected profit ($) for a bet, by red-line crossings so far (0, 1, 2, 3+)
EDGE_BY_CROSSINGS = (2.0, 1.0, 0.3, 0.0)


class ValueBettor:
    """Places the legal bet with the best expected value once it clears the timing threshold."""

    name = "value"

    def __init__(self, seed: int | str = 0, simulations: int = 1500):
        self.seed = seed   # kept for the levels' common signature: the odds of a position are the same for every bot
        self.simulations = simulations
        self.odds = LiveOdds(simulations)

    def _values(self, observation: dict[str, Any], options: tuple[Action, ...]) -> list[tuple[float, Action]]:
        return price_options(observation, options, self.odds)

    def choose_free(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action | None:
        if not options:
            return None
        valued = self._values(observation, options)
        best_value, best = max(valued, key=lambda item: item[0])
        race = observation["race"]
        threshold = EDGE_BY_CROSSINGS[min(race["crossings"], 3)]
        if max(race["positions"].values()) >= 13:  # a finish may come any roll now
            threshold = 0.0
        return best if best_value > threshold else None

    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        kind = options[0].get("type")
        if kind == "house_token":
            return max(self._values(observation, options), key=lambda item: item[0])[1]
        if kind == "vip":
            return max(options, key=lambda o: _vip_worth(o["keep"], observation))
        if kind == "house":
            return {"type": "house", "accept": False}
        return options[0]


def _vip_worth(card_id: str, observation: dict[str, Any]) -> float:
    """A rough dollar worth of a VIP card for the races left."""
    card = VIP_CARDS[card_id]
    races_left = observation["races"] - observation["race_no"]
    if card["kind"] == "comp_chips":
        return card["amount"]
    if card["kind"] == "roll_payout":
        per_roll = sum((6 - abs(s - 7)) / 36 for s in card["sums"])
        return per_roll * 45 * races_left  # about 45 rolls a race
    if card["kind"] == "bonus_token":
        return 1.2 * card["token"] * races_left - (0 if card["cancels_loss"] else card["penalty"])
    if card["kind"] == "bandwagon":
        return 1.0 * races_left
    return 1.5 * races_left  # last call

