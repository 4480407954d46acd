"""Passkeys (issue 35.1): WebAuthn through the ``webauthn`` package, with a software authenticator
made here (an EC P-256 key, "none" attestation, as a browser's platform authenticator answers):
a signed-in person adds a passkey, then signs in with it anywhere; a passkey of another site, an
altered signature, an old or forged ceremony sign nobody in."""

from __future__ import annotations

import base64
import hashlib
import json

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from hippodrome.server import create_app
from hippodrome.server.accounts.sessions import COOKIE
from tests.server.test_accounts_security import settings, sign_up

ORIGIN = "http://testserver"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """A passkey holder: one key pair per site, a signature counter."""

    def __init__(self, rp_id: str = "testserver"):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = b"cred-" + hashlib.sha256(rp_id.encode()).digest()[:11]
        self.rp_id = rp_id
        self.count = 0
        self.user = None

    def client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin}).encode()

    def create(self, options: dict, origin: str = ORIGIN) -> dict:
        self.user = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        attested = bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id + cose
        auth_data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x45]) + self.count.to_bytes(4, "big") + attested
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(self.client_data("webauthn.create", options["challenge"], origin)),
                             "attestationObject": b64(cbor2.dumps({"fmt": "none", "attStmt": {},
                                                                   "authData": auth_data}))}}

    def get(self, options: dict, origin: str = ORIGIN) -> dict:
        self.count += 1
        auth_data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x05]) + self.count.to_bytes(4, "big")
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": self.user}}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, accounts=settings())) as test_client:
        yield test_client


def add_passkey(client, authenticator) -> dict:
    asked = client.post("/api/me/passkeys/options", json={}).json()
    assert asked["options"]["rp"]["id"] == "testserver" and asked["options"]["user"]["name"] == "Ana"
    return client.post("/api/me/passkeys", json={"ceremony": asked["ceremony"],
                                                 "credential": authenticator.create(asked["options"])})


def passkey_sign_in(client, authenticator, origin=ORIGIN, ceremony=None):
    asked = client.post("/api/session/passkey/options", json={}).json()
    return client.post("/api/session/passkey", json={"ceremony": ceremony or asked["ceremony"],
                                                     "credential": authenticator.get(asked["options"], origin)})


def test_a_passkey_added_signed_in_then_signs_in_with_a_new_session(client):
    sign_up(client)
    authenticator = Authenticator()
    added = add_passkey(client, authenticator)
    assert added.status_code == 201 and added.json() == {"passkeys": 1}
    before = client.cookies[COOKIE]
    client.delete("/api/session")
    assert client.get("/api/me").json() == {"name": None}
    signed = passkey_sign_in(client, authenticator)
    assert signed.status_code == 200 and signed.json() == {"name": "Ana"}
    assert signed.cookies[COOKIE] != before and client.get("/api/me").json() == {"name": "Ana"}   # a new session
    assert passkey_sign_in(client, authenticator).status_code == 200   # its count goes on


def test_adding_a_passkey_needs_a_session(client):
    assert client.post("/api/me/passkeys/options", json={}).status_code == 401


def test_what_signs_nobody_in(client):
    sign_up(client)
    authenticator = Authenticator()
    add_passkey(client, authenticator)
    client.delete("/api/session")
    unknown = passkey_sign_in(client, Authenticator(rp_id="evil.example"))   # another site's passkey
    assert unknown.status_code == 401 and "signs nobody in" in unknown.json()["detail"]
    assert passkey_sign_in(client, authenticator, origin="https://evil.example").status_code == 401
    forged = client.post("/api/session/passkey/options", json={}).json()["ceremony"]
    body, signature = forged.split(".")
    altered = signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")
    assert passkey_sign_in(client, authenticator, ceremony=f"{body}.{altered}").status_code == 401
    asked = client.post("/api/session/passkey/options", json={}).json()
    answer = authenticator.get(asked["options"])
    signed = unb64(answer["response"]["signature"])
    answer["response"]["signature"] = b64(signed[:-1] + bytes([signed[-1] ^ 1]))   # one bit changed
    assert client.post("/api/session/passkey", json={"ceremony": asked["ceremony"],
                                                     "credential": answer}).status_code == 401
    assert client.get("/api/me").json() == {"name": None}


def test_a_cross_site_passkey_request_is_refused(client):
    refused = client.post("/api/session/passkey/options", json={}, headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
