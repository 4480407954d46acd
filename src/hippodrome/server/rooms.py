"""Tables in play on the server: each with its runner, host digest and connections.

A room stores its table's progress through the server's :class:`~hippodrome.server.writer.StoreWriter`
(off the event loop, in order) when its runner hands it a change (:meth:`Room.store`), and shows
the change once it is stored (:meth:`Room.show`); while saving fails its connections are told so
in words (:meth:`Room.saving_notice`) and shown no state that is not stored (:meth:`Room.update_for`).
Once a change is stored, the state is made at once for every audience that has a connection:
while the next change's commit is under way they are shown that, the last stored state, not made
to wait for the next one."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from hippodrome.core.description import GameDescription
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import open_decision_view
from hippodrome.core.registry import game_class
from hippodrome.i18n import DEFAULT_LANGUAGE, Message
from hippodrome.server.collector import warmed_up
from hippodrome.server.metrics import ActClock, commit_timer
from hippodrome.server.seating import bot_seed, new_lifecycle, watch_link
from hippodrome.server.storage import Save, Storage, hash_token
from hippodrome.server.views import JsonText, SharedView, Snapshot, ViewCache, json_text
from hippodrome.server.writer import StoreWriter
from hippodrome.table.bots import make_bot
from hippodrome.table.journal import SAVING_FAILED, Progress
from hippodrome.table.lifecycle import Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.runner import Shown, TableRunner
from hippodrome.table.table import Table
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker

SAVING_WORKS = Message("the game is saved again: play goes on")


@dataclass(eq=False)
class Connection:
    """One websocket: who it is (a seat, or None for a spectator), the language it reads, whether
    it needs news, whether it reads patches (``join`` with ``"patches": true``) and the last state
    it was sent (the base of its next patch)."""

    seat: int | None = None
    lang: str = DEFAULT_LANGUAGE
    joined: bool = False
    welcomed: bool = False  # its welcome is sent: states may follow
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    saving_told: str = "ok"  # what it was last told of saving: "ok" or "failing"
    #: the table went to another process: the connection is closed (its page reconnects)
    gone: bool = False
    patches: bool = False
    sent: Snapshot | None = None
    #: sends the connection its news at once, where its sender is idle and its socket takes data
    #: (True), sparing a turn of the loop and a task woken; None or False: its sender does it
    push: Callable[[], bool] | None = None
    pushed: int = 0   # messages it was sent that way (for tests and measurements)
    #: the seat its handshake's signed-in account holds at the table: a join without a token takes it
    account_seat: int | None = None

    def rejoined(self) -> None:
        """A (new) join: the next message is the whole state."""
        self.sent = None


_warmed: set[type] = set()


def warm_up_in_background(game: str) -> None:
    """The game's :meth:`~hippodrome.core.game.Game.warm_up`, once per process, in a thread, when
    its first table is made or loaded: its tables are filled beside the loop, not by the first move
    on it (a process serving no table of the game pays nothing)."""
    cls = game_class(game)
    if cls not in _warmed:
        _warmed.add(cls)
        threading.Thread(target=_warm_up, args=(cls,), name=f"hippodrome-warm-up-{game}", daemon=True).start()


def _warm_up(cls: type) -> None:
    cls.warm_up()
    warmed_up()


class Room:
    """A table in play on this server: its runner, host digest, options and connections. It is
    the table's :class:`~hippodrome.table.journal.Keeper`: the runner hands it each change's
    progress to store, then has it show the change; the room never calls the runner back."""

    def __init__(self, table_id: str, game: str, table: Table, host_hash: str, options: dict[str, Any],
                 storage: Storage, writer: StoreWriter, bot_delay: float, paused: bool = False,
                 lifecycle: Lifecycle | None = None, pacer: Pacer | None = None,
                 thinker: ThreadThinker | ProcessThinker = THREADS, bot_budget: float | None = None):
        self.id = table_id
        self.game = game
        self.description: GameDescription = game_class(game).description
        warm_up_in_background(game)
        self.table = table
        self.host_hash = host_hash
        self.options = options
        self.storage = storage
        self.writer = writer
        self.bot_budget = bot_budget
        self.stored: int | None = None  # log entries stored (None: not counted yet)
        self.connections: set[Connection] = set()
        self._seats: list[dict[str, Any]] | None = None   # public_seats() as last made
        self.act_clock = ActClock()   # acts on their way to the spectators (hippodrome_act_to_spectator_seconds)
        #: others who hear of each change shown (a cluster's lobbies)
        self.watchers: list[Callable[["Room"], None]] = []
        settings = self.description.table_settings(options)
        self.runner = TableRunner(table, keeper=self, bot_delay=bot_delay, roll_interval=settings.clock_interval,
                                  paused=paused, lifecycle=lifecycle or new_lifecycle(table.players, settings),
                                  free_delay=settings.bot_reaction, pacer=pacer, thinker=thinker)
        self.shown: Shown = self.runner.shown()   # the table around the game, as last stored
        #: each audience's view at a state, as JSON text (the same in every language)
        self._views: dict[int | None, tuple[int, JsonText]] = {}
        self._shared: tuple[int, SharedView] | None = None   # the part of every view alike, at a state id
        self.views = ViewCache(self.state_message)
        self._lobby = self._lobby_fields()  # the lobby's view of the table as last stored
        #: since when the table is over (monotonic), for archiving; None while it plays
        self.over_since: float | None = time.monotonic() if table.over else None
        #: the table "Play again" made: {"table", "links": {seat: link}, "watch"} (server/again.py)
        self.again: dict[str, Any] | None = None

    # -- tokens -------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        return self.table.seat_of(hash_token(token))

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.host_hash, hash_token(token))

    # -- the keeper of the table's progress (called by its runner, under its lock) ----------
    def store(self, progress: Progress, stored: Callable[[], None]) -> asyncio.Future:
        """Store the table's progress on the writer's thread: queued now (the future raises when
        that failed); ``stored()`` runs on the loop as the writer answers yes."""
        saved = self.writer.save(self.storage, Save(self.id, progress.log, progress.state_id, progress.over,
                                                    progress.paused, self.stored, progress.lifecycle,
                                                    progress.handed), at_once=stored)
        saved.add_done_callback(self._saved)
        commit_timer(saved)
        return saved

    def _saved(self, saved: asyncio.Future) -> None:
        if not saved.cancelled() and saved.exception() is None:
            self.stored = saved.result()   # log entries stored

    def show(self) -> None:
        """A change is stored: the shared views, the lobby's view of the table follow, and every
        connection hears of it."""
        table = self.table
        self.shown = self.runner.shown()
        if table.over and self.over_since is None:
            self.over_since = time.monotonic()
        self._lobby = self._lobby_fields()
        self.notify_all()
        for seat, lang in {(c.seat, c.lang) for c in self.connections if c.joined}:
            self.views.snapshot(seat, lang)   # the stored state, for them to be shown (update_for)
        for watcher in self.watchers:
            watcher(self)

    def saving(self, failing: bool) -> None:
        """Saving failed (the table is paused) or works again: every connection hears of it."""
        self.notify_all()

    @property
    def saving_state(self) -> str:
        """``"failing"`` while the table's progress cannot be stored (the table is paused), else ``"ok"``."""
        return "failing" if self.runner.saving_failed else "ok"

    def saving_notice(self, connection: Connection) -> dict[str, Any] | None:
        """The ``storage`` message ``connection`` has not had yet: saving failed, or works again
        after it failed (None: nothing new to say)."""
        saving = self.saving_state
        if saving == connection.saving_told:
            return None
        connection.saving_told = saving
        message = SAVING_FAILED if saving == "failing" else SAVING_WORKS
        return {"type": "storage", "table": self.id, "saving": saving, "message": message.translate(connection.lang),
                "message_i18n": message.to_json()}

    # -- the lifecycle (waiting, between races) ------------------------------------------
    @property
    def status(self) -> str:
        return self.shown.status

    def person_seats_present(self) -> set[int]:
        return {connection.seat for connection in self.connections
                if connection.joined and connection.seat is not None}

    async def update_presence(self) -> bool:
        """Who is here, stored (True) or, while saving fails, noted to be stored later (False)."""
        return await self.runner.set_present(self.person_seats_present())

    async def start_now(self, level: str | None, host_seat: int | None = None) -> list[int]:
        """The host starts the game, handing each empty person seat (not ready, nobody connected,
        not ``host_seat``: the seat of the host's own connection) to a bot of ``level`` (None: the
        game's strongest, the last it lists)."""
        if not self.description.bots and not self.runner.lifecycle.started and \
                self.runner.lifecycle.empty_seats(host_seat):
            raise IllegalAction(Message("this game has no bots to take the seats of absent players"))
        level = self._level(level)
        return await self.runner.start_now(self._bot_maker(level), level, host_seat)

    async def hand(self, seat: int, level: str | None, host_seat: int | None = None) -> None:
        """The host hands the person seat ``seat``, whose person has left (nobody is connected to
        it), to a bot of ``level`` (None: the game's strongest) while the game runs, as the start
        hands the empty seats; ``host_seat``: the seat of the host's own connection, never handed."""
        if not self.description.bots:
            raise IllegalAction(Message("this game has no bots to take the seats of absent players"))
        level = self._level(level)
        # (a connection that joined a moment ago, its presence not stored yet, counts as connected)
        await self.runner.hand(seat, self._bot_maker(level), level, host_seat,
                               connected=self.person_seats_present())

    def _level(self, level: str | None) -> str | None:
        return level or (self.description.bots[-1].name if self.description.bots else None)

    def _bot_maker(self, level: str | None) -> Callable[[int], Any]:
        seed = self.table.match.seed
        return lambda seat: make_bot(self.game, level, bot_seed(seed, seat), self.bot_budget)

    def notify_all(self) -> None:
        """Something the connections show changed (a stored change, a join, a leave): the shared
        views are out of date, and every joined connection is told (once its state is stored)."""
        self.views.changed()
        self._seats = None
        for connection in list(self.connections):
            if connection.joined and not (connection.push is not None and connection.push()):
                connection.dirty.set()

    # -- messages -------------------------------------------------------------------
    def update_for(self, connection: Connection) -> bytes | None:
        """The JSON text (in UTF-8) to send ``connection`` now: the whole state (shared by its audience), or
        for a patch-reading connection the patch from the last state it was sent. While a change's
        commit is under way that is the last stored state (made when it was stored), or None when
        there is none for its audience (it joined meanwhile): it is told again once it is stored."""
        snapshot = self.views.snapshot(connection.seat, connection.lang, may_build=self.runner.stored)
        if snapshot is None:
            return None
        data = self.views.update_data(connection.sent, snapshot) if connection.patches else snapshot.data
        connection.sent = snapshot
        if connection.seat is None:
            self.act_clock.shown(snapshot.state_id)
        return data

    def public_seats(self) -> list[dict[str, Any]]:
        """Who plays each seat and whether it is here: made once until the next change or join
        (``notify_all``), shared by every audience's state message (read, never changed)."""
        if self._seats is None:
            connected = {connection.seat for connection in self.connections
                         if connection.joined and connection.seat is not None}
            self._seats = [{"seat": n, "name": player.name, "kind": player.kind, "level": player.level,
                            "connected": n in connected or not player.is_person}
                           for n, player in enumerate(self.table.players)]
        return self._seats

    def decision_for(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any] | None:
        """The step ``seat`` waits for as it is shown it (its own open decision where several seats
        choose at once, with ``together``), notes in ``lang``, and whether a bot decides."""
        state = self.table.state
        decision = open_decision_view(state, seat, state.public_decision_context, lang)
        if decision is not None and "kind" in decision:
            decision["bot"] = not self.table.players[decision["seat"]].is_person
        return decision

    def state_message(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        table, shown = self.table, self.shown
        cached = self._views.get(seat)
        if cached is None or cached[0] != table.state_id:
            state = table.state
            own = state.own_view(seat)
            cached = (table.state_id, self._shared_view(own).view_text(own) or json_text(state.view(seat)))
            self._views[seat] = cached
        return {"type": "state", "table": self.id, "game": self.game, "state_id": table.state_id,
                "seat": seat, "view": cached[1], "decision": self.decision_for(seat, lang),
                "free_actions": sorted(table.state.free_action_types), "over": table.over,
                "status": shown.status, "lifecycle": shown.lifecycle, "clock": shown.clock,
                "seats": self.public_seats(), **self.again_for(seat)}

    def _shared_view(self, own: dict[str, Any]) -> SharedView:
        """The part of the view every audience is shown alike at this state, written once for them
        all (apart, the shared objects ``own``, the first own part asked for at this state, adds
        to: every seat's own part has the same keys at a state)."""
        table = self.table
        if self._shared is None or self._shared[0] != table.state_id:
            shared = table.state.shared_view()
            self._shared = (table.state_id, SharedView(shared, shared.keys() & own.keys()))
        return self._shared[1]

    def again_for(self, seat: int | None) -> dict[str, Any]:
        """The next table of "Play again" as ``seat`` is told of it: a seat its own link there
        (its token: only its own audience's messages carry it), a spectator where to watch."""
        if self.again is None:
            return {}
        link = self.again["links"].get(seat) if seat is not None else None
        return {"again": {"table": self.again["table"], **({"link": link} if link else {"watch": self.again["watch"]})}}

    def _lobby_fields(self) -> dict[str, Any]:
        return {"state_id": self.table.state_id, "over": self.table.over, "status": self.shown.status}

    def summary(self) -> dict[str, Any]:
        """The table in the lobby, as last stored; ``saving``: ``"failing"`` while it is paused
        because its progress cannot be stored."""
        seats = self.public_seats()
        return {"id": self.id, "game": self.game, "setup": self.description.public_setup(self.table.match.setup),
                "seats": seats, "watch": watch_link(self.description, self.id), **self._lobby,
                "saving": self.saving_state, "options": self.options,
                "free_seats": [s["seat"] for s in seats if s["kind"] == "person" and not s["connected"]]}
