"""Browser tests: Debian's chromium driven by Playwright, against `hippodrome serve` on loopback.

Skipped when /usr/bin/chromium is missing, unless HIPPODROME_REQUIRE_BROWSER is set (as .ci/run
does): then they fail.

One server per test module (its bots move at once: no test waits for a bot's thinking time) and
one chromium per test module. Nothing here waits a fixed time: the server is ready when it prints
its address (it listens before it prints), and the pages are waited on through page conditions,
with upper bounds that only matter when something is broken.
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: where screenshot() writes its pictures: only when HIPPODROME_SHOTS names a folder (each costs
#: about 0.1 s of chromium's time, and nothing in the suite reads them)
SHOTS = Path(os.environ["HIPPODROME_SHOTS"]) if os.environ.get("HIPPODROME_SHOTS") else None
#: how long a server may take to print its address (only reached when it does not start)
START_TIMEOUT = 60


def _require_browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("HIPPODROME_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing but HIPPODROME_REQUIRE_BROWSER is set")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")


class Server:
    """`hippodrome serve` in a child process; kill() is a kill -9, start() starts it again (on
    the same port once it has one)."""

    def __init__(self, db: Path, bot_delay: float = 0, args: tuple[str, ...] = ()):
        self.db, self.bot_delay, self.args = db, bot_delay, args   # args: more of serve's options
        self.port = 0   # the server picks a free port the first time
        self.url = None
        self.process = None
        self.output: list[str] = []

    def start(self):
        self.process = process = subprocess.Popen(
            [sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(self.db), "--bot-delay", str(self.bot_delay),
             "--think", "0.05",    # the lobby's default bot level is the search bot
             # the tests' pages click as fast as a script can, past a person's 60 messages in 10 s
             "--quota-messages", "1000", *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        address = threading.Event()

        def read():  # the whole output, read as it comes (a full pipe would stop the server)
            for line in process.stdout:
                self.output.append(line)
                found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
                if found and not address.is_set():
                    self.port = int(found.group(1))
                    address.set()
            address.set()   # it stopped

        threading.Thread(target=read, daemon=True).start()
        if not address.wait(START_TIMEOUT) or process.poll() is not None or not self.port:
            self.stop()
            raise RuntimeError(f"the server did not start: {''.join(self.output)}")
        self.url = f"http://127.0.0.1:{self.port}"
        return self

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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The module's server; its tables stay until the module ends (each test makes its own)."""
    server = Server(tmp_path_factory.mktemp("browser") / "browser.sqlite3").start()
    yield server
    server.stop()


@pytest.fixture
def own_server(tmp_path):
    """A server of the test's own, for a test that kills it."""
    server = Server(tmp_path / "browser.sqlite3").start()
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


@pytest.fixture(autouse=True)
def _pages_closed_after_each_test(request):
    """The pages a test leaves open are closed when it ends: an open page goes on drawing its
    table's every state (bots play on) while the module's later tests run."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


# Take this seat's decisions by clicking the page's own controls, as a person would; a fall is
# confirmed, the cards proposed to keep are kept. The bonus cards are kept for later (no random discards) and the highest card that moves is played,
# so that the horse has cards left after race 1 and its owner chooses which to keep (T8).
TURFMASTER_SEAT_AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { clicked: {}, paused: false };   // paused: the test plays on its own
  let actedOn = null, actedAt = 0, cardOn = null, cardAt = 0;
  const click = (node, what) => { node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
                                  auto.clicked[what] = (auto.clicked[what] || 0) + 1; };
  setInterval(() => {
    if (auto.paused) return;
    // between races: ready for the next one, as soon as the panel asks
    const next = document.querySelector("#lifecycle[data-status=between_races] .lifecycle-mine:not([disabled]):not([hidden])");
    if (next) { click(next, "next_race"); return; }
    const turn = document.querySelector("#turn");
    if (!turn || turn.dataset.mine !== "yes") return;
    const state = document.querySelector("#app").dataset.stateId;
    if (actedOn === state && Date.now() - actedAt < 2000) return;
    const act = (node, what) => { click(node, what); actedOn = state; actedAt = Date.now(); };
    const q = (s) => document.querySelector(s);
    if (q("#confirm-fall")) act(q("#confirm-fall"), "fall");
    else if (q("#keep-confirm") && !q("#keep-confirm").disabled) act(q("#keep-confirm"), "keep");
    else if (q(".reach-layer polygon")) click(q(".reach-layer polygon"), "square");
    else if (q("#play-anyway")) act(q("#play-anyway"), "anyway");
    else if (q("#decision button.option:not(.square-option):not([data-type=claim_bonus])"))
      act(q("#decision button.option:not(.square-option):not([data-type=claim_bonus])"), "option");
    else if (q(".card.playable") && (cardOn !== state || Date.now() - cardAt > 1500)) {
      // the highest card that moves the horse: a fast horse keeps cards for the next race
      const card = [...document.querySelectorAll(".card.playable:not(.over-limit)")].pop() || q(".card.playable");
      click(card, "card"); cardOn = state; cardAt = Date.now();
    }
  }, 30);
}"""


def screenshot(page, name: str):
    """The page as it is now, as SHOTS/name.png, for a person to look at (HIPPODROME_SHOTS set)."""
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def create(server, body, start=True):
    """A table made through the lobby API (POST /api/tables): its id, links and seats.

    ``start``: every person seat says it is ready (over the table's WebSocket, as its page's
    Ready button does), so the game is under way when this returns; False leaves the table
    waiting for its people (the lifecycle's tests)."""
    request = urllib.request.Request(server.url + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    table = json.loads(urllib.request.urlopen(request, timeout=30).read())
    if start:
        for seat in table["seats"]:
            if seat["kind"] == "person":
                send_as(server, table, {"type": "ready"}, token=seat["token"],
                        until=lambda m, n=seat["seat"]: n in m["lifecycle"]["ready"] or m["status"] != "waiting")
        if table["status"] == "waiting" and not any(s["kind"] == "person" for s in table["seats"]):
            # a table without seats (the race caller for the box) waits for its host's start
            send_as(server, table, {"type": "start", "host": table["host_token"]},
                    until=lambda m: m["status"] != "waiting")
    return table


def states_of(frames):
    """The states a page held, one per frame it received: whole ``state`` messages, and the pages'
    ``patch`` messages applied to the state before (a page whose TableConnection asks for them)."""
    from hippodrome.server import jsonpatch

    states, state = [], None
    for message in map(json.loads, frames):
        if message.get("type") == "state":
            state = message
        elif message.get("type") == "patch" and state is not None:
            state = jsonpatch.apply(state, message["ops"])
        else:
            continue
        states.append(state)
    return states


def send_as(server, table, message, token=None, until=lambda m: True):
    """Join ``table`` (as the seat of ``token``, or watching), send ``message`` and return the first
    state that satisfies ``until``."""
    from websockets.sync.client import connect

    with connect(server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}", open_timeout=30) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", **({"token": token} if token else {})}))
        ws.send(json.dumps({"v": 1, **message}))
        while True:
            reply = json.loads(ws.recv(timeout=30))
            assert reply["type"] != "error", reply
            if reply["type"] == "state" and until(reply):
                return reply


def open_seat(browser, server, link: str):
    """A laptop-sized page at a seat's link, and the list the page's script errors go to."""
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + link)
    return page, errors


def set_clock(server, table, paused: bool):
    """Pause (or resume) a Ready Set Bet table's clock as its host, over the table's WebSocket,
    and return once the server says it is so. A test pauses a table just made, so that its
    people bet before the first roll however slow the machine is."""
    token = table.get("host_token") or table["host_link"].split("#host=", 1)[1]
    return send_as(server, table, {"type": "pause" if paused else "resume", "host": token},
                   until=lambda m: m["clock"]["paused"] == paused)


#: each horse on the track whose label has two numbers ("2/3", "11/12"): whether its text is wider
#: or taller than its circle holds, or a number stands outside the circle, and its numbers' size
#: beside a one-number horse's (px)
PAIR_LABELS = """() => {
  const size = (h) => parseFloat(getComputedStyle(h).fontSize);
  const one = size([...document.querySelectorAll('#track .horse')].find((h) => !h.dataset.horse.includes('/')));
  return [...document.querySelectorAll('#track .horse')].filter((h) => h.dataset.horse.includes('/')).map((h) => {
    const box = h.getBoundingClientRect();
    const parts = [...h.querySelectorAll('span')].filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.getBoundingClientRect());
    return { horse: h.dataset.horse, text: h.innerText.replace(/\\s+/g, ''), overflows: h.scrollWidth > h.clientWidth || h.scrollHeight > h.clientHeight,
             outside: parts.some((p) => p.left < box.left - 0.5 || p.right > box.right + 0.5 || p.top < box.top - 0.5 || p.bottom > box.bottom + 0.5),
             size: size(h), one };
  });
}"""


def assert_pair_labels_fit(page):
    """Ready Set Bet's track (the play page's and the caller's): the horses of two numbers show
    both, inside their circles, no smaller than a one-number horse's number."""
    labels = page.evaluate(PAIR_LABELS)
    assert {label["horse"] for label in labels} == {"2/3", "11/12"}, labels
    for label in labels:
        assert not label["overflows"] and not label["outside"], label
        assert label["text"] in (label["horse"], label["horse"].replace("/", "")), label   # both numbers shown
        assert label["size"] >= label["one"], label   # as legible as the other horses


def place_bet(page, spaces):
    """Bet the selected token on the first of `spaces` that nobody holds (R4: first come, first
    served; a bot may have bet before its table was paused). The table is paused: nothing
    changes under the pointer. Returns the space."""
    for space in spaces:
        if page.locator(f'[data-space="{space}"].taken').count():
            continue
        page.click(f'[data-space="{space}"]')
        page.wait_for_selector(f'[data-space="{space}"].mine')
        return space
    raise AssertionError(f"every one of {list(spaces)} was taken")


def serious_violations(browser, server, pages, sizes):
    """What axe-core (axe-playwright-python) finds serious or critical on each page, at each size:
    pages is {name: (link, a selector drawn once the page is)}; a list of (width, page, rule, a few
    of the elements), empty when none."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    found = []
    page = browser.new_page(viewport=sizes[0])
    for name, (link, drawn) in pages.items():
        page.goto(server.url + link)
        for size in sizes:   # each page loaded once, looked at in each size
            page.set_viewport_size(size)
            page.wait_for_selector(drawn)
            for violation in axe.run(page).response["violations"]:
                if violation["impact"] in ("serious", "critical"):
                    found.append((size["width"], name, violation["id"], [n["target"] for n in violation["nodes"][:3]]))
    page.close()
    return found
