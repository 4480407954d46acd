"""The headers every answer carries, so that a browser holds the pages to what they are.

* ``Content-Security-Policy``: scripts, styles, images, fonts and connections from the server
  itself only; no inline script, no ``eval``, no inline style attribute (the pages set styles
  through the CSSOM: ``el(..., {style})`` in ``web/net.js``), no plugin; ``frame-ancestors
  'none'`` (and ``X-Frame-Options: DENY`` for older browsers): no other site frames a seat's page
  to trick a click.
* ``X-Content-Type-Options: nosniff``: a browser takes an answer only as what its type says.
* ``Referrer-Policy: no-referrer``: a link followed from a page tells nothing of the table.
* ``Strict-Transport-Security`` when the request came over TLS (``https``, said by the connection
  or by a proxy the server trusts, ``--forwarded-allow-ips``): the browser comes back over TLS only.

An ASGI middleware: it adds the headers to HTTP answers and to a refused websocket handshake's
answer, and never replaces a header an answer sets itself.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
#: two years, as the HSTS preload list asks
HSTS = "max-age=63072000"

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
TLS_SCHEMES = ("https", "wss")


class SecurityHeaders:
    """Adds :data:`HEADERS` (and HSTS over TLS) to every answer's start."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        extra = HEADERS + (((b"strict-transport-security", HSTS.encode()),)
                           if scope.get("scheme") in TLS_SCHEMES else ())

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
