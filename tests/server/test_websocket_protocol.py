"""The websocket protocol `hippodrome serve` runs (hippodrome.server.compressed_websocket): uvicorn's, with
permessage-deflate by ISA-L at its fastest level (issue #15: every state is deflated on the event
loop), negotiated with a client as before and read back intact by a standard inflater."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.request
import zlib

import pytest
import uvicorn
import websockets

from hippodrome.server import jsonpatch
from hippodrome.server.app import create_app
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import TEXT, Frame

from isal import isal_zlib

from hippodrome.server.compressed_websocket import (DEFLATE_LEVEL, DEFLATE_SETTINGS, READ_AHEAD, SharedDeflate,
                                                    WebSocketProtocol, deflate_factory, deflated, framed,
                                                    shared_framing, text_frame)


def test_the_servers_deflate_is_the_fastest_level_in_the_largest_window():
    factory = deflate_factory()
    assert DEFLATE_LEVEL == isal_zlib.ISAL_BEST_SPEED
    assert factory.server_max_window_bits == 15 and factory.server_no_context_takeover
    assert factory.client_max_window_bits == 12
    # what the websockets library deflates itself (never a table's message): zlib's fastest level
    assert factory.compress_settings == {"memLevel": 8, "level": 1} == DEFLATE_SETTINGS


def test_a_message_deflated_by_isal_inflates_with_zlib_as_a_browser_would():
    """RFC 7692: the sync flush's last four bytes left off, the receiver puts them back."""
    text = json.dumps({"view": [{"square": n, "lane": n % 8} for n in range(800)]}).encode()
    data = deflated(text, 15)
    assert len(data) < len(text) / 3 and not data.endswith(b"\x00\x00\xff\xff")
    assert zlib.decompressobj(wbits=-15).decompress(data + b"\x00\x00\xff\xff") == text


def test_each_message_of_one_compressor_inflates_on_its_own():
    """The compressor a thread keeps ends every message with a full flush: a browser that joins
    late, or a connection sent only every other state, inflates each message with a fresh
    inflater (no context taken over), whatever was deflated before it."""
    texts = [json.dumps({"state_id": n, "history": [{"horse": h, "to": n * h % 97} for h in range(n * 7)]}).encode()
             for n in range(1, 40)]
    frames = [deflated(text, 15) for text in texts]
    for text, data in zip(texts, frames):
        assert zlib.decompressobj(wbits=-15).decompress(data + b"\x00\x00\xff\xff") == text
    # and the same text deflates to the same bytes, whatever came before (what sharing relies on)
    assert deflated(texts[5], 15) == frames[5]
    # as the websockets library reads it (a client's permessage-deflate)
    shared = SharedDeflate(False, True, 15, 15, dict(DEFLATE_SETTINGS))
    frame = shared.encode(Frame(TEXT, text))
    assert frame.rsv1 and PerMessageDeflate(True, False, 15, 15).decode(frame).data == text


def serve_as_serve_does(app, client):
    """Run ``client(origin, table)`` against ``app`` served as `serve` serves it (uvicorn,
    ws=WebSocketProtocol) on a free loopback port, with a TurfMaster race of a person (Ana) and a
    random bot made first; its answer."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws=WebSocketProtocol))

    async def run():
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            body = json.dumps({"game": "turfmaster-race", "setup": {"course": "oval", "horses": [
                {"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]}).encode()
            origin = f"http://127.0.0.1:{port}"
            request = urllib.request.Request(origin + "/api/tables", data=body, headers={
                "Content-Type": "application/json", "Origin": origin})
            table = json.loads(await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=30).read()))
            return await client(origin, table)
        finally:
            server.should_exit = True
            await serving
    return asyncio.run(run())


def connect(origin: str, table: dict):
    return websockets.connect(origin.replace("http", "ws", 1) + f"/ws/tables/{table['id']}", origin=origin,
                              compression="deflate")


def test_a_client_negotiates_deflate_and_reads_a_table_through_the_protocol(tmp_path):
    """A server run as `serve` runs it: a client that offers permessage-deflate gets it, and the
    lobby and a table's welcome read back intact."""
    async def client(origin, table):
        async with connect(origin, table) as ws:
            assert [type(e).__name__ for e in ws.protocol.extensions] == ["PerMessageDeflate"]
            await ws.send(json.dumps({"v": 1, "type": "join", "token": table["seats"][0]["token"]}))
            kinds = []
            while "state" not in kinds:
                kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 30))["type"])
            return kinds

    kinds = serve_as_serve_does(create_app(str(tmp_path / "ws.sqlite3"), bot_delay=0, bot_workers=0), client)
    assert kinds[0] == "welcome" and kinds[-1] == "state"


def test_states_go_out_at_once_in_order_to_every_connection(tmp_path):
    """(#15) Under `serve`'s protocol a stored change is sent to each connection in the step of the
    loop it was told in (``send_now``), not by waking the connection's sender task: a person plays a
    race against a bot while a spectator and a patch-reading spectator watch. Each sees the states
    in order and ends on the table's last state; most states went out that way."""
    app = create_app(str(tmp_path / "ws.sqlite3"), bot_delay=0, bot_workers=0)

    async def watch(ws, patches, seen):
        await ws.send(json.dumps({"v": 1, "type": "join", "patches": patches}))
        state = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "state":
                state = message
            elif message["type"] == "patch":
                state = jsonpatch.apply(state, message["ops"])
            else:
                continue
            seen.append(state)

    async def client(origin, table):
        room = app.state.hub.rooms[table["id"]]
        watched: tuple[list, list] = ([], [])
        async with connect(origin, table) as person, connect(origin, table) as plain, \
                connect(origin, table) as patched:
            watchers = [asyncio.ensure_future(watch(ws, patches, seen))
                        for ws, patches, seen in ((plain, False, watched[0]), (patched, True, watched[1]))]
            await person.send(json.dumps({"v": 1, "type": "join", "token": table["seats"][0]["token"]}))
            acted = 0
            while True:
                message = json.loads(await asyncio.wait_for(person.recv(), 30))
                pending = message.get("decision") if message["type"] == "state" else None
                if message["type"] == "state" and message.get("status") == "waiting":
                    await person.send(json.dumps({"v": 1, "type": "ready"}))
                elif pending and pending.get("seat") == 0:
                    if acted == 12:   # the table waits for her now: nothing moves any more
                        break
                    await person.send(json.dumps({"v": 1, "type": "act", "state_id": message["state_id"],
                                                  "action": pending["options"][0]}))
                    acted += 1
            await room.runner.until_stored()
            last = room.runner.stored_state_id

            async def caught_up():
                while any(not seen or seen[-1]["state_id"] < last for seen in watched):
                    for watcher in watchers:
                        if watcher.done():
                            watcher.result()   # a watcher that failed: its error
                    await asyncio.sleep(0.01)
            try:
                await asyncio.wait_for(caught_up(), 30)
            finally:
                for watcher in watchers:
                    watcher.cancel()
            return watched, [c.pushed for c in room.connections], room.runner.stored_state_id, \
                room.views.snapshot(None, "en").text

    (plain, patched), pushed, last, text = serve_as_serve_does(app, client)
    for seen in (plain, patched):
        ids = [state["state_id"] for state in seen]
        assert ids == sorted(ids) and ids[-1] == last
    assert json.loads(text)["view"] == plain[-1]["view"] == patched[-1]["view"]
    assert sum(pushed) > 12 and min(pushed) > 0


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


def test_a_text_sent_to_several_connections_is_framed_once_and_read_back_by_each():
    """(#32.9) send_now writes a shared text's frame, made once for the connections with the same
    extensions: deflated where deflate was negotiated, plain where not; each reads it back."""
    from websockets.frames import Frame as Read
    from websockets.streams import StreamReader

    _, first = negotiated()
    _, second = negotiated()
    text = json.dumps({"state_id": 7, "view": [{"square": s, "lane": s % 8} for s in range(600)]}).encode()
    assert framed(text, [first], shared_framing([first])) is framed(text, [second], shared_framing([second]))
    for size in (0, 100, 125, 126, 65535, 65536, 200_000):   # the three lengths of a frame's length
        raw = ("x" * size).encode()
        assert text_frame(raw, False) == Frame(TEXT, raw).serialize(mask=False)
    deflated_frames = [framed(text, [extension], shared_framing([extension])) for extension in (first, second)]
    plain = framed(text, [], shared_framing([]))
    assert shared_framing([first]) == (15,) and shared_framing([]) == ()
    assert shared_framing([PerMessageDeflate(False, False, 15, 15)]) is None   # a window kept: its own frames
    assert deflated_frames[0] is deflated_frames[1] and len(deflated_frames[0]) < len(text) / 3
    for data, extensions in ((deflated_frames[0], [PerMessageDeflate(True, False, 15, 12)]), (plain, [])):
        reader = StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        parser = Read.parse(reader.read_exact, mask=False, extensions=extensions)
        with pytest.raises(StopIteration) as done:   # the whole frame was there: parsed at once
            next(parser)
        assert done.value.value.data == text


class CountingTransport:
    def __init__(self):
        self.calls = []

    def pause_reading(self):
        self.calls.append("pause")

    def resume_reading(self):
        self.calls.append("resume")


def test_reading_pauses_only_once_messages_wait_unread_and_resumes_when_all_are_read():
    """uvicorn pauses a connection's reading after every message (two system calls each); the
    server's protocol reads up to READ_AHEAD messages ahead of the application, pauses there, and
    resumes once the application has taken them all, in order."""
    async def scenario():
        protocol = object.__new__(WebSocketProtocol)   # the reading side alone: no socket, no handshake
        protocol.queue, protocol.read_paused, protocol.close_sent = asyncio.Queue(), False, False
        protocol.transport, protocol.curr_msg_data_type = CountingTransport(), "text"
        calls = protocol.transport.calls

        def arrives(n):
            protocol.frames = [f'{{"n": {n}}}'.encode()]
            protocol.send_receive_event_to_app()

        for n in range(READ_AHEAD - 1):
            arrives(n)
        assert calls == [] and not protocol.read_paused
        assert (await protocol.receive())["text"] == '{"n": 0}' and calls == []
        arrives(READ_AHEAD - 1)
        arrives(READ_AHEAD)
        assert calls == ["pause"] and protocol.read_paused
        read = [json.loads((await protocol.receive())["text"])["n"] for _ in range(READ_AHEAD)]
        assert read == list(range(1, READ_AHEAD + 1)) and calls == ["pause", "resume"]
        assert not protocol.read_paused
    asyncio.run(scenario())
