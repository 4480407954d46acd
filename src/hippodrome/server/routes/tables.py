"""The tables' API: the lobby's list, making a table, one table's summary and its public look-ups."""

from __future__ import annotations

from fastapi import APIRouter, Request

from hippodrome.core.errors import HippodromeError, IllegalAction
from hippodrome.i18n import Message, Plural
from hippodrome.server import listing
from hippodrome.server.context import MAX_CREATE_BODY, ServerContext, client_address, no_table, too_many
from hippodrome.server.guard import json_object
from hippodrome.server.localize import LobbyError
from hippodrome.server.messages import run_lookup
from hippodrome.server.quota import whole_seconds
from hippodrome.table.journal import SAVING_FAILED


def tables_router(context: ServerContext) -> APIRouter:
    router = APIRouter()
    hub = context.hub

    @router.get("/api/tables/{table_id}/{lookup}")
    async def public_lookup(table_id: str, lookup: str, request: Request):
        room = await hub.open(table_id) or context.elsewhere(table_id)
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

    @router.get("/api/tables")
    async def list_tables(request: Request):
        return listing.page(hub, dict(request.query_params))

    @router.post("/api/tables")
    async def create_table(request: Request):
        address = client_address(request)
        wait = context.tables_opened.take(address)
        quota = context.table_quota
        if wait is not None:
            raise too_many(Plural("too many tables from your address (at most {count} in {seconds} s); "
                                  "try again in {n} second",
                                  "too many tables from your address (at most {count} in {seconds} s); "
                                  "try again in {n} seconds", whole_seconds(wait),
                                  count=quota.count, seconds=quota.seconds), wait)
        try:
            return await hub.create(await json_object(request, MAX_CREATE_BODY))
        except HippodromeError as error:
            context.tables_opened.give_back(address)  # a refused table is no table
            raise LobbyError(400, error, code="invalid_setup")
        except LobbyError:
            context.tables_opened.give_back(address)
            raise

    @router.get("/api/tables/{table_id}")
    async def table_info(table_id: str):
        room = await hub.open(table_id) or context.elsewhere(table_id)
        if table_id in hub.damaged:
            return hub.damaged_summary(table_id)
        if room is None:
            raise LobbyError(404, Message("no table {id}; open tables are listed at /api/tables", id=repr(table_id)),
                             code="not_found")
        return room.summary()

    return router
