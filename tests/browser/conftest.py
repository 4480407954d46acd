"""Browser tests: Debian's chromium driven by Playwright, against `hippodrome serve` on loopback.

Skipped when /usr/bin/chromium is missing, unless HIPPODROME_REQUIRE_BROWSER is set (as .ci/run
does): then they fail.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("HIPPODROME_SHOTS", "/tmp/hippodrome-shots"))


def _require_browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("HIPPODROME_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing but HIPPODROME_REQUIRE_BROWSER is set")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`hippodrome serve` in a child process; kill() is a kill -9, start() starts it again."""

    def __init__(self, db: Path, port: int, bot_delay: float = 0.05):
        self.db, self.port, self.bot_delay = db, port, bot_delay
        self.url = f"http://127.0.0.1:{port}"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(self.db), "--bot-delay", str(self.bot_delay)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("the server stopped: " + self.process.stdout.read().decode())
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 20 s")

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path / "browser.sqlite3", free_port()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module: Playwright's sync API keeps an event loop running in this
    thread while it is open, so it must be closed before other test directories run."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def screenshot(page, name: str):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def create(server, body):
    """A table made through the lobby API (POST /api/tables): its id, links and seats."""
    request = urllib.request.Request(server.url + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())


def open_seat(browser, server, link: str):
    """A laptop-sized page at a seat's link, and the list the page's script errors go to."""
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + link)
    return page, errors
