"""Replays of finished tables (issue 35.3; docs/accounts.md):

* ``GET /replay/{id}``: the page (a timeline over the game's own page);
* ``GET /api/tables/{id}/replay?step=K``: ``{"step": K, "steps": N, "view": {...}}``, the game after
  K changes as a spectator saw it, or, for a signed-in person who held a seat at the table, as
  that seat saw it (its own hand too); with ``decision`` (who decides, no options), ``seat``,
  ``seats`` (names now: an account's name, a deleted account's seat ``"former": true``),
  ``races`` (the step each race begins at) and ``game``. A table still being played is refused
  (409: watch it), as is a step past the end (400), in words.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from hippodrome.core.errors import IllegalAction
from hippodrome.i18n import Message
from hippodrome.server.accounts import store
from hippodrome.server.accounts.player_routes import count_param, html_page
from hippodrome.server.accounts.players import table_players
from hippodrome.server.accounts.service import Accounts
from hippodrome.server.localize import LobbyError, quoted
from hippodrome.server.replays import Replay, Replays


def replay_router(accounts: Accounts, replays: Replays) -> APIRouter:
    router = APIRouter()
    storage = accounts.storage

    @router.get("/replay/{table_id}")
    async def replay_page(table_id: str, request: Request):
        return html_page("replay.html", request)

    async def replay_of(table_id: str) -> Replay:
        replay = replays.kept_one(table_id)
        if replay is not None:
            return replay
        loop = asyncio.get_running_loop()
        record = await loop.run_in_executor(None, storage.load, table_id)
        if record is None:
            raise LobbyError(404, Message("no table {id}", id=quoted(table_id)), code="not_found")
        if not record["over"]:
            # NOTE: {link} is the address where the table is watched live.
            raise LobbyError(409, Message("this table is still being played: watch it at {link}",
                                          link=f"/play/{table_id}"), code="not_over")
        try:
            return await loop.run_in_executor(None, replays.get, table_id, record)
        except IllegalAction as error:
            raise LobbyError(500, Message("the stored game of table {id} cannot be played back: {reason}",
                                          id=quoted(table_id), reason=error.args[0]), code="damaged")

    @router.get("/api/tables/{table_id}/replay")
    async def replay_step(table_id: str, request: Request):
        table_id = table_id[:100]
        step = count_param(request, "step", 0, 0, 10 ** 9)
        replay = await replay_of(table_id)
        if step > replay.steps:
            # NOTE: {steps} is the number of the game's last step; steps count from 0, the game as it began.
            raise LobbyError(400, Message("this game has steps 0 to {steps}", steps=replay.steps),
                             code="bad_request")
        account = await accounts.account_of(request)

        def read(sql) -> tuple[list[dict[str, Any]], int | None]:
            held = store.seats_held(sql, account.id, table_id) if account else []
            return table_players(sql, [table_id]).get(table_id, []), (held[0] if held else None)
        seats, seat = await accounts.read(read)
        shown = await accounts.in_thread(replay.shown, step, seat)
        return {"table": table_id, "game": replay.game, "step": step, "steps": replay.steps, **shown,
                "seat": seat, "seats": seats, "races": replay.races}

    return router
