"""The websocket protocol ``hippodrome serve`` runs: uvicorn's (the websockets library's sans-I/O
implementation), with permessage-deflate at zlib's fastest level, each message deflated once for
every connection that is sent it.

Every message a table sends is a whole state of 5 to 35 KiB of JSON, deflated on the event loop. At
zlib's default level (6) that was one of the loop's largest costs under load (a late TurfMaster
state of 15 KiB took 0.8 ms; a Ready Set Bet state of 35 KiB 0.5 ms); level 1 takes a tenth to a
third of that for about 30% more bytes on the wire (still a fifth of the text).

The server deflates each message on its own (``server_no_context_takeover``: its compressor starts
afresh for every message rather than carrying the last one's window). With uvicorn's window of 4
KiB a message could only point into the last 4 KiB of the one before anyway, so the bytes on the
wire are the same (measured on 300 states of each game: 16% of the text either way for Ready Set
Bet, 19-20% for TurfMaster). The server's window is zlib's largest (32 KiB, what a browser's
inflater keeps anyway) with zlib's default memory level: a message deflates in four fifths of the
time it took in uvicorn's 4 KiB (zlib slides a small window along a 10-30 KiB state again and
again), to the same size (18.3% against 18.5% of the text on 36 states of both games, 2026-11-27).
The same text deflates to the same bytes on every connection,
and :class:`SharedDeflate` deflates a text once for all of them (a state shared by a table's
spectators, :mod:`hippodrome.server.views`): the rest are sent the same frame
(:data:`SHARED_FRAMES` texts kept, the latest). Browsers negotiate the extension as before; the
level and the fresh start are the sender's choice alone.

The protocol also offers the application a synchronous send (:meth:`WebSocketProtocol.send_now`,
in the scope's ``extensions`` under :data:`SEND_NOW`): a table tells a connection its new state in
the same step of the loop as the change was stored, instead of waking the connection's sender
task for a later step. It sends only where ASGI's ``send`` would not wait (the handshake done,
nothing closing, the socket's buffer below its high-water mark) and says so; otherwise the
application sends as usual.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.exceptions import InvalidState
from websockets.frames import CONT, CTRL_OPCODES, Frame
from websockets.http11 import Request

#: the LZ77 window of what the server sends (zlib's largest)
DEFLATE_WINDOW_BITS = 15
#: the window a client deflates its (small) messages in: uvicorn's setting
CLIENT_WINDOW_BITS = 12
#: zlib.compressobj's settings for what the server sends: zlib's default memory level, the fastest level
DEFLATE_SETTINGS: dict[str, int] = {"memLevel": 8, "level": 1}
#: the key of :meth:`WebSocketProtocol.send_now` in a websocket scope's ``extensions``
SEND_NOW = "hippodrome.send_now"
#: deflated messages kept to be sent again to other connections (the latest)
SHARED_FRAMES = 256

#: (window bits, the message's bytes) -> its deflated bytes, least recently sent first
_deflated: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate that deflates a whole message once for every connection it is sent to
    (each message deflated afresh: ``local_no_context_takeover``)."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES or frame.opcode is CONT or not frame.fin or not self.local_no_context_takeover:
            return super().encode(frame)
        key = (self.local_max_window_bits, bytes(frame.data))
        data = _deflated.get(key)
        if data is None:
            data = bytes(super().encode(frame).data)
            _deflated[key] = data
            if len(_deflated) > SHARED_FRAMES:
                _deflated.popitem(last=False)
        else:
            _deflated.move_to_end(key)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates permessage-deflate as the websockets library does (each message deflated afresh
    by the server), and deflates through :class:`SharedDeflate`."""

    def process_request_params(self, params: Any, accepted_extensions: Any) -> tuple[Any, PerMessageDeflate]:
        response, extension = super().process_request_params(params, accepted_extensions)
        return response, SharedDeflate(extension.remote_no_context_takeover, extension.local_no_context_takeover,
                                       extension.remote_max_window_bits, extension.local_max_window_bits,
                                       extension.compress_settings)


def deflate_factory() -> SharedDeflateFactory:
    return SharedDeflateFactory(server_no_context_takeover=True, server_max_window_bits=DEFLATE_WINDOW_BITS,
                                client_max_window_bits=CLIENT_WINDOW_BITS, compress_settings=dict(DEFLATE_SETTINGS))


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (``uvicorn.Config(ws=WebSocketProtocol)``), deflating at level 1,
    each message once for all the connections it is sent to."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [deflate_factory()]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:   # the handshake was accepted: the application gets the scope
            scope.setdefault("extensions", {})[SEND_NOW] = self.send_now

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.initial_response is not None and self.close_sent:
            # a refusal answered in full (its status and body) ends the handshake: uvicorn would
            # otherwise log "ASGI callable returned without completing handshake" for each one
            self.handshake_complete = True

    def send_now(self, make_text: Callable[[], str | None]) -> bool:
        """Send ``make_text()`` as a text message now, synchronously, where ASGI's ``send`` would
        not wait: True once written (or when ``make_text`` had nothing to send). False, without
        calling ``make_text``, while the handshake is under way, the connection closes or is gone,
        or the socket's buffer is full (the application then sends as usual)."""
        if (not self.writable.is_set() or self.disconnected or not self.handshake_complete or self.close_sent
                or self.initial_response is not None or self.transport.is_closing()):
            return False
        text = make_text()
        if text is None:
            return True
        try:
            self.conn.send_text(text.encode())
        except InvalidState:   # closing after all: its reader ends the connection
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def untangle(protocol: Any) -> None:
    """Break the reference cycles a closed connection leaves, so that it is freed when its last
    task ends rather than at the next full collection (every 10 minutes in a server,
    ``server/collector.py``): its scope's ``send_now`` (a method of the protocol, held in the
    protocol's own scope), the websockets library's parser (a generator, suspended in its read
    of the next frame, holding the sans-I/O protocol that holds it) and the transport's read
    callback (a method of the transport, held by the transport). A server kept about 2.4 MiB more per 1,000 reconnects until then (issue 37.8,
    bench/reconnects.py)."""
    scope = getattr(protocol, "scope", None)
    if scope is not None:
        scope.get("extensions", {}).pop(SEND_NOW, None)
    parser = getattr(getattr(protocol, "conn", None), "parser", None)
    if parser is not None:   # the websockets library's parser, a generator holding its protocol object
        try:
            parser.close()
        except RuntimeError:   # pragma: no cover - it would not stop
            pass
    transport = getattr(protocol, "transport", None)
    if transport is not None and transport.is_closing() and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = None   # asyncio's selector transport: read no more once closed
