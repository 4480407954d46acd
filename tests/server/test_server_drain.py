"""A process stopped with SIGTERM mid-game drains (issue 37.6): it hands its tables over at once,
its connections are closed as "service restart" (1012) and reconnect to the other process, which
shows every state they saw and plays on; a relayed connection is joined to the new owner without
a reconnect; the process exits once its connections have moved."""

from __future__ import annotations

import asyncio
import signal

import psycopg
import pytest
import websockets

from tests.server.services import postgres_url, redis_url  # noqa: F401  (fixtures)
from tests.server.test_server_cluster import Player, play_until, post, two_servers  # noqa: F401


def test_sigterm_hands_the_tables_over_and_the_game_goes_on(two_servers, postgres_url):  # noqa: F811
    first, second = two_servers
    table = post(first.url + "/api/tables", {"game": "turfmaster-race", "setup": {"players": 2},
                                             "seats": [{"name": "A"}, {"name": "B"}]})
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        owner_before = conn.execute("SELECT owner FROM leases WHERE table_id = %s", (table["id"],)).fetchone()[0]

    async def scenario() -> tuple[int, int]:
        here, relayed = Player(table, 0), Player(table, 1)
        await here.connect(first)
        await relayed.connect(second)   # the first runs the table: this one is relayed to it
        for player in (here, relayed):
            await player.next_state()
            await player.send("ready")
        await play_until([here, relayed], 6)
        seen = max(state["state_id"] for state in here.states + relayed.states)
        first.process.send_signal(signal.SIGTERM)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await here.next_state()
        assert closed.value.rcvd.code == 1012   # service restart: the page reconnects
        await here.connect(second)               # as the page does, through the load balancer
        back = await here.next_state()
        assert back["state_id"] >= seen and back["status"] == "playing"   # nothing seen is lost
        await play_until([here, relayed], back["state_id"] + 4)
        return seen, relayed.welcomes

    seen, welcomes = asyncio.run(scenario())
    assert welcomes == 2   # the relayed connection was joined again to the new owner, not closed
    assert first.process.wait(30) in (0, -signal.SIGTERM)   # uvicorn ends by the signal it drained on
    output = first.process.stdout.read()
    assert "draining: 1 tables handed over to the other processes" in output, output
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        owner_after = conn.execute("SELECT owner FROM leases WHERE table_id = %s", (table["id"],)).fetchone()[0]
    assert owner_after != owner_before
