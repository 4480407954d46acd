""""Play again, everyone" (issue 35.5): ``POST /api/tables/{id}/again`` with a seat's token
(``{"token"}``), the host's (``{"host"}``) or neither from a signed-in player who holds a seat
there, once the game is over, makes the next table (the
same game, setup, options and seats, each seat held by the same account) and tells every
connection of the finished table: each seated person's state carries its own new seat's link
(``"again": {"table", "link"}``: its page goes there), a spectator's where to watch (``"again":
{"table", "watch"}``). Asked again, it answers the same table. The answer: ``{"table", "link"}``
(the asker's new seat; for the host also ``host_link``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from hippodrome.core.errors import HippodromeError
from hippodrome.i18n import Message
from hippodrome.server.accounts import store
from hippodrome.server.guard import json_object
from hippodrome.server.localize import LobbyError, quoted

MAX_BODY = 4 * 1024


def copy_accounts(sql: Any, old: str, new: str) -> None:
    """The new table's seats held by the accounts that held the same seats of the old one."""
    for seat, account in sql.rows("SELECT seat, account FROM seats WHERE table_id = ? AND account IS NOT NULL",
                                  (old,)):
        sql.run("UPDATE seats SET account = ? WHERE table_id = ? AND seat = ? AND kind = 'person'", (account, new, seat))


def again_router(hub: Any, accounts: Any) -> APIRouter:
    router = APIRouter()
    making: dict[str, asyncio.Future] = {}   # the next tables being made, by the finished table's id

    async def next_table(room: Any) -> dict[str, Any]:
        if room.again is not None:
            return room.again
        if room.id not in making:
            making[room.id] = asyncio.ensure_future(make(room))
        try:
            return await asyncio.shield(making[room.id])
        finally:
            making.pop(room.id, None)

    async def make(room: Any) -> dict[str, Any]:
        request = {**room.options, "game": room.game, "setup": room.description.public_setup(room.table.match.setup),
                   "seats": [{"name": player.name, "kind": player.kind,
                              **({"level": player.level} if not player.is_person else {})}
                             for player in room.table.players]}
        try:
            made = await hub.create(request)
        except HippodromeError as error:
            raise LobbyError(400, error, code="invalid_setup")
        await accounts.write(lambda sql: copy_accounts(sql, room.id, made["id"]))
        room.again = {"table": made["id"], "links": {s["seat"]: s["link"] for s in made["seats"] if "link" in s},
                      "watch": made["spectator_link"], "host_link": made.get("play_host_link")}
        room.notify_all()   # every connection's next state carries where it goes now
        return room.again

    @router.post("/api/tables/{table_id}/again")
    async def again(table_id: str, request: Request):
        data = await json_object(request, MAX_BODY)
        room = await hub.open(table_id[:100])
        if room is None:
            raise LobbyError(404, Message("no table {id}", id=quoted(table_id)), code="not_found")
        token, host = data.get("token"), data.get("host")
        seat = room.seat_for_token(token) if isinstance(token, str) and len(token) <= 200 else None
        is_host = isinstance(host, str) and len(host) <= 200 and room.is_host(host)
        if seat is None and not is_host and token is None:   # a signed-in player's own seat, from any device
            account = await accounts.account_of(request)
            held = await accounts.read(lambda sql: store.seats_held(sql, account.id, room.id)) if account else []
            seat = held[0] if held else None
        if seat is None and not is_host:
            raise LobbyError(403, Message("only a player seated at this table or its host may play again"),
                             code="forbidden")
        if not room.table.over:
            raise LobbyError(409, Message("the game is not over yet"), code="not_over")
        made = await next_table(room)
        return {"table": made["table"], **({"link": made["links"][seat]} if seat in made["links"] else {}),
                **({"host_link": made["host_link"]} if is_host and made.get("host_link") else {})}

    return router
