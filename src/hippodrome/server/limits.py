"""How long and how much a client may hold the server: time limits, connections per address,
messages per connection (issue 37.1, 37.3).

* **Time limits** (``LimitedH11``, uvicorn's HTTP/1.1 protocol with deadlines): a request's head
  must arrive whole within ``Limits.head`` seconds of the connection's start (or of the answer
  before it, on a kept-alive connection), its body within ``Limits.body`` seconds of its head; an
  idle kept-alive connection is closed after ``Limits.keep_alive`` seconds (uvicorn's own timer).
  A bare connection that sends nothing, half a request line, a body shorter than its
  ``Content-Length``: each is closed when its time is up, and the log says so in one line.
* **Connections per address** (``OpenConnections``): at most ``Limits.per_address`` connections
  open at once from one address (a websocket counts until it closes); one more is answered 429 and
  closed. The proxies named with ``--forwarded-allow-ips`` are not counted: behind a proxy the
  proxy limits its clients (the recipe's ``limit_conn``), and the quotas count each client.
* **A websocket** (``Gate``): its first ``join`` within ``Limits.join`` seconds, and at most
  ``Limits.messages`` messages in any window: past either, the client is told why in words (an
  ``error`` message in its language), the connection is closed (1008) and the log says so.

Every refusal is one line of the log with the client's address and the reason (``logs.refused``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from hippodrome.i18n import Message
from hippodrome.server.localize import problem
from hippodrome.server.logs import refused
from hippodrome.server.quota import Quota, SlidingWindow
from hippodrome.server.compressed_websocket import WebSocketProtocol

#: a person's page sends a few messages a second at most (a bet, a tap, a ping every 20 s)
MESSAGES = Quota(60, 10.0)


@dataclass(frozen=True)
class Limits:
    head: float = 10.0        # seconds for a request's head
    body: float = 30.0        # seconds for a request's body, from its head
    join: float = 10.0        # seconds for a websocket's first join
    keep_alive: float = 5.0   # seconds an idle kept-alive connection stays open
    per_address: int = 100    # connections open at once from one address
    messages: Quota = field(default=MESSAGES)   # messages on one websocket


# -- the proxies the server believes ---------------------------------------------------------
def trusted_networks(values: Iterable[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of ``--forwarded-allow-ips`` values (an address, or a network such as
    ``10.0.0.0/8``); ValueError naming a value that is neither."""
    networks = []
    for value in values:
        for part in str(value).split(","):
            if not part.strip():
                continue
            try:
                networks.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ValueError(Message("--forwarded-allow-ips takes the addresses of your proxies, such as "
                                         "{example}, not {value}", example="127.0.0.1 or 10.0.0.0/8",
                                         value=repr(part.strip()))) from None
    return tuple(networks)


def is_trusted(address: str, networks: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


# -- connections per address -----------------------------------------------------------------
class OpenConnections:
    """The connections open now, by client address; a trusted proxy's are not counted."""

    def __init__(self, most: int, proxies: tuple = ()):
        self.most = most
        self.proxies = proxies
        self.by_address: dict[str, int] = {}
        self.address_of: dict[Any, str] = {}   # transport -> its address

    def open(self, transport: Any, address: str) -> int | None:
        """Count ``transport`` (None), or refuse it: how many are open from ``address`` already."""
        if is_trusted(address, self.proxies):
            return None
        count = self.by_address.get(address, 0)
        if count >= self.most:
            return count
        self.by_address[address] = count + 1
        self.address_of[transport] = address
        return None

    def close(self, transport: Any) -> None:
        address = self.address_of.pop(transport, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s")


def protocols(limits: Limits, proxies: tuple = ()) -> tuple[type, type]:
    """uvicorn's HTTP and websocket protocol classes with ``limits``, sharing one count of the
    connections open (``proxies``: the trusted proxies' networks, not counted)."""
    connections = OpenConnections(limits.per_address, proxies)

    class LimitedWebSocket(WebSocketProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            connections.close(self.transport)
            super().connection_lost(exc)

    class LimitedH11(H11Protocol):
        """uvicorn's HTTP/1.1 with a deadline for each request's head and body."""

        deadline: asyncio.TimerHandle | None = None
        waiting_for: str = ""
        upgraded = False   # the connection is a websocket's now

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else "unknown"
            count = connections.open(transport, address)
            if count is not None:
                refused(address, f"{count} connections open from this address already (at most {connections.most})")
                text = b"too many connections from your address; close some and try again"
                transport.write(TOO_MANY % (len(text), text))
                transport.close()
                return
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            connections.close(self.transport)
            self._unwatch()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def send_400_response(self, msg: str) -> None:
            address = self.client[0] if self.client else "unknown"
            refused(address, "not an HTTP/1.1 request; answered 400 and closed")
            super().send_400_response(msg)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._unwatch()   # the websocket's own limits take over (Gate)
            self.upgraded = True
            super().handle_websocket_upgrade(event)

        def _watch(self) -> None:
            """Arm the deadline of what the connection waits for now: a head, a body, or nothing
            (the app answers)."""
            if self.upgraded or self.transport is None or self.transport.is_closing():
                return
            state = self.conn.their_state
            waiting = "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else ""
            if waiting == self.waiting_for:
                return
            self._unwatch()
            self.waiting_for = waiting
            if waiting:
                seconds = limits.head if waiting == "head" else limits.body
                self.deadline = self.loop.call_later(seconds, self._too_slow, waiting, seconds)

        def _unwatch(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline, self.waiting_for = None, ""

        def _too_slow(self, waiting: str, seconds: float) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            address = self.client[0] if self.client else "unknown"
            refused(address, f"the request's {waiting} did not arrive within {seconds:g} s; connection closed")
            self.transport.close()

    return LimitedH11, LimitedWebSocket


class _SaidWithTheAddress(logging.Filter):
    """uvicorn's own line for a request it cannot parse names no client; ``LimitedH11`` says it
    with the address instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid HTTP request received."


logging.getLogger("uvicorn.error").addFilter(_SaidWithTheAddress())


# -- a websocket's messages ---------------------------------------------------------------------
class Gate:
    """What one websocket may send: its first ``join`` in time, then messages at a bounded rate.
    ``receive()`` is the websocket's; past a limit the client is told (``say``), the connection
    closed, and a disconnect returned."""

    def __init__(self, websocket: Any, limits: Limits, connection: Any,
                 say: Callable[[dict[str, Any]], Awaitable[None]]):
        self.websocket, self.limits, self.connection, self.say = websocket, limits, connection, say
        self.window = SlidingWindow(limits.messages)
        self.started = asyncio.get_running_loop().time()

    async def receive(self) -> dict[str, Any]:
        if self.connection.joined:
            message = await self.websocket.receive()
        else:
            left = self.started + self.limits.join - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(self.websocket.receive(), timeout=max(left, 0.0))
            except asyncio.TimeoutError:
                return await self._close(f"no join within {self.limits.join:g} s", "join_timeout", Message(
                    "a connection joins its table within {n} seconds of opening; this one is closed",
                    n=f"{self.limits.join:g}"))
        if message["type"] == "websocket.receive" and self.window.take("") is not None:
            quota = self.limits.messages
            return await self._close(f"over {quota.count} messages in {quota.seconds:g} s", "too_many", Message(
                "too many messages on this connection (at most {count} in {seconds} s); it is closed",
                count=quota.count, seconds=f"{quota.seconds:g}"))
        return message

    async def _close(self, reason: str, code: str, message: Message) -> dict[str, Any]:
        client = self.websocket.client
        refused(client.host if client else "unknown", f"websocket {self.websocket.url.path}: {reason}; closed")
        try:
            await self.say(problem(self.connection.lang, code, message))
            await self.websocket.close(code=1008)
        except Exception:   # the client left meanwhile
            pass
        return {"type": "websocket.disconnect", "code": 1008}


def limits_for(websocket: Any) -> Limits:
    """The limits of the app serving ``websocket`` (``create_app(limits=...)``)."""
    app = (getattr(websocket, "scope", None) or {}).get("app")
    return getattr(getattr(app, "state", None), "limits", None) or Limits()
