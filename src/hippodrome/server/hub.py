"""The hub: every table this server process knows, by id, loaded from storage and run here.

A table is made (:meth:`Hub.create`: stored before it is run), or loaded from its stored log
(:meth:`Hub.open`: replayed in a worker thread), and run as a :class:`~hippodrome.server.rooms.Room`.
A stored table whose rows do not make a table is kept aside as damaged, listed with its fault, while
the others play on. In a cluster (several processes on one PostgreSQL database) the hub runs a table
only while it holds its lease.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from hippodrome.core.errors import InvalidSetup
from hippodrome.core.registry import game_class
from hippodrome.core.rulings import Ruled
from hippodrome.i18n import Message
from hippodrome.server.localize import LobbyError
from hippodrome.server.logs import about_table
from hippodrome.server.rooms import Room
from hippodrome.server.seating import check_game, new_lifecycle, new_players, seat_rows, stored_players, watch_link
from hippodrome.server.setup_form import checked_setup, table_options
from hippodrome.server.storage import Storage, UnreadableRow, hash_token
from hippodrome.server.strict_json import check_value
from hippodrome.server.writer import StoreWriter
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.table import Table
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker

log = logging.getLogger(__name__)


@dataclass
class Unreadable:
    """A stored table whose rows do not make a table: its game (if read) and the fault."""

    game: str
    error: Exception


class Hub:
    """Every table the server knows, by id; their writes go through one :class:`StoreWriter`."""

    def __init__(self, storage: Storage, bot_delay: float, thinker: ThreadThinker | ProcessThinker = THREADS,
                 bot_budget: float | None = None):
        self.storage = storage
        self.bot_budget = bot_budget   # seconds a search bot thinks a decision (None: its default)
        self.writer = StoreWriter()
        self.thinker = thinker   # where the bots think: threads, or worker processes (--bot-workers)
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        #: several processes on one PostgreSQL database (server/cluster.py): this process runs a
        #: table only while it holds its lease. None: the only process.
        self.cluster = None
        #: tables whose stored rows do not make a table (a damaged row, values strict JSON refuses,
        #: a log that does not replay): id -> {"game", "fault"}; listed as damaged, the others play on
        self.damaged: dict[str, dict[str, str]] = {}
        self._opening: dict[str, asyncio.Future] = {}   # tables being loaded in a worker thread
        self.pacer = Pacer()   # tables of bots only take turns on the event loop
        #: called with each room this process starts running (the accounts watch tables end)
        self.on_run: list[Callable[[Room], None]] = []

    def resume_all(self) -> None:
        """Resume the unfinished tables (finished ones are loaded when someone opens them)."""
        for table_id in self.storage.table_ids(only_running=True):
            self.load(table_id)

    def load(self, table_id: str) -> Room | None:
        """The table's room, loaded from storage now if it is not in memory (None: no such table, or
        a damaged one). Replays its log here: in a request, :meth:`open` does that in a thread."""
        if table_id in self.rooms:
            return self.rooms[table_id]
        if table_id in self.damaged:
            return None
        if self.cluster is not None and not self.cluster.may_run(table_id):
            return None
        return self._started(table_id, self._restore(table_id))

    async def open(self, table_id: str) -> Room | None:
        """:meth:`load`, its storage read and log replay in a worker thread (an archived table with a
        long log does not hold up the other tables); two opens of one table share the work. In a
        cluster the table's lease is taken first (None: another process runs it)."""
        if table_id in self.rooms or table_id in self.damaged:
            return self.rooms.get(table_id)
        if self.cluster is not None and not self.cluster.may_run(table_id):
            return None
        if table_id not in self._opening:
            self._opening[table_id] = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(None, self._restore, table_id))
        try:
            restored = await asyncio.shield(self._opening[table_id])
        finally:
            self._opening.pop(table_id, None)
        if table_id in self.rooms:   # an open that finished first
            return self.rooms[table_id]
        return self._started(table_id, restored)

    def read(self, table_id: str) -> Room | None:
        """The table as stored, made a room but not run (None: no such table, or damaged)."""
        return self._made(table_id, self._restore(table_id))

    def _restore(self, table_id: str) -> tuple | Unreadable | None:
        """A stored table made again (no asyncio: may run in a worker thread): (data, seats' info,
        table, lifecycle), None when there is none, or what made it fail."""
        try:
            data = self.storage.load(table_id)
        except UnreadableRow as error:  # a row whose JSON does not decode
            return Unreadable(error.game or "?", error)
        except Exception as error:  # a row SQLite cannot read
            return Unreadable("?", error)
        if data is None:
            return None
        try:
            check_value({key: data[key] for key in ("setup", "options", "seats", "log")})
            record = {"game": data["game"], "setup": data["setup"], "seed": data["seed"], "log": data["log"],
                      "rulings": data["rulings"]}   # None: stored before versions (its log tells)
            stored = data["lifecycle"]
            players = stored_players(data["game"], data["seed"], data["seats"],
                                     stored["handed"] if stored is not None else [], self.bot_budget)
            table = Table.from_record(record, players, data["state_id"])
            settings = game_class(data["game"]).description.table_settings(data["options"])
            lifecycle = (Lifecycle.from_json(stored, players) if stored is not None
                         else new_lifecycle(players, settings, started=True))
        except Exception as error:  # stored by an older server, or rows that do not replay
            return Unreadable(data.get("game", "?"), error)
        return data, table, lifecycle

    def _started(self, table_id: str, restored: tuple | Unreadable | None) -> Room | None:
        """The restored table run here (None: no such table, or damaged)."""
        if table_id in self.damaged:
            return None
        room = self._made(table_id, restored)
        if room is not None:
            self._run(room)
        return room

    def _made(self, table_id: str, restored: tuple | Unreadable | None) -> Room | None:
        if isinstance(restored, Unreadable):
            return self._damaged(table_id, restored.game, restored.error)
        if restored is None:
            return None
        data, table, lifecycle = restored
        try:
            room = self._room(table_id, data["game"], table, data["host_hash"], data["options"], lifecycle,
                              paused=data["paused"])
        except Exception as error:
            return self._damaged(table_id, data.get("game", "?"), error)
        return room

    def _room(self, table_id: str, game: str, table: Table, host_hash: str, options: dict[str, Any],
              lifecycle: Lifecycle, paused: bool = False) -> Room:
        return Room(table_id, game, table, host_hash, options, self.storage, self.writer, self.bot_delay,
                    paused=paused, lifecycle=lifecycle, pacer=self.pacer, thinker=self.thinker,
                    bot_budget=self.bot_budget)

    def _run(self, room: Room) -> None:
        self.rooms[room.id] = room
        for hook in self.on_run:
            hook(room)
        if self.cluster is not None:  # the other processes' lobbies hear of it, and of every change
            room.watchers.append(self.cluster.changed)
            self.cluster.changed(room)
        with about_table(room.id):   # what its runner logs names the table
            room.runner.start()

    async def unload(self, table_id: str, release: bool = False) -> None:
        """Stop running a table here (another process holds its lease now, or it is archived): its
        connections are closed, and their pages reconnect to its new owner. ``release``: give up
        its lease too (an archived table: any process may open it again)."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        if release and self.cluster is not None:
            self.cluster.release(table_id)  # before any await: no open here meanwhile finds our lease
        await room.runner.stop()
        for connection in room.connections:
            connection.gone = True
            connection.dirty.set()

    def _damaged(self, table_id: str, game: str, error: Exception) -> None:
        log.error("table %s is damaged and is not resumed: %s: %s", table_id, type(error).__name__, error,
                  extra={"table": table_id})   # one line: the fault, not a traceback
        first = error.args[0] if error.args else None
        fault = first if isinstance(first, (str, Message, Ruled)) else type(error).__name__
        self.damaged[table_id] = {"game": game, "fault": str(fault)}
        return None

    def damaged_summary(self, table_id: str) -> dict[str, Any]:
        entry = self.damaged[table_id]
        return {"id": table_id, "game": entry["game"], "status": "damaged", "fault": entry["fault"]}

    async def create(self, request: dict[str, Any]) -> dict[str, Any]:
        description = check_game(request.get("game"))
        game = description.name
        setup = checked_setup(description, request.get("setup", {}))
        options = table_options(description, request)
        # a table without seats (the race caller for the box) is run by its host: it waits for its start
        wait_for_host = request.get("wait_for_host", description.max_seats == 0)
        if not isinstance(wait_for_host, bool):
            raise InvalidSetup(Message("'wait_for_host' must be true (the table waits for its host's start) or false"))
        seed = secrets.token_hex(16)
        players, tokens = new_players(description, request.get("seats"), seed, self.bot_budget)
        table = Table(game, setup, players, seed)
        count = description.seats(table.state).count
        if count != len(players):
            raise InvalidSetup(Message("this {game} setup has {count} seats; the table lists {listed}",
                                       game=game, count=count, listed=len(players)))
        table_id = secrets.token_hex(5)
        host_token = secrets.token_urlsafe(24)
        # a tutorial's one person starts at once (no Ready step)
        lifecycle = new_lifecycle(players, description.table_settings(options), wait_for_host,
                                  started=description.starts_at_once or None)
        try:
            await self.writer.call(self.storage.create_table, table_id, game, setup, seed, seat_rows(players),
                                   hash_token(host_token), options, table.match.rulings)
            if self.cluster is not None:
                self.cluster.may_run(table_id)  # its lease, written with the table, gets our address
            await self.writer.call(self.storage.save_progress, table_id, table.match.log, table.state_id,
                                   table.over, False, lifecycle=lifecycle.to_json())
        except Exception as error:  # the disk is full, the database locked or unreadable
            log.error("a new table could not be stored: %s", error, extra={"table": table_id})
            raise LobbyError(503, Message("saving the new table failed, so it was not made; try again in a moment"),
                             code="storage", headers={"Retry-After": "5"})
        room = self._room(table_id, game, table, hash_token(host_token), options, lifecycle)
        self._run(room)
        creator = next((n for n, player in enumerate(players) if player.is_person), None)
        creator_seat = f"seat={tokens[creator]}&" if creator is not None else ""
        return {"id": table_id, "game": game, "host_token": host_token, "status": room.status,
                **({"host_link": f"/call/{table_id}#host={host_token}"} if description.caller else {}),
                **({"play_host_link": f"/play/{table_id}#{creator_seat}host={host_token}"}
                   if creator is not None or (wait_for_host and description.max_seats > 0) else {}),
                "spectator_link": watch_link(description, table_id),
                "seats": [{"seat": n, "name": player.name, "kind": player.kind, "level": player.level,
                           **({"token": tokens[n], "link": f"/play/{table_id}#seat={tokens[n]}"}
                              if player.is_person else {})}
                          for n, player in enumerate(players)]}

    async def stop(self) -> None:
        for room in self.rooms.values():
            await room.runner.stop()
        await asyncio.get_running_loop().run_in_executor(None, self.writer.close)  # what is queued is written
        await asyncio.get_running_loop().run_in_executor(None, self.thinker.close)  # the bot workers stop
