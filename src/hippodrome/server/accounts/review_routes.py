"""Reviews of finished tables (issue 36.3; docs/review.md "On the server", docs/accounts.md):

* ``POST /api/tables/{id}/review``: make the table's review (202 while it runs, the status; 200
  with the review once it is stored); a table still being played is refused (409), an unknown
  one (404), a request past the reviews a server makes at once (429), in words;
* ``GET /api/tables/{id}/review``: ``{"status": "none"|"running"|"ready"|"failed", "done": n,
  "total": m}``, with ``review`` when it is ready: the review's JSON (docs/review.md), each
  decision's choices with their ``words`` (a message: "Play 9 for Red") and its ``at`` (the
  replay's step where it was taken).

Anyone may ask for the review of any finished table, as anyone may watch its replay.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from hippodrome.core.registry import game_class
from hippodrome.i18n import Message
from hippodrome.server.accounts.service import Accounts
from hippodrome.server.localize import LobbyError, message_json, quoted
from hippodrome.server.reviews import Reviews

NONE = {"status": "none", "done": 0, "total": 0}


def with_words(text: str, words: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A stored review's answer: its JSON, each decision's choices with their words."""
    review = json.loads(text)
    for decision in review["decisions"]:
        for choice in (decision["chosen"], decision["best"]):
            said = words(choice["action"])
            choice["words"] = message_json(said) or str(said)
    total = len(review["decisions"])
    return {"status": "ready", "done": total, "total": total, "review": review}


def review_router(accounts: Accounts, reviews: Reviews) -> APIRouter:
    router = APIRouter()
    storage = accounts.storage

    async def found(table_id: str) -> tuple[str, bool, str | None]:
        row = await reviews.read(table_id)
        if row is None:
            raise LobbyError(404, Message("no table {id}", id=quoted(table_id)), code="not_found")
        return row

    async def ready(game: str, text: str) -> dict[str, Any]:
        words = game_class(game).description.review_words_function() or str
        return await accounts.in_thread(with_words, text, words)

    @router.get("/api/tables/{table_id}/review")
    async def review_status(table_id: str):
        table_id = table_id[:100]
        under_way = reviews.under_way(table_id)
        if under_way is not None:
            return under_way
        game, _over, text = await found(table_id)
        return NONE if text is None else await ready(game, text)

    @router.post("/api/tables/{table_id}/review")
    async def ask_review(table_id: str):
        table_id = table_id[:100]
        if table_id in reviews.running:
            return JSONResponse(reviews.under_way(table_id), status_code=202)
        game, over, text = await found(table_id)
        if text is not None:
            return await ready(game, text)
        if not over:
            # NOTE: {link} is the address where the table is watched live.
            raise LobbyError(409, Message("this table is still being played: its review can be made once it is over; "
                                          "watch it at {link}", link=f"/play/{table_id}"), code="not_over")
        if game_class(game).description.review is None:
            # NOTE: {game} is the game's name, such as "TurfMaster: a single race".
            raise LobbyError(404, Message("there is no review of the games of {game}",
                                          game=game_class(game).description.title), code="no_review")
        record = await asyncio.get_running_loop().run_in_executor(None, storage.load, table_id)
        return JSONResponse(reviews.start(table_id, record), status_code=202)

    return router
