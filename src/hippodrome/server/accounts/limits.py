"""How often sign-ins may be tried: per client address (every attempt) and per name (every
failed attempt, whether or not the name is an account's, so the limit says nothing of which
names exist). Over a limit the answer is 429 with ``Retry-After``, and the password is not even
checked. Each process counts its own attempts."""

from __future__ import annotations

from dataclasses import dataclass, field

from hippodrome.server.quota import Quota, SlidingWindow


@dataclass(frozen=True)
class AccountLimits:
    """The limits of :mod:`hippodrome.server.accounts.routes` (a test sets small ones)."""

    #: sign-in attempts from one address
    sign_ins: Quota = Quota(30, 300.0)
    #: failed sign-ins for one name
    failures: Quota = Quota(10, 300.0)
    #: accounts made from one address
    sign_ups: Quota = Quota(10, 3600.0)


@dataclass
class Windows:
    limits: AccountLimits
    sign_ins: SlidingWindow = field(init=False)
    failures: SlidingWindow = field(init=False)
    sign_ups: SlidingWindow = field(init=False)

    def __post_init__(self) -> None:
        self.sign_ins = SlidingWindow(self.limits.sign_ins)
        self.failures = SlidingWindow(self.limits.failures)
        self.sign_ups = SlidingWindow(self.limits.sign_ups)
