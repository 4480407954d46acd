"""The HTML pages: the lobby, a table's play and caller pages, a game's rules and puzzles."""

from __future__ import annotations

from typing import Callable

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from hippodrome.core.description import GameDescription
from hippodrome.i18n import Message
from hippodrome.server.context import WEB_DIR, ServerContext, no_puzzles, no_rules
from hippodrome.server.localize import language_of, render_page, render_problem_page


def page(name: str, request: Request) -> HTMLResponse:
    return HTMLResponse(render_page(name, language_of(request.cookies, request.headers)),
                        headers={"Cache-Control": "no-cache"})


def pages_router(context: ServerContext) -> APIRouter:
    router = APIRouter()
    games = context.games

    @router.get("/")
    async def lobby_page(request: Request):
        return page("index.html", request)

    @router.get("/favicon.ico")
    async def favicon():
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    @router.get("/play/{table_id}")
    async def play_page(table_id: str, request: Request):
        return page("play.html", request)

    @router.get("/call/sw.js")
    async def caller_service_worker():
        """The race caller's service worker, served from the caller's pages' folder: its scope."""
        return FileResponse(WEB_DIR / "caller_sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    @router.get("/call/{table_id}")
    async def caller_page(table_id: str, request: Request):
        return page("caller.html", request)

    def game_page(name: str, request: Request, offered: str,
                  missing: Callable[[str, dict[str, GameDescription]], Message], html: str) -> HTMLResponse:
        """A page a game's description offers (``offered``: its field, such as ``rules``), else a
        404 page saying which games have one (``missing(name, games)``)."""
        if name not in games or getattr(games[name], offered) is None:
            lang = language_of(request.cookies, request.headers)
            return HTMLResponse(render_problem_page(missing(name, games), lang), status_code=404)
        return page(html, request)

    @router.get("/rules/{name}")
    async def rules_page(name: str, request: Request):
        return game_page(name, request, "rules", no_rules, "rules.html")

    @router.get("/puzzles/{name}")
    async def puzzles_page(name: str, request: Request):
        return game_page(name, request, "puzzles", no_puzzles, "puzzles.html")

    return router


__all__ = ["pages_router"]
