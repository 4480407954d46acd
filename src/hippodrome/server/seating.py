"""Who sits at a new or stored table: its players made from the lobby's request or from the
stored seats, the name rules, the lifecycle a table of those players starts with, and the links
and checks the lobby gives."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from hippodrome.core.description import GameDescription, TableSettings
from hippodrome.core.errors import InvalidSetup, given
from hippodrome.core.registry import game_class
from hippodrome.i18n import Message
from hippodrome.server.storage import hash_token
from hippodrome.table.bots import make_bot
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.table import Player

MAX_NAME = 40
#: Unicode's bidirectional controls (embeddings, overrides, isolates, marks): a name holding one
#: turns the text after it around ("Ana\u202eeman" shows as "Ananame"), on the pages and in logs
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def fit_name(name: object) -> bool:
    """A seat's name as a table takes it: text of at most ``MAX_NAME`` characters, none of them a
    control character (a line break, a NUL: they would garble the pages' and the terminal's lines)
    or a bidirectional control (it would reverse what follows it)."""
    return isinstance(name, str) and len(name) <= MAX_NAME and not any(
        unicodedata.category(character) == "Cc" or character in BIDI_CONTROLS for character in name)


def bot_seed(seed: str, seat: int) -> str:
    """The seed of the bot of ``seat`` at a table of ``seed``: the same each time the table is loaded."""
    return f"{seed}:bot:{seat}"


#: the keys of a seat in a create request (``level``: a bot's; a person's is not read)
SEAT_KEYS = ("name", "kind", "level")


def new_players(description: GameDescription, seats: Any, seed: str,
                budget: float | str | None = None) -> tuple[list[Player], list[str]]:
    """The players of a new table from the lobby's ``seats``, and each seat's token (a person's
    link holds it; the players keep only its digest). ``budget``: the search bots' thinking time."""
    if description.max_seats == 0:  # a game without seats, such as the races called for the box
        if seats is not None and seats != []:
            raise InvalidSetup(Message("{game} has no seats: send 'seats': [] or leave it out", game=description.name))
        return [], []
    if not isinstance(seats, list) or not 1 <= len(seats) <= 16:
        raise InvalidSetup(Message("'seats' must list the seats, each {example}",
                                   example='{"name": ..., "kind": "person" | "bot"}'))
    levels = [bot.name for bot in description.bots]
    players, tokens = [], []
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise InvalidSetup(Message("seat {seat} must be an object such as {example}", seat=number + 1,
                                       example='{"name": "Ana", "kind": "person"}'))
        for key in seat:
            if key not in SEAT_KEYS:   # "type": "bot" for "kind" would make a person's seat, unseen
                # NOTE: {key} is what the request gave; {keys} lists a seat's keys (kept in English).
                raise InvalidSetup(Message("seat {seat} has no key {key}; a seat's keys are: {keys}", seat=number + 1,
                                           key=given(key), keys=", ".join(SEAT_KEYS)))
        name = seat.get("name") or ""  # a page shows a nameless seat as "Player 2" in its language
        if not fit_name(name):
            raise InvalidSetup(Message("seat {seat}: a name is text of at most {n} characters, without control "
                                       "characters such as a line break", seat=number + 1, n=MAX_NAME))
        kind = seat.get("kind", "person")
        if kind not in ("person", "bot"):
            raise InvalidSetup(Message("seat {seat}: 'kind' must be 'person' or 'bot', not {kind}",
                                       seat=number + 1, kind=given(kind)))
        level = seat.get("level", "random") if kind == "bot" else None
        if kind == "bot" and level not in levels:
            raise InvalidSetup(Message("seat {seat}: unknown bot level {level}; levels: {levels}",
                                       seat=number + 1, level=given(level), levels=", ".join(levels)))
        token = secrets.token_urlsafe(24)
        bot = make_bot(description.name, level, bot_seed(seed, number), budget) if kind == "bot" else None
        players.append(Player(name, bot, hash_token(token), level))
        tokens.append(token)
    return players, tokens


def stored_players(game: str, seed: str, seats: list[dict[str, Any]], handed: list[int],
                   budget: float | str | None = None) -> list[Player]:
    """The players of a stored table (its seats' rows; ``handed``: the seats the host handed to
    bots), their bots made again from the same seeds."""
    return [Player(seat["name"], make_bot(game, seat["level"], bot_seed(seed, number), budget)
                   if seat["kind"] == "bot" else None, seat["token_hash"], seat["level"], number in handed)
            for number, seat in enumerate(seats)]


def seat_rows(players: list[Player]) -> list[dict[str, Any]]:
    """The players as the storage keeps their seats."""
    return [{"name": player.name, "kind": player.kind, "level": player.level, "token_hash": player.token_digest}
            for player in players]


def new_lifecycle(players: list[Player], settings: TableSettings, wait_for_host: bool = False,
                  started: bool | None = None) -> Lifecycle:
    """The lifecycle of a new table of ``players``: it waits for its person seats (or, made for the
    host alone, for the host); ``started``: a table stored before lifecycles existed was playing."""
    return Lifecycle(players, next_race_seconds=settings.next_race_seconds, hold=wait_for_host, started=started)


def watch_link(description: GameDescription, table_id: str) -> str:
    """Where a spectator watches a table: the race caller's page for a game without seats that
    is called (the box's races: there is no seat to play), the play page otherwise."""
    if description.caller and description.max_seats == 0:
        return f"/call/{table_id}"
    return f"/play/{table_id}"


def check_game(game: Any) -> GameDescription:
    """The description of the game a request names (InvalidSetup naming the games otherwise)."""
    if not isinstance(game, str):
        raise InvalidSetup(Message("'game' must be the name of a game"))
    description = game_class(game).description
    if not description.lobby:
        raise InvalidSetup(Message("{game} is not played at a table of seats", game=game))
    return description
