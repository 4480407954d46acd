"""How ``hippodrome serve`` runs the app: uvicorn with the server's own protocols and settings.

One place for what the command line and the tests that use real sockets both start: the websocket
protocol (``server/websocket.py``), the log (``server/logs.py``: uvicorn's loggers write through
the server's handler), at most 64 KiB a websocket message.
"""

from __future__ import annotations

from typing import Any

import uvicorn

from hippodrome.server.websocket import WebSocketProtocol

#: the largest websocket message uvicorn takes (the app refuses more than 16 KiB in words)
WS_MAX_SIZE = 64 * 1024


def uvicorn_config(app: Any, **settings: Any) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` as ``serve`` runs it (``settings``: more of uvicorn's)."""
    return uvicorn.Config(app, log_level="warning", log_config=None, ws_max_size=WS_MAX_SIZE,
                          ws=WebSocketProtocol, **settings)
