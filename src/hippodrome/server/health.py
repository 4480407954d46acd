"""Whether the process is alive, whether it is ready for players, and its measurements.

* ``GET /healthz``: 200 while the process answers at all (a supervisor restarts it otherwise).
* ``GET /readyz``: 200 when it can serve players: its storage answers a query, no table's saving
  is failing, and in a cluster its bus answers and its leases were renewed in time; else 503, with
  each check's answer (a load balancer sends new players elsewhere meanwhile). A process that is
  draining (stopping: ``server/drain.py``) is not ready.
* ``GET /metrics``: Prometheus's text format (``server/metrics.py``).

These answers are for the operator's tools: plain JSON, in English, and no client's data.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from hippodrome.server.metrics import CONTENT_TYPE, exposition

router = APIRouter()
#: seconds a check may take before it counts as failed
CHECK_SECONDS = 2.0


@router.get("/healthz")
async def alive() -> dict[str, str]:
    return {"status": "alive"}


@router.get("/readyz")
async def ready(request: Request) -> JSONResponse:
    checks = await readiness(request.app.state.hub, getattr(request.app.state, "draining", False))
    ok = all(value == "ok" for value in checks.values())
    return JSONResponse({"status": "ready" if ok else "not ready", "checks": checks}, status_code=200 if ok else 503,
                        headers={"Cache-Control": "no-store"})


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    return Response(exposition(request.app.state.hub), media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})


async def readiness(hub: Any, draining: bool = False) -> dict[str, str]:
    """Each check's answer: ``"ok"`` or what is wrong."""
    checks = {"draining": "the process is stopping" if draining else "ok"}
    try:
        await asyncio.wait_for(asyncio.to_thread(hub.storage.list_rows, 1), CHECK_SECONDS)
        checks["storage"] = "ok"
    except Exception as error:
        checks["storage"] = f"{type(error).__name__}: {error}"[:200] or "no answer"
    failing = sum(room.runner.saving_failed for room in list(hub.rooms.values()))
    checks["saving"] = f"saving fails for {failing} tables" if failing else "ok"
    cluster = hub.cluster
    if cluster is not None:
        if cluster.bus is not None:
            try:
                await asyncio.wait_for(cluster.bus.redis.ping(), CHECK_SECONDS)
                checks["bus"] = "ok"
            except Exception as error:
                checks["bus"] = f"{type(error).__name__}: {error}"[:200]
        late = time.monotonic() - cluster.renewer.renewed_at
        checks["leases"] = "ok" if late <= cluster.leases.ttl * 0.8 else f"leases last renewed {late:.1f} s ago"
    return checks
