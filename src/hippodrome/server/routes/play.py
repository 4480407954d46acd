"""Play: a table's websocket (docs/protocol.md), served here, relayed to the process that runs
the table, or refused in words (a quota, a damaged table, no such table)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from hippodrome.i18n import Message, Plural
from hippodrome.server.context import ServerContext, client_address, no_table, too_many
from hippodrome.server.guard import refuse_websocket
from hippodrome.server.localize import language_of, problem
from hippodrome.server.quota import whole_seconds
from hippodrome.server.relay import serve_elsewhere
from hippodrome.server.session import serve_connection
from hippodrome.server.views import PROTOCOL_VERSION


def play_router(context: ServerContext) -> APIRouter:
    router = APIRouter()
    hub = context.hub

    @router.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str):
        relayed = hub.cluster is not None and hub.cluster.is_relay(websocket.headers)
        wait = None if relayed else context.connections_opened.take(client_address(websocket))
        if wait is not None:
            quota = context.connection_quota
            await refuse_websocket(websocket, too_many(Plural(
                "too many connections from your address (at most {count} in {seconds} s); try again in {n} second",
                "too many connections from your address (at most {count} in {seconds} s); try again in {n} seconds",
                whole_seconds(wait), count=quota.count, seconds=quota.seconds), wait))
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

    return router
