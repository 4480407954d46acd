"""Memory of one `hippodrome serve` process over many reconnects (issue 37.8).

    python bench/reconnects.py [--reconnects 100000] [--warmup 5000] [--parallel 8]

A reconnect is what a page does when its connection drops: open the table's websocket, join
(alternately as the table's person seat and as a spectator), read the welcome and the state, close.
`--parallel` clients reconnect at once, each to a table of its own (half TurfMaster meetings, half
Ready Set Bet games, waiting for their person).
The server's resident memory (VmRSS) is read after `--warmup` reconnects (the caches and the
allocator's arenas filled) and again every `--every` (10,000) and at the end, each time once the
server has let go of every connection (its `/metrics` says none is left: a connection's end
stores its seat's presence first); the script prints the growth in MiB and per 1,000 reconnects. The aim: 100,000 reconnects grow it by at most 10 MiB.

A server is started on a free loopback port with a fresh SQLite file (its connection quota
raised: every reconnect comes from this one address) and stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (bench/load.py: the server started, a table made)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def reconnect(ws_url: str, token: str | None) -> None:
    async with websockets.connect(ws_url, compression="deflate", open_timeout=30) as ws:
        await ws.send(json.dumps({"v": 1, "type": "join", **({"token": token} if token else {})}))
        while json.loads(await ws.recv())["type"] != "state":
            pass


async def reconnects(seats: list[tuple[str, str]], count: int, start: int = 0) -> None:
    """``count`` reconnects, one client per table at a time (``seats``: each table's websocket
    address and person seat's token)."""
    queue = iter(range(start, start + count))

    async def client(ws_url: str, token: str) -> None:
        for n in queue:
            await reconnect(ws_url, token if n % 2 else None)

    await asyncio.gather(*(client(ws_url, token) for ws_url, token in seats))


def settled(url: str, seconds: float = 120.0) -> int:
    """Wait until the server holds no connection of the table (``/metrics``'s
    ``hippodrome_connections``: a closed connection ends once its presence is stored); what it
    still holds after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        text = urllib.request.urlopen(url + "/metrics", timeout=30).read().decode()
        held = int(float(re.search(r"^hippodrome_connections (\S+)$", text, re.M).group(1)))
        if held == 0 or time.monotonic() > deadline:
            return held
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reconnects", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=5_000)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--every", type=int, default=10_000, help="reconnects between two readings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, url = load.start_server(Path(folder) / "reconnects.sqlite3", None)
        said: list[str] = []   # the server's log, read as it comes (a full pipe would stop it)
        threading.Thread(target=lambda: said.extend(process.stdout), daemon=True).start()
        try:
            seats = []
            for n in range(args.parallel):   # TurfMaster meetings and Ready Set Bet games waiting for their person
                table = load.create_table(url, n, False)
                seats.append((url.replace("http://", "ws://") + f"/ws/tables/{table['id']}", table["seats"][0]["token"]))
            asyncio.run(reconnects(seats, args.warmup))
            settled(url)
            base = rss_mib(process.pid)
            print(f"after {args.warmup:,} reconnects (warm-up): {base:.1f} MiB")
            done, started = 0, time.monotonic()
            while done < args.reconnects:
                step = min(args.every, args.reconnects - done)
                asyncio.run(reconnects(seats, step, start=done))
                done += step
                held = settled(url)
                now = rss_mib(process.pid)
                print(f"{done:>7,} reconnects: {now:.1f} MiB (+{now - base:.2f} MiB, "
                      f"{(now - base) / done * 1000:.3f} MiB per 1,000; {done / (time.monotonic() - started):.0f}/s{f'; {held} connections still held' if held else ''})",
                      flush=True)
        finally:
            load.stop_server(process)
            if said:
                print(f"the server's log ({len(said)} lines), its last lines:", *said[-5:], sep="\n  ")


if __name__ == "__main__":
    main()
