"""A table runner's news: a flag that anything the runner must look at again sets (a change, the
clock, saving), and that the runner's one task waits on, with or without a time limit.

It is :class:`asyncio.Event` for a single waiter, with a timed wait that is a timer on the loop
and nothing more: ``asyncio.timeout`` around ``Event.wait`` makes a context manager, looks up the
running loop and task, and schedules and reschedules its timer, and the runner waits so about once
a change of its table.
"""

from __future__ import annotations

import asyncio


class Wake:
    __slots__ = ("_set", "_waiter")

    def __init__(self) -> None:
        self._set = False
        self._waiter: asyncio.Future[bool] | None = None

    def set(self) -> None:
        """News: the wait under way (if any) ends, as does the next one until :meth:`clear`."""
        if not self._set:
            self._set = True
            waiter = self._waiter
            if waiter is not None and not waiter.done():
                waiter.set_result(False)

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    async def wait(self, seconds: float | None = None) -> bool:
        """Until news come (False, at once if they have come since :meth:`clear`) or, given
        ``seconds``, until those pass first (True). One task waits at a time."""
        if self._set:
            return False
        if self._waiter is not None:
            raise RuntimeError("a Wake has one waiter")  # i18n: programming error
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = None if seconds is None else loop.call_later(seconds, _time_up, waiter)
        try:
            return await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()


def _time_up(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(True)
