"""The ASGI app: lobby (REST), one websocket per table (docs/protocol.md), the static pages.

``create_app(db)`` opens the SQLite storage, resumes every unfinished table from its log and
starts its runner (bots, clock). Every connection receives only ``view(seat)`` of its seat
(spectators: ``view(None)``); an action goes through the table's lock, is stored, and only
then announced. What a client sends passes the gate first (``guard``: its origin, content type
and size; ``strict_json``; ``quota``: how many tables and connections one address opens), so
nothing the server stores can break an answer later ("Limits and refusals", docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import HTTPConnection

from hippodrome.core.description import GameDescription
from hippodrome.core.errors import HippodromeError, IllegalAction, InvalidSetup
from hippodrome.core.registry import descriptions
from hippodrome.i18n import LANGUAGES, Message, Plural, languages_for_web, normalize, plural_rule, web_catalog
from hippodrome.server import listing, quota
from hippodrome.server.archive import ARCHIVE_AFTER, Archiver
from hippodrome.server.guard import OriginGuard, allowed_origins as origins_from, json_object, refuse_websocket
from hippodrome.server.localize import (
    LobbyError, language_of, problem, quoted, refusal, render_page, render_problem_page,
)
from hippodrome.server.quota import Quota, SlidingWindow, whole_seconds
from hippodrome.server.rooms import Connection, Room, check_game, new_lifecycle, new_seats, restore_seats, watch_link
from hippodrome.server.setup_form import check_setup, checked_setup, table_options
from hippodrome.server.storage import Storage, hash_token
from hippodrome.server.strict_json import StrictJSONError, check_value, loads
from hippodrome.server.views import PROTOCOL_VERSION, dumps, json_default  # noqa: F401 (json_default: tests)
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.table import StaleState, Table

log = logging.getLogger(__name__)

MAX_MESSAGE = 16 * 1024
MAX_CREATE_BODY = 64 * 1024
MESSAGE_TYPES = ("join", "act", "preview", "pause", "resume", "ready", "start", "next_race", "ping")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class Unreadable:
    """A stored table whose rows do not make a table: its game (if read) and the fault."""

    game: str
    error: Exception


class Hub:
    """Every table the server knows, by id."""

    def __init__(self, storage: Storage, bot_delay: float):
        self.storage = storage
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        #: tables whose stored rows do not make a table (a damaged row, values strict JSON refuses,
        #: a log that does not replay): id -> {"game", "fault"}; listed as damaged, the others play on
        self.damaged: dict[str, dict[str, str]] = {}
        self._opening: dict[str, asyncio.Future] = {}   # tables being loaded in a worker thread
        self.pacer = Pacer()   # tables of bots only take turns on the event loop

    def resume_all(self) -> None:
        """Resume the unfinished tables (finished ones are loaded when someone opens them)."""
        for table_id in self.storage.table_ids(only_running=True):
            self.load(table_id)

    def load(self, table_id: str) -> Room | None:
        """The table's room, loaded from storage now if it is not in memory (None: no such table, or
        a damaged one). Replays its log here: in a request, :meth:`open` does that in a thread."""
        if table_id in self.rooms:
            return self.rooms[table_id]
        if table_id in self.damaged:
            return None
        return self._started(table_id, self._restore(table_id))

    async def open(self, table_id: str) -> Room | None:
        """:meth:`load`, its storage read and log replay in a worker thread (an archived table with a
        long log does not hold up the other tables); two opens of one table share the work."""
        if table_id in self.rooms or table_id in self.damaged:
            return self.rooms.get(table_id)
        if table_id not in self._opening:
            self._opening[table_id] = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(None, self._restore, table_id))
        try:
            restored = await asyncio.shield(self._opening[table_id])
        finally:
            self._opening.pop(table_id, None)
        if table_id in self.rooms:   # an open that finished first
            return self.rooms[table_id]
        return self._started(table_id, restored)

    def _restore(self, table_id: str) -> tuple | Unreadable | None:
        """A stored table made again (no asyncio: may run in a worker thread): (data, seats' info,
        table, lifecycle), None when there is none, or what made it fail."""
        try:
            data = self.storage.load(table_id)
        except Exception as error:  # a row SQLite or JSON cannot read
            return Unreadable("?", error)
        if data is None:
            return None
        try:
            check_value({key: data[key] for key in ("setup", "options", "seats", "log")})
            record = {"game": data["game"], "setup": data["setup"], "seed": data["seed"], "log": data["log"]}
            seats = restore_seats(data["game"], data["seed"], data["seats"])
            table = Table.from_record(record, seats, data["state_id"])
            info = [{k: v for k, v in s.items() if k != "token_hash"} for s in data["seats"]]
            lifecycle = (Lifecycle.from_json(data["lifecycle"]) if data["lifecycle"] is not None
                         else new_lifecycle(info, data["options"], started=True))
        except Exception as error:  # stored by an older server, or rows that do not replay
            return Unreadable(data.get("game", "?"), error)
        return data, info, table, lifecycle

    def _started(self, table_id: str, restored: tuple | Unreadable | None) -> Room | None:
        if table_id in self.damaged:
            return None
        if isinstance(restored, Unreadable):
            return self._damaged(table_id, restored.game, restored.error)
        if restored is None:
            return None
        data, info, table, lifecycle = restored
        try:
            room = Room(table_id, data["game"], table, info, data["host_hash"], data["options"], self.storage,
                        self.bot_delay, paused=data["paused"], lifecycle=lifecycle, pacer=self.pacer)
        except Exception as error:
            return self._damaged(table_id, data.get("game", "?"), error)
        self.rooms[table_id] = room
        room.runner.start()
        return room

    def _damaged(self, table_id: str, game: str, error: Exception) -> None:
        log.error("table %s is damaged and is not resumed: %s", table_id, error, exc_info=error)
        fault = error.args[0] if error.args and isinstance(error.args[0], (str, Message)) else type(error).__name__
        self.damaged[table_id] = {"game": game, "fault": str(fault)}
        return None

    def damaged_summary(self, table_id: str) -> dict[str, Any]:
        entry = self.damaged[table_id]
        return {"id": table_id, "game": entry["game"], "status": "damaged", "fault": entry["fault"]}

    def create(self, request: dict[str, Any]) -> dict[str, Any]:
        description = check_game(request.get("game"))
        game = description.name
        setup = checked_setup(description, request.get("setup", {}))
        options = table_options(description, request)
        # a table without seats (the race caller for the box) is run by its host: it waits for its start
        wait_for_host = request.get("wait_for_host", description.max_seats == 0)
        if not isinstance(wait_for_host, bool):
            raise InvalidSetup(Message("'wait_for_host' must be true (the table waits for its host's start) or false"))
        seed = secrets.token_hex(16)
        table_seats, info, tokens = new_seats(description, request.get("seats"), seed)
        table = Table(game, setup, table_seats, seed)
        count = description.seats(table.state).count
        if count != len(table_seats):
            raise InvalidSetup(Message("this {game} setup has {count} seats; the table lists {listed}",
                                       game=game, count=count, listed=len(table_seats)))
        table_id = secrets.token_hex(5)
        host_token = secrets.token_urlsafe(24)
        public_info = [{k: v for k, v in s.items() if k != "token_hash"} for s in info]
        lifecycle = new_lifecycle(public_info, options, wait_for_host)
        self.storage.create_table(table_id, game, setup, seed, info, hash_token(host_token), options)
        self.storage.save_progress(table_id, table.match.log, table.state_id, table.over, False,
                                   lifecycle=lifecycle.to_json())
        room = Room(table_id, game, table, public_info, hash_token(host_token), options, self.storage,
                    self.bot_delay, lifecycle=lifecycle, pacer=self.pacer)
        self.rooms[table_id] = room
        room.runner.start()
        creator = next((n for n, s in enumerate(info) if s["kind"] == "person"), None)
        creator_seat = f"seat={tokens[creator]}&" if creator is not None else ""
        return {"id": table_id, "game": game, "host_token": host_token, "status": room.status,
                **({"host_link": f"/call/{table_id}#host={host_token}"} if description.caller else {}),
                **({"play_host_link": f"/play/{table_id}#{creator_seat}host={host_token}"}
                   if creator is not None or (wait_for_host and description.max_seats > 0) else {}),
                "spectator_link": watch_link(description, table_id),
                "seats": [{"seat": n, "name": s["name"], "kind": s["kind"], "level": s["level"],
                           **({"token": tokens[n], "link": f"/play/{table_id}#seat={tokens[n]}"}
                              if s["kind"] == "person" else {})}
                          for n, s in enumerate(info)]}

    async def stop(self) -> None:
        for room in self.rooms.values():
            await room.runner.stop()


def create_app(db: str | None = None, *, bot_delay: float = 0.6, allowed_origins: Iterable[str] = (),
               table_quota: Quota = quota.TABLES, connection_quota: Quota = quota.CONNECTIONS,
               archive_after: float = ARCHIVE_AFTER) -> FastAPI:
    """The server app; ``db`` is a path, ``sqlite:///path`` or ``:memory:`` (None: the default file).

    ``allowed_origins``: sites (``https://host:port``) whose pages may post and connect besides the
    server's own; ``table_quota`` / ``connection_quota``: how many tables one client address may
    create, and connections it may open, in a sliding window; ``archive_after``: seconds a finished
    table stays in memory with nobody connected (``hippodrome.server.archive``)."""
    origins = origins_from(allowed_origins)
    tables_opened, connections_opened = SlidingWindow(table_quota), SlidingWindow(connection_quota)
    games = {description.name: description for description in descriptions()}
    games_json = {"protocol": PROTOCOL_VERSION, "games": [d.to_json() for d in games.values()]}
    storage = Storage(db)
    hub = Hub(storage, bot_delay)
    archiver = Archiver(hub, archive_after)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.resume_all()
        archiving = asyncio.ensure_future(archiver.run())
        yield
        archiving.cancel()
        await hub.stop()
        storage.close()

    app = FastAPI(title="hippodrome", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.archiver = archiver
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # the games' descriptions carry course drawings
    app.add_middleware(OriginGuard, allowed=origins)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, error: LobbyError):
        return JSONResponse(error.body(language_of(request.cookies, request.headers)), status_code=error.status,
                            headers=error.headers)

    def page(name: str, request: Request) -> HTMLResponse:
        return HTMLResponse(render_page(name, language_of(request.cookies, request.headers)),
                            headers={"Cache-Control": "no-cache"})

    @app.get("/")
    async def lobby_page(request: Request):
        return page("index.html", request)

    @app.get("/favicon.ico")
    async def favicon():
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    @app.get("/play/{table_id}")
    async def play_page(table_id: str, request: Request):
        return page("play.html", request)

    @app.get("/call/{table_id}")
    async def caller_page(table_id: str, request: Request):
        return page("caller.html", request)

    @app.get("/rules/{name}")
    async def rules_page(name: str, request: Request):
        lang = language_of(request.cookies, request.headers)
        if name not in games or games[name].rules is None:
            return HTMLResponse(render_problem_page(no_rules(name, games), lang), status_code=404)
        return page("rules.html", request)

    # -- lobby API ------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games():
        return games_json

    def described(name: str) -> GameDescription:
        if name not in games:
            raise LobbyError(404, Message("no game {name}; games: {games}", name=repr(name),
                                          games=", ".join(games)), code="not_found")
        return games[name]

    @app.get("/api/games/{name}")
    async def one_game(name: str):
        return games_json["games"][list(games).index(described(name).name)]

    @app.get("/api/games/{name}/rules")
    async def rules_diagrams(name: str):
        rules = described(name).rules
        if rules is None:
            raise LobbyError(404, no_rules(name, games), code="not_found")
        return rules.data()

    @app.post("/api/games/{name}/check")
    async def check_game_setup(name: str, request: Request):
        description = described(name)
        data = await json_object(request, MAX_CREATE_BODY)
        return check_setup(description, data.get("setup", {}), language_of(request.cookies, request.headers))

    @app.get("/api/languages")
    async def languages():
        return languages_for_web()

    @app.get("/i18n/{lang}.json")
    async def catalog(lang: str):
        if lang not in LANGUAGES:
            raise LobbyError(404, Message("no catalog for language {lang}; languages: {languages}",
                                          lang=repr(lang), languages=", ".join(LANGUAGES)), code="not_found")
        return {"lang": lang, "plural": plural_rule(lang), "messages": web_catalog(lang)}

    @app.get("/api/tables/{table_id}/{lookup}")
    async def public_lookup(table_id: str, lookup: str, request: Request):
        room = await hub.open(table_id)
        if room is None:
            raise LobbyError(404, no_table(table_id), code="not_found")
        entry = room.description.lookup(lookup)
        if entry is None or not entry.public:
            raise LobbyError(404, Message("a {game} table answers no {lookup}", game=room.game, lookup=repr(lookup)),
                             code="not_found")
        try:
            answer = await run_lookup(room, entry, None, dict(request.query_params))
        except IllegalAction as error:
            raise LobbyError(400, error, code="bad_request")
        return {"state_id": answer[0], **answer[1]}

    @app.get("/api/tables")
    async def list_tables(request: Request):
        return listing.page(hub, dict(request.query_params))

    @app.post("/api/tables")
    async def create_table(request: Request):
        address = client_address(request)
        wait = tables_opened.take(address)
        if wait is not None:
            raise too_many(Plural("too many tables from your address (at most {count} in {seconds} s); "
                                  "try again in {n} second",
                                  "too many tables from your address (at most {count} in {seconds} s); "
                                  "try again in {n} seconds", whole_seconds(wait),
                                  count=table_quota.count, seconds=table_quota.seconds), wait)
        try:
            return hub.create(await json_object(request, MAX_CREATE_BODY))
        except HippodromeError as error:
            tables_opened.give_back(address)  # a refused table is no table
            raise LobbyError(400, error, code="invalid_setup")
        except LobbyError:
            tables_opened.give_back(address)
            raise

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str):
        room = await hub.open(table_id)
        if table_id in hub.damaged:
            return hub.damaged_summary(table_id)
        if room is None:
            raise LobbyError(404, Message("no table {id}; open tables are listed at /api/tables", id=repr(table_id)),
                             code="not_found")
        return room.summary()

    # -- play -----------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str):
        wait = connections_opened.take(client_address(websocket))
        if wait is not None:
            await refuse_websocket(websocket, too_many(Plural(
                "too many connections from your address (at most {count} in {seconds} s); try again in {n} second",
                "too many connections from your address (at most {count} in {seconds} s); try again in {n} seconds",
                whole_seconds(wait), count=connection_quota.count, seconds=connection_quota.seconds), wait))
            return
        await websocket.accept()
        lang = language_of(websocket.cookies, websocket.headers)
        room = await hub.open(table_id)
        if table_id in hub.damaged:
            await websocket.send_json({"v": PROTOCOL_VERSION, **problem(lang, "damaged", Message(
                "the stored record of table {id} is damaged, so it cannot be played; the other tables play on",
                id=repr(table_id)))})
            await websocket.close(code=4500)
            return
        if room is None:
            await websocket.send_json({"v": PROTOCOL_VERSION, **problem(lang, "not_found", no_table(table_id))})
            await websocket.close(code=4404)
            return
        await serve_connection(websocket, room, lang)

    return app


def client_address(connection: HTTPConnection) -> str:
    """The address a request came from, as the quotas count it."""
    return connection.client.host if connection.client else "unknown"


def too_many(message: Message, wait: float) -> LobbyError:
    return LobbyError(429, message, code="too_many", headers={"Retry-After": str(whole_seconds(wait))})


async def run_lookup(room: Room, entry: Any, seat: int | None, params: dict[str, Any]) -> tuple[int, Any]:
    """(state id, answer) of a look-up on the table's state now. A slow one reads a copy taken
    here, in the loop that changes the state, and works in a thread."""
    if not entry.slow:
        return room.table.state_id, entry(room.table.state, seat, params)
    state_id, state = room.table.state_id, room.table.state.clone()
    answer = await asyncio.get_running_loop().run_in_executor(None, entry, state, seat, params)
    return state_id, answer


def no_rules(name: str, games: dict[str, GameDescription]) -> Message:
    """A rules page asked for a game that does not exist or has none."""
    pages: dict[str, str] = {}   # one address per rules page (a game's variants share their page)
    for game, description in games.items():
        if description.rules is not None:
            pages.setdefault(description.rules.name, f"/rules/{game}")
    # NOTE: {name} is what the address asked for; {pages} lists the addresses of the rules pages.
    return Message("There are no rules for {name}. The rules pages are: {pages}.", name=quoted(name),
                   pages=", ".join(pages.values()))


def no_table(table_id: str) -> Message:
    return Message("no table {id}", id=repr(table_id))


async def serve_connection(websocket: WebSocket, room: Room, lang: str = "en") -> None:
    connection = Connection(lang=lang)
    room.connections.add(connection)
    send_lock = asyncio.Lock()

    async def send_text(text: str) -> None:
        async with send_lock:
            await websocket.send_text(text)

    async def send(message: dict[str, Any]) -> None:
        await send_text(dumps(message))

    async def sender() -> None:
        while True:
            await connection.dirty.wait()
            connection.dirty.clear()
            await send_text(room.update_for(connection))

    sending = asyncio.ensure_future(sender())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE:
                    await send(problem(connection.lang, "too_large", too_large()))
                    continue
                await send(problem(connection.lang, "bad_message",
                                   Message("send text frames holding JSON objects, not binary frames")))
                continue
            if len(text.encode("utf-8")) > MAX_MESSAGE:
                await send(problem(connection.lang, "too_large", too_large()))
                continue
            reply = await handle(room, connection, text)
            if reply is not None:
                await send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        sending.cancel()
        room.connections.discard(connection)
        room.notify_all()
        try:
            await room.update_presence()
        except Exception:  # the server is stopping
            log.debug("presence not updated for table %s", room.id)


def too_large() -> Message:
    return Message("a message is at most {n} bytes; this one is refused", n=MAX_MESSAGE)


async def handle(room: Room, connection: Connection, text: str) -> dict[str, Any] | None:
    lang = connection.lang
    try:
        message = loads(text)
    except StrictJSONError as error:
        return problem(lang, "bad_message", Message("a message must be a JSON object such as {example}: {reason}",
                                                    example='{"v": 1, "type": "join"}', reason=error.args[0]))
    if not isinstance(message, dict):
        return problem(lang, "bad_message", Message("a message must be a JSON object, not {kind}",
                                                    kind=type(message).__name__))
    version = message.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:  # not true, not 1.0
        return problem(lang, "bad_version", Message(
            "this server speaks protocol version {version}; the message says {said}",
            version=str(PROTOCOL_VERSION), said=json.dumps(version, ensure_ascii=False)[:40]), protocol=PROTOCOL_VERSION)
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        return problem(lang, "bad_message", Message("unknown message type {kind}; types: {types}",
                                                    kind=repr(kind), types=", ".join(MESSAGE_TYPES)))
    if kind == "ping":
        return {"type": "pong"}
    if kind == "join":
        reply = join(room, connection, message)
        await room.update_presence()
        return reply
    if not connection.joined:
        return problem(lang, "not_joined", Message("send {example} first",
                                                   example='{"v": 1, "type": "join", "token": ...}'))
    if kind == "act":
        return await act(room, connection, message)
    if kind == "preview":
        return await preview(room, connection, message)
    if kind in ("ready", "start", "next_race"):
        return await lifecycle_message(room, connection, kind, message)
    if kind in ("pause", "resume"):
        allowed = connection.seat is not None or from_host(room, message)
        if not allowed:
            return problem(lang, "forbidden",
                           Message("only a seated player or the table's host may pause or resume the clock"))
        await (room.runner.pause() if kind == "pause" else room.runner.resume())
        return None
    raise AssertionError(kind)  # pragma: no cover


def from_host(room: Room, message: dict[str, Any]) -> bool:
    """Whether ``message`` carries the table's host token (``"host"``)."""
    token = message.get("host")
    return isinstance(token, str) and len(token) <= 200 and room.is_host(token)


async def lifecycle_message(room: Room, connection: Connection, kind: str,
                            message: dict[str, Any]) -> dict[str, Any] | None:
    """``ready`` (a person seat), ``start`` (the host), ``next_race`` (a person seat or the host)."""
    lang = connection.lang
    host = from_host(room, message)
    person = connection.seat is not None and connection.seat in room.runner.lifecycle.persons
    try:
        if kind == "ready":
            if not person:
                return problem(lang, "forbidden", Message("only a player seated at this table can say it is ready"))
            await room.runner.ready(connection.seat)
        elif kind == "start":
            if not host:
                return problem(lang, "forbidden", Message(
                    "only the table's host may start the game before everyone is ready; send {example}",
                    example='{"v": 1, "type": "start", "host": ...}'))
            level = message.get("level")
            if level is not None and (not isinstance(level, str) or room.description.bot(level) is None):
                return problem(lang, "bad_message", Message("'level' must be one of the bot levels: {levels}",
                                                            levels=", ".join(b.name for b in room.description.bots)))
            await room.start_now(level)
        else:
            if not (person or host):
                return problem(lang, "forbidden", Message(
                    "only a player seated at this table or its host may call the next race"))
            await room.runner.next_race(None if host else connection.seat)
    except HippodromeError as error:
        connection.dirty.set()
        return refusal(lang, "illegal", error, state_id=room.table.state_id)
    return None


def join(room: Room, connection: Connection, message: dict[str, Any]) -> dict[str, Any]:
    patches = message.get("patches", False)
    if not isinstance(patches, bool):
        return problem(connection.lang, "bad_message", Message(
            "'patches' must be true (send changes as patch messages) or false (whole states)"))
    requested = message.get("lang")
    if requested is not None:
        chosen = normalize(requested[:40]) if isinstance(requested, str) else None
        if chosen is None:
            return problem(connection.lang, "bad_message", Message(
                "'lang' must be one of the languages: {languages}", languages=", ".join(LANGUAGES)))
        connection.lang = chosen
    lang = connection.lang
    token = message.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 200):
        return problem(lang, "bad_message", Message("'token' must be the seat's token (text) or absent to watch"))
    seat = None
    if token:
        seat = room.seat_for_token(token)
        if seat is None:
            return problem(lang, "forbidden", Message("this token holds no seat at this table; ask for your "
                                                      "seat's link, or join without a token to watch"))
    connection.seat = seat
    connection.joined = True
    connection.patches = patches
    connection.rejoined()
    room.notify_all()
    return {"type": "welcome", "table": room.id, "game": room.game, "seat": seat, "lang": lang,
            "protocol": PROTOCOL_VERSION, "max_message": MAX_MESSAGE, **({"patches": True} if patches else {})}


def is_action(action: Any) -> bool:
    """The shape of every option and free action: a JSON object whose ``type`` is text."""
    return isinstance(action, dict) and isinstance(action.get("type"), str)


async def act(room: Room, connection: Connection, message: dict[str, Any]) -> dict[str, Any] | None:
    lang = connection.lang
    if connection.seat is None:
        return problem(lang, "forbidden", Message("spectators watch only; join with a seat's token to play"))
    state_id, action = message.get("state_id"), message.get("action")
    if not isinstance(state_id, int) or isinstance(state_id, bool):
        return problem(lang, "bad_message", Message("'act' needs 'state_id': the state id of the update you acted on"))
    if not is_action(action):
        return problem(lang, "bad_message", Message("'act' needs 'action': one of the options, a JSON object "
                                                    "with a 'type' such as {example}", example='{"type": "card", ...}'))
    try:
        await room.runner.act(connection.seat, action, state_id)
    except StaleState as error:
        connection.dirty.set()
        return refusal(lang, "stale", error, state_id=room.table.state_id)
    except HippodromeError as error:
        connection.dirty.set()
        return refusal(lang, "illegal", error, state_id=room.table.state_id)
    return None


async def preview(room: Room, connection: Connection, message: dict[str, Any]) -> dict[str, Any]:
    """A seat asks where one of its options would lead (the game's private ``preview`` look-up)."""
    lang = connection.lang
    if connection.seat is None:
        return problem(lang, "forbidden", Message("spectators watch only"))
    entry = room.description.lookup("preview")
    if entry is None or entry.public:
        return problem(lang, "bad_message", Message("a {game} table offers no preview", game=room.game))
    action = message.get("action")
    if not is_action(action):
        return problem(lang, "bad_message", Message("'preview' needs 'action': one of your options"))
    async with room.runner.lock:
        try:
            state_id, answer = await run_lookup(room, entry, connection.seat, {"action": action})
        except IllegalAction as error:
            return refusal(lang, "illegal", error, state_id=room.table.state_id)
    return {"type": "preview", "state_id": state_id, "action": action, **answer}
