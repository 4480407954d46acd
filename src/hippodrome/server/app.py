"""The ASGI app: lobby (REST), one websocket per table (docs/protocol.md), the static pages.

``create_app(db)`` opens the SQLite storage, resumes every unfinished table from its log and
starts its runner (bots, clock). Every connection receives only ``view(seat)`` of its seat
(spectators: ``view(None)``); an action goes through the table's lock, is stored (on the
storage writer's thread, off the event loop), and only then announced; while saving fails the
table is paused and its connections are told so (``storage`` messages), never shown a state
that is not stored. What a client sends passes the gate first (``guard``: its origin, content type
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
from typing import Any, Callable, Iterable

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import HTTPConnection

from hippodrome.core.description import GameDescription
from hippodrome.core.errors import HippodromeError, IllegalAction, InvalidSetup, given
from hippodrome.core.rulings import Ruled
from hippodrome.core.registry import descriptions
from hippodrome.i18n import LANGUAGES, Message, Plural, languages_for_web, normalize, plural_rule, web_catalog
from hippodrome.server import listing, quota
from hippodrome.server.accounts.install import install as install_accounts
from hippodrome.server.accounts.service import AccountSettings, own_seat
from hippodrome.server.archive import ARCHIVE_AFTER, Archiver
from hippodrome.server.cluster import cluster_for
from hippodrome.server.guard import OriginGuard, allowed_origins as origins_from, json_object, refuse_websocket
from hippodrome.server.headers import SecurityHeaders
from hippodrome.server import health
from hippodrome.server.metrics import TimedThinker
from hippodrome.server.limits import Gate, Limits, limits_for
from hippodrome.server.logs import TABLE, about_table
from hippodrome.server.localize import (
    LobbyError, language_of, problem, quoted, refusal, render_page, render_problem_page,
)
from hippodrome.server.quota import Quota, SlidingWindow, whole_seconds
from hippodrome.server.relay import serve_elsewhere
from hippodrome.server.rooms import Connection, Room, check_game, new_lifecycle, new_seats, restore_seats, watch_link
from hippodrome.server.setup_form import check_setup, checked_setup, table_options
from hippodrome.server.storage import Storage, UnreadableRow, hash_token, open_storage
from hippodrome.server.strict_json import StrictJSONError, check_value, loads
from hippodrome.server.websocket import SEND_NOW
from hippodrome.server.views import PROTOCOL_VERSION, dumps, json_default  # noqa: F401 (json_default: tests)
from hippodrome.server.writer import StoreWriter
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker, thinker_for
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.runner import SAVING_FAILED
from hippodrome.table.table import StaleState, Table

log = logging.getLogger(__name__)

MAX_MESSAGE = 16 * 1024
MAX_CREATE_BODY = 64 * 1024
MESSAGE_TYPES = ("join", "act", "preview", "why", "pause", "resume", "ready", "start", "next_race", "hand", "ping")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class Unreadable:
    """A stored table whose rows do not make a table: its game (if read) and the fault."""

    game: str
    error: Exception


class Hub:
    """Every table the server knows, by id; their writes go through one :class:`StoreWriter`."""

    def __init__(self, storage: Storage, bot_delay: float, thinker: ThreadThinker | ProcessThinker = THREADS):
        self.storage = storage
        self.writer = StoreWriter()
        self.thinker = thinker   # where the bots think: threads, or worker processes (--bot-workers)
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        #: several processes on one PostgreSQL database (server/cluster.py): this process runs a
        #: table only while it holds its lease. None: the only process.
        self.cluster = None
        #: tables whose stored rows do not make a table (a damaged row, values strict JSON refuses,
        #: a log that does not replay): id -> {"game", "fault"}; listed as damaged, the others play on
        self.damaged: dict[str, dict[str, str]] = {}
        self._opening: dict[str, asyncio.Future] = {}   # tables being loaded in a worker thread
        self.pacer = Pacer()   # tables of bots only take turns on the event loop
        #: called with each room this process starts running (the accounts watch tables end)
        self.on_run: list[Callable[[Room], None]] = []

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
        if self.cluster is not None and not self.cluster.may_run(table_id):
            return None
        return self._started(table_id, self._restore(table_id))

    async def open(self, table_id: str) -> Room | None:
        """:meth:`load`, its storage read and log replay in a worker thread (an archived table with a
        long log does not hold up the other tables); two opens of one table share the work. In a
        cluster the table's lease is taken first (None: another process runs it)."""
        if table_id in self.rooms or table_id in self.damaged:
            return self.rooms.get(table_id)
        if self.cluster is not None and not self.cluster.may_run(table_id):
            return None
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

    def read(self, table_id: str) -> Room | None:
        """The table as stored, made a room but not run (None: no such table, or damaged)."""
        return self._made(table_id, self._restore(table_id))

    def _restore(self, table_id: str) -> tuple | Unreadable | None:
        """A stored table made again (no asyncio: may run in a worker thread): (data, seats' info,
        table, lifecycle), None when there is none, or what made it fail."""
        try:
            data = self.storage.load(table_id)
        except UnreadableRow as error:  # a row whose JSON does not decode
            return Unreadable(error.game or "?", error)
        except Exception as error:  # a row SQLite cannot read
            return Unreadable("?", error)
        if data is None:
            return None
        try:
            check_value({key: data[key] for key in ("setup", "options", "seats", "log")})
            record = {"game": data["game"], "setup": data["setup"], "seed": data["seed"], "log": data["log"],
                      "rulings": data["rulings"]}   # None: stored before versions (its log tells)
            seats = restore_seats(data["game"], data["seed"], data["seats"])
            table = Table.from_record(record, seats, data["state_id"])
            info = [{k: v for k, v in s.items() if k != "token_hash"} for s in data["seats"]]
            lifecycle = (Lifecycle.from_json(data["lifecycle"]) if data["lifecycle"] is not None
                         else new_lifecycle(info, data["options"], started=True))
        except Exception as error:  # stored by an older server, or rows that do not replay
            return Unreadable(data.get("game", "?"), error)
        return data, info, table, lifecycle

    def _started(self, table_id: str, restored: tuple | Unreadable | None) -> Room | None:
        """The restored table run here (None: no such table, or damaged)."""
        if table_id in self.damaged:
            return None
        room = self._made(table_id, restored)
        if room is not None:
            self._run(room)
        return room

    def _made(self, table_id: str, restored: tuple | Unreadable | None) -> Room | None:
        if isinstance(restored, Unreadable):
            return self._damaged(table_id, restored.game, restored.error)
        if restored is None:
            return None
        data, info, table, lifecycle = restored
        try:
            room = Room(table_id, data["game"], table, info, data["host_hash"], data["options"], self.storage,
                        self.writer, self.bot_delay, paused=data["paused"], lifecycle=lifecycle, pacer=self.pacer,
                        thinker=self.thinker)
        except Exception as error:
            return self._damaged(table_id, data.get("game", "?"), error)
        return room

    def _run(self, room: Room) -> None:
        self.rooms[room.id] = room
        for hook in self.on_run:
            hook(room)
        if self.cluster is not None:  # the other processes' lobbies hear of it, and of every change
            room.runner.on_change.append(lambda table: self.cluster.changed(room))
            self.cluster.changed(room)
        with about_table(room.id):   # what its runner logs names the table
            room.runner.start()

    async def unload(self, table_id: str, release: bool = False) -> None:
        """Stop running a table here (another process holds its lease now, or it is archived): its
        connections are closed, and their pages reconnect to its new owner. ``release``: give up
        its lease too (an archived table: any process may open it again)."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        if release and self.cluster is not None:
            self.cluster.release(table_id)  # before any await: no open here meanwhile finds our lease
        await room.runner.stop()
        for connection in room.connections:
            connection.gone = True
            connection.dirty.set()

    def _damaged(self, table_id: str, game: str, error: Exception) -> None:
        log.error("table %s is damaged and is not resumed: %s: %s", table_id, type(error).__name__, error,
                  extra={"table": table_id})   # one line: the fault, not a traceback
        first = error.args[0] if error.args else None
        fault = first if isinstance(first, (str, Message, Ruled)) else type(error).__name__
        self.damaged[table_id] = {"game": game, "fault": str(fault)}
        return None

    def damaged_summary(self, table_id: str) -> dict[str, Any]:
        entry = self.damaged[table_id]
        return {"id": table_id, "game": entry["game"], "status": "damaged", "fault": entry["fault"]}

    async def create(self, request: dict[str, Any]) -> dict[str, Any]:
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
        # a tutorial's one person starts at once (no Ready step)
        lifecycle = new_lifecycle(public_info, options, wait_for_host, started=description.starts_at_once or None)
        try:
            await self.writer.call(self.storage.create_table, table_id, game, setup, seed, info,
                                   hash_token(host_token), options, table.match.rulings)
            if self.cluster is not None:
                self.cluster.may_run(table_id)  # its lease, written with the table, gets our address
            await self.writer.call(self.storage.save_progress, table_id, table.match.log, table.state_id,
                                   table.over, False, lifecycle=lifecycle.to_json())
        except Exception as error:  # the disk is full, the database locked or unreadable
            log.error("a new table could not be stored: %s", error, extra={"table": table_id})
            raise LobbyError(503, Message("saving the new table failed, so it was not made; try again in a moment"),
                             code="storage", headers={"Retry-After": "5"})
        room = Room(table_id, game, table, public_info, hash_token(host_token), options, self.storage,
                    self.writer, self.bot_delay, lifecycle=lifecycle, pacer=self.pacer, thinker=self.thinker)
        self._run(room)
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
        await asyncio.get_running_loop().run_in_executor(None, self.writer.close)  # what is queued is written
        await asyncio.get_running_loop().run_in_executor(None, self.thinker.close)  # the bot workers stop


def create_app(db: str | None = None, *, bot_delay: float = 0.6, allowed_origins: Iterable[str] = (),
               table_quota: Quota = quota.TABLES, connection_quota: Quota = quota.CONNECTIONS,
               archive_after: float = ARCHIVE_AFTER, bus: str | None = None, bot_workers: int = 0,
               accounts: AccountSettings | None = None, limits: Limits = Limits()) -> FastAPI:
    """The server app; ``db`` is a path, ``sqlite:///path`` or ``:memory:`` (None: the default file),
    or ``postgresql://...``: then ``bus`` (``redis://...``) joins the other processes on that
    database (server/cluster.py; tell it where this one listens: ``app.state.hub.cluster.address``).

    ``allowed_origins``: sites (``https://host:port``) whose pages may post and connect besides the
    server's own; ``table_quota`` / ``connection_quota``: how many tables one client address may
    create, and connections it may open, in a sliding window; ``archive_after``: seconds a finished
    table stays in memory with nobody connected (``hippodrome.server.archive``); ``bot_workers``:
    processes the bots think in (0: threads of this process; ``hippodrome.table.thinking``);
    ``accounts``: argon2id's cost and the sign-in limits (``hippodrome.server.accounts``); ``limits``:
    a websocket's time to join and its messages (``hippodrome.server.limits``)."""
    origins = origins_from(allowed_origins)
    tables_opened, connections_opened = SlidingWindow(table_quota), SlidingWindow(connection_quota)
    games = {description.name: description for description in descriptions()}
    games_json = {"protocol": PROTOCOL_VERSION, "games": [d.to_json() for d in games.values()]}
    storage = open_storage(db)
    hub = Hub(storage, bot_delay, TimedThinker(thinker_for(bot_workers)))
    hub.cluster = cluster_for(storage, bus)
    archiver = Archiver(hub, archive_after)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if hub.cluster is None:
            hub.resume_all()
        else:
            await hub.cluster.start(hub)  # its loop takes the tables nobody runs
        archiving = asyncio.ensure_future(archiver.run())
        yield
        archiving.cancel()
        await (hub.stop() if hub.cluster is None else hub.cluster.stop())
        storage.close()

    # no OpenAPI schema without its docs pages (which would need a script from elsewhere)
    app = FastAPI(title="hippodrome", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.archiver = archiver
    app.state.limits = limits
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # the games' descriptions carry course drawings
    app.add_middleware(OriginGuard, allowed=origins)
    app.add_middleware(SecurityHeaders)   # outermost: on every answer, the guard's refusals too
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(health.router)   # /healthz, /readyz, /metrics
    install_accounts(app, hub, accounts)

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

    def game_page(name: str, request: Request, offered: str, missing: Any, html: str) -> HTMLResponse:
        """A page a game's description offers (``offered``: its field, such as ``rules``), else a
        404 page saying which games have one (``missing(name, games)``)."""
        if name not in games or getattr(games[name], offered) is None:
            lang = language_of(request.cookies, request.headers)
            return HTMLResponse(render_problem_page(missing(name, games), lang), status_code=404)
        return page(html, request)

    @app.get("/rules/{name}")
    async def rules_page(name: str, request: Request):
        return game_page(name, request, "rules", no_rules, "rules.html")

    @app.get("/puzzles/{name}")
    async def puzzles_page(name: str, request: Request):
        return game_page(name, request, "puzzles", no_puzzles, "puzzles.html")

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

    def puzzle_book(name: str) -> Any:
        puzzles = described(name).puzzles
        if puzzles is None:
            raise LobbyError(404, no_puzzles(name, games), code="not_found")
        return puzzles.open()

    def puzzle_number(book: Any, number: str) -> int:
        count = book.count()
        if not (number.isascii() and number.isdigit() and 1 <= int(number) <= count):
            # NOTE: {number} is what the address asked for; the puzzles are numbered from 1 to {count}.
            raise LobbyError(404, Message("there is no puzzle {number}: the puzzles are numbered from 1 to {count}",
                                          number=quoted(number), count=count), code="not_found")
        return int(number)

    @app.get("/api/games/{name}/puzzles")
    async def puzzle_list(name: str, request: Request):
        return puzzle_book(name).listing(language_of(request.cookies, request.headers))

    @app.get("/api/games/{name}/puzzles/{number}")
    async def puzzle_shown(name: str, number: str, request: Request):
        book = puzzle_book(name)
        return book.show(puzzle_number(book, number), language_of(request.cookies, request.headers))

    @app.post("/api/games/{name}/puzzles/{number}/answer")
    async def puzzle_answer(name: str, number: str, request: Request):
        book = puzzle_book(name)
        chosen = puzzle_number(book, number)
        action = (await json_object(request, MAX_MESSAGE)).get("action")
        if not is_action(action):
            raise LobbyError(400, Message("send {example}: 'action' is one of the puzzle's options",
                                          example='{"action": {"type": "card", ...}}'), code="bad_request")
        try:
            return book.answer(chosen, action, language_of(request.cookies, request.headers))
        except IllegalAction as error:
            raise LobbyError(400, error, code="illegal")

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
        room = await hub.open(table_id) or elsewhere(table_id)
        if room is None:
            raise LobbyError(404, no_table(table_id), code="not_found")
        entry = room.description.lookup(lookup)
        if entry is None or not entry.public:
            raise LobbyError(404, Message("a {game} table answers no {lookup}", game=room.game, lookup=repr(lookup)),
                             code="not_found")
        if room.runner.saving_failed:
            raise LobbyError(503, SAVING_FAILED, code="storage", headers={"Retry-After": "5"})
        await room.runner.until_stored()  # a change being committed is not shown before it is stored
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
            return await hub.create(await json_object(request, MAX_CREATE_BODY))
        except HippodromeError as error:
            tables_opened.give_back(address)  # a refused table is no table
            raise LobbyError(400, error, code="invalid_setup")
        except LobbyError:
            tables_opened.give_back(address)
            raise

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str):
        room = await hub.open(table_id) or elsewhere(table_id)
        if table_id in hub.damaged:
            return hub.damaged_summary(table_id)
        if room is None:
            raise LobbyError(404, Message("no table {id}; open tables are listed at /api/tables", id=repr(table_id)),
                             code="not_found")
        return room.summary()

    # -- play -----------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str):
        relayed = hub.cluster is not None and hub.cluster.is_relay(websocket.headers)
        wait = None if relayed else connections_opened.take(client_address(websocket))
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
        if room is None and hub.cluster is not None and hub.cluster.leases.table_exists(table_id):
            async def run_here(joins: list[str]) -> bool:
                """Serve the relayed connection here once this process holds the table."""
                here = hub.load(table_id)
                if here is not None:
                    await serve_connection(websocket, here, lang, replay=joins)
                return here is not None

            await serve_elsewhere(websocket, table_id, hub.cluster, run_here)
            return
        if room is None:
            await websocket.send_json({"v": PROTOCOL_VERSION, **problem(lang, "not_found", no_table(table_id))})
            await websocket.close(code=4404)
            return
        await serve_connection(websocket, room, lang)

    def elsewhere(table_id: str) -> Room | None:
        """A table another process runs, read from the database for an answer (not run here)."""
        return hub.read(table_id) if hub.cluster is not None else None

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


def no_puzzles(name: str, games: dict[str, GameDescription]) -> Message:
    """A puzzles page asked for a game that does not exist or has none."""
    pages = [f"/puzzles/{game}" for game, description in games.items() if description.puzzles is not None]
    # NOTE: {name} is what the address asked for; {pages} lists the addresses of the puzzle pages.
    return Message("There are no puzzles for {name}. The puzzle pages are: {pages}.", name=quoted(name),
                   pages=", ".join(pages))


def no_table(table_id: str) -> Message:
    return Message("no table {id}", id=repr(table_id))


async def serve_connection(websocket: WebSocket, room: Room, lang: str = "en", replay: Iterable[str] = ()) -> None:
    """Serve one table's connection; ``replay``: messages the client sent before (its ``join``
    sent to a process that went away), handled first."""
    TABLE.set(room.id)   # the connection's task: what it logs names the table
    connection = Connection(lang=lang)
    connection.account_seat = await own_seat(websocket, room.id)   # a player's seats follow its account
    room.connections.add(connection)
    send_lock = asyncio.Lock()
    # `serve`'s protocol offers it (not a test client)
    send_now = (getattr(websocket, "scope", None) or {}).get("extensions", {}).get(SEND_NOW)

    def push() -> bool:
        """The connection's news now (see Connection.push), where its sender would do no more than
        send the state: welcomed, not moved away, no word on saving to give, nothing of its own
        under way or waiting."""
        if (send_now is None or send_lock.locked() or connection.dirty.is_set() or connection.gone
                or not connection.welcomed or room.saving != connection.saving_told):
            return False
        if send_now(lambda: room.update_for(connection)):
            connection.pushed += 1
            return True
        return False
    connection.push = push

    async def send_text(text: str) -> None:
        async with send_lock:
            await websocket.send_text(text)

    async def send(message: dict[str, Any]) -> None:
        await send_text(dumps(message))

    async def sender() -> None:
        try:
            await send_updates()
        except CLIENT_GONE:   # the client left while its update went out: the reading side ends it
            pass

    async def send_updates() -> None:
        while True:
            await connection.dirty.wait()
            connection.dirty.clear()
            if connection.gone:  # another process runs the table now: the page reconnects to it
                await websocket.close(code=1012)
                return
            if not connection.welcomed:  # news come after the welcome (which sets dirty again)
                continue
            notice = room.saving_notice(connection)
            if notice is not None:
                await send(notice)
            update = room.update_for(connection)
            if update is not None:  # else the commit under way sets dirty again once it is stored
                await send_text(update)

    async def answer(text: str) -> None:
        reply = await handle(room, connection, text)
        if reply is None:
            return
        await send(reply)
        if reply["type"] == "welcome":  # its presence is stored after the welcome, and its state
            connection.welcomed = True    # goes out then (saving fails: the words go out now)
            if not await room.update_presence():
                connection.dirty.set()

    sending = asyncio.ensure_future(sender())
    gate = Gate(websocket, limits_for(websocket), connection, send)   # a join in time, messages at a bounded rate
    try:
        for text in replay:
            await answer(text)
        while True:
            message = await gate.receive()
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
            await answer(text)
    except CLIENT_GONE:
        pass
    finally:
        sending.cancel()
        connection.push = None   # the closure holds the connection: freed now, not at a full collection
        room.connections.discard(connection)
        room.notify_all()
        try:
            await room.update_presence()
        except Exception:  # the server is stopping
            log.debug("presence not updated for table %s", room.id)


#: what sending to or reading from a client that has left raises (Starlette: a disconnect read,
#: or a send after the close)
CLIENT_GONE = (WebSocketDisconnect, WebSocketDisconnected)


def too_large() -> Message:
    return Message("a message is at most {n} bytes; this one is refused", n=MAX_MESSAGE)


async def handle(room: Room, connection: Connection, text: str) -> dict[str, Any] | None:
    lang = connection.lang
    try:
        message = loads(text)
    except StrictJSONError as error:
        return problem(lang, "bad_message", Message("{reason}; a message is a JSON object such as {example}",
                                                    example='{"v": 1, "type": "join"}', reason=error.args[0]))
    if not isinstance(message, dict):
        return problem(lang, "bad_message", Message("a message must be a JSON object such as {example}, not {value}",
                                                    example='{"v": 1, "type": "join"}', value=given(message)))
    if "v" not in message:
        return problem(lang, "bad_version", Message(
            "this server speaks protocol version {version}: a message says so with {example}, and this one has no \"v\"",
            version=str(PROTOCOL_VERSION), example='"v": 1'), protocol=PROTOCOL_VERSION)
    version = message["v"]
    if type(version) is not int or version != PROTOCOL_VERSION:  # not true, not 1.0
        return problem(lang, "bad_version", Message(
            "this server speaks protocol version {version}; the message says {said}",
            version=str(PROTOCOL_VERSION), said=json.dumps(version, ensure_ascii=False)[:40]), protocol=PROTOCOL_VERSION)
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        return problem(lang, "bad_message", Message("unknown message type {kind}; types: {types}",
                                                    kind=given(kind), types=", ".join(MESSAGE_TYPES)))
    if kind == "ping":
        return {"type": "pong"}
    if kind == "join":
        return join(room, connection, message)  # who is present is stored once its welcome is sent
    if not connection.joined:
        return problem(lang, "not_joined", Message("send {example} first",
                                                   example='{"v": 1, "type": "join", "token": ...}'))
    if kind == "act":
        return await act(room, connection, message)
    if kind in PRIVATE_LOOKUPS:
        return await private_lookup(room, connection, kind, message)
    if kind in ("ready", "start", "next_race", "hand"):
        return await lifecycle_message(room, connection, kind, message)
    if kind in ("pause", "resume"):
        allowed = connection.seat is not None or from_host(room, message)
        if not allowed:
            return problem(lang, "forbidden",
                           Message("only a seated player or the table's host may pause or resume the clock"))
        try:
            await (room.runner.pause() if kind == "pause" else room.runner.resume())
        except HippodromeError as error:
            return refusal(lang, "illegal", error, state_id=room.runner.stored_state_id)
        return None
    raise AssertionError(kind)  # pragma: no cover


def from_host(room: Room, message: dict[str, Any]) -> bool:
    """Whether ``message`` carries the table's host token (``"host"``)."""
    token = message.get("host")
    return isinstance(token, str) and len(token) <= 200 and room.is_host(token)


async def lifecycle_message(room: Room, connection: Connection, kind: str,
                            message: dict[str, Any]) -> dict[str, Any] | None:
    """``ready`` (a person seat), ``start`` (the host), ``next_race`` (a person seat or the host),
    ``hand`` (the host: a seat whose person left goes to a bot while the game runs)."""
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
            if not bot_level_ok(room, level):
                return bad_level(room, lang)
            await room.start_now(level, connection.seat if person else None)
        elif kind == "hand":
            if not host:
                return problem(lang, "forbidden", Message(
                    "only the table's host may hand a seat to a bot; send {example}",
                    example='{"v": 1, "type": "hand", "host": ..., "seat": ...}'))
            seat, count = message.get("seat"), len(room.seats_info)
            if type(seat) is not int or not 0 <= seat < count:   # (not true, not 1.0)
                if not count:
                    return problem(lang, "bad_message", Message("this table has no seats to hand to a bot"))
                # NOTE: {last} is the number of the table's last seat (seats count from 0).
                return problem(lang, "bad_message", Message(
                    "'seat' must be the number of a seat at this table, from 0 to {last}", last=count - 1))
            level = message.get("level")
            if not bot_level_ok(room, level):
                return bad_level(room, lang)
            await room.hand(seat, level, connection.seat)
        else:
            if not (person or host):
                return problem(lang, "forbidden", Message(
                    "only a player seated at this table or its host may call the next race"))
            await room.runner.next_race(None if host else connection.seat)
    except HippodromeError as error:
        connection.dirty.set()
        return refusal(lang, "illegal", error, state_id=room.runner.stored_state_id)
    return None


def bot_level_ok(room: Room, level: Any) -> bool:
    """Whether ``level`` (of ``start`` or ``hand``) is absent (the default) or one of the game's bot levels."""
    return level is None or (isinstance(level, str) and room.description.bot(level) is not None)


def bad_level(room: Room, lang: str) -> dict[str, Any]:
    return problem(lang, "bad_message", Message("'level' must be one of the bot levels: {levels}",
                                                levels=", ".join(b.name for b in room.description.bots)))


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
    seat = connection.account_seat if not token else None   # signed in: its own seat, from any device
    if token:
        seat = room.seat_for_token(token)
        if seat is None:
            return problem(lang, "forbidden", Message("this token holds no seat at this table; ask for your "
                                                      "seat's link, or join without a token to watch"))
    connection.seat = seat
    connection.joined = True
    connection.welcomed = False  # its states follow this welcome
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
    clock = room.act_clock.acted(room.table.state_id)   # its state's way to the spectators is measured
    try:
        await room.runner.act(connection.seat, action, state_id)
    except StaleState as error:
        room.act_clock.refused(clock)
        connection.dirty.set()
        return refusal(lang, "stale", error, state_id=room.runner.stored_state_id)
    except HippodromeError as error:
        room.act_clock.refused(clock)
        connection.dirty.set()
        return refusal(lang, "illegal", error, state_id=room.runner.stored_state_id)
    return None


#: the private look-ups a seat asks for over its websocket: each message's fields (besides ``v`` and
#: ``type``) are the look-up's parameters; ``preview`` needs an ``action`` (one of the seat's options)
PRIVATE_LOOKUPS = ("preview", "why")


async def private_lookup(room: Room, connection: Connection, name: str, message: dict[str, Any]) -> dict[str, Any]:
    """A seat asks the game's private look-up ``name``: where one of its options would lead
    (``preview``), why a square or a space is out of reach (``why``). The game answers for that
    seat only, and refuses (IllegalAction) a seat that is not the one it is about."""
    lang = connection.lang
    if connection.seat is None:
        return problem(lang, "forbidden", Message("spectators watch only"))
    entry = room.description.lookup(name)
    if entry is None or entry.public:
        # NOTE: {lookup} is the name of a look-up ("preview", "why"), {game} a game's name.
        return problem(lang, "bad_message", Message("a {game} table offers no {lookup}", game=room.game,
                                                    lookup=name))
    params = {key: value for key, value in message.items() if key not in ("v", "type")}
    if name == "preview" and not is_action(params.get("action")):
        return problem(lang, "bad_message", Message("'preview' needs 'action': one of your options"))
    if room.runner.saving_failed:
        return refusal(lang, "illegal", IllegalAction(SAVING_FAILED), state_id=room.runner.stored_state_id)
    async with room.runner.lock:
        try:
            state_id, answer = await run_lookup(room, entry, connection.seat, params)
        except IllegalAction as error:
            return refusal(lang, "illegal", error, state_id=room.table.state_id)
    return {"type": name, "state_id": state_id, **params, **answer}
