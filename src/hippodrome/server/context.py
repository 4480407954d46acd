"""What the server's routes and websocket sessions share: the hub of tables, the games'
descriptions, the quotas, the limits on what a client sends, and the words for what is missing."""

from __future__ import annotations

import functools
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable

from starlette.requests import HTTPConnection
from starlette.responses import Response

from hippodrome.core.description import GameDescription
from hippodrome.i18n import Message
from hippodrome.server.hub import Hub
from hippodrome.server.localize import LobbyError, quoted
from hippodrome.server.quota import Quota, SlidingWindow, whole_seconds
from hippodrome.server.rooms import Room
from hippodrome.server.views import PROTOCOL_VERSION

#: the most bytes a websocket message may hold
MAX_MESSAGE = 16 * 1024
#: the most bytes a request to create a table (or check a setup) may hold
MAX_CREATE_BODY = 64 * 1024
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: the smallest answer the server's GZip middleware compresses (app.py), and :class:`Prewritten` too
GZIP_MINIMUM_SIZE = 4096
#: the middleware's own level (Starlette's default): a prewritten answer is the bytes it would send
GZIP_LEVEL = 9


@dataclass(frozen=True)
class Prewritten:
    """A JSON answer written once: its text and, for a text the GZip middleware would compress,
    that text gzipped. A client that accepts gzip (as the middleware tells: "gzip" in its
    Accept-Encoding) gets the gzipped bytes with their Content-Encoding, which the middleware
    leaves as they are; any other gets the text, to which the middleware adds ``Vary``."""

    text: bytes
    gzipped: bytes | None

    @classmethod
    def of(cls, data: Any) -> "Prewritten":
        text = response_body(data)
        return cls(text, gzipped(text) if len(text) >= GZIP_MINIMUM_SIZE else None)

    def response(self, request: HTTPConnection) -> Response:
        if self.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            return Response(self.gzipped, media_type="application/json",
                            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(self.text, media_type="application/json")


@dataclass
class ServerContext:
    hub: Hub
    games: dict[str, GameDescription]
    table_quota: Quota
    connection_quota: Quota
    tables_opened: SlidingWindow = field(init=False)
    connections_opened: SlidingWindow = field(init=False)
    #: the games' descriptions as the JSON text GET /api/games answers, and each game's entry in it
    #: (GET /api/games/NAME): written and gzipped once, as the descriptions do not change while the
    #: server runs. Returned as a dict, the half-megabyte of nested data would be walked and written
    #: again on the event loop at every lobby and play page that loads, holding up every table
    #: meanwhile; and the middleware would compress the text again at every request.
    games_text: Prewritten = field(init=False)
    game_texts: dict[str, Prewritten] = field(init=False)
    #: other answers that do not change while the server runs (a game's rules diagrams, the pages'
    #: message catalogs), written and gzipped at their first request (:meth:`prewritten`)
    _prewritten: dict[Hashable, Prewritten] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.tables_opened = SlidingWindow(self.table_quota)
        self.connections_opened = SlidingWindow(self.connection_quota)
        described = {name: description.to_json() for name, description in self.games.items()}
        self.games_text = Prewritten.of({"protocol": PROTOCOL_VERSION, "games": list(described.values())})
        self.game_texts = {name: Prewritten.of(entry) for name, entry in described.items()}

    def prewritten(self, key: Hashable, data: Callable[[], Any]) -> Prewritten:
        """The answer ``key`` names, ``data()`` written and gzipped at its first request and kept:
        for an answer the same for every request while the server runs."""
        kept = self._prewritten.get(key)
        if kept is None:
            kept = self._prewritten[key] = Prewritten.of(data())
        return kept

    def described(self, name: str) -> GameDescription:
        """The description of game ``name`` (404 naming the games otherwise)."""
        if name not in self.games:
            raise LobbyError(404, Message("no game {name}; games: {games}", name=repr(name),
                                          games=", ".join(self.games)), code="not_found")
        return self.games[name]

    def elsewhere(self, table_id: str) -> Room | None:
        """A table another process runs, read from the database for an answer (not run here)."""
        return self.hub.read(table_id) if self.hub.cluster is not None else None


def response_body(data: Any) -> bytes:
    """``data`` as the JSON text Starlette's JSONResponse writes (bytes, not the
    :func:`hippodrome.server.views.json_text` of a message's part)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


@functools.lru_cache(maxsize=32)
def gzipped(text: bytes) -> bytes:
    """``text`` gzipped as the GZip middleware does it; kept for the process, since every server
    (and every test's) made in it writes the same descriptions."""
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(text) + compressor.flush()


def client_address(connection: HTTPConnection) -> str:
    """The address a request came from, as the quotas count it."""
    return connection.client.host if connection.client else "unknown"


def too_many(message: Message, wait: float) -> LobbyError:
    return LobbyError(429, message, code="too_many", headers={"Retry-After": str(whole_seconds(wait))})


def no_table(table_id: str) -> Message:
    return Message("no table {id}", id=repr(table_id))


def no_rules(name: str, games: dict[str, GameDescription]) -> Message:
    """A rules page asked for a game that does not exist or has none."""
    pages: dict[str, str] = {}   # one address per rules page (a game's variants share their page)
    for game, description in games.items():
        if description.rules is not None:
            pages.setdefault(description.rules.name, f"/rules/{game}")
    # NOTE: {name} is what the address asked for; {pages} lists the addresses of the rules pages.
    return Message("There are no rules for {name}. The rules pages are: {pages}.", name=quoted(name),
                   pages=", ".join(pages.values()))


def no_puzzles(name: str, games: dict[str, GameDescription]) -> Message:
    """A puzzles page asked for a game that does not exist or has none."""
    pages = [f"/puzzles/{game}" for game, description in games.items() if description.puzzles is not None]
    # NOTE: {name} is what the address asked for; {pages} lists the addresses of the puzzle pages.
    return Message("There are no puzzles for {name}. The puzzle pages are: {pages}.", name=quoted(name),
                   pages=", ".join(pages))


def is_action(action: Any) -> bool:
    """The shape of every option and free action: a JSON object whose ``type`` is text."""
    return isinstance(action, dict) and isinstance(action.get("type"), str)
