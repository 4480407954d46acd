"""Many tables in one process (issue #15, part 3): shared views and patches, the paginated lobby
listing, finished tables archived and loaded again, a restart that skips finished tables."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings, strategies as st

from hippodrome.i18n import Message
from hippodrome.server import create_app, jsonpatch
from hippodrome.server.rooms import Room
from hippodrome.core.game import merged_view
from hippodrome.server.views import SharedView, ViewCache, dumps, json_default, json_text
from hippodrome.table.table import Player, Table
from hippodrome.table.bots import make_bot

from tests.server.conftest import join, make_table, receive
from tests.server.services import postgres_url  # noqa: F401  (a fixture)

BOTS_RACE = [{"name": "R", "kind": "bot", "level": "random"}, {"name": "B", "kind": "bot", "level": "random"}]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet="ab/~0", max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet="ab/~1", max_size=3), inner,
                                                                 max_size=4),
    max_leaves=20)


def same_json(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_patch_turns_any_document_into_any_other(old, new):
    ops = jsonpatch.diff(old, new)
    before = json.dumps(old, sort_keys=True)
    assert same_json(jsonpatch.apply(old, ops), new)
    assert json.dumps(old, sort_keys=True) == before, "applying a patch changed the document it was applied to"
    if same_json(old, new):
        assert ops == []


def test_a_patch_keeps_json_types_apart():
    """1 is not true, 0 is not false, 1.0 is not 1 in JSON text: each difference is a patch."""
    assert jsonpatch.diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]
    assert jsonpatch.diff([0], [False]) == [{"op": "replace", "path": "/0", "value": False}]
    assert jsonpatch.diff({"a/b": 1}, {}) == [{"op": "remove", "path": "/a~1b"}]


@pytest.mark.parametrize("game, setup, players", [
    ("readysetbet", {"players": 3}, 3),
    ("turfmaster", {"players": 3}, 3),
])
@pytest.mark.slow
def test_patches_over_a_random_game_give_every_seat_its_whole_view(game, setup, players):
    """A seat's and the spectators' messages along a whole random game (bots at every seat):
    the first whole, then patches, applied in order, equal each whole message."""
    rng = random.Random(7)
    seats = [Player(f"s{n}", make_bot(game, "random", f"seed:{n}")) for n in range(players)]
    table = Table(game, setup, seats, seed=11)
    audiences = [None, players - 1]   # the spectators and one seat (its hidden hand included)

    def message(seat):
        return {"state_id": table.state_id, "view": table.state.view(seat), "over": table.over}

    caches = {seat: ViewCache(lambda s, lang: message(s)) for seat in audiences}
    held = {seat: None for seat in audiences}
    sent = {seat: None for seat in audiences}
    patches = 0
    for _ in range(3000):
        for seat in audiences:
            snapshot = caches[seat].snapshot(seat, "en")
            whole = json.loads(json.dumps({"v": 1, **message(seat)}, default=json_default))
            # the whole state's text reads as what json.dumps made before the views were shared
            # (orjson writes it now: compactly, in UTF-8)
            assert json.loads(snapshot.text) == whole
            text = caches[seat].update_data(sent[seat], snapshot)
            received = json.loads(text)
            if received.get("type") == "patch":
                patches += 1
                held[seat] = jsonpatch.apply(held[seat], received["ops"])
            else:
                held[seat] = received
            sent[seat] = snapshot
            assert held[seat] == whole
        if table.over:
            break
        moved = table.bot_move() or (table.waits_for_clock() and table.tick())
        if not moved:   # free actions only (bets) open: a bot bets
            for seat in rng.sample(range(players), players):
                options = table.state.free_options(seat)
                if options:
                    table.act(seat, rng.choice(options))
                    break
            else:
                break
        for cache in caches.values():
            cache.changed()
    assert table.over
    assert patches > 10


def test_spectators_share_one_view_and_a_client_that_never_asked_gets_whole_states(client):
    table = make_table(client, seats=BOTS_RACE)
    room = client.app.state.hub.rooms[table["id"]]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as plain, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as patched:
        assert "patches" not in join(plain)
        patched.send_json({"v": 1, "type": "join", "patches": True})
        assert receive(patched, "welcome")["patches"] is True
        held = None
        kinds = set()
        for _ in range(400):
            message = patched.receive_json()
            kinds.add(message["type"])
            held = message if message["type"] == "state" else jsonpatch.apply(held, message["ops"])
            if held["over"]:
                break
        assert held["over"] and "patch" in kinds
        final = receive(plain, predicate=lambda m: m["over"], limit=5000)
        assert {k: v for k, v in final.items() if k != "clock"} == {k: v for k, v in held.items() if k != "clock"}
        assert room.views.builds <= room.views.revision + 5   # one view per change, shared by both


def test_a_bad_patches_flag_is_refused(client):
    table = make_table(client, seats=BOTS_RACE)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"v": 1, "type": "join", "patches": "yes"})
        error = receive(ws, "error")
        assert error["code"] == "bad_message" and "'patches'" in error["message"]


# -- the lobby listing, a page at a time ------------------------------------------------
def test_the_listing_pages_newest_first_and_filters_by_status(client):
    made = [make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}], start=False)["id"] for _ in range(7)]
    pages, after = [], None
    while True:
        answer = client.get("/api/tables", params={"limit": 3, **({"after": after} if after else {})}).json()
        pages.append([t["id"] for t in answer["tables"]])
        after = answer["next"]
        if after is None:
            break
    assert [len(p) for p in pages] == [3, 3, 1]
    assert sum(pages, []) == made[::-1]
    assert client.get("/api/tables").json()["next"] is None   # the default page holds them all
    started = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}])["id"]
    waiting = client.get("/api/tables", params={"status": "waiting", "limit": 2}).json()
    assert [t["id"] for t in waiting["tables"]] == made[::-1][:2] and waiting["next"] == made[-2]
    playing = client.get("/api/tables", params={"status": "playing,between_races"}).json()
    assert [t["id"] for t in playing["tables"]] == [started]


def test_the_listing_leaves_out_the_tutorials_before_paging_when_asked(client):
    def tutorial() -> str:
        return make_table(client, game="turfmaster-tutorial", setup={}, seats=[{"name": "Ana"}], start=False)["id"]

    old = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}], start=False)["id"]
    lessons = [tutorial() for _ in range(3)]
    new = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}], start=False)["id"]
    lessons.append(tutorial())

    def listed(**query) -> tuple[list[list[str]], bool]:
        pages, after = [], None
        while True:
            answer = client.get("/api/tables", params={**query, **({"after": after} if after else {})}).json()
            pages.append([t["id"] for t in answer["tables"]])
            after = answer["next"]
            if after is None:
                return pages
    # the tutorials are playing at once: with and without the status filter, every page is full
    for status in ({}, {"status": "waiting,playing,between_races"}):
        assert listed(limit=2, tutorials="exclude", **status) == [[new, old]]
        assert sum(listed(limit=2, **status), []) == sum(listed(limit=2, tutorials="include", **status), []) \
            == [lessons[3], new, *lessons[2::-1], old]
    assert listed(limit=1, tutorials="exclude") == [[new], [old]]


@pytest.mark.parametrize("query, word", [
    ({"limit": "0"}, "'limit'"), ({"limit": "abc"}, "'limit'"), ({"limit": "201"}, "'limit'"),
    ({"status": "sleeping"}, "'status'"), ({"after": "nosuchtable"}, "'after'"),
    ({"tutorials": "no"}, "'tutorials'"), ({"tutorials": "EXCLUDE"}, "'tutorials'"),
])
def test_a_bad_listing_query_is_refused_saying_what_is_right(client, query, word):
    response = client.get("/api/tables", params=query)
    assert response.status_code == 400 and word in response.json()["detail"]


# -- finished tables archived ------------------------------------------------------------
def sweep(client, expect_some=True, after=0):
    """The archiver's sweep (tables over for ``after`` seconds), again for a moment while the
    server hears a closed connection. The server's own sweeps wait 30 s: none comes between."""
    client.app.state.archiver.after = after
    for _ in range(100):
        dropped = client.portal.call(client.app.state.archiver.sweep)
        if dropped or not expect_some:
            return dropped
        time.sleep(0.02)
    return dropped


def finished_table(client):
    table = make_table(client, seats=BOTS_RACE)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        join(ws)
        final = receive(ws, predicate=lambda m: m["over"], limit=5000)
    return table, final


def test_a_finished_table_is_archived_and_loaded_again_when_opened(db):
    with TestClient(create_app(db, bot_delay=0, archive_after=3600)) as client:
        hub = client.app.state.hub
        table, final = finished_table(client)
        live = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}], start=False)
        assert sweep(client) == [table["id"]]
        assert table["id"] not in hub.rooms and live["id"] in hub.rooms
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[table["id"]]["status"] == "over" and table["id"] not in hub.rooms   # listed from its row
        assert listed[table["id"]]["seats"] == [{**s, "connected": True} for s in final["seats"]]
        over = client.get("/api/tables", params={"status": "over"}).json()["tables"]
        assert [t["id"] for t in over] == [table["id"]]
        assert client.get(f"/api/tables/{table['id']}").json()["state_id"] == final["state_id"]
        assert table["id"] in hub.rooms
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws)
            again = receive(ws)
            assert again["view"] == final["view"] and again["over"]


def test_a_table_is_kept_while_somebody_watches_and_before_its_time(db):
    with TestClient(create_app(db, bot_delay=0, archive_after=3600)) as client:
        table, _ = finished_table(client)
        time.sleep(0.2)
        assert sweep(client, expect_some=False, after=3600) == []
    with TestClient(create_app(db, bot_delay=0, archive_after=3600)) as client:
        client.get(f"/api/tables/{table['id']}")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            join(ws)
            receive(ws)
            assert sweep(client, expect_some=False) == []
        assert sweep(client) == [table["id"]]


def test_a_restart_resumes_only_unfinished_tables(db):
    with TestClient(create_app(db, bot_delay=0)) as client:
        finished = [finished_table(client)[0]["id"] for _ in range(2)]
        waiting = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo"}], start=False)["id"]
    with TestClient(create_app(db, bot_delay=0)) as client:
        hub = client.app.state.hub
        assert set(hub.rooms) == {waiting}
        listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert listed == [waiting, *finished[::-1]] and set(hub.rooms) == {waiting}


def test_two_opens_of_an_archived_table_share_one_load(db):
    with TestClient(create_app(db, bot_delay=0)) as client:
        table, _ = finished_table(client)
    with TestClient(create_app(db, bot_delay=0)) as client:
        hub = client.app.state.hub

        async def both():
            return await asyncio.gather(hub.open(table["id"]), hub.open(table["id"]))

        first, second = client.portal.call(both)
        assert first is second is hub.rooms[table["id"]]
        assert client.portal.call(hub.open, "nosuchtable") is None


def test_the_server_archives_by_itself(db):
    with TestClient(create_app(db, bot_delay=0, archive_after=0)) as client:
        table, _ = finished_table(client)
        hub, archiver = client.app.state.hub, client.app.state.archiver
        for _ in range(200):
            # (the room leaves the hub before its unloading ends and the archiver counts it)
            if table["id"] not in hub.rooms and archiver.archived:
                break
            time.sleep(0.02)
        assert table["id"] not in hub.rooms and archiver.archived == 1


def test_an_archived_table_gives_up_its_lease_and_is_opened_again_only_under_it(postgres_url):
    """Several processes (PostgreSQL): an archived table's lease is released; a process opens it
    again only once it holds the lease, else it answers from the database without running it."""
    import psycopg

    with TestClient(create_app(postgres_url, bot_delay=0, archive_after=3600)) as client:
        hub = client.app.state.hub
        table, final = finished_table(client)
        table_id = table["id"]
        assert sweep(client) == [table_id] and table_id not in hub.rooms
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            lease = "SELECT owner FROM leases WHERE table_id = %s"
            assert conn.execute(lease, (table_id,)).fetchone() is None
            conn.execute("INSERT INTO leases VALUES (%s, 'another', 'http://127.0.0.1:9', "
                         "clock_timestamp() + interval '30 s')", (table_id,))
            answer = client.get(f"/api/tables/{table_id}").json()   # read, not run: another holds it
            assert answer["state_id"] == final["state_id"] and table_id not in hub.rooms
            conn.execute("DELETE FROM leases WHERE table_id = %s", (table_id,))
            assert client.get(f"/api/tables/{table_id}").json()["state_id"] == final["state_id"]
            assert table_id in hub.rooms
            assert conn.execute(lease, (table_id,)).fetchone()[0] == hub.cluster.owner


def test_a_view_kept_between_changes_is_one_json_text_put_in_each_message_as_it_is():
    """(#15) A room keeps each audience's view from one change to the next as its JSON text (one
    object the collector sees, not the view's thousands of dicts and lists, which piled up in the
    young generation and made its collections stop the loop for tens of milliseconds); messages in
    any language hold it as written, including what only the standard library can write."""
    view = {"board": [{"id": n, "tokens": [], "note": Message("the race is over")} for n in range(50)],
            "big": 2 ** 70, "name": "Zoë"}
    kept = json_text(view)
    assert [part for part in gc.get_referents(kept) if not isinstance(part, type)] == [kept.data]
    assert isinstance(kept.data, bytes) and not gc.is_tracked(kept.data)
    plain = json.loads(json.dumps(view, default=json_default))
    for extra in ({}, {"also_big": 2 ** 70}):   # orjson writes the message, or the standard library does
        message = json.loads(dumps({"type": "state", "view": kept, **extra}))
        assert message == {"v": 1, "type": "state", "view": plain, **extra}


def test_a_view_written_from_its_shared_part_holds_the_members_of_both_parts():
    for shared, own in [({}, {}), ({"a": 1}, {}), ({}, {"b": [1, {"c": "}"}]}), ({"a": {"x": 1}}, {"b": None}),
                        ({"race": {"history": [1]}, "n": 2}, {"race": {"hands": {}}, "seat": 0}),
                        ({"race": {}}, {"race": {"hands": {"red": ["7"]}}})]:
        written = SharedView(shared, shared.keys() & own.keys())
        assert json.loads(written.view_text(own).data) == merged_view(shared, own)
    # an own part that adds to another shared object than the spectator's did: written whole instead
    assert SharedView({"race": {}, "b": {}}, {"race"}).view_text({"b": {"x": 1}}) is None


@pytest.mark.parametrize("game, setup", [("readysetbet", {"players": 3}), ("turfmaster", {"players": 3})])
def test_a_room_writes_the_part_every_audience_shares_once_and_each_reads_its_whole_view(game, setup, monkeypatch):
    """The views' shared part is written once a state for every audience, and each audience's
    message holds its whole view (a seat's hidden hand with it) along a game of bots."""
    rng = random.Random(3)
    table = Table(game, setup, [Player(f"s{n}", make_bot(game, "random", f"seed:{n}")) for n in range(3)], seed=5)
    room = Room("t", game, table, "", {}, storage=None, writer=None, bot_delay=0.0)
    made = []
    shared_view = type(table.state).shared_view
    monkeypatch.setattr(type(table.state), "shared_view", lambda state: made.append(1) or shared_view(state))
    for _ in range(150):
        made.clear()
        messages = {seat: json.loads(dumps(room.state_message(seat))) for seat in (None, 0, 1, 2)}
        assert len(made) == 1
        for seat, message in messages.items():
            assert message["view"] == json.loads(json.dumps(table.state.view(seat), default=json_default))
        if table.over or not (table.bot_move() or (table.waits_for_clock() and table.tick())):
            bettors = [seat for seat in range(3) if table.state.free_options(seat)]
            if table.over or not bettors:
                break
            seat = rng.choice(bettors)
            table.act(seat, rng.choice(table.state.free_options(seat)))


def test_keys_that_are_not_strings_are_written_as_the_standard_library_writes_them():
    """orjson writes a message without its option for keys that are not strings (half as long
    again over every dict) and with it where a message has such keys (seats by number)."""
    for value in ({0: "Ana", 1: "Bo"}, {"links": {2: "/play/x"}, "view": json_text({3: [1, 2]})},
                  {"big": {5: 2 ** 70}}):
        assert json.loads(dumps(value)) == json.loads(json.dumps({"v": 1, **value}, default=json_default))
