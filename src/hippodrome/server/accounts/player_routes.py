"""The players' API (docs/accounts.md):

* ``GET /players/{name}``, ``GET /ratings/{game}``: the profile's and the leaderboard's pages;
* ``GET /api/players/{name}``: ``{"name", "kind", "games": [{"table", "game", "finished",
  "place", "players"}], "ratings": {game: {"rating", "games", "provisional", ...}}}``; a person
  by its account's name, a bot by its level's name; 404 in words for anyone else.
* ``GET /api/tables/{id}/players``: ``{"table", "players": [{"seat", "name", "kind", "level",
  "account", "former"}]}``, for the table page's links to its players' profiles;
* ``GET /api/ratings/{game}?start=0&limit=50``: the game's ladder, best first, a page at a time
  (``{"game", "ratings": [{"rank", "name", "kind", "rating", "games", "provisional"}], "next"}``,
  ``next`` the ``start`` of the next page or null).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from hippodrome.core.registry import descriptions
from hippodrome.i18n import Message
from hippodrome.server.accounts.passwords import name_key
from hippodrome.server.accounts.players import games_of, ladder, player_of, ratings_of, table_players
from hippodrome.server.accounts.service import Accounts
from hippodrome.server.localize import LobbyError, quoted
from hippodrome.server.routes.pages import page as html_page

MAX_LIMIT = 100


def count_param(request: Request, key: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(key)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
        # NOTE: {key} is a parameter of the address ("limit", "start").
        raise LobbyError(400, Message("{key} must be a whole number from {low} to {high}", key=key, low=low,
                                      high=high), code="bad_request")
    return int(text)


def players_router(accounts: Accounts) -> APIRouter:
    router = APIRouter()

    @router.get("/players/{name}")
    async def profile_page(name: str, request: Request):
        return html_page("profile.html", request)

    @router.get("/ratings/{game}")
    async def leaderboard_page(game: str, request: Request):
        return html_page("leaderboard.html", request)

    bot_levels = {name_key(bot.name): bot.name for description in descriptions() for bot in description.bots}
    rated = [description.name for description in descriptions() if description.rated]

    @router.get("/api/players/{name}")
    async def player(name: str, request: Request):
        limit = count_param(request, "limit", 20, 1, MAX_LIMIT)

        def read(sql) -> dict[str, Any] | None:
            found = player_of(sql, name[:100], bot_levels)
            if found is None:
                return None
            return {"name": found.name, "kind": found.kind, "games": games_of(sql, found, limit),
                    "ratings": ratings_of(sql, found)}
        answer = await accounts.read(read)
        if answer is None:
            raise LobbyError(404, Message("nobody plays here under the name {name}", name=quoted(name)),
                             code="not_found")
        return answer

    @router.get("/api/tables/{table_id}/players")
    async def table_players_now(table_id: str):
        """A table's seats as the pages link them: the account's name where an account holds the
        seat, ``former`` where it was deleted (the names typed at the table otherwise)."""
        found = await accounts.read(lambda sql: table_players(sql, [table_id[:100]]))
        if table_id not in found:
            raise LobbyError(404, Message("no table {id}", id=quoted(table_id)), code="not_found")
        return {"table": table_id, "players": found[table_id]}

    @router.get("/api/ratings/{game}")
    async def ratings(game: str, request: Request):
        if game not in rated:
            raise LobbyError(404, Message("{game} has no ratings; the rated games: {games}", game=quoted(game),
                                          games=", ".join(rated)), code="not_found")
        start = count_param(request, "start", 0, 0, 10 ** 9)
        limit = count_param(request, "limit", 50, 1, MAX_LIMIT)
        page, more = await accounts.read(lambda sql: ladder(sql, game, start, limit))
        return {"game": game, "ratings": page, "next": start + limit if more else None}

    return router
