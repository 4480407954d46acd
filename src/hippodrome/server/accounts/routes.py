"""The accounts' API (docs/accounts.md):

* ``POST /api/accounts`` ``{"name", "password"}``: 201 ``{"name"}`` and a session cookie; a taken
  name 409; a bad name or a weak password 400, in words.
* ``POST /api/session`` ``{"name", "password"}``: 200 ``{"name"}`` and a new session cookie; an
  unknown name and a wrong password get the same 401, in the same words, after the same work (a
  dummy hash is checked for an unknown name); 429 with ``Retry-After`` past the limits.
* ``DELETE /api/session``: signs out (the session is forgotten, the cookie cleared).
* ``GET /api/me``: ``{"name"}`` of the signed-in person (``null`` for a guest).
* ``DELETE /api/me`` ``{"password"}``: deletes the account (its name, sessions and ratings; its
  past games stay, its seats now "a former player").
* ``POST /api/me/seats`` ``{"table", "token"}``: the signed-in person now holds the seat of that
  token (a guest who signs up keeps the seats of this browser).

Every POST and DELETE passes the Origin guard (a page of another site is refused) and, being
``application/json``, cannot be sent by a plain cross-site form; the cookie is ``SameSite=Lax``.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from hippodrome.i18n import Message, Plural
from hippodrome.server.accounts import store
from hippodrome.server.accounts.passwords import clean_name, name_key, name_problem, password_problem
from hippodrome.server.accounts.service import Accounts
from hippodrome.server.accounts.sessions import LIFETIME, clear_cookie, digest, new_session_id, set_cookie, signed
from hippodrome.server.guard import json_object
from hippodrome.server.localize import LobbyError
from hippodrome.server.quota import whole_seconds
from hippodrome.server.storage import hash_token

MAX_BODY = 4 * 1024
#: the one answer to a sign-in that fails, whichever of the name or the password is wrong
SIGN_IN_FAILED = Message("the name or the password is wrong")
NOT_SIGNED_IN = Message("sign in first")


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def too_many(message: Message, wait: float) -> LobbyError:
    return LobbyError(429, message, code="too_many", headers={"Retry-After": str(whole_seconds(wait))})


def text_field(data: dict[str, Any], key: str) -> Any:
    value = data.get(key)
    return value if isinstance(value, str) else None


async def start_session(accounts: Accounts, request: Request, response: Response, account_id: str) -> None:
    """A new session for the account (and the browser's old one forgotten): its cookie set."""
    old = await accounts.session_of(request)
    session_id, now = new_session_id(), time.time()

    def write(sql: store.Sql) -> None:
        if old is not None:
            store.delete_session(sql, digest(old))
        store.create_session(sql, digest(session_id), account_id, now, now + LIFETIME)
    await accounts.write(write)
    set_cookie(response, request, signed(await accounts.secret(), session_id))


def accounts_router(accounts: Accounts) -> APIRouter:
    router = APIRouter()
    windows = accounts.windows

    @router.post("/api/accounts", status_code=201)
    async def sign_up(request: Request):
        data = await json_object(request, MAX_BODY)
        name, password = data.get("name"), data.get("password")
        problem = name_problem(name, accounts.reserved)
        if problem is not None:
            raise LobbyError(400, problem, code="bad_name")
        name = clean_name(name)
        problem = password_problem(password, name)
        if problem is not None:
            raise LobbyError(400, problem, code="weak_password")
        wait = windows.sign_ups.take(address_of(request))
        if wait is not None:
            raise too_many(Plural("too many new accounts from your address; try again in {n} second",
                                  "too many new accounts from your address; try again in {n} seconds",
                                  whole_seconds(wait)), wait)
        password_hash = await accounts.in_thread(accounts.passwords.hash, password)
        account_id = secrets.token_hex(8)
        made = await accounts.write(lambda sql: store.create_account(sql, account_id, name, name_key(name),
                                                                     password_hash, time.time()))
        if not made:
            windows.sign_ups.give_back(address_of(request))
            raise LobbyError(409, Message("the name {name} is taken; choose another", name=name), code="name_taken")
        response = JSONResponse({"name": name}, status_code=201)
        await start_session(accounts, request, response, account_id)
        return response

    @router.post("/api/session")
    async def sign_in(request: Request):
        data = await json_object(request, MAX_BODY)
        name, password = text_field(data, "name"), text_field(data, "password")
        if name is None or password is None or len(name) > 200 or len(password) > 1000:
            raise LobbyError(400, Message("send {example}", example='{"name": ..., "password": ...}'),
                             code="bad_request")
        key = name_key(name)
        wait = windows.sign_ins.take(address_of(request))
        if wait is not None:
            raise too_many(Plural("too many sign-ins from your address; try again in {n} second",
                                  "too many sign-ins from your address; try again in {n} seconds",
                                  whole_seconds(wait)), wait)
        wait = windows.failures.wait(key)
        if wait is not None:
            raise too_many(Plural("too many failed sign-ins for this name; try again in {n} second",
                                  "too many failed sign-ins for this name; try again in {n} seconds",
                                  whole_seconds(wait)), wait)
        account = await accounts.read(lambda sql: store.account_named(sql, key))
        stored = account.password_hash if account is not None else None
        if not await accounts.in_thread(accounts.passwords.verify, stored, password):
            windows.failures.take(key)
            raise LobbyError(401, SIGN_IN_FAILED, code="sign_in_failed")
        response = JSONResponse({"name": account.name})
        await start_session(accounts, request, response, account.id)
        return response

    @router.delete("/api/session", status_code=204)
    async def sign_out(request: Request):
        session_id = await accounts.session_of(request)
        if session_id is not None:
            await accounts.write(lambda sql: store.delete_session(sql, digest(session_id)))
        response = Response(status_code=204)
        clear_cookie(response, request)
        return response

    async def signed_in(request: Request) -> store.Account:
        account = await accounts.account_of(request)
        if account is None:
            raise LobbyError(401, NOT_SIGNED_IN, code="not_signed_in")
        return account

    @router.get("/api/me")
    async def me(request: Request):
        account = await accounts.account_of(request)
        return {"name": account.name if account else None}

    @router.delete("/api/me", status_code=204)
    async def delete_me(request: Request):
        account = await signed_in(request)
        password = text_field(await json_object(request, MAX_BODY), "password")
        if password is None or not await accounts.in_thread(accounts.passwords.verify, account.password_hash,
                                                             password[:1000]):
            raise LobbyError(403, Message("the password is wrong: the account is kept"), code="wrong_password")
        await accounts.write(lambda sql: store.delete_account(sql, account.id))
        response = Response(status_code=204)
        clear_cookie(response, request)
        return response

    @router.post("/api/me/seats")
    async def claim(request: Request):
        account = await signed_in(request)
        data = await json_object(request, MAX_BODY)
        table, token = text_field(data, "table"), text_field(data, "token")
        if table is None or token is None or len(table) > 100 or len(token) > 200:
            raise LobbyError(400, Message("send {example}", example='{"table": ..., "token": ...}'),
                             code="bad_request")
        seat = await accounts.write(lambda sql: store.claim_seat(sql, table, hash_token(token), account.id))
        if seat is None:
            raise LobbyError(404, Message("this link holds no seat you can keep at this table"), code="not_found")
        return {"table": table, "seat": seat}

    return router
