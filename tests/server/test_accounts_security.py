"""Accounts and sessions (issue 35.1 and 35.7): sign up, sign in and out, and the attacks each
promise stands against: session fixation, the cookie's flags, a cross-site POST, guessing
passwords (limits per address and per name), account enumeration, passwords in logs or records,
a deleted account's name left behind."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from hippodrome.server import create_app
from hippodrome.server.accounts.limits import AccountLimits
from hippodrome.server.accounts.passwords import Cost
from hippodrome.server.accounts.service import AccountSettings
from hippodrome.server.accounts.sessions import COOKIE
from hippodrome.server.quota import Quota
from tests.server.conftest import join, make_table

#: real argon2id, at a cost a test can afford (the server's default is RFC 9106's)
CHEAP = Cost(time=1, memory=8 * 1024, lanes=1)
PASSWORD = "a long horse-race phrase 7"
ELSEWHERE = {"Origin": "https://evil.example"}


def settings(**limits) -> AccountSettings:
    return AccountSettings(cost=CHEAP, limits=AccountLimits(**limits))


@pytest.fixture
def app(tmp_path):
    return create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, accounts=settings())


@pytest.fixture
def client(app):
    with TestClient(app) as test_client:
        yield test_client


def sign_up(client, name="Ana", password=PASSWORD):
    return client.post("/api/accounts", json={"name": name, "password": password})


def sign_in(client, name="Ana", password=PASSWORD, **kw):
    return client.post("/api/session", json={"name": name, "password": password}, **kw)


def test_sign_up_answers_the_name_and_signs_in(client):
    made = sign_up(client, name="  Ana   Lía ")
    assert made.status_code == 201 and made.json() == {"name": "Ana Lía"}
    assert client.get("/api/me").json() == {"name": "Ana Lía"}


@pytest.mark.parametrize("name, words", [
    ("A", "2 to 24 characters"), ("x" * 25, "2 to 24 characters"), ("Ana\nBo", "letters and digits"),
    ("<script>", "letters and digits"), ("-ana", "starts with a letter"), ("Tactical", "belongs to one of the bots"),
    (7, "a name is text")])
def test_a_bad_name_is_refused_in_words_and_nothing_is_made(client, name, words):
    refused = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert refused.status_code == 400 and words in refused.json()["detail"]
    assert refused.json()["error"] == "bad_name" and COOKIE not in refused.cookies


@pytest.mark.parametrize("password, words", [
    ("short", "at least 10 characters"), ("aaaaaaaaaaaaaa", "too easy to guess"), ("password123", "too easy"),
    ("my name is ana!", "too easy"), ("x" * 201, "at most 200")])
def test_a_weak_password_is_refused_in_words(client, password, words):
    refused = sign_up(client, password=password)
    assert refused.status_code == 400 and words in refused.json()["detail"]
    assert refused.json()["error"] == "weak_password"


def test_a_taken_name_is_409_whatever_its_case(client):
    assert sign_up(client).status_code == 201
    taken = sign_up(client, name="ANA", password="another long phrase 8")
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]


def test_refusals_are_in_the_request_language(client):
    refused = client.post("/api/accounts", json={"name": "A", "password": PASSWORD},
                          headers={"Accept-Language": "fr"})
    assert refused.json()["message_i18n"]["msgid"] == "a name has {low} to {high} characters"
    assert refused.json()["detail"] != "a name has 2 to 24 characters"


def test_signing_out_forgets_the_session(client):
    sign_up(client)
    cookie = client.cookies[COOKIE]
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/me").json() == {"name": None}
    client.cookies.set(COOKIE, cookie)   # the old cookie, kept by someone: it signs nobody in
    assert client.get("/api/me").json() == {"name": None}


# -- session fixation, the cookie ------------------------------------------------------------
def test_every_sign_in_makes_a_new_session_and_forgets_the_one_before(client):
    sign_up(client)
    planted = client.cookies[COOKIE]       # a session id the attacker knows (its own, handed over)
    assert sign_in(client).status_code == 200
    fresh = client.cookies[COOKIE]
    assert fresh != planted
    client.cookies.set(COOKIE, planted)   # the planted session signs nobody in any more
    assert client.get("/api/me").json() == {"name": None}
    client.cookies.set(COOKIE, fresh)
    assert client.get("/api/me").json() == {"name": "Ana"}


def last_character_changed(text: str) -> str:
    """``text`` with its last character replaced by another (a fixed replacement such as "A" is the
    character already there in one cookie of sixteen: base64's last character of 32 bytes)."""
    return text[:-1] + ("B" if text[-1] != "B" else "C")


def test_a_forged_or_altered_cookie_signs_nobody_in(client):
    sign_up(client)
    value = client.cookies[COOKIE]
    session_id, signature = value.split(".")
    for forged in (f"{session_id}.{last_character_changed(signature)}",
                   f"{last_character_changed(session_id)}.{signature}", session_id, "x.y", ""):
        client.cookies.set(COOKIE, forged)
        assert client.get("/api/me").json() == {"name": None}


def cookie_header(response) -> str:
    return next(v for k, v in response.headers.items() if k == "set-cookie" and v.startswith(COOKIE))


def test_the_cookie_is_httponly_samesite_lax_and_secure_only_behind_tls(client, tmp_path):
    header = cookie_header(sign_up(client)).lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    assert "path=/" in header and "max-age=" in header
    app = create_app(str(tmp_path / "tls.sqlite3"), accounts=settings())
    with TestClient(app, base_url="https://testserver") as tls:
        sign_up(tls)
        header = cookie_header(sign_in(tls)).lower()
        assert "httponly" in header and "samesite=lax" in header and "secure" in header


# -- cross-site requests ---------------------------------------------------------------------
def test_a_cross_site_post_is_refused_and_changes_nothing(client):
    assert client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD},
                       headers=ELSEWHERE).status_code == 403
    assert sign_up(client).status_code == 201   # nothing was made: the name is free
    assert sign_in(client, headers=ELSEWHERE).status_code == 403
    assert client.delete("/api/session", headers=ELSEWHERE).status_code == 403
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=ELSEWHERE).status_code == 403
    assert client.get("/api/me").json() == {"name": "Ana"}


def test_a_form_post_is_refused_for_its_content_type(client):
    refused = client.post("/api/session", content=f"name=Ana&password={PASSWORD}",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 415


# -- guessing, enumeration -----------------------------------------------------------------
def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client):
    sign_up(client)
    client.delete("/api/session")
    wrong = sign_in(client, password="not the right one at all")
    unknown = sign_in(client, name="Nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() and "wrong" in wrong.json()["detail"]
    assert {k: v for k, v in wrong.headers.items() if k != "content-length"} == \
        {k: v for k, v in unknown.headers.items() if k != "content-length"}
    assert COOKIE not in client.cookies


def test_an_unknown_name_costs_the_same_argon2id_check_as_a_wrong_password(client, monkeypatch):
    """The time to within noise: an unknown name runs one argon2id verification of the same cost
    as an account's (the dummy's), so both take the same work (measured: bench/sign_in_timing.py)."""
    sign_up(client)
    passwords = client.app.state.accounts.passwords
    checked = []

    class Watched:   # the real hasher, each hash it verifies against noted
        def __getattr__(self, name):
            return getattr(real, name)

        def verify(self, stored, password):
            checked.append(stored)
            return real.verify(stored, password)
    real = passwords.hasher
    monkeypatch.setattr(passwords, "hasher", Watched())
    sign_in(client, password="not the right one at all")
    sign_in(client, name="Nobody")
    assert len(checked) == 2
    parameters = [h.split("$")[3] for h in checked]
    assert parameters[0] == parameters[1] == "m=8192,t=1,p=1"


def test_sign_ins_are_limited_per_name_with_retry_after(tmp_path):
    app = create_app(str(tmp_path / "t.sqlite3"), accounts=settings(failures=Quota(3, 600)))
    with TestClient(app) as client:
        sign_up(client)
        for _ in range(3):
            assert sign_in(client, password="guess number one!").status_code == 401
        limited = sign_in(client)   # even the right password waits: nothing is checked
        assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 600
        assert "this name" in limited.json()["detail"]
        assert sign_in(client, name="Bo").status_code == 401    # another name is not held up
        for _ in range(3):   # an unknown name is limited alike: the limit tells no account apart
            sign_in(client, name="Nobody")
        assert sign_in(client, name="Nobody").status_code == 429


def test_sign_ins_are_limited_per_address(tmp_path):
    app = create_app(str(tmp_path / "t.sqlite3"), accounts=settings(sign_ins=Quota(4, 600)))
    with TestClient(app) as client:
        sign_up(client)
        answers = [sign_in(client, name=f"Name{n}").status_code for n in range(4)]
        assert answers == [401] * 4
        limited = sign_in(client)
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
        assert "your address" in limited.json()["detail"]


# -- what is kept ------------------------------------------------------------------------------
def test_passwords_are_never_in_the_logs_nor_in_the_database(client, caplog):
    caplog.set_level(logging.DEBUG)
    sign_up(client, password=PASSWORD)
    sign_in(client, password=PASSWORD)
    sign_in(client, password=PASSWORD + "x")
    sign_up(client, name="Bo", password="short")
    client.request("DELETE", "/api/me", json={"password": "wrong but logged? " + PASSWORD})
    assert PASSWORD not in caplog.text and "short" not in caplog.text
    path = client.app.state.hub.storage.path
    client.app.state.hub.storage.conn.execute("PRAGMA wal_checkpoint(FULL)")
    for suffix in ("", "-wal"):
        try:
            data = open(path + suffix, "rb").read()
        except FileNotFoundError:
            continue
        assert PASSWORD.encode() not in data
    with sqlite3.connect(path) as conn:
        (stored,) = conn.execute("SELECT password_hash FROM accounts").fetchone()
    assert stored.startswith("$argon2id$")


def test_a_deleted_account_leaves_no_name_behind_and_its_seat_is_a_former_player(client):
    sign_up(client, name="Zoltan")
    table = make_table(client, seats=[{"name": "Zoltan", "kind": "person"}, {"name": "Bo", "kind": "person"}],
                       start=False)
    held = client.post("/api/me/seats", json={"table": table["id"], "token": table["seats"][0]["token"]})
    assert held.json() == {"table": table["id"], "seat": 0}
    assert client.request("DELETE", "/api/me", json={"password": "wrong password here"}).status_code == 403
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    assert client.get("/api/me").json() == {"name": None}
    assert sign_in(client, name="Zoltan").status_code == 401
    path = client.app.state.hub.storage.path
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM accounts UNION ALL SELECT name FROM seats").fetchall()
        assert ("Zoltan",) not in rows
        assert conn.execute("SELECT former, account FROM seats WHERE seat = 0").fetchone() == (1, None)
    assert sign_up(client, name="Zoltan").status_code == 201   # the name is free again


def test_a_seat_is_kept_only_with_its_token_and_only_signed_in(client):
    table = make_table(client, start=False)
    seat = {"table": table["id"], "token": table["seats"][1]["token"]}
    assert client.post("/api/me/seats", json=seat).status_code == 401
    sign_up(client)
    assert client.post("/api/me/seats", json={**seat, "token": "not a token"}).status_code == 404
    assert client.post("/api/me/seats", json=seat).json()["seat"] == 1


@contextmanager
def as_guest(client):
    """The client's cookies left aside meanwhile: its requests and sockets sign nobody in."""
    kept = dict(client.cookies)
    client.cookies.clear()
    try:
        yield client
    finally:
        for name, value in kept.items():
            client.cookies.set(name, value)


def test_a_signed_in_players_seat_follows_it_without_its_link(client):
    """Another device has no seat link: signed in, a join without a token takes the account's seat;
    a guest's join without a token watches."""
    sign_up(client)
    table = make_table(client, start=False)
    client.post("/api/me/seats", json={"table": table["id"], "token": table["seats"][1]["token"]})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        assert join(ws)["seat"] == 1
    with as_guest(client), client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        assert join(ws)["seat"] is None
