"""What the accounts' routes share: the storage (its writes on the server's writer thread, its
reads in worker threads), the password hasher, the limits and the cookie's secret; and who a
request or a websocket is signed in as."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from starlette.requests import HTTPConnection

from hippodrome.core.registry import descriptions
from hippodrome.server.accounts import store
from hippodrome.server.accounts.limits import AccountLimits, Windows
from hippodrome.server.accounts.passwords import DEFAULT_COST, Cost, Passwords, name_key
from hippodrome.server.accounts.sessions import COOKIE, digest, session_id_of
from hippodrome.server.writer import StoreWriter


@dataclass(frozen=True)
class AccountSettings:
    """``create_app``'s settings for accounts: argon2id's cost and the sign-in limits."""

    cost: Cost = DEFAULT_COST
    limits: AccountLimits = field(default_factory=AccountLimits)


def reserved_names() -> frozenset[str]:
    """The names no account takes: every game's bot levels (each rated under its own name)."""
    return frozenset(name_key(bot.name) for description in descriptions() for bot in description.bots)


class Accounts:
    def __init__(self, storage: Any, writer: StoreWriter, settings: AccountSettings | None = None):
        settings = settings or AccountSettings()
        self.storage = storage
        self.writer = writer
        self.passwords = Passwords(settings.cost)
        self.windows = Windows(settings.limits)
        self.reserved = reserved_names()
        self._secret: str | None = None

    async def write(self, work: Callable[[store.Sql], Any]) -> Any:
        """``work(sql)`` in one transaction, on the writer's thread (in order with the tables' saves)."""
        return await self.writer.call(self.storage.write, work)

    async def read(self, work: Callable[[store.Sql], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, self.storage.read, work)

    async def in_thread(self, work: Callable[..., Any], *args: Any) -> Any:
        """CPU work off the event loop (a password's hash)."""
        return await asyncio.get_running_loop().run_in_executor(None, work, *args)

    async def secret(self) -> str:
        if self._secret is None:
            self._secret = await self.write(store.cookie_secret)
        return self._secret

    async def session_of(self, connection: HTTPConnection) -> str | None:
        """The session id of a request's cookie, when the server signed it (None otherwise)."""
        value = connection.cookies.get(COOKIE)
        if not value:
            return None
        return session_id_of(await self.secret(), value)

    async def account_of(self, connection: HTTPConnection) -> store.Account | None:
        """The account a request (or a websocket's handshake) is signed in as, if any."""
        session_id = await self.session_of(connection)
        if session_id is None:
            return None
        return await self.read(lambda sql: store.session_account(sql, digest(session_id), time.time()))


async def own_seat(connection: HTTPConnection, table_id: str) -> int | None:
    """The seat of ``table_id`` the account a websocket's handshake is signed in as holds (its
    first), so that a player's seats follow it to any device: a ``join`` without a token takes it."""
    app = (getattr(connection, "scope", None) or {}).get("app")   # (none: a socket outside an app)
    accounts: Accounts | None = getattr(app.state, "accounts", None) if app is not None else None
    account = await accounts.account_of(connection) if accounts is not None else None
    if account is None:
        return None
    held = await accounts.read(lambda sql: store.seats_held(sql, account.id, table_id))
    return held[0] if held else None
