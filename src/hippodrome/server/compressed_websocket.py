"""The websocket protocol ``hippodrome serve`` runs: uvicorn's (the websockets library's sans-I/O
implementation), with permessage-deflate done by ISA-L (Intel's storage acceleration library, through
the ``isal`` package) at its fastest level, each message deflated once for every connection that is
sent it.

Every message a table sends is a whole state of 5 to 35 KiB of JSON, deflated on the event loop,
one of the loop's largest costs under load. ISA-L's fastest level deflates a state in less than
half the time zlib-ng's level 1 takes, to fewer bytes (about a fifth of the text); zlib's own levels
take several times as long again (docs/benchmarks.md).

The server deflates each message on its own (``server_no_context_takeover``: its compressor starts
afresh for every message rather than carrying the last one's window): a state mostly repeats the
one before, but a window carried over could not be shared by the connections, and a browser's
inflater keeps no more than the 32 KiB window the server deflates in. The same text deflates to
the same bytes on every connection, and :class:`SharedDeflate` deflates a text once for all of
them (a state shared by a table's spectators, :mod:`hippodrome.server.views`): the rest are sent
the same frame (:data:`SHARED_FRAMES` texts kept, the latest). Browsers negotiate the extension
as before; the level, the library and the fresh start are the sender's choice alone (what
browsers inflate is standard deflate).

The protocol also offers the application a synchronous send (:meth:`WebSocketProtocol.send_now`,
in the scope's ``extensions`` under :data:`SEND_NOW`): a table tells a connection its new state in
the same step of the loop as the change was stored, instead of waking the connection's sender
task for a later step. It sends only where ASGI's ``send`` would not wait (the handshake done,
nothing closing, the socket's buffer below its high-water mark) and says so; otherwise the
application sends as usual. A connection reads a few messages ahead of the application
(:data:`READ_AHEAD`) rather than pausing its reading after each one.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from typing import Any, Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import CONT, CTRL_OPCODES, TEXT, Frame
from websockets.http11 import Request
from websockets.protocol import OPEN
from isal import isal_zlib

#: the LZ77 window of what the server sends (zlib's largest)
DEFLATE_WINDOW_BITS = 15
#: the window a client deflates its (small) messages in: uvicorn's setting
CLIENT_WINDOW_BITS = 12
#: ISA-L's level for every whole message the server sends (its fastest)
DEFLATE_LEVEL = isal_zlib.ISAL_BEST_SPEED
#: the websockets library's own deflate settings (zlib's), for what the server does not deflate
#: itself (a message in several frames, a connection that keeps its compressor's context): never
#: the case for what a table sends
DEFLATE_SETTINGS: dict[str, int] = {"memLevel": 8, "level": 1}
#: the key of :meth:`WebSocketProtocol.send_now` in a websocket scope's ``extensions``
SEND_NOW = "hippodrome.send_now"
#: deflated messages kept to be sent again to other connections (the latest)
SHARED_FRAMES = 256
#: messages a connection may have read ahead of the application before its reading pauses
READ_AHEAD = 4

#: (window bits, the message's bytes) -> its deflated bytes, least recently sent first
_deflated: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()
#: (how a connection frames, a text's id) -> the text and its frame (:func:`framed`), the latest last
_frames: OrderedDict[tuple[tuple[int, ...], int], tuple[bytes, bytes]] = OrderedDict()


def deflated(data: bytes, window_bits: int) -> bytes:
    """``data`` deflated afresh as permessage-deflate sends a whole message (RFC 7692 7.2.1: the
    stream flushed, its last four bytes left off), by ISA-L at :data:`DEFLATE_LEVEL`. One
    compressor a thread and window deflates every message, each ended by a full flush: what
    follows a full flush refers to nothing before it, so each message inflates on its own as a
    fresh compressor's would, without the cost of a compressor's state (hundreds of kilobytes)
    made and freed for every message."""
    encoders = _encoders.__dict__
    encoder = encoders.get(window_bits)
    if encoder is None:
        encoder = encoders[window_bits] = isal_zlib.compressobj(DEFLATE_LEVEL, isal_zlib.DEFLATED, -window_bits)
    out = encoder.compress(data) + encoder.flush(isal_zlib.Z_FULL_FLUSH)
    return out[:-4]


#: each thread's compressors (:func:`deflated`), by window
_encoders = threading.local()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate that deflates a whole message once for every connection it is sent to
    (each message deflated afresh: ``local_no_context_takeover``)."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES or frame.opcode is CONT or not frame.fin or not self.local_no_context_takeover:
            return super().encode(frame)
        key = (self.local_max_window_bits, bytes(frame.data))
        data = _deflated.get(key)
        if data is None:
            data = deflated(key[1], self.local_max_window_bits)
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
    """uvicorn's websocket protocol (``uvicorn.Config(ws=WebSocketProtocol)``), deflating by ISA-L
    at its fastest level, each message once for all the connections it is sent to."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: how this connection's frames are shared (:func:`shared_framing`; False: not known yet)
        self._framing: tuple[int, ...] | None | bool = False
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [deflate_factory()]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:   # the handshake was accepted: the application gets the scope
            scope.setdefault("extensions", {})[SEND_NOW] = self.send_now

    def send_receive_event_to_app(self) -> None:
        """A whole message for the application. uvicorn pauses reading after each one until the
        application asks for the next (two system calls a message, taking the socket out of the
        loop's selector and back); here reading pauses only once :data:`READ_AHEAD` messages wait,
        and resumes, as uvicorn's does, when the application has taken them all."""
        if self.read_paused or self.queue.qsize() + 1 >= READ_AHEAD:
            super().send_receive_event_to_app()
            return
        self.read_paused = True   # uvicorn's pause left out: it pauses only where it is not paused
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.initial_response is not None and self.close_sent:
            # a refusal answered in full (its status and body) ends the handshake: uvicorn would
            # otherwise log "ASGI callable returned without completing handshake" for each one
            self.handshake_complete = True

    def send_now(self, make_message: Callable[[], bytes | None]) -> bool:
        """Send ``make_message()`` (a text message's UTF-8) now, synchronously, where ASGI's
        ``send`` would not wait: True once written (or when ``make_message`` had nothing to send).
        False, without calling ``make_message``, while the handshake is under way, the connection
        closes or is gone, or the socket's buffer is full (the application then sends as usual)."""
        if (not self.writable.is_set() or self.disconnected or not self.handshake_complete or self.close_sent
                or self.initial_response is not None or self.transport.is_closing()):
            return False
        data = make_message()
        if data is None:
            return True
        conn = self.conn
        if conn.state is not OPEN or conn.expect_continuation_frame:   # closing after all: its reader ends it
            return False
        pending = conn.data_to_send()   # what the protocol has to send first (a pong), if anything
        if self._framing is False:   # the extensions are settled with the handshake
            self._framing = shared_framing(conn.extensions)
        frame = framed(data, conn.extensions, self._framing)
        self.transport.write(b"".join((*pending, frame)) if pending else frame)
        return True


def framed(data: bytes, extensions: list[Any], shared: tuple[int, ...] | None = None) -> bytes:
    """A text message (``data``: its UTF-8) as the bytes of a server's frame through
    ``extensions`` (a connection's negotiated ones): made once for every connection whose
    extensions frame alike (``shared``, :func:`shared_framing`; None: this connection's frames are
    its own), as a frame a server sends is neither masked nor (each message deflated afresh)
    dependent on the connection's past. A text shared by a table's spectators (the same ``bytes``
    object: it is found by its identity, its tens of kilobytes never hashed) is deflated and
    framed once (:data:`_frames`)."""
    if shared is None:
        return Frame(TEXT, data).serialize(mask=False, extensions=extensions)
    key = (shared, id(data))
    kept = _frames.get(key)
    if kept is not None and kept[0] is data:
        return kept[1]
    if shared:   # one SharedDeflate (shared_framing): its deflate, without its cache of texts
        frame = text_frame(deflated(data, shared[0]), True)
    else:
        frame = text_frame(data, False)
    _frames[key] = (data, frame)   # the text kept with its frame: its id is not another's meanwhile
    if len(_frames) > SHARED_FRAMES:
        _frames.popitem(last=False)
    return frame


def text_frame(data: bytes, compressed: bool) -> bytes:
    """A server's whole text frame of ``data`` (RFC 6455 5.2: FIN, RSV1 where permessage-deflate
    compressed it (RFC 7692 6), opcode 1; the length in 7, 16 or 64 bits; a server does not mask)."""
    head = 0x80 | (0x40 if compressed else 0) | TEXT.value
    length = len(data)
    if length < 126:
        return struct.pack("!BB", head, length) + data
    if length < 65536:
        return struct.pack("!BBH", head, 126, length) + data
    return struct.pack("!BBQ", head, 127, length) + data


def shared_framing(extensions: list[Any]) -> tuple[int, ...] | None:
    """What makes a connection's frames differ from another's (its deflate windows), or None
    where an extension keeps state from one frame to the next (its frames are its own)."""
    if not extensions:
        return ()
    if len(extensions) == 1 and isinstance(extensions[0], SharedDeflate) and extensions[0].local_no_context_takeover:
        return (extensions[0].local_max_window_bits,)
    return None


def untangle(protocol: Any) -> None:
    """Break the reference cycles a closed connection leaves, so that it is freed when its last
    task ends rather than at the next full collection (every 10 minutes in a server,
    ``server/collector.py``): its scope's ``send_now`` (a method of the protocol, held in the
    protocol's own scope), the websockets library's parser (a generator, suspended in its read
    of the next frame, holding the sans-I/O protocol that holds it) and the transport's read
    callback (a method of the transport, held by the transport). Without it a server kept memory
    for every reconnect until then (issue 37.8; bench/reconnects.py measures it)."""
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
