"""Passkeys (WebAuthn, through the ``webauthn`` package), where the browser offers them:

* ``POST /api/me/passkeys/options`` (signed in): the options the browser's
  ``navigator.credentials.create`` takes, and a ``ceremony``; ``POST /api/me/passkeys``
  ``{"ceremony", "credential"}``: the new passkey kept (201 ``{"passkeys": n}``).
* ``POST /api/session/passkey/options``: the options ``navigator.credentials.get`` takes (any of
  the passkeys of this site: the browser lets its person choose), and a ``ceremony``;
  ``POST /api/session/passkey`` ``{"ceremony", "credential"}``: 200 ``{"name"}`` and a new session,
  or 401 in words (the same for any passkey that does not sign anyone in).

The ``ceremony`` is the challenge with what it is for, whom and until when, signed with the
database's secret: no process keeps it, so any process of the server checks the answer. The
relying party is the request's host, the origin the server's own (the Origin guard's). Each
sign-in counts the passkey's signatures (a cloned authenticator shows as a count going back).

Each route imports ``webauthn`` when it is first asked: a server (or a test's app) whose people
never use a passkey does not load it and its cryptography at start.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from hippodrome.i18n import Message, Plural
from hippodrome.server.accounts import store
from hippodrome.server.accounts.routes import address_of, start_session, too_many
from hippodrome.server.accounts.service import Accounts
from hippodrome.server.guard import json_object, own_origin
from hippodrome.server.localize import LobbyError
from hippodrome.server.quota import whole_seconds

#: how long the browser has to answer
CEREMONY_SECONDS = 120
MAX_CREDENTIAL = 16 * 1024
PASSKEY_FAILED = Message("this passkey signs nobody in here")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sealed(secret: str, payload: dict[str, Any]) -> str:
    body = _b64(json.dumps(payload, separators=(",", ":")).encode())
    return f"{body}.{_b64(hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest())}"


def opened(secret: str, token: Any, purpose: str) -> dict[str, Any] | None:
    """The ceremony's payload, if the server signed it for ``purpose`` and it has not expired."""
    if not isinstance(token, str) or len(token) > 2000 or token.count(".") != 1:
        return None
    body, signature = token.split(".")
    if not hmac.compare_digest(signature, _b64(hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest())):
        return None
    payload = json.loads(_unb64(body))
    return payload if payload.get("for") == purpose and payload.get("until", 0) > time.time() else None


def relying_party(request: Request) -> tuple[str, str]:
    """(rp_id, origin): the host the request reached, the server's own origin."""
    origin = own_origin(request)
    if origin is None or not request.url.hostname:
        raise LobbyError(400, Message("passkeys need the request's Host header"), code="bad_request")
    return request.url.hostname, origin


def passkeys_router(accounts: Accounts) -> APIRouter:
    router = APIRouter()

    async def ceremony(request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
        data = await json_object(request, MAX_CREDENTIAL)
        credential = data.get("credential")
        if not isinstance(credential, dict):
            raise LobbyError(400, Message("send {example}", example='{"ceremony": ..., "credential": {...}}'),
                             code="bad_request")
        return data, credential

    @router.post("/api/me/passkeys/options")
    async def add_options(request: Request):
        from webauthn import generate_registration_options, options_to_json
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor, ResidentKeyRequirement,
            UserVerificationRequirement,
        )
        account = await accounts.account_of(request)
        if account is None:
            raise LobbyError(401, Message("sign in first"), code="not_signed_in")
        rp_id, _origin = relying_party(request)
        known = await accounts.read(lambda sql: store.passkeys_of(sql, account.id))
        challenge = secrets.token_bytes(32)
        options = generate_registration_options(
            rp_id=rp_id, rp_name="hippodrome", user_name=account.name, user_id=account.id.encode(),
            challenge=challenge, authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=_unb64(c))
                                 for c in known])
        token = sealed(await accounts.secret(), {"for": "add", "account": account.id, "challenge": _b64(challenge),
                                                 "until": time.time() + CEREMONY_SECONDS})
        return {"options": json.loads(options_to_json(options)), "ceremony": token}

    @router.post("/api/me/passkeys", status_code=201)
    async def add(request: Request):
        from webauthn import verify_registration_response
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.exceptions import InvalidRegistrationResponse
        account = await accounts.account_of(request)
        if account is None:
            raise LobbyError(401, Message("sign in first"), code="not_signed_in")
        data, credential = await ceremony(request)
        payload = opened(await accounts.secret(), data.get("ceremony"), "add")
        if payload is None or payload["account"] != account.id:
            raise LobbyError(400, Message("this passkey was not asked for, or too long ago: try again"),
                             code="bad_ceremony")
        rp_id, origin = relying_party(request)
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=_unb64(payload["challenge"]),
                expected_rp_id=rp_id, expected_origin=origin)
        except (InvalidRegistrationResponse, ValueError, KeyError, TypeError):
            raise LobbyError(400, Message("the browser's passkey could not be checked: try again"), code="bad_passkey")
        credential_id = bytes_to_base64url(verified.credential_id)

        def keep(sql) -> int:
            store.add_passkey(sql, credential_id, account.id, bytes_to_base64url(verified.credential_public_key),
                              verified.sign_count, time.time())
            return len(store.passkeys_of(sql, account.id))
        return {"passkeys": await accounts.write(keep)}

    @router.post("/api/session/passkey/options")
    async def sign_in_options(request: Request):
        from webauthn import generate_authentication_options, options_to_json
        from webauthn.helpers.structs import UserVerificationRequirement
        rp_id, _origin = relying_party(request)
        challenge = secrets.token_bytes(32)
        options = generate_authentication_options(rp_id=rp_id, challenge=challenge,
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        token = sealed(await accounts.secret(), {"for": "sign_in", "challenge": _b64(challenge),
                                                 "until": time.time() + CEREMONY_SECONDS})
        return {"options": json.loads(options_to_json(options)), "ceremony": token}

    @router.post("/api/session/passkey")
    async def sign_in(request: Request):
        from webauthn import verify_authentication_response
        from webauthn.helpers.exceptions import InvalidAuthenticationResponse
        wait = accounts.windows.sign_ins.take(address_of(request))
        if wait is not None:
            raise too_many(Plural("too many sign-ins from your address; try again in {n} second",
                                  "too many sign-ins from your address; try again in {n} seconds",
                                  whole_seconds(wait)), wait)
        data, credential = await ceremony(request)
        payload = opened(await accounts.secret(), data.get("ceremony"), "sign_in")
        credential_id = credential.get("id")
        if payload is None or not isinstance(credential_id, str) or len(credential_id) > 1400:
            raise LobbyError(401, PASSKEY_FAILED, code="sign_in_failed")
        found = await accounts.read(lambda sql: store.passkey(sql, credential_id))
        if found is None:
            raise LobbyError(401, PASSKEY_FAILED, code="sign_in_failed")
        account, public_key, count = found
        rp_id, origin = relying_party(request)
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=_unb64(payload["challenge"]),
                expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=_unb64(public_key),
                credential_current_sign_count=count)
        except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError):
            raise LobbyError(401, PASSKEY_FAILED, code="sign_in_failed")
        await accounts.write(lambda sql: store.count_passkey_use(sql, credential_id, verified.new_sign_count))
        response = JSONResponse({"name": account.name})
        await start_session(accounts, request, response, account.id)
        return response

    return router
