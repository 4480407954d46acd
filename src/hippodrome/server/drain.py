"""A process stopped without making its players wait (issue 37.6): a rolling restart.

On SIGTERM (or Ctrl+C) ``hippodrome serve`` drains before uvicorn closes its connections
(``DrainingServer.shutdown``):

1. ``/readyz`` answers 503 (``app.state.draining``): a load balancer sends no one new here;
2. in a cluster (``Cluster.hand_over``): the process stops taking tables, stops running its own
   (their connections are closed with 1012, "service restart": the pages reconnect at once, to
   another process), waits for the saves already queued, then gives every lease up and says so
   on the bus, so that the other processes take each table over at once rather than when its
   lease would have expired (3 s);
3. uvicorn then stops listening, closes the connections left (relayed ones) and waits for them.

A process alone (SQLite) has no one to hand its tables to: it stops as before, and they resume
when it starts again.
"""

from __future__ import annotations

import logging
from typing import Any

import uvicorn

log = logging.getLogger(__name__)


async def drain(app: Any) -> None:
    """Stop taking players and hand this process's tables over (see the module's words)."""
    app.state.draining = True
    cluster = app.state.hub.cluster
    if cluster is not None:
        handed = await cluster.hand_over()
        log.warning("draining: %d tables handed over to the other processes", len(handed))


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining ``app`` before it shuts down."""

    def __init__(self, config: uvicorn.Config, app: Any):
        super().__init__(config)
        self.drained_app = app

    async def shutdown(self, sockets: Any = None) -> None:
        try:
            await drain(self.drained_app)
        except Exception:   # a failed hand-over still stops: the leases expire as after a kill
            log.exception("draining failed")
        await super().shutdown(sockets=sockets)
