"""The games' API: their descriptions, rules diagrams, puzzles, setup checks, languages and the
pages' message catalogs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from hippodrome.core.errors import IllegalAction
from hippodrome.i18n import LANGUAGES, Message, languages_for_web, plural_rule, web_catalog
from hippodrome.server.context import MAX_CREATE_BODY, MAX_MESSAGE, ServerContext, is_action, no_puzzles, no_rules
from hippodrome.server.guard import json_object
from hippodrome.server.localize import LobbyError, language_of, quoted
from hippodrome.server.setup_form import check_setup


def games_router(context: ServerContext) -> APIRouter:
    router = APIRouter()
    games, described = context.games, context.described

    @router.get("/api/games")
    async def list_games(request: Request):
        return context.games_text.response(request)

    @router.get("/api/games/{name}")
    async def one_game(name: str, request: Request):
        return context.game_texts[described(name).name].response(request)

    @router.get("/api/games/{name}/rules")
    async def rules_diagrams(name: str, request: Request):
        description = described(name)
        if description.rules is None:
            raise LobbyError(404, no_rules(name, games), code="not_found")
        return context.prewritten(("rules", description.name), description.rules.data).response(request)

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

    @router.get("/api/games/{name}/puzzles")
    async def puzzle_list(name: str, request: Request):
        return puzzle_book(name).listing(language_of(request.cookies, request.headers))

    @router.get("/api/games/{name}/puzzles/{number}")
    async def puzzle_shown(name: str, number: str, request: Request):
        book = puzzle_book(name)
        return book.show(puzzle_number(book, number), language_of(request.cookies, request.headers))

    @router.post("/api/games/{name}/puzzles/{number}/answer")
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

    @router.post("/api/games/{name}/check")
    async def check_game_setup(name: str, request: Request):
        description = described(name)
        data = await json_object(request, MAX_CREATE_BODY)
        return check_setup(description, data.get("setup", {}), language_of(request.cookies, request.headers))

    @router.get("/api/languages")
    async def languages():
        return languages_for_web()

    @router.get("/i18n/{lang}.json")
    async def catalog(lang: str, request: Request):
        if lang not in LANGUAGES:
            raise LobbyError(404, Message("no catalog for language {lang}; languages: {languages}",
                                          lang=repr(lang), languages=", ".join(LANGUAGES)), code="not_found")
        return context.prewritten(("catalog", lang), lambda: {
            "lang": lang, "plural": plural_rule(lang), "messages": web_catalog(lang)}).response(request)

    return router
