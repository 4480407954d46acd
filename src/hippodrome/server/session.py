"""One websocket's session at a table: it reads the client's messages and answers each
(:mod:`hippodrome.server.messages`), and it sends the table's news: the state once stored (a patch
for a connection that reads patches), and what saving says when it fails or works again.

The news go out from a sender task woken by the room (``Connection.dirty``), or at once from the
room's own step where the connection's socket takes data and nothing of its own is under way
(``Connection.push``, through the transport's ``SEND_NOW``): a turn of the loop and a task woken
are spared on every change."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterable

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from hippodrome.i18n import Message
from hippodrome.server.accounts.service import own_seat
from hippodrome.server.compressed_websocket import SEND_NOW
from hippodrome.server.context import MAX_MESSAGE
from hippodrome.server.limits import Gate, limits_for
from hippodrome.server.localize import problem
from hippodrome.server.logs import TABLE
from hippodrome.server.messages import handle
from hippodrome.server.rooms import Connection, Room
from hippodrome.server.views import dumps

log = logging.getLogger(__name__)

#: what sending to or reading from a client that has left raises (Starlette: a disconnect read,
#: or a send after the close)
CLIENT_GONE = (WebSocketDisconnect, WebSocketDisconnected)


def too_large() -> Message:
    return Message("a message is at most {n} bytes; this one is refused", n=MAX_MESSAGE)


class Session:
    def __init__(self, websocket: WebSocket, room: Room, lang: str = "en"):
        self.websocket = websocket
        self.room = room
        self.connection = Connection(lang=lang)
        self.send_lock = asyncio.Lock()
        # `serve`'s protocol offers it (not a test client)
        self.send_now = (getattr(websocket, "scope", None) or {}).get("extensions", {}).get(SEND_NOW)
        self.connection.push = self.push

    def push(self) -> bool:
        """The connection's news now (see Connection.push), where its sender would do no more than
        send the state: welcomed, not moved away, no word on saving to give, nothing of its own
        under way or waiting."""
        connection, room = self.connection, self.room
        if (self.send_now is None or self.send_lock.locked() or connection.dirty.is_set() or connection.gone
                or not connection.welcomed or room.saving_state != connection.saving_told):
            return False
        if self.send_now(lambda: room.update_for(connection)):
            connection.pushed += 1
            return True
        return False

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.websocket.send_text(text)

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(dumps(message))

    async def _sender(self) -> None:
        try:
            await self._send_updates()
        except CLIENT_GONE:   # the client left while its update went out: the reading side ends it
            pass

    async def _send_updates(self) -> None:
        connection, room = self.connection, self.room
        while True:
            await connection.dirty.wait()
            connection.dirty.clear()
            if connection.gone:  # another process runs the table now: the page reconnects to it
                await self.websocket.close(code=1012)
                return
            if not connection.welcomed:  # news come after the welcome (which sets dirty again)
                continue
            notice = room.saving_notice(connection)
            if notice is not None:
                await self.send(notice)
            update = room.update_for(connection)
            if update is not None:  # else the commit under way sets dirty again once it is stored
                await self.send_text(update.decode())

    async def answer(self, text: str) -> None:
        reply = await handle(self.room, self.connection, text)
        if reply is None:
            return
        await self.send(reply)
        if reply["type"] == "welcome":  # its presence is stored after the welcome, and its state
            self.connection.welcomed = True    # goes out then (saving fails: the words go out now)
            if not await self.room.update_presence():
                self.connection.dirty.set()

    async def run(self, replay: Iterable[str] = ()) -> None:
        """Serve the connection until the client leaves; ``replay``: messages the client sent before
        (its ``join`` sent to a process that went away), handled first."""
        room, connection = self.room, self.connection
        TABLE.set(room.id)   # the connection's task: what it logs names the table
        connection.account_seat = await own_seat(self.websocket, room.id)   # a player's seats follow its account
        room.connections.add(connection)
        sending = asyncio.ensure_future(self._sender())
        gate = Gate(self.websocket, limits_for(self.websocket), connection, self.send)   # a join in time, a bounded rate
        try:
            for text in replay:
                await self.answer(text)
            while True:
                message = await gate.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    if len(data) > MAX_MESSAGE:
                        await self.send(problem(connection.lang, "too_large", too_large()))
                        continue
                    await self.send(problem(connection.lang, "bad_message",
                                            Message("send text frames holding JSON objects, not binary frames")))
                    continue
                if len(text.encode("utf-8")) > MAX_MESSAGE:
                    await self.send(problem(connection.lang, "too_large", too_large()))
                    continue
                await self.answer(text)
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


async def serve_connection(websocket: WebSocket, room: Room, lang: str = "en", replay: Iterable[str] = ()) -> None:
    """Serve one table's connection (see :meth:`Session.run`)."""
    await Session(websocket, room, lang).run(replay)
