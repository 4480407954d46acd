"""Passwords and names as accounts take them: argon2id hashes (argon2-cffi), the checks that
refuse a weak password or a bad name in words.

A sign-in with an unknown name verifies the password against a dummy hash of the same cost, so an
unknown name and a wrong password take about the same time (no account enumeration by timing).
The password itself is never logged nor stored; only its hash is kept.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from hippodrome.i18n import Message

MIN_NAME, MAX_NAME = 2, 24
MIN_PASSWORD, MAX_PASSWORD = 10, 200
#: what a name may hold besides letters and digits (of any script)
NAME_MARKS = " -_."
#: passwords refused as too common, whatever their length (compared without case)
COMMON = frozenset({"password123", "1234567890", "0123456789", "qwertyuiop", "password1234", "iloveyou123",
                    "passwordpassword", "abcdefghij", "qwerty12345", "123456789012"})


@dataclass(frozen=True)
class Cost:
    """argon2id's parameters: passes, memory (KiB), lanes."""

    time: int = 3
    memory: int = 64 * 1024
    lanes: int = 4


#: RFC 9106's second recommended option (argon2-cffi's default): about 0.1-0.2 s a hash here
DEFAULT_COST = Cost()


class Passwords:
    """Hashes and checks passwords with argon2id at one cost."""

    def __init__(self, cost: Cost = DEFAULT_COST):
        self.cost = cost
        self.hasher = PasswordHasher(time_cost=cost.time, memory_cost=cost.memory, parallelism=cost.lanes,
                                     type=Type.ID)
        self._dummy: str | None = None

    @property
    def dummy(self) -> str:
        """What an unknown name's sign-in is checked against (a password nobody knows), made at its
        first use: a sign-in asks for it whatever the name, so the first one pays for it either way."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(24))
        return self._dummy

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown name or an account without a
        password: the dummy is checked all the same, and the answer is False)."""
        dummy = self.dummy
        try:
            return self.hasher.verify(stored or dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def name_key(name: str) -> str:
    """A name as names are compared: Unicode-normalised (NFKC), without case, spaces collapsed
    ("Ana", "ANA" and "ａｎａ" are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def name_problem(name: object, reserved: frozenset[str]) -> Message | None:
    """Why ``name`` cannot be an account's name (None: it can). ``reserved``: names taken for
    good (the bot levels, rated under their own names), compared as :func:`name_key` does."""
    if not isinstance(name, str):
        return Message("a name is text")
    if any(unicodedata.category(ch) == "Cc" and ch != " " for ch in name):
        return Message("a name holds letters and digits, with spaces, dashes, dots or underscores between them, "
                       "and starts with a letter or a digit")
    clean = " ".join(unicodedata.normalize("NFKC", name).split())
    if not MIN_NAME <= len(clean) <= MAX_NAME:
        return Message("a name has {low} to {high} characters", low=MIN_NAME, high=MAX_NAME)
    if any(not (ch.isalnum() or ch in NAME_MARKS) for ch in clean) or not clean[0].isalnum():
        return Message("a name holds letters and digits, with spaces, dashes, dots or underscores between them, "
                       "and starts with a letter or a digit")
    if name_key(clean) in reserved:
        return Message("this name belongs to one of the bots; choose another")
    return None


def clean_name(name: str) -> str:
    """The name as the account keeps it: normalised, its spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def password_problem(password: object, name: str) -> Message | None:
    """Why ``password`` is too weak for the account ``name`` (None: it will do)."""
    if not isinstance(password, str):
        return Message("a password is text")
    if len(password) < MIN_PASSWORD:
        return Message("a password has at least {n} characters", n=MIN_PASSWORD)
    if len(password) > MAX_PASSWORD:
        return Message("a password has at most {n} characters", n=MAX_PASSWORD)
    lowered = password.casefold()
    if len(set(lowered)) < 4 or lowered in COMMON or name_key(name) in " ".join(lowered.split()):
        return Message("this password is too easy to guess: use a longer phrase that does not hold your name")
    return None
