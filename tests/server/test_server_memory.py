"""A closed connection is freed when it ends, not at the server's next full collection (every 10
minutes, server/collector.py): no reference cycle is left of its protocol, its websockets parser,
its table connection (issue 37.8; the memory over 100,000 reconnects is measured by
bench/reconnects.py, docs/benchmarks.md)."""

import gc
import json
import threading

from websockets.sync.client import connect

from hippodrome.server import create_app
from hippodrome.server.quota import Quota
from tests.server.live import RACE, post_json, served

#: what one websocket connection of the server is made of
SERVER_SIDE = {"LimitedWebSocket", "ServerProtocol", "SharedDeflate", "Connection", "WebSocket",
               "_SelectorSocketTransport"}


def test_a_closed_connection_leaves_no_cycle_behind(tmp_path):
    app = create_app(str(tmp_path / "db.sqlite3"), bot_delay=0, connection_quota=Quota(1000, 60))
    with served(app) as url:
        status, table = post_json(url + "/api/tables", RACE)
        ws_url = url.replace("http", "ws") + f"/ws/tables/{table['id']}"
        token = table["seats"][0]["token"]
        for n in range(3):   # the server's first connections fill its caches
            with connect(ws_url, compression="deflate") as ws:
                ws.send(json.dumps({"v": 1, "type": "join", **({"token": token} if n % 2 else {})}))
                ws.recv(timeout=30)
        gc.collect()
        gc.disable()
        try:
            for n in range(20):
                with connect(ws_url, compression="deflate") as ws:
                    ws.send(json.dumps({"v": 1, "type": "join", **({"token": token} if n % 2 else {})}))
                    while json.loads(ws.recv(timeout=30))["type"] != "state":
                        pass
            hub = app.state.hub
            for _ in range(3000):   # until the server has let every connection go (its presence stored)
                if not any(room.connections for room in hub.rooms.values()):
                    break
                threading.Event().wait(0.01)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            left = [type(o).__name__ for o in gc.garbage if type(o).__name__ in SERVER_SIDE
                    and "client" not in type(o).__module__ and _server_side(o, url)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    assert left == []


def _server_side(obj, url: str) -> bool:
    """A transport counts when its peer is a client (the server's end), not the server's port."""
    if type(obj).__name__ != "_SelectorSocketTransport":
        return True
    peer = obj._extra.get("peername")
    return not (peer and str(peer[1]) == url.rsplit(":", 1)[1])
