"""Settling an event loop's future from another thread (a worker's answers, the writer's commits)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

log = logging.getLogger(__name__)


def settle_threadsafe(loop: asyncio.AbstractEventLoop, future: asyncio.Future, result: Any = None,
                      exception: BaseException | None = None, first: Callable[[], None] | None = None) -> None:
    """Give ``future`` its ``result`` (or ``exception``) on its own ``loop``, from any thread; a
    future already done (its waiter was cancelled) is left alone, and so is a closed loop (nobody
    waits any more).

    ``first`` (with a result only) runs on the loop just before the result is set: in the same step
    of the loop as the answer's arrival, where a coroutine awaiting the future resumes only a step
    later (a busy loop's step can be long). Its errors are logged, never raised."""
    settle_all_threadsafe(loop, [(future, result, exception, first)])


#: a future to settle: the future, its result, its exception (or None), its ``first`` (or None)
Settlement = tuple[asyncio.Future, Any, "BaseException | None", "Callable[[], None] | None"]


def settle_all_threadsafe(loop: asyncio.AbstractEventLoop, settlements: list[Settlement]) -> None:
    """:func:`settle_threadsafe` for several futures of one loop, in order, in one step of it (one
    wake-up of the loop for a group of answers, such as a group commit's)."""
    def settle_all() -> None:
        for settlement in settlements:
            _settle(*settlement)
    try:
        loop.call_soon_threadsafe(settle_all)
    except RuntimeError:  # the loop is closed
        pass


def _settle(future: asyncio.Future, result: Any, exception: BaseException | None,
            first: Callable[[], None] | None) -> None:
    if future.done():
        return
    if exception is not None:
        future.set_exception(exception)
        return
    if first is not None:
        try:
            first()
        except Exception:
            log.exception("a settled future's first callback failed")
    future.set_result(result)
