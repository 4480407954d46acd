"""The web client's JSON Patch (web/net.js applyPatch) against the server's (server/jsonpatch.py):
along a random Ready Set Bet game, each patch the server would send, applied in the browser to the
state before, gives the state after, and leaves the state before untouched (a page may hold it);
a TableConnection opened with {patches: true} gets patches and hands its page the same states
as one opened without (which gets whole states only: the pages' default); the lobby pages
through a listing longer than one page."""

import json
import random
import urllib.request

import pytest

from hippodrome.server import jsonpatch
from hippodrome.server.views import json_default
from hippodrome.table.bots import make_bot
from hippodrome.table.table import Player, Table
from tests.browser.conftest import create, screenshot

pytestmark = pytest.mark.browser

#: JSON text with sorted keys, in the page: two documents compare equal by their canon
CANON = """(v) => Array.isArray(v) ? `[${v.map(canon).join(",")}]`
        : v !== null && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",")}}`
        : JSON.stringify(v)"""


def random_game_views(seat=0, limit=400):
    rng = random.Random(5)
    table = Table("readysetbet", {"players": 3},
                  [Player(f"s{n}", make_bot("readysetbet", "random", f"seed:{n}")) for n in range(3)], seed=9)
    views = []
    for _ in range(limit):
        views.append(json.loads(json.dumps({"state_id": table.state_id, "view": table.state.view(seat),
                                            "over": table.over}, default=json_default)))
        if table.over:
            break
        if not (table.bot_move() or (table.waits_for_clock() and table.tick())):
            open_seats = [n for n in range(3) if table.state.free_options(n)]
            if not open_seats:
                break
            bettor = rng.choice(open_seats)
            table.act(bettor, rng.choice(table.state.free_options(bettor)))
    return views


def test_the_browser_applies_the_servers_patches(server, browser):
    views = random_game_views()
    patches = [jsonpatch.diff(old, new) for old, new in zip(views, views[1:])]
    assert len(patches) > 50 and any(patches)
    page = browser.new_page()
    page.goto(server.url + "/")
    # the views go to the page once, as JSON text: patch n is applied to (a copy of) view n and
    # must give view n + 1
    failures = page.evaluate("""async (text) => {
      const { applyPatch } = await import("/static/net.js");
      const canon = """ + CANON + """;
      const { views, patches } = JSON.parse(text);
      const canons = views.map(canon);
      const failures = [];
      patches.forEach((ops, n) => {
        const old = structuredClone(views[n]);
        const got = applyPatch(old, ops);
        if (canon(got) !== canons[n + 1]) failures.push(`step ${n}: wrong result`);
        if (canon(old) !== canons[n]) failures.push(`step ${n}: the old state was modified`);
      });
      return failures;
    }""", json.dumps({"views": views, "patches": patches}))
    assert failures == []


def test_a_connection_asks_for_patches_only_when_told_and_sees_the_same_states(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 3, "races": 1},
                            "seats": [{"name": f"B{n}", "kind": "bot"} for n in range(3)], "pace": 0.05})
    page = browser.new_page()
    page.goto(server.url + "/")
    seen = page.evaluate("""async (tableId) => {
      const { TableConnection } = await import("/static/net.js");
      const canon = """ + CANON + """;
      const watch = (options) => new Promise((resolve) => {
        const seen = { frames: {}, states: {} };
        const connection = new TableConnection(tableId, { ...options, onState: (state) => {
          // what does not follow the clock (its readings are built afresh every 0.5 s)
          seen.states[state.state_id] = canon({ view: state.view, decision: state.decision, over: state.over,
                                                status: state.status, seats: state.seats });
          if (state.over) { connection.closed = true; connection.ws.close(); resolve(seen); }
        } });
        connection.ws.addEventListener("message", (event) => {
          const type = JSON.parse(event.data).type;
          seen.frames[type] = (seen.frames[type] || 0) + 1;
        });
        setTimeout(() => resolve(seen), 60000);
      });
      const [patched, whole] = await Promise.all([watch({ patches: true }), watch({})]);
      return { patched, whole };
    }""", table["id"])
    patched, whole = seen["patched"], seen["whole"]
    assert patched["frames"].get("patch", 0) > 5 and "patch" not in whole["frames"]
    common = set(patched["states"]) & set(whole["states"])
    assert max(map(int, whole["states"])) == max(map(int, patched["states"]))   # both saw the end
    assert len(common) > 5 and all(patched["states"][k] == whole["states"][k] for k in common)


def test_the_lobby_pages_through_the_open_tables(server, browser):
    made = []
    for n in range(22):   # the lobby shows 20 open tables a page
        body = {"game": "turfmaster-race", "seats": [{"name": f"Ana {n}"}, {"name": "Bo"}],
                "setup": {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}}
        request = urllib.request.Request(server.url + "/api/tables", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "Origin": server.url})
        made.append(json.loads(urllib.request.urlopen(request, timeout=30).read())["id"])
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector("#tables .more-tables")
    shown = page.eval_on_selector_all("#tables tr td:first-child", "cells => cells.map(c => c.textContent)")
    assert shown == made[::-1][:20]
    page.click("#tables .more-tables")
    page.wait_for_function("() => document.querySelectorAll('#tables tr td:first-child').length >= 22")
    shown = page.eval_on_selector_all("#tables tr td:first-child", "cells => cells.map(c => c.textContent)")
    assert shown[:22] == made[::-1]
    screenshot(page, "lobby-more-tables")
