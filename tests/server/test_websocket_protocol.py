"""The websocket protocol `hippodrome serve` runs (hippodrome.server.websocket): uvicorn's, with
permessage-deflate at zlib's fastest level (issue #15: every state is deflated once per connection
on the event loop), negotiated with a client as before and read back intact."""

from __future__ import annotations

import asyncio
import json
import socket
import zlib

import uvicorn
import websockets

from hippodrome.server.app import create_app
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import TEXT, Frame

from hippodrome.server.websocket import DEFLATE_SETTINGS, WebSocketProtocol, deflate_factory


def test_the_servers_deflate_is_zlibs_fastest_level_in_its_largest_window():
    factory = deflate_factory()
    assert DEFLATE_SETTINGS["level"] == 1 and factory.compress_settings["level"] == 1
    assert factory.server_max_window_bits == 15 and factory.compress_settings["memLevel"] == 8
    assert factory.client_max_window_bits == 12
    text = json.dumps({"view": [{"square": n, "lane": n % 8} for n in range(800)]}).encode()
    fast = zlib.compressobj(wbits=-15, **DEFLATE_SETTINGS)
    assert len(fast.compress(text) + fast.flush(zlib.Z_SYNC_FLUSH)) < len(text) / 3


def test_a_client_negotiates_deflate_and_reads_a_table_through_the_protocol(tmp_path):
    """A server run as `serve` runs it (uvicorn, ws=WebSocketProtocol): a client that offers
    permessage-deflate gets it, and the lobby and a table's welcome read back intact."""
    app = create_app(str(tmp_path / "ws.sqlite3"), bot_delay=0, bot_workers=0)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws=WebSocketProtocol))

    async def play():
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            import urllib.request
            body = json.dumps({"game": "turfmaster-race", "setup": {"course": "oval", "horses": [
                {"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]}).encode()
            origin = f"http://127.0.0.1:{port}"
            request = urllib.request.Request(origin + "/api/tables", data=body, headers={
                "Content-Type": "application/json", "Origin": origin})
            table = json.loads(await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=30).read()))
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", origin=origin,
                                          compression="deflate") as ws:
                assert [type(e).__name__ for e in ws.protocol.extensions] == ["PerMessageDeflate"]
                await ws.send(json.dumps({"v": 1, "type": "join", "token": table["seats"][0]["token"]}))
                kinds = []
                while "state" not in kinds:
                    kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 30))["type"])
                return kinds
        finally:
            server.should_exit = True
            await serving

    kinds = asyncio.run(play())
    assert kinds[0] == "welcome" and kinds[-1] == "state"


def negotiated():
    """The server's deflate as a browser's offer (client_max_window_bits) negotiates it."""
    response, extension = deflate_factory().process_request_params([("client_max_window_bits", None)], [])
    return dict(response), extension


def test_a_message_is_deflated_once_for_every_connection_it_is_sent_to():
    """(#15) The server deflates each message afresh (server_no_context_takeover, negotiated), so a
    state sent to a table's spectators deflates to the same bytes on each connection: it is
    deflated once and the same frame goes to all; each client reads it back intact."""
    response, first = negotiated()
    _, second = negotiated()
    assert "server_no_context_takeover" in response
    states = [json.dumps({"state_id": n, "view": [{"square": s, "lane": (s * n) % 8} for s in range(600)]}).encode()
              for n in range(3)]
    readers = [PerMessageDeflate(True, False, 15, 12), PerMessageDeflate(True, False, 15, 12)]
    for text in states:
        sent = [extension.encode(Frame(TEXT, text)) for extension in (first, second)]
        assert sent[0].data is sent[1].data and sent[0].rsv1 and len(sent[0].data) < len(text) / 3
        assert [reader.decode(frame).data for reader, frame in zip(readers, sent)] == [text, text]
