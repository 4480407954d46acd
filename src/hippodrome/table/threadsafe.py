"""Settling an event loop's future from another thread (a worker's answers, the writer's commits)."""

from __future__ import annotations

import asyncio
from typing import Any


def settle_threadsafe(loop: asyncio.AbstractEventLoop, future: asyncio.Future, result: Any = None,
                      exception: BaseException | None = None) -> None:
    """Give ``future`` its ``result`` (or ``exception``) on its own ``loop``, from any thread; a
    future already done (its waiter was cancelled) is left alone, and so is a closed loop (nobody
    waits any more)."""
    def settle() -> None:
        if future.done():
            return
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)
    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the loop is closed
        pass
