"""The lobby's list of tables, a page at a time: ``GET /api/tables?limit=N&after=ID&status=S&tutorials=T``.

Newest first. ``limit`` (default :data:`DEFAULT_LIMIT`, at most :data:`MAX_LIMIT`) tables a page;
``next`` is the cursor of the next page (the id of this page's last table: pass it as ``after``),
``null`` on the last page. ``status`` keeps only the tables in that status (``waiting``,
``playing``, ``between_races``, ``over``, ``damaged``), or in any of several separated by commas
(the lobby page asks for ``waiting,playing,between_races``: the open tables). ``tutorials``:
``include`` (the default) lists the tables of guided first games too, ``exclude`` leaves them
out (the lobby page: they are one person's lesson, not a table to join), in the query itself, so
a page is as full as any other.

A page reads only the rows it shows from storage (an index on the creation time) and never
builds a table: a table in memory is summarized by its room, an archived one (finished, dropped
from memory: :mod:`hippodrome.server.archive`) from its stored row, without replaying its log.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hippodrome.core.registry import descriptions
from hippodrome.i18n import Message
from hippodrome.server.localize import LobbyError
from hippodrome.server.seating import watch_link
from hippodrome.table.lifecycle import OVER, STATUSES

if TYPE_CHECKING:
    from hippodrome.server.hub import Hub

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
DAMAGED = "damaged"
#: rows read at a time while a status filter skips tables
BATCH = 200
#: the values of ``tutorials``: list the guided first games' tables, or leave them out
INCLUDE, EXCLUDE = "include", "exclude"


def bad_request(message: Message) -> LobbyError:
    return LobbyError(400, message, code="bad_request")


def parse_query(params: dict[str, str]) -> tuple[int, str | None, set[str] | None, bool]:
    """(limit, after, statuses, whether tutorials are listed) from the query, or a 400 saying what
    would be right."""
    text = params.get("limit")
    limit = DEFAULT_LIMIT
    if text is not None:
        if not text.isdigit() or not 1 <= int(text) <= MAX_LIMIT:
            raise bad_request(Message("'limit' must be a whole number from 1 to {max}", max=MAX_LIMIT))
        limit = int(text)
    after = params.get("after") or None
    if after is not None and len(after) > 40:
        raise bad_cursor(after[:40] + "...")
    text = params.get("status") or None
    statuses = None if text is None else set(text.split(","))
    if statuses is not None and not statuses <= {*STATUSES, DAMAGED}:
        raise bad_request(Message("'status' must be one of: {statuses} (several separated by commas)",
                                  statuses=", ".join((*STATUSES, DAMAGED))))
    tutorials = params.get("tutorials") or INCLUDE
    if tutorials not in (INCLUDE, EXCLUDE):
        raise bad_request(Message("'tutorials' must be {include} or {exclude}", include=INCLUDE, exclude=EXCLUDE))
    return limit, after, statuses, tutorials == INCLUDE


def tutorial_games() -> tuple[str, ...]:
    """The names of the guided first games ("Learn to play")."""
    return tuple(description.name for description in descriptions() if description.tutorial_of)


def bad_cursor(after: str) -> LobbyError:
    return bad_request(Message("'after' must be the 'next' cursor of the page before; no table {id}", id=repr(after)))


def archived_summary(row: dict[str, Any]) -> dict[str, Any]:
    """A finished table's lobby entry from its stored row (the shape of ``Room.summary``)."""
    from hippodrome.core.registry import game_class

    description = game_class(row["game"]).description
    seats = [{"seat": n, "name": s["name"], "kind": s["kind"], "level": s["level"], "connected": s["kind"] == "bot"}
             for n, s in enumerate(row["seats"])]
    return {"id": row["id"], "game": row["game"], "setup": description.public_setup(json.loads(row["setup"])),
            "seats": seats, "watch": watch_link(description, row["id"]), "state_id": row["state_id"],
            "over": True, "status": OVER, "options": json.loads(row["options"]),
            "free_seats": [s["seat"] for s in seats if s["kind"] == "person"]}


def page(hub: "Hub", params: dict[str, str]) -> dict[str, Any]:
    limit, after, status, with_tutorials = parse_query(params)
    without = () if with_tutorials else tutorial_games()
    # which stored rows may hold these statuses: a finished table is stored as over
    over = None if status is None or DAMAGED in status or (OVER in status and len(status) > 1) else OVER in status
    shown: list[dict[str, Any]] = []
    more = False
    cursor = after
    while len(shown) <= limit:
        try:
            rows = hub.storage.list_rows(BATCH if status else limit + 1, cursor, over, without)
        except KeyError:
            raise bad_cursor(cursor) from None
        for row in rows:
            entry = summary(hub, row)
            if status is None or entry["status"] in status:
                if len(shown) == limit:
                    more = True
                    break
                shown.append(entry)
        if more or len(rows) < (BATCH if status else limit + 1):
            break
        cursor = rows[-1]["id"]
    return {"tables": shown, "next": shown[-1]["id"] if more else None}


def summary(hub: "Hub", row: dict[str, Any]) -> dict[str, Any]:
    table_id = row["id"]
    if table_id in hub.damaged:
        return hub.damaged_summary(table_id)
    room = hub.rooms.get(table_id)
    if room is not None:
        return room.summary()
    if not row["over"]:   # not in memory yet: loaded now (or marked damaged)
        hub.load(table_id)
        if table_id in hub.rooms or table_id in hub.damaged:
            return summary(hub, row)
        if hub.cluster is not None:   # another process runs it: as it published it, else as stored
            remote = hub.cluster.remote_summary(table_id)
            room = hub.read(table_id) if remote is None else None
            if remote is not None or room is not None:
                return remote if remote is not None else room.summary()
    try:
        return archived_summary(row)
    except Exception as error:   # a damaged row: listed as damaged, the others still listed
        hub._damaged(table_id, row["game"], error)
        return hub.damaged_summary(table_id)

