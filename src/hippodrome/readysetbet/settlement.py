"""Tokens and the settlement of bets (rulings R4, R8 bonus tokens, R9 house tokens).

A token is ``{"id", "value", "penalty", "cancels_loss"}``: its value multiplies a winning
space's multiplier; a losing bet costs the space's red circle plus the token's own red
circle, or nothing at all with a token that cancels losses (the bonus 2s, R8).

Winnings are collected first and losses paid after (the rulebook's order); money never goes
below $0 (R4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hippodrome.readysetbet.board import Finish, Space, wins
from hippodrome.readysetbet.dice_race import RACE_DATA

Token = dict[str, Any]


def player_tokens(players: int) -> list[Token]:
    """The bet tokens of one player (R4): 2, 3, 3, 4, 5, one 3 fewer at 7 or 8 players."""
    values = list(RACE_DATA["bet_tokens"])
    if players in RACE_DATA["players_with_one_three_fewer"]:
        values.remove(3)
    tokens, seen = [], {}
    for value in values:
        seen[value] = seen.get(value, 0) + 1
        token_id = str(value) if seen[value] == 1 else f"{value}{'abcdefg'[seen[value] - 1]}"
        tokens.append({"id": token_id, "value": value, "penalty": 0, "cancels_loss": False})
    return tokens


def bet_payout(space: Space, token: Token, won: bool) -> int:
    """What one bet brings (positive) or costs (negative), before the $0 floor."""
    if won:
        return token["value"] * space.multiplier
    if token.get("cancels_loss"):
        return 0
    return -(space.penalty + token.get("penalty", 0))


def expected_value(space: Space, token: Token, p_win: float | np.ndarray) -> float | np.ndarray:
    """Expected money of a bet that wins with probability ``p_win`` (the $0 floor ignored)."""
    return p_win * bet_payout(space, token, True) + (1 - p_win) * bet_payout(space, token, False)


def _working(space: Space, token: Token) -> dict[str, Any]:
    """What a result line needs to show its working: "5 x $3 = $15", "-$2 space, -$1 bonus token"."""
    return {"value": token["value"], "multiplier": space.multiplier, "penalty": space.penalty,
            "token_penalty": token.get("penalty", 0), "cancels_loss": bool(token.get("cancels_loss"))}


def winning_spaces(spaces: dict[str, Space], final_positions: tuple[int, ...]) -> list[str]:
    """The ids of every space that wins with these final positions (marked on the settled board)."""
    finish = Finish(np.array([final_positions]))
    return [space_id for space_id, space in spaces.items() if wins(space, finish)[0]]


def settle(bets: list[dict[str, Any]], spaces: dict[str, Space], final_positions: tuple[int, ...],
           money: dict[int, int]) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """Settle every bet once: the new money per seat and one result line per bet.

    ``bets`` are ``{"seat", "token": Token, "space": id}``. A result line is ``{"seat", "token",
    "space", "won", "amount"}`` (the amount before the $0 floor) with its working: the token's
    ``value``, the space's ``multiplier`` and red circle (``penalty``), the token's own red circle
    (``token_penalty``) and whether it ``cancels_loss``.
    """
    finish = Finish(np.array([final_positions]))
    won_by_space = {space_id: bool(wins(spaces[space_id], finish)[0]) for space_id in {b["space"] for b in bets}}
    gains = {seat: 0 for seat in money}
    losses = {seat: 0 for seat in money}
    results = []
    for bet in bets:
        space = spaces[bet["space"]]
        won = won_by_space[bet["space"]]
        amount = bet_payout(space, bet["token"], won)
        if amount >= 0:
            gains[bet["seat"]] += amount
        else:
            losses[bet["seat"]] -= amount
        results.append({"seat": bet["seat"], "token": bet["token"]["id"], "space": bet["space"],
                        "won": won, "amount": amount, **_working(space, bet["token"])})
    new_money = {seat: max(0, money[seat] + gains[seat] - losses[seat]) for seat in money}
    return new_money, results
