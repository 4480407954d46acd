"""The Redis bus between the server processes that share one database (redis-py, ``scale`` extra).

One pub/sub channel per database, ``hippodrome:<database id>:tables``. A table's owner publishes,
after each stored change, ``{"owner", "table", "state_id", "summary"}`` (the lobby's summary of
the table, public only); when it stops cleanly it publishes ``{"owner", "released": [ids]}``.
Every process listens: the lobby of any process lists every table of every process
(:meth:`Bus.remote_summaries`), and a release makes the others take those tables over at once
instead of after their leases expire.

A change is published in the order it was stored (one queue, one publisher task). Redis
pub/sub keeps nothing: a process that starts late learns a table's summary at its next change;
what is played never depends on the bus (state lives in PostgreSQL, connections to a table
reach its owner: docs/architecture.md, "Several processes").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Callable

from hippodrome.i18n import Message

log = logging.getLogger(__name__)


def check_reachable(url: str) -> None:
    """Refuse a bus that does not answer, at start (ValueError naming it), rather than later."""
    import redis
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as error:
        raise ValueError(Message("cannot reach the bus {url}: {fault}", url=url, fault=str(error))) from None


class Bus:
    def __init__(self, url: str, database_id: str, owner: str):
        # imported here, not with the module: a server without a bus never loads redis-py
        try:
            import redis.asyncio as aioredis
        except ImportError:  # pragma: no cover - the base install (SQLite) does without it
            raise ValueError(Message("the Redis bus needs redis-py: install hippodrome with its scale extra "
                                     "(pip install -e '.[scale]')")) from None
        check_reachable(url)
        self.url = url
        self.channel = f"hippodrome:{database_id}:tables"
        self.owner = owner
        self.redis = aioredis.Redis.from_url(url, socket_connect_timeout=5)
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        #: other processes' tables as they last published them: id -> (owner, summary)
        self._remote: dict[str, tuple[str, dict[str, Any]]] = {}
        self.on_release: Callable[[list[str]], None] = lambda table_ids: None

    async def start(self) -> None:
        await self.redis.ping()
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._publish()), loop.create_task(self._listen(pubsub))]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()

    # -- the owner's side --------------------------------------------------------------
    def changed(self, table_id: str, state_id: int, summary: dict[str, Any]) -> None:
        """A stored change of one of our tables (called under its lock, in order)."""
        self._outbox.put_nowait({"owner": self.owner, "table": table_id, "state_id": state_id, "summary": summary})

    async def released(self, table_ids: list[str]) -> None:
        if table_ids:
            await self.redis.publish(self.channel, json.dumps({"owner": self.owner, "released": table_ids}))

    async def _publish(self) -> None:
        while True:
            message = await self._outbox.get()
            try:
                await self.redis.publish(self.channel, json.dumps(message))
            except Exception:  # Redis away: the lobby elsewhere is late, play goes on
                log.warning("bus: change of table %s not published", message["table"], exc_info=True)

    # -- everyone's side ---------------------------------------------------------------
    async def _listen(self, pubsub) -> None:
        while True:
            try:
                async for item in pubsub.listen():
                    self._receive(json.loads(item["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("bus: listening failed; listening again in 1 s", exc_info=True)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel)

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("owner") == self.owner:
            return
        if "released" in message:
            for table_id in message["released"]:
                self._remote.pop(table_id, None)
            self.on_release(list(message["released"]))
        else:
            self._remote[message["table"]] = (message["owner"], message["summary"])

    def remote_summaries(self, local: set[str]) -> list[dict[str, Any]]:
        """The tables other processes run, as they last published them (ours left out)."""
        return [summary for table_id, (_, summary) in self._remote.items() if table_id not in local]

    def summary_of(self, table_id: str) -> dict[str, Any] | None:
        entry = self._remote.get(table_id)
        return None if entry is None else entry[1]

    def forget(self, table_id: str) -> None:
        """A table we run now: what another process said of it is old."""
        self._remote.pop(table_id, None)
