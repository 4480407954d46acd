"""The server's gate: what a request must be before the server reads it.

* **Origin** (``OriginGuard``, an ASGI middleware): every POST and every websocket handshake
  that a browser sends from a page carries an ``Origin`` header. It passes when it is the
  server's own origin (the request's scheme with its ``Host`` header: the server's own pages) or
  one of the origins allowed with ``hippodrome serve --allow-origin URL``; any other site is
  refused with 403 before the request is read, so a page elsewhere on the web cannot create
  tables or play at one. A request without ``Origin`` (curl, a script) passes.
* **Content type**: a body is ``application/json`` (UTF-8), else 415.
* **Size**: a body is read in pieces and refused with 413 as soon as it passes its limit (a
  declared ``Content-Length`` over the limit is refused before reading anything).
* A refusal before the body is read whole (403, 413, 415) drops at most 1 MiB more of it (so that
  a client still sending gets the answer rather than a reset connection), answers and closes the
  connection (``Connection: close``): the rest of a longer body is never read.
* **JSON**: strict (``strict_json``), else 400.
"""

from __future__ import annotations

import asyncio
from typing import Any, Iterable
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from hippodrome.i18n import Message
from hippodrome.server.logs import refused
from hippodrome.server.localize import LobbyError, language_of, quoted
from hippodrome.server.strict_json import StrictJSONError, loads

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
DEFAULT_PORTS = {"http": 80, "https": 443}
#: a websocket's scheme as the page that opened it writes its own origin
PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
#: an answer given before the request's body was read whole ends the connection: the server would
#: otherwise read (and throw away) whatever the client goes on sending, to keep the connection
CLOSE = {"Connection": "close"}
#: what is read and dropped of a refused body before the answer (see :func:`drain`)
DRAIN_BYTES = 1024 * 1024
DRAIN_SECONDS = 2.0


# -- Origin ------------------------------------------------------------------------
def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, lower case, without a default port; None if
    ``url`` is not one (a path, a query or user info count as not one)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None \
            or parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    shown_port = "" if port is None or port == DEFAULT_PORTS[parts.scheme] else f":{port}"
    return f"{parts.scheme}://{host}{shown_port}"


def allowed_origins(urls: Iterable[str]) -> frozenset[str]:
    """The origins of ``--allow-origin`` values; ValueError naming a value that is not one."""
    origins = set()
    for url in urls:
        origin = origin_of(url)
        if origin is None:
            raise ValueError(Message("--allow-origin takes a site's origin such as {example}, not {value}",
                                     example="https://games.example:8443", value=quoted(url, 80)))
        origins.add(origin)
    return frozenset(origins)


def own_origin(connection: HTTPConnection) -> str | None:
    """The origin of the server's own pages as this request reached it (its Host header)."""
    host = connection.headers.get("host")
    scheme = PAGE_SCHEMES.get(connection.url.scheme)
    return origin_of(f"{scheme}://{host}") if host and scheme else None


def origin_allowed(connection: HTTPConnection, allowed: frozenset[str]) -> bool:
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    normalized = origin_of(origin)
    return normalized is not None and (normalized == own_origin(connection) or normalized in allowed)


def forbidden_origin(connection: HTTPConnection) -> LobbyError:
    origin = quoted(connection.headers.get("origin", ""), 100)
    return LobbyError(403, Message("requests from the site {origin} are refused: this server answers its own "
                                   "pages (start it with --allow-origin for another site)", origin=origin),
                      code="forbidden_origin", headers=CLOSE)


class OriginGuard:
    """Refuses POSTs (any unsafe method) and websocket handshakes from another site's pages."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset()):
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] not in SAFE_METHODS)
        if checked:
            connection = HTTPConnection(scope)
            if not origin_allowed(connection, self.allowed):
                error = forbidden_origin(connection)
                if scope["type"] == "websocket":
                    await refuse_websocket(WebSocket(scope, receive, send), error)
                else:
                    await drain(receive)
                    await error_response(connection, error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error_response(connection: HTTPConnection, error: LobbyError) -> JSONResponse:
    """A LobbyError as the lobby answers it, in the language of the request."""
    return JSONResponse(error.body(language_of(connection.cookies, connection.headers)), status_code=error.status,
                        headers=error.headers)


async def refuse_websocket(websocket: WebSocket, error: LobbyError) -> None:
    """Refuse a handshake with the error's HTTP status and JSON body (a plain 403 close where
    the server cannot send a response to a handshake); the log says so in one line."""
    address = websocket.client.host if websocket.client else "unknown"
    refused(address, f"websocket handshake to {websocket.url.path}: {error.status} {error.message}")
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(error_response(websocket, error))
    else:  # pragma: no cover - uvicorn and the test client both offer the extension
        await websocket.close(code=1008)


# -- the body ------------------------------------------------------------------------
def require_json_type(request: Request) -> None:
    """415 unless the request says its body is JSON (``application/json``, UTF-8 if a charset is named)."""
    given = request.headers.get("content-type")
    media, _, params = (given or "").partition(";")
    charset = next((value.strip().strip('"').lower() for name, _, value in
                    (param.partition("=") for param in params.split(";")) if name.strip().lower() == "charset"),
                   "utf-8")
    if media.strip().lower() == "application/json" and charset in ("utf-8", "utf8"):
        return
    if given is None:
        message = Message("send the body as JSON with the header {header}; this request names no content type",
                          header="Content-Type: application/json")
    else:
        message = Message("send the body as JSON with the header {header}, not {given}",
                          header="Content-Type: application/json", given=quoted(given, 80))
    raise LobbyError(415, message, code="unsupported_media_type", headers=CLOSE)


async def read_body(request: Request, limit: int) -> bytes:
    """The body, read piece by piece; 413 as soon as it is longer than ``limit`` bytes (after
    :func:`drain`, so that a body somewhat too long still gets its answer)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        if int(declared) <= limit + DRAIN_BYTES:
            await drain(request.receive)
        raise too_large(limit)
    body = bytearray()
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise LobbyError(400, Message("the request ended before its body did"), code="bad_request")
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if len(body) > limit:
            if more:
                await drain(request.receive)
            raise too_large(limit)
        if not more:
            return bytes(body)


async def drain(receive: Receive, bound: int = DRAIN_BYTES, seconds: float = DRAIN_SECONDS) -> None:
    """Read and drop what is left of a refused request's body, ``bound`` bytes and ``seconds`` at
    most. The answer closes the connection (``CLOSE``); closed with the body's rest unread, the
    connection is reset, and a client that is still sending may lose the answer with it (so
    servers linger: nginx's lingering close). A body endless or slower than that is cut off."""
    loop = asyncio.get_running_loop()
    deadline, read = loop.time() + seconds, 0
    while read <= bound:
        try:
            message = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            return
        if message["type"] != "http.request":
            return
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def too_large(limit: int) -> LobbyError:
    return LobbyError(413, Message("a table description is at most {n} bytes", n=limit), code="too_large",
                      headers=CLOSE)


async def json_object(request: Request, limit: int) -> dict[str, Any]:
    """A request's body: a strict JSON object of at most ``limit`` bytes (LobbyError otherwise)."""
    try:
        require_json_type(request)
    except LobbyError:
        await drain(request.receive)
        raise
    body = await read_body(request, limit)
    try:
        data = loads(body)
    except StrictJSONError as error:
        raise LobbyError(400, error.args[0], code="bad_request")
    if not isinstance(data, dict):
        raise LobbyError(400, Message("the body must be a JSON object"), code="bad_request")
    return data
