"""How ``hippodrome serve`` runs the app: uvicorn with the server's own protocols and settings.

One place for what the command line and the tests that use real sockets both start: the HTTP and
websocket protocols with their time limits and their count of connections per address
(``server/limits.py``; the websocket's deflate: ``server/compressed_websocket.py``), the proxies whose
``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (``--forwarded-allow-ips``: none by
default, so that no client can claim another's address), the log (``server/logs.py``: uvicorn's
loggers write through the server's handler), at most 64 KiB a websocket message.
"""

from __future__ import annotations

from typing import Any, Iterable

import uvicorn

from hippodrome.server.limits import Limits, protocols, trusted_networks

#: the largest websocket message uvicorn takes (the app refuses more than 16 KiB in words)
WS_MAX_SIZE = 64 * 1024


def uvicorn_config(app: Any, limits: Limits = Limits(), forwarded_allow_ips: Iterable[str] = (),
                   **settings: Any) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` as ``serve`` runs it (``settings``: more of uvicorn's).
    ``forwarded_allow_ips``: the proxies (addresses or networks) whose forwarded headers are
    believed; ValueError naming a value that is not one."""
    proxies = trusted_networks(forwarded_allow_ips)
    http, ws = protocols(limits, proxies)
    return uvicorn.Config(app, log_level="warning", log_config=None, ws_max_size=WS_MAX_SIZE, http=http, ws=ws,
                          timeout_keep_alive=limits.keep_alive, proxy_headers=bool(proxies),
                          forwarded_allow_ips=[str(network) for network in proxies] or None, **settings)
