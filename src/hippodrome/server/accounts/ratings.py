"""Ratings: OpenSkill's Plackett-Luce model, one ladder per rated game (``GameDescription.rated``:
TurfMaster's meetings, Ready Set Bet's games).

A finished table is stored once in ``results`` (its places, when it finished); it moves ratings
when at least two *rated* players sat at it: a person with an account, or a bot, each bot level
rated under its own name (``bot:tactical``), so people can measure themselves against the bots.
Guests are not rated. A player seated more than once at a table is rated once, at its best place.
A seat handed to a bot while the game ran still rates its account (leaving does not escape a
loss). A rating shown is OpenSkill's ordinal, mu - 3 sigma (0 for a new player); it is
*provisional* until the player has :data:`PROVISIONAL_GAMES` rated games in that ladder.
"""

from __future__ import annotations

import json
from typing import Any

from openskill.models import PlackettLuce

from hippodrome.server.storage import Sql

PROVISIONAL_GAMES = 5
BOT = "bot:"
MODEL = PlackettLuce()


def player_key(kind: str, level: str | None, account: str | None) -> str | None:
    """Who a seat rates: its account, else its bot level, else nobody (a guest)."""
    if account:
        return account
    return BOT + level if kind == "bot" and level else None


def rated_players(seats: list[tuple[str, str | None, str | None]], places: list[int]) -> dict[str, int]:
    """Player -> best place, from the seats' (kind, level, account) and their places."""
    best: dict[str, int] = {}
    for (kind, level, account), place in zip(seats, places):
        key = player_key(kind, level, account)
        if key is not None:
            best[key] = min(best.get(key, place), place)
    return best


def new_ratings(current: dict[str, tuple[float, float]], places: dict[str, int]) -> dict[str, tuple[float, float]]:
    """Player -> (mu, sigma) after a game in which each player of ``places`` finished at its place
    (``current``: the ratings before; a player missing there starts at the model's defaults)."""
    players = list(places)
    teams = [[MODEL.rating(*current[p]) if p in current else MODEL.rating()] for p in players]
    rated = MODEL.rate(teams, ranks=[places[p] for p in players])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(players, rated)}


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def record_result(sql: Sql, table_id: str, game: str, finished: float, places: list[int] | None,
                  rated_game: bool) -> bool:
    """The finished table's result, stored once (False: it was already), and its ratings moved."""
    seats = sql.rows("SELECT kind, level, account FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
    players = rated_players(seats, places) if places is not None and len(places) == len(seats) else {}
    rated = rated_game and len(players) >= 2
    stored = sql.run("INSERT INTO results (table_id, game, finished, places, rated) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT (table_id) DO NOTHING", (table_id, game, finished, json.dumps(places), int(rated)))
    if stored != 1 or not rated:
        return stored == 1
    keys = list(players)
    current = {row[0]: (row[1], row[2]) for row in sql.rows(
        f"SELECT player, mu, sigma FROM ratings WHERE game = ? AND player IN ({', '.join('?' * len(keys))})",
        (game, *keys))}
    for player, (mu, sigma) in new_ratings(current, players).items():
        sql.run("INSERT INTO ratings (player, game, mu, sigma, ordinal, games) VALUES (?, ?, ?, ?, ?, 1) "
                "ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "ordinal = excluded.ordinal, games = ratings.games + 1",
                (player, game, mu, sigma, ordinal(mu, sigma)))
    return True


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {"rating": round(ordinal(mu, sigma), 1), "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games,
            "provisional": games < PROVISIONAL_GAMES}
