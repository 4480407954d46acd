"""The websocket protocol ``hippodrome serve`` runs: uvicorn's (the websockets library's sans-I/O
implementation), with permessage-deflate at zlib's fastest level.

Every message a table sends is a whole state of 5 to 35 KiB of JSON, deflated once per connection
on the event loop. At zlib's default level (6) that was one of the loop's largest costs under load
(a late TurfMaster state of 15 KiB took 0.8 ms; a Ready Set Bet state of 35 KiB 0.5 ms); level 1
takes a tenth to a third of that for about 30% more bytes on the wire (still a fifth of the text).
The window and memory settings are uvicorn's own. Browsers negotiate the extension as before: the
level is the sender's choice alone.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

#: the LZ77 window both ends use (uvicorn's setting)
DEFLATE_WINDOW_BITS = 12
#: zlib.compressobj's settings for what the server sends: uvicorn's memory level, the fastest level
DEFLATE_SETTINGS: dict[str, int] = {"memLevel": 5, "level": 1}


def deflate_factory() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(server_max_window_bits=DEFLATE_WINDOW_BITS,
                                          client_max_window_bits=DEFLATE_WINDOW_BITS,
                                          compress_settings=dict(DEFLATE_SETTINGS))


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (``uvicorn.Config(ws=WebSocketProtocol)``), deflating at level 1."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [deflate_factory()]
