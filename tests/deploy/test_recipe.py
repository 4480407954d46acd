"""The deployment recipe, run (issue 37.7): Debian's nginx with TLS (a certificate made here) and
websocket upgrade, deploy/nginx/hippodrome.conf as it is (ports and paths replaced), in front of two
`hippodrome serve` processes started with deploy/systemd/hippodrome@.service's own ExecStart line
on PostgreSQL and Redis. Two players play a table through the proxy; the process running it is
restarted mid-game (SIGTERM, then started again) and the game goes on, nothing the players saw lost."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import psycopg
import pytest
import websockets

from tests.server.services import postgres_url, redis_url, unavailable  # noqa: F401  (fixtures)
from tests.server.test_server_cluster import Player, play_until, wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def unit_command(port: int, db: str, bus: str) -> list[str]:
    """hippodrome@PORT's ExecStart, its variables filled in and run from this checkout."""
    line = next(line for line in (DEPLOY / "systemd" / "hippodrome@.service").read_text().splitlines()
                if line.startswith("ExecStart="))
    words = shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port))
                        .replace("${HIPPODROME_DB}", db).replace("${HIPPODROME_BUS}", bus))
    assert words[0] == "/opt/hippodrome/.venv/bin/hippodrome"
    return [sys.executable, "-m", "hippodrome", *words[1:]]


class Process:
    def __init__(self, command: list[str]):
        self.command = command
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        assert "serving at" in line, line + self.process.stdout.read()

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.stdout.read()


def nginx_config(folder: Path, tls_port: int, http_port: int, ports: list[int]) -> Path:
    """The recipe's site, on loopback ports, its certificate ``folder``'s, in a server of its own."""
    site = (DEPLOY / "nginx" / "hippodrome.conf").read_text()
    for old, new in (("127.0.0.1:8765", f"127.0.0.1:{ports[0]}"), ("127.0.0.1:8766", f"127.0.0.1:{ports[1]}"),
                     ("listen 443 ssl", f"listen 127.0.0.1:{tls_port} ssl"), ("listen 80;", f"listen 127.0.0.1:{http_port};"),
                     ("/etc/ssl/hippodrome/", f"{folder}/")):
        assert old in site, old
        site = site.replace(old, new)
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)   # no IPv6 needed here
    (folder / "hippodrome.conf").write_text(site)
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    config = folder / "nginx.conf"
    config.write_text(f"user root;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
                      f"events {{ worker_connections 512; }}\nhttp {{\n    access_log off;\n{temp}"
                      f"    include {folder}/hippodrome.conf;\n}}\n")
    return config


@pytest.fixture
def nginx():
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        unavailable("nginx", FileNotFoundError("apt-get install nginx"))
    return binary


def test_two_processes_behind_nginx_with_tls_play_through_a_restart(nginx, postgres_url, redis_url, tmp_path):  # noqa: F811
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(tmp_path / "privkey.pem"),
                    "-out", str(tmp_path / "fullchain.pem")], check=True, capture_output=True)
    tls = ssl.create_default_context(cafile=str(tmp_path / "fullchain.pem"))
    ports, tls_port, http_port = [free_port(), free_port()], free_port(), free_port()
    processes = [Process(unit_command(port, postgres_url, redis_url)) for port in ports]
    proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(nginx_config(tmp_path, tls_port, http_port, ports)),
                              "-g", "daemon off;"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    site = f"https://127.0.0.1:{tls_port}"
    try:
        wait_until(lambda: answers(site + "/healthz", tls), 20)
        with urllib.request.urlopen(urllib.request.Request(site + "/"), context=tls, timeout=10) as page:
            # the processes believe the proxy's X-Forwarded-Proto (--forwarded-allow-ips): HSTS
            assert page.headers["Strict-Transport-Security"].startswith("max-age=")
        assert answers(site + "/readyz", tls)   # the operator's answers, from this machine
        body = json.dumps({"game": "turfmaster-race", "setup": {"players": 2},
                           "seats": [{"name": "A"}, {"name": "B"}]}).encode()
        request = urllib.request.Request(site + "/api/tables", data=body, headers={
            "Content-Type": "application/json", "Origin": site})   # the page's own origin, through the proxy
        table = json.loads(urllib.request.urlopen(request, context=tls, timeout=10).read())
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            address = conn.execute("SELECT address FROM leases WHERE table_id = %s", (table["id"],)).fetchone()[0]
        owner = processes[[f":{port}" in address for port in ports].index(True)]
        asyncio.run(play_through(site, tls, table, owner))
        outputs = [process.stop() for process in processes]
        assert "draining: 1 tables handed over" in outputs[processes.index(owner)] + owner.first_output
    finally:
        proxy.send_signal(signal.SIGQUIT)
        proxy.wait(10)
        for process in processes:
            process.stop()
    assert proxy.returncode == 0, proxy.stdout.read()


def answers(url: str, tls: ssl.SSLContext) -> bool:
    try:
        with urllib.request.urlopen(url, context=tls, timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


class Site:
    """The proxy, as Player connects to a server."""

    def __init__(self, url: str):
        self.ws = url.replace("https://", "wss://")


class TLSPlayer(Player):
    def __init__(self, table: dict, seat: int, tls: ssl.SSLContext):
        super().__init__(table, seat)
        self.tls = tls

    async def connect(self, server) -> None:
        self.ws = await websockets.connect(f"{server.ws}/ws/tables/{self.table['id']}", ssl=self.tls, proxy=None,
                                           origin=server.ws.replace("wss://", "https://"))
        await self.send("join", token=self.token)


async def play_through(site: str, tls: ssl.SSLContext, table: dict, owner: Process) -> None:
    players = [TLSPlayer(table, seat, tls) for seat in (0, 1)]
    proxy = Site(site)
    for player in players:
        await player.connect(proxy)
        await player.next_state()
        await player.send("ready")
    await play_until(players, 6)
    seen = max(state["state_id"] for player in players for state in player.states)
    owner.process.send_signal(signal.SIGTERM)   # systemctl restart hippodrome@PORT: it drains, then starts again
    closed = [await moved(player) for player in players]
    owner.first_output = await asyncio.to_thread(owner.stop)
    await asyncio.to_thread(owner.start)
    for player, was_closed in zip(players, closed):
        if was_closed:   # the page reconnects through the proxy, to whichever process answers
            await player.connect(proxy)
            await player.next_state()
        assert player.states[-1]["state_id"] >= seen and player.states[-1]["status"] == "playing"
    await play_until(players, seen + 6)


async def moved(player: Player) -> bool:
    """Read until the player's connection moves off the stopping process: closed (True: its page
    reconnects), or joined again to the new owner by the process that relays it (False)."""
    welcomes = player.welcomes
    try:
        while player.welcomes == welcomes:
            await player.next_state()
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1012, closed
        return True
    return False
