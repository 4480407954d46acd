"""How a server makes reviews (``hippodrome serve --review-*``): apart from
:mod:`hippodrome.server.reviews` so that the command line reads its defaults without loading it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReviewSettings:
    """``create_app``'s settings for reviews (``hippodrome serve --review-workers``)."""

    #: review worker processes (0: the server makes no reviews)
    workers: int = 1
    #: reviews running or waiting at once, at most
    waiting: int = 8
    #: playouts a decision (TurfMaster) instead of the default budget: for tests and benchmarks
    playouts: int | None = None
    #: the share of a core each review may take while the live tables keep the event loop busy
    share: float = 0.1
    #: review workers run at the lowest priority, only when nothing else wants the processor
    #: (False: at the bots' workers' priority, for a machine that other work keeps busy)
    idle: bool = True
