"""The ASGI app: the lobby (REST), one websocket per table (docs/protocol.md), the static pages.

``create_app(db)`` opens the storage, makes the :class:`~hippodrome.server.hub.Hub` of tables
(which resumes every unfinished table from its log and runs it), and mounts the routers
(:mod:`hippodrome.server.routes`). Every connection receives only ``view(seat)`` of its seat
(spectators: ``view(None)``); an action goes through the table's lock, is stored (on the storage
writer's thread, off the event loop), and only then shown; while saving fails the table is paused
and its connections are told so (``storage`` messages), never shown a state that is not stored.
What a client sends passes the gate first (``guard``: its origin, content type and size;
``strict_json``; ``quota``: how many tables and connections one address opens), so nothing the
server stores can break an answer later ("Limits and refusals", docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Iterable

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from hippodrome.core.registry import descriptions
from hippodrome.server import health, quota
from hippodrome.server.accounts.install import install as install_accounts
from hippodrome.server.accounts.service import AccountSettings
from hippodrome.server.archive import ARCHIVE_AFTER, Archiver
from hippodrome.server.cluster import cluster_for
from hippodrome.server.context import GZIP_LEVEL, GZIP_MINIMUM_SIZE, WEB_DIR, ServerContext
from hippodrome.server.guard import OriginGuard, allowed_origins as origins_from
from hippodrome.server.headers import SecurityHeaders
from hippodrome.server.hub import Hub
from hippodrome.server.limits import Limits
from hippodrome.server.localize import LobbyError, language_of
from hippodrome.server.metrics import TimedThinker
from hippodrome.server.quota import Quota
from hippodrome.server.review_settings import ReviewSettings
from hippodrome.server.routes.games import games_router
from hippodrome.server.routes.pages import pages_router
from hippodrome.server.routes.play import play_router
from hippodrome.server.routes.tables import tables_router
from hippodrome.server.storage import open_storage
from hippodrome.table.thinking import thinker_for


def create_app(db: str | None = None, *, bot_delay: float = 0.6, allowed_origins: Iterable[str] = (),
               table_quota: Quota = quota.TABLES, connection_quota: Quota = quota.CONNECTIONS,
               archive_after: float = ARCHIVE_AFTER, bus: str | None = None, bot_workers: int = 0,
               bot_budget: float | None = None, accounts: AccountSettings | None = None,
               limits: Limits = Limits(), reviews: ReviewSettings = ReviewSettings()) -> FastAPI:
    """The server app; ``db`` is a path, ``sqlite:///path`` or ``:memory:`` (None: the default file),
    or ``postgresql://...``: then ``bus`` (``redis://...``) joins the other processes on that
    database (server/cluster.py; tell it where this one listens: ``app.state.hub.cluster.address``).

    ``allowed_origins``: sites (``https://host:port``) whose pages may post and connect besides the
    server's own; ``table_quota`` / ``connection_quota``: how many tables one client address may
    create, and connections it may open, in a sliding window; ``archive_after``: seconds a finished
    table stays in memory with nobody connected (``hippodrome.server.archive``); ``bot_workers``:
    processes the bots think in (0: threads of this process; ``hippodrome.table.thinking``);
    ``bot_budget``: seconds a search bot thinks a decision (None: its default); ``accounts``:
    argon2id's cost and the sign-in limits (``hippodrome.server.accounts``); ``limits``: a
    websocket's time to join and its messages (``hippodrome.server.limits``); ``reviews``: the
    finished tables' reviews, their worker processes and how many at once (``hippodrome.server.reviews``)."""
    origins = origins_from(allowed_origins)
    storage = open_storage(db)
    hub = Hub(storage, bot_delay, TimedThinker(thinker_for(bot_workers)), bot_budget)
    hub.cluster = cluster_for(storage, bus)
    archiver = Archiver(hub, archive_after)
    context = ServerContext(hub, {description.name: description for description in descriptions()},
                            table_quota, connection_quota)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if hub.cluster is None:
            hub.resume_all()
        else:
            await hub.cluster.start(hub)  # its loop takes the tables nobody runs
        archiving = asyncio.ensure_future(archiver.run())
        yield
        archiving.cancel()
        await app.state.reviews.close()
        await (hub.stop() if hub.cluster is None else hub.cluster.stop())
        storage.close()

    # no OpenAPI schema without its docs pages (which would need a script from elsewhere)
    app = FastAPI(title="hippodrome", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.archiver = archiver
    app.state.limits = limits
    # the games' descriptions carry course drawings (answers that never change come gzipped once: context.Prewritten)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_SIZE, compresslevel=GZIP_LEVEL)
    app.add_middleware(OriginGuard, allowed=origins)
    app.add_middleware(SecurityHeaders)   # outermost: on every answer, the guard's refusals too
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(health.router)   # /healthz, /readyz, /metrics
    install_accounts(app, hub, accounts, reviews)

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, error: LobbyError):
        return JSONResponse(error.body(language_of(request.cookies, request.headers)), status_code=error.status,
                            headers=error.headers)

    for router in (pages_router(context), games_router(context), tables_router(context), play_router(context)):
        app.include_router(router)
    return app
