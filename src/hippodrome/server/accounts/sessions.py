"""The session cookie: a random session id, signed with the database's secret (HMAC-SHA256),
sent ``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the request came over TLS. The database
keeps only the id's SHA-256 digest; every sign-in makes a new id (a session id planted before
the sign-in is never the signed-in one) and forgets the one the browser had."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "hippodrome_session"
#: how long a session lasts without signing in again
LIFETIME = 30 * 24 * 3600


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def digest(session_id: str) -> str:
    """What the database keeps of a session id."""
    return hashlib.sha256(session_id.encode("ascii")).hexdigest()


def _signature(secret: str, session_id: str) -> str:
    mac = hmac.new(secret.encode("ascii"), session_id.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def signed(secret: str, session_id: str) -> str:
    """The cookie's value: the id and its signature."""
    return f"{session_id}.{_signature(secret, session_id)}"


def session_id_of(secret: str, value: str | None) -> str | None:
    """The session id a cookie's value carries, if its signature is the server's (None otherwise)."""
    if not value or len(value) > 200 or value.count(".") != 1:
        return None
    session_id, signature = value.split(".")
    if not session_id.isascii() or not signature.isascii():
        return None
    return session_id if hmac.compare_digest(signature, _signature(secret, session_id)) else None


def over_tls(connection: HTTPConnection) -> bool:
    """Whether the request came over TLS (uvicorn sets the scheme from a trusted proxy's
    ``X-Forwarded-Proto``)."""
    return connection.url.scheme in ("https", "wss")


def set_cookie(response: Response, connection: HTTPConnection, value: str) -> None:
    response.set_cookie(COOKIE, value, max_age=LIFETIME, path="/", httponly=True, samesite="lax",
                        secure=over_tls(connection))


def clear_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=over_tls(connection))
