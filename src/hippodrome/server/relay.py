"""A websocket for a table another process runs: relayed, message for message, to that process.

:func:`serve_elsewhere` finds the table's owner through its lease and relays; when the owner
goes away (killed: the relay's own connection drops), it waits for the table's next owner, at
most :data:`TAKEOVER_WAIT` seconds, and connects again, sending the client's last ``join``
again: the client sees a new ``welcome`` and the table's state, as stored, and plays on. When
this process becomes the owner, the connection is served here (``run_here``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Awaitable, Callable

import websockets
from starlette.websockets import WebSocket, WebSocketDisconnect

from hippodrome.server.cluster import RELAY_HEADER, Cluster

log = logging.getLogger(__name__)

#: seconds a relayed connection waits for a table's new owner after its owner went away
TAKEOVER_WAIT = 12.0
#: seconds between two looks for the new owner
RETRY = 0.25


class ClientLeft(Exception):
    """The client closed its connection: the relay ends."""


async def serve_elsewhere(websocket: WebSocket, table_id: str, cluster: Cluster,
                          run_here: Callable[[list[str]], Awaitable[bool]]) -> None:
    """Serve an accepted websocket for ``table_id``, which this process does not run now.

    ``run_here(replay)``: try to run the table here (its lease is free) and serve the connection,
    the client's join messages ``replay`` handled first; False when another process holds it."""
    joins: list[str] = []
    deadline = None
    while True:
        holder = await cluster.holder(table_id)
        if holder is None or not holder.live or holder.owner == cluster.owner:
            if await run_here(joins[-1:]):
                return
        else:
            try:
                await relay(websocket, holder.address, table_id, cluster.secret, joins)
                return  # the owner closed the connection on purpose (its close code was passed on)
            except ClientLeft:
                return
            except (OSError, websockets.exceptions.WebSocketException) as error:
                log.info("relay of table %s to %s broke: %s", table_id, holder.address, error)
        deadline = deadline or asyncio.get_running_loop().time() + TAKEOVER_WAIT
        if asyncio.get_running_loop().time() > deadline:
            await websocket.close(code=1013)  # try again later; pages reconnect by themselves
            return
        await asyncio.sleep(RETRY)


async def relay(websocket: WebSocket, address: str, table_id: str, secret: str, joins: list[str]) -> None:
    """Relay until one side closes. Raises ClientLeft when the client left, a websockets or
    OS error when the owner went away; returns when the owner closed the connection with a
    code of its own (a refusal), which the client is given."""
    url = address.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + f"/ws/tables/{table_id}"
    async with websockets.connect(url, additional_headers={RELAY_HEADER: secret}, proxy=None,
                                  open_timeout=3, compression=None, max_size=None) as upstream:
        for text in joins[-1:]:
            await upstream.send(text)
        down = asyncio.ensure_future(_downstream(upstream, websocket))
        up = asyncio.ensure_future(_upstream(websocket, upstream, joins))
        done, pending = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        for task in done:
            task.result()  # raises ClientLeft or the owner's failure


async def _downstream(upstream: Any, websocket: WebSocket) -> None:
    try:
        async for text in upstream:
            await _to_client(websocket.send_text(text if isinstance(text, str) else text.decode("utf-8")))
    except websockets.exceptions.ConnectionClosed:
        pass
    code = upstream.close_code
    if code is not None and 4000 <= code < 5000:  # the owner's refusal (no such table, damaged)
        await _to_client(websocket.close(code=code))
        return
    raise websockets.exceptions.ConnectionClosedError(None, None)  # gone: look for the next owner


async def _to_client(sending: Awaitable[None]) -> None:
    """Send to the client; a client that went away (whatever the server's words for it) ends the relay."""
    try:
        await sending
    except Exception:
        raise ClientLeft() from None


async def _upstream(websocket: WebSocket, upstream: Any, joins: list[str]) -> None:
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            raise ClientLeft() from None
        if message["type"] == "websocket.disconnect":
            await upstream.close()
            raise ClientLeft()
        text = message.get("text")
        if text is None:
            await upstream.send(message.get("bytes") or b"")
            continue
        if is_join(text):
            joins.append(text)
            del joins[:-1]
        await upstream.send(text)


def is_join(text: str) -> bool:
    """Whether a client's message is its ``join`` (kept, to be sent again to a new owner)."""
    if '"join"' not in text:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "join"
