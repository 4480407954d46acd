"""What telling a table's connections about one change costs the event loop, three ways, measured
in one process on the same changes.

    python bench/broadcast.py [--game readysetbet|turfmaster] [--spectators 2] [--changes 400]

A table of bots (one seat counted as a person's connection, ``--spectators`` watching) is played
change by change without a server; after each change every connection's message is made three
ways: the baseline ("before": ``state_message`` and ``json.dumps`` for each connection alone),
shared whole states (one per audience: what the web pages ask for) and shared patches (clients
that ask for them), and compressed as the websocket sends it (permessage-deflate, on by default).
Prints the CPU time per change (``time.process_time``, best of 3 rounds) and the mean compressed
bytes a connection is sent, with the ratios against the baseline. The machine's load barely
matters: CPU time, not wall time. Current figures: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zlib
from typing import Any

from hippodrome.server.rooms import Connection, Room
from hippodrome.server.views import json_default
try:
    from hippodrome.server import compressed_websocket as server_websocket
    from hippodrome.server.compressed_websocket import deflate_factory
except ImportError:  # a checkout before the server chose its own: uvicorn's (zlib's default level)
    server_websocket = deflate_factory = None
from websockets.frames import TEXT, Frame
from hippodrome.table.bots import make_bot
from hippodrome.table.table import Player, Table

#: each connection's deflate: the server's own extension, or (a checkout before it) a compressor
DEFLATE: dict[int, Any] = {}
SETUPS = {"readysetbet": {"players": 4}, "turfmaster": {"players": 3}}


def played_room(game: str, spectators: int, seed: int) -> tuple[Room, list[Connection]]:
    players = SETUPS[game]["players"]
    seats = [Player(f"bot {n}", make_bot(game, "random", f"{seed}:{n}"), level="random") for n in range(players)]
    table = Table(game, SETUPS[game], seats, seed=seed)
    room = Room("bench", game, table, "", {}, storage=None, writer=None, bot_delay=0.0)
    connections = [Connection(seat=0, joined=True)] + [Connection(joined=True) for _ in range(spectators)]
    room.connections.update(connections)
    return room, connections


def step(table: Table, rng: random.Random) -> bool:
    """One change of the game (a bot's decision, a roll, or a bot's bet); False at its end."""
    if table.over:
        return False
    if table.bot_move() or (table.waits_for_clock() and table.tick()):
        return True
    bettors = [n for n in range(len(table.players)) if table.state.free_options(n)]
    if not bettors:
        return False
    seat = rng.choice(bettors)
    table.act(seat, rng.choice(table.state.free_options(seat)))
    return True


def deflated(connection: Connection, text: str | bytes) -> int:
    """What the websocket does with a message on its way out: permessage-deflate (on by default in
    the server and in browsers) as the server negotiates it with a browser, through the server's
    own extension (each message deflated afresh, once for all the connections it goes to:
    ``websocket.SharedDeflate``, framed once for them: ``framed``); for a checkout from before the server chose its deflate,
    uvicorn's (a 4 KiB window, one compressor per connection that keeps its context)."""
    if isinstance(text, str):   # (a checkout whose rooms give texts, not their UTF-8)
        text = text.encode()
    extension = DEFLATE.get(id(connection))
    if extension is None:
        if deflate_factory is None:
            extension = zlib.compressobj(wbits=-12, memLevel=5)
        else:
            extension = deflate_factory().process_request_params([("client_max_window_bits", None)], [])[1]
        DEFLATE[id(connection)] = extension
    if deflate_factory is None:
        return len(extension.compress(text) + extension.flush(zlib.Z_SYNC_FLUSH))
    if hasattr(server_websocket, "framed"):   # the server's own send: a frame made once for the connections alike
        return len(server_websocket.framed(text, [extension], server_websocket.shared_framing([extension])))
    return len(extension.encode(Frame(TEXT, text)).data)


def before(room: Room, connections: list[Connection]) -> int:
    """Every connection's state made and serialized for it alone (the baseline)."""
    sent = 0
    for connection in connections:
        message = room.state_message(connection.seat, connection.lang)
        sent += deflated(connection, json.dumps({"v": 1, **message}, default=json_default))
    return sent


def shared(room: Room, connections: list[Connection]) -> int:
    return sum(deflated(connection, room.update_for(connection)) for connection in connections)


def measure(game: str, spectators: int, changes: int, way, patches: bool) -> tuple[float, float]:
    """(CPU seconds per change, mean bytes per message) of one way over one game."""
    room, connections = played_room(game, spectators, seed=3)
    for connection in connections:
        connection.patches = patches
    rng = random.Random(1)
    DEFLATE.clear()
    if server_websocket is not None:
        server_websocket._deflated.clear()   # the texts deflated in an earlier round are not reused
        getattr(server_websocket, "_frames", {}).clear()
    cpu, sent, made = 0.0, 0, 0
    while made < changes and step(room.table, rng):
        started = time.process_time()
        room.notify_all()
        sent += way(room, connections)
        cpu += time.process_time() - started
        made += 1
    return cpu / max(made, 1), sent / max(made * len(connections), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(SETUPS), default="readysetbet")
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--changes", type=int, default=400)
    args = parser.parse_args()
    ways = {"before: a state per connection": (before, False), "shared whole states": (shared, False),
            "shared patches": (shared, True)}
    best = {name: min((measure(args.game, args.spectators, args.changes, way, patches) for _ in range(3)),
                      key=lambda r: r[0]) for name, (way, patches) in ways.items()}
    base_cpu, base_bytes = best["before: a state per connection"]
    print(f"{args.game}: 1 seat + {args.spectators} spectators, up to {args.changes} changes")
    for name, (cpu, size) in best.items():
        print(f"  {name:32} {cpu * 1e6:8.0f} µs CPU a change ({cpu / base_cpu:4.2f}x), "
              f"{size / 1024:5.1f} KiB a message on the wire ({size / base_bytes:4.2f}x)")


if __name__ == "__main__":
    main()
