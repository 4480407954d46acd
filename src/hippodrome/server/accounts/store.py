"""The rows of accounts, sessions and seats held by accounts, in either storage.

Every function takes a :class:`~hippodrome.server.storage.Sql` (``storage.write(fn)`` or
``storage.read(fn)`` hands it one) and writes its statements with ``?``, so SQLite and
PostgreSQL run the same SQL. Nothing here sees a password: accounts keep argon2id hashes,
sessions the SHA-256 digests of their ids (a copy of the database signs nobody in).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from hippodrome.server.storage import Sql

#: the ``meta`` key of the secret that signs session cookies (made once, shared by every process)
SECRET_KEY = "session_secret"


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    password_hash: str | None


def cookie_secret(sql: Sql) -> str:
    """The database's cookie-signing secret, made at its first use (processes sharing a database
    share it; the first one to write it wins)."""
    sql.run("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (SECRET_KEY, secrets.token_hex(32)))
    return sql.one("SELECT value FROM meta WHERE key = ?", (SECRET_KEY,))[0]


def create_account(sql: Sql, account_id: str, name: str, name_key: str, password_hash: str | None,
                   now: float) -> bool:
    """A new account; False (nothing written) when its name is taken (``name_key``: the name as
    names are compared)."""
    return sql.run("INSERT INTO accounts (id, name, name_key, password_hash, created) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT (name_key) DO NOTHING", (account_id, name, name_key, password_hash, now)) == 1


def account_named(sql: Sql, name_key: str) -> Account | None:
    row = sql.one("SELECT id, name, password_hash FROM accounts WHERE name_key = ?", (name_key,))
    return Account(*row) if row else None


def create_session(sql: Sql, id_hash: str, account_id: str, now: float, expires: float) -> None:
    """A new session (and the expired ones forgotten)."""
    sql.run("DELETE FROM sessions WHERE expires <= ?", (now,))
    sql.run("INSERT INTO sessions VALUES (?, ?, ?, ?)", (id_hash, account_id, now, expires))


def session_account(sql: Sql, id_hash: str, now: float) -> Account | None:
    """The account a live session belongs to (None: no such session, or it has expired)."""
    row = sql.one("SELECT a.id, a.name, a.password_hash FROM sessions s JOIN accounts a ON a.id = s.account_id "
                  "WHERE s.id_hash = ? AND s.expires > ?", (id_hash, now))
    return Account(*row) if row else None


def delete_session(sql: Sql, id_hash: str) -> None:
    sql.run("DELETE FROM sessions WHERE id_hash = ?", (id_hash,))


def delete_account(sql: Sql, account_id: str) -> None:
    """The account, its sessions, passkeys and ratings gone; its seats stay in their games, each
    now "a former player" (no name, no account)."""
    sql.run("DELETE FROM sessions WHERE account_id = ?", (account_id,))
    sql.run("DELETE FROM passkeys WHERE account_id = ?", (account_id,))
    sql.run("DELETE FROM ratings WHERE player = ?", (account_id,))
    sql.run("UPDATE seats SET name = '', account = NULL, former = 1 WHERE account = ?", (account_id,))
    sql.run("DELETE FROM accounts WHERE id = ?", (account_id,))


def claim_seat(sql: Sql, table_id: str, token_hash: str, account_id: str) -> int | None:
    """The person seat of ``table_id`` whose token digest is ``token_hash`` now held by the account
    (the guest who signs up keeps the seats of this browser): its number, or None when the token
    holds no person seat there or another account holds it."""
    row = sql.one("SELECT seat, account FROM seats WHERE table_id = ? AND token_hash = ? AND kind = 'person'",
                  (table_id, token_hash))
    if row is None or row[1] not in (None, account_id):
        return None
    sql.run("UPDATE seats SET account = ? WHERE table_id = ? AND seat = ?", (account_id, table_id, row[0]))
    return row[0]


def seats_held(sql: Sql, account_id: str, table_id: str) -> list[int]:
    """The seats of ``table_id`` the account holds."""
    return [row[0] for row in sql.rows("SELECT seat FROM seats WHERE account = ? AND table_id = ? ORDER BY seat",
                                       (account_id, table_id))]


def add_passkey(sql: Sql, credential_id: str, account_id: str, public_key: str, sign_count: int, now: float) -> bool:
    """A passkey of the account (False: that credential is known already)."""
    return sql.run("INSERT INTO passkeys (credential_id, account_id, public_key, sign_count, created) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING",
                   (credential_id, account_id, public_key, sign_count, now)) == 1


def passkey(sql: Sql, credential_id: str) -> tuple[Account, str, int] | None:
    """The account a passkey signs in, its public key and its signature count."""
    row = sql.one("SELECT a.id, a.name, a.password_hash, p.public_key, p.sign_count FROM passkeys p "
                  "JOIN accounts a ON a.id = p.account_id WHERE p.credential_id = ?", (credential_id,))
    return (Account(*row[:3]), row[3], row[4]) if row else None


def passkeys_of(sql: Sql, account_id: str) -> list[str]:
    return [row[0] for row in sql.rows("SELECT credential_id FROM passkeys WHERE account_id = ? ORDER BY created",
                                       (account_id,))]


def count_passkey_use(sql: Sql, credential_id: str, sign_count: int) -> None:
    sql.run("UPDATE passkeys SET sign_count = ? WHERE credential_id = ?", (sign_count, credential_id))
