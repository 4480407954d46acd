"""What the profile and the leaderboard read: a player's ratings and games, a ladder's page.

A player is a person with an account (by its name) or a bot level (by the level's name, which no
account may take): ``player_of`` finds which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hippodrome.server.accounts import store
from hippodrome.server.accounts.passwords import name_key
from hippodrome.server.accounts.ratings import BOT, rating_json
from hippodrome.server.storage import Sql


@dataclass(frozen=True)
class Player:
    key: str        # the ratings' player: an account id, or "bot:<level>"
    name: str
    kind: str       # "person" | "bot"


def player_of(sql: Sql, name: str, bot_levels: dict[str, str]) -> Player | None:
    """The player named ``name`` (``bot_levels``: name key -> level name), or None."""
    key = name_key(name)
    account = store.account_named(sql, key)
    if account is not None:
        return Player(account.id, account.name, "person")
    level = bot_levels.get(key)
    return Player(BOT + level, level, "bot") if level is not None else None


def ratings_of(sql: Sql, player: Player) -> dict[str, Any]:
    return {game: rating_json(mu, sigma, games) for game, mu, sigma, games in sql.rows(
        "SELECT game, mu, sigma, games FROM ratings WHERE player = ? ORDER BY game", (player.key,))}


def games_of(sql: Sql, player: Player, limit: int) -> list[dict[str, Any]]:
    """The player's latest games, newest first (a person's unfinished ones too; a bot's rated ones):
    ``{"table", "game", "finished", "place", "players"}``."""
    if player.kind == "person":
        rows = sql.rows(
            "SELECT t.id, t.game, r.finished, r.places, MIN(s.seat) FROM seats s JOIN tables t ON t.id = s.table_id "
            "LEFT JOIN results r ON r.table_id = t.id WHERE s.account = ? "
            "GROUP BY t.id, t.game, r.finished, r.places, t.created "
            "ORDER BY COALESCE(r.finished, t.created) DESC, t.id DESC LIMIT ?", (player.key, limit))
        seats_of = {row[0]: store.seats_held(sql, player.key, row[0]) for row in rows}
    else:
        level = player.key[len(BOT):]
        rows = sql.rows(
            "SELECT t.id, t.game, r.finished, r.places, MIN(s.seat) FROM seats s JOIN tables t ON t.id = s.table_id "
            "JOIN results r ON r.table_id = t.id WHERE s.kind = 'bot' AND s.level = ? AND s.account IS NULL "
            "AND r.rated = 1 GROUP BY t.id, t.game, r.finished, r.places "
            "ORDER BY r.finished DESC, t.id DESC LIMIT ?", (level, limit))
        seats_of = {row[0]: [seat for seat, kind, lv, account in seat_kinds(sql, row[0])
                             if kind == "bot" and lv == level and account is None] for row in rows}
    players = table_players(sql, [row[0] for row in rows])
    games = []
    for table_id, game, finished, places_text, _first in rows:
        places = json.loads(places_text) if places_text else None
        place = min(places[seat] for seat in seats_of[table_id]) if places and seats_of[table_id] else None
        games.append({"table": table_id, "game": game, "finished": finished, "place": place,
                      "players": [{**p, "place": places[p["seat"]] if places else None}
                                  for p in players.get(table_id, [])]})
    return games


def seat_kinds(sql: Sql, table_id: str) -> list[tuple]:
    return sql.rows("SELECT seat, kind, level, account FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))


def table_players(sql: Sql, table_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each table's seats as a page names them: the account's name where an account holds the
    seat (``"account": true``), ``"former": true`` where its account was deleted."""
    if not table_ids:
        return {}
    found: dict[str, list[dict[str, Any]]] = {}
    for table_id, seat, name, kind, level, account_name, former in sql.rows(
            "SELECT s.table_id, s.seat, s.name, s.kind, s.level, a.name, s.former FROM seats s "
            f"LEFT JOIN accounts a ON a.id = s.account WHERE s.table_id IN ({', '.join('?' * len(table_ids))}) "
            "ORDER BY s.table_id, s.seat", table_ids):
        found.setdefault(table_id, []).append({
            "seat": seat, "name": account_name if account_name is not None else name, "kind": kind, "level": level,
            "account": account_name is not None, "former": bool(former)})
    return found


def ladder(sql: Sql, game: str, start: int, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """A page of the game's ladder, best first (from ``start``, counted from 0), and whether more follow."""
    rows = sql.rows("SELECT player, mu, sigma, games FROM ratings WHERE game = ? "
                    "ORDER BY ordinal DESC, player LIMIT ? OFFSET ?", (game, limit + 1, start))
    more, rows = len(rows) > limit, rows[:limit]
    ids = [row[0] for row in rows if not row[0].startswith(BOT)]
    names = dict(sql.rows(f"SELECT id, name FROM accounts WHERE id IN ({', '.join('?' * len(ids))})", ids)) \
        if ids else {}
    page = []
    for rank, (player, mu, sigma, games) in enumerate(rows, start + 1):
        bot = player.startswith(BOT)
        page.append({"rank": rank, "name": player[len(BOT):] if bot else names.get(player, ""),
                     "kind": "bot" if bot else "person", **rating_json(mu, sigma, games)})
    return page, more
