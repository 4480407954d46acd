"""An app served on a real loopback socket as `hippodrome serve` serves it (server/serving.py), in a
thread of the test's process, for the tests whose point is about sockets (time limits, proxies,
refused handshakes)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import urllib.request
from contextlib import contextmanager
from typing import Iterator

import uvicorn

from hippodrome.server.serving import uvicorn_config


@contextmanager
def served(app, **settings) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` while ``app`` is served there (``settings``: serving's; its limits
    are the app's unless named)."""
    settings.setdefault("limits", app.state.limits)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app, **settings))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        for _ in range(1000):
            if server.started or not thread.is_alive():
                break
            threading.Event().wait(0.01)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def post_json(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


RACE = {"game": "turfmaster-race", "setup": {"course": "oval", "horses": [{"id": "red", "owner": 0},
                                                                         {"id": "blue", "owner": 1}]},
        "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]}


class Lines(logging.Handler):
    """The lines the server's log handler writes (server/logs.py), kept in a list."""

    def __init__(self, fmt: str = "text"):
        super().__init__()
        from hippodrome.server.logs import handler
        self.inner = handler(fmt)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        for check in self.inner.filters:
            check.filter(record)
        self.lines.append(self.inner.format(record))


@contextmanager
def log_lines(fmt: str = "text") -> Iterator[list[str]]:
    """The lines logged (warnings and worse) while it holds, as the server writes them."""
    lines = Lines(fmt)
    root = logging.getLogger()
    root.addHandler(lines)
    try:
        yield lines.lines
    finally:
        root.removeHandler(lines)
