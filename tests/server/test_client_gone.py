"""A client that leaves while the server is answering it: the send after the close ends that
connection quietly (no "Exception in ASGI application", no task error left behind), and the table
forgets the connection (seen at 200 tables in bench/load.py when its clients closed)."""

from __future__ import annotations

import asyncio
import json

from starlette.websockets import WebSocketDisconnected

from hippodrome.server.session import serve_connection
from tests.server.conftest import make_table


class LeavingSocket:
    """A websocket whose client sends ``join`` and is gone before the answer is sent."""

    def __init__(self, token: str):
        self.token, self.reads, self.sent = token, 0, 0

    async def receive(self):
        self.reads += 1
        if self.reads == 1:
            return {"type": "websocket.receive", "text": json.dumps({"v": 1, "type": "join", "token": self.token})}
        await asyncio.sleep(3600)   # never reached: the send below ends the connection

    async def send_text(self, text):
        self.sent += 1
        raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')

    async def close(self, code=1000):
        pass


def test_a_send_to_a_client_that_left_ends_its_connection_quietly(client):
    table = make_table(client, start=False)
    room = client.app.state.hub.rooms[table["id"]]
    socket = LeavingSocket(table["seats"][0]["token"])
    errors = []

    async def serve():
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        await asyncio.wait_for(serve_connection(socket, room), 10)
        await asyncio.sleep(0.1)   # the sender task's end, had it failed, is reported by now

    client.portal.call(serve)
    assert socket.sent >= 1
    assert not room.connections
    assert not errors, errors
