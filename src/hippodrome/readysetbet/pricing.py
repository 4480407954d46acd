"""What a bet is worth to a seat, from the live odds and what the seat's view shows.

Shared by the bots (:mod:`hippodrome.readysetbet.bots`, :mod:`hippodrome.readysetbet.board_bot`):
the odds of the race position in the view, computed once per position for every bot of the
process (:func:`position_odds`), and the expected money of a token on a space, a loss costing no more than the money
the seat has (R4's $0 floor).
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Any


from hippodrome.readysetbet.board import Space, race_spaces
from hippodrome.readysetbet.dice_race import RaceState
from hippodrome.readysetbet.odds import Odds, race_odds
from hippodrome.readysetbet.settlement import Token, bet_payout


#: race positions whose odds the process keeps (the latest asked), shared by every bot in it
SHARED_POSITIONS = 64


@lru_cache(maxsize=SHARED_POSITIONS)
def position_odds(state: RaceState, simulations: int, timing: bool) -> Odds:
    """The odds of a race position by ``simulations`` simulated finishes, from a generator seeded
    by the position itself: the same answer for every bot that asks, so the bots of a table (and
    those of every table at the same position, such as each race's start) share one computation."""
    seed = zlib.crc32(repr((state.positions, state.last_sum, state.last_was_bonus, state.crossings,
                            simulations, timing)).encode())
    return race_odds(state, simulations, seed=seed, timing=timing)


class LiveOdds:
    """The odds of the race position a view shows (:func:`position_odds`), with each space's
    chance of winning worked out once per position."""

    def __init__(self, simulations: int, timing: bool = False):
        self.simulations = simulations
        self.timing = timing

    def of(self, race: dict[str, Any]) -> Odds:
        return position_odds(RaceState.from_json(race), self.simulations, self.timing)

    def chance(self, race: dict[str, Any], space: Space) -> float:
        """The chance that ``space`` wins, from the race position in ``race`` (a view's "race")."""
        odds = self.of(race)
        found = odds.chances.get(space.id)
        if found is None:
            found = odds.chances[space.id] = odds.probability(space)
        return found


def board_spaces(observation: dict[str, Any]) -> dict[str, Space]:
    """The spaces of the race in the view: the fixed board, its prop cards and exotic cards."""
    return {s.id: s for s in race_spaces(observation["props"], observation["exotics"])}


def bet_value(space: Space, token: Token, p: float, money: int) -> float:
    """Expected money of ``token`` on ``space`` winning with chance ``p``, a loss capped at ``money`` (R4)."""
    gain = bet_payout(space, token, True)
    loss = min(-bet_payout(space, token, False), money)
    return p * gain - (1 - p) * loss


def option_token(observation: dict[str, Any], option: dict[str, Any]) -> Token:
    """The token an option places: the seat's own token, or a House token (its value, no red circle)."""
    seat = observation["seat"]
    if "token" in option and seat is not None:
        for token in observation["tokens"][seat]:
            if token["id"] == option["token"]:
                return token
    return {"id": f"house-{option.get('value', 0)}", "value": option.get("value", 0), "penalty": 0,
            "cancels_loss": False}


def price_options(observation: dict[str, Any], options: tuple[dict[str, Any], ...],
                  odds: LiveOdds) -> list[tuple[float, dict[str, Any]]]:
    """(expected money, option) for every bet or House-token option."""
    seat = observation["seat"]
    spaces = board_spaces(observation)
    money = observation["money"][seat] if seat is not None else 0
    return [(bet_value(spaces[o["space"]], option_token(observation, o),
                       odds.chance(observation["race"], spaces[o["space"]]), money), o) for o in options]
