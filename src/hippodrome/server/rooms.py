"""Tables in play on the server: each with its runner, seats' token digests and connections.

A room commits its table's progress through the server's :class:`~hippodrome.server.writer.StoreWriter`
(off the event loop, in order) before its connections hear of a change; while saving fails its
connections are told so in words (:meth:`Room.saving_notice`) and shown no state that is not
stored (:meth:`Room.update_for`). Once a change is stored, the state is made at once for every
audience that has a connection (:meth:`Room._notify`): while the next change's commit is under way
they are shown that, the last stored state, not made to wait for the next one."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

from hippodrome.core.description import GameDescription
from hippodrome.core.errors import IllegalAction, InvalidSetup, given
from hippodrome.core.game import Decision, decision_view, game_class
from hippodrome.i18n import DEFAULT_LANGUAGE, Message
from hippodrome.server.collector import warmed_up
from hippodrome.server.metrics import ActClock, commit_timer
from hippodrome.server.storage import Save, Storage, hash_token
from hippodrome.server.views import JsonText, Snapshot, ViewCache, json_text
from hippodrome.server.writer import StoreWriter
from hippodrome.table.thinking import THREADS, ProcessThinker, ThreadThinker
from hippodrome.table.bots import make_bot
from hippodrome.table.lifecycle import NEXT_RACE_SECONDS, Lifecycle
from hippodrome.table.pacing import Pacer
from hippodrome.table.runner import FREE_DELAY, SAVING_FAILED, TableRunner
from hippodrome.table.table import Seat, Table

MAX_NAME = 40
SAVING_WORKS = Message("the game is saved again: play goes on")


#: Unicode's bidirectional controls (embeddings, overrides, isolates, marks): a name holding one
#: turns the text after it around ("Ana\u202eeman" shows as "Ananame"), on the pages and in logs
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def fit_name(name: object) -> bool:
    """A seat's name as a table takes it: text of at most ``MAX_NAME`` characters, none of them a
    control character (a line break, a NUL: they would garble the pages' and the terminal's lines)
    or a bidirectional control (it would reverse what follows it)."""
    return isinstance(name, str) and len(name) <= MAX_NAME and not any(
        unicodedata.category(character) == "Cc" or character in BIDI_CONTROLS for character in name)


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
    def __init__(self, table_id: str, game: str, table: Table, seats_info: list[dict[str, Any]], host_hash: str,
                 options: dict[str, Any], storage: Storage, writer: StoreWriter, bot_delay: float,
                 paused: bool = False, lifecycle: Lifecycle | None = None, pacer: Pacer | None = None,
                 thinker: ThreadThinker | ProcessThinker = THREADS):
        self.id = table_id
        self.game = game
        self.description: GameDescription = game_class(game).description
        warm_up_in_background(game)
        self.table = table
        self.seats_info = seats_info  # name, kind, level (no tokens)
        self.host_hash = host_hash
        self.options = options
        self.storage = storage
        self.writer = writer
        self.stored: int | None = None  # log entries stored (None: not counted yet)
        self.connections: set[Connection] = set()
        self.act_clock = ActClock()   # acts on their way to the spectators (hippodrome_act_to_spectator_seconds)
        self.runner = TableRunner(table, bot_delay=bot_delay, roll_interval=options.get("pace", 2.0),
                                  paused=paused, on_change=[self._notify], commit=self._commit,
                                  on_saving=[self._saving], lifecycle=lifecycle or new_lifecycle(seats_info, options),
                                  free_delay=(options.get("bot_free_delay_min", FREE_DELAY[0]),
                                              options.get("bot_free_delay_max", FREE_DELAY[1])),
                                  pacer=pacer, thinker=thinker)
        #: each audience's view at a state, as JSON text (the same in every language)
        self._views: dict[int | None, tuple[int, JsonText]] = {}
        self.views = ViewCache(self.state_message)
        self._shown = self._lobby_fields()  # the lobby's view of the table as last stored
        #: since when the table is over (monotonic), for archiving; None while it plays
        self.over_since: float | None = time.monotonic() if table.over else None
        #: the table "Play again" made: {"table", "links": {seat: link}, "watch"} (server/again.py)
        self.again: dict[str, Any] | None = None

    # -- tokens -------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        return self.table.seat_for_token(hash_token(token))

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.host_hash, hash_token(token))

    # -- storing and telling (under the runner's lock) --------------------------------
    def _commit(self, table: Table) -> asyncio.Future:
        """Store the table's progress on the writer's thread: queued now (the future raises when
        that failed)."""
        lifecycle = self.runner.lifecycle
        bots = {seat: self.seats_info[seat]["level"] for seat in lifecycle.handed}
        saved = self.writer.save(self.storage, Save(self.id, table.match.log, table.state_id, table.over,
                                                    self.runner.paused, self.stored, lifecycle.to_json(), bots),
                                 at_once=self.runner.stored_now)
        saved.add_done_callback(self._saved)
        commit_timer(saved)
        return saved

    def _saved(self, saved: asyncio.Future) -> None:
        if not saved.cancelled() and saved.exception() is None:
            self.stored = saved.result()   # log entries stored

    def _saving(self, failing: bool) -> None:
        """Saving failed (the table is paused) or works again: every connection hears of it."""
        self.notify_all()

    @property
    def saving(self) -> str:
        """``"failing"`` while the table's progress cannot be stored (the table is paused), else ``"ok"``."""
        return "failing" if self.runner.saving_failed else "ok"

    def saving_notice(self, connection: Connection) -> dict[str, Any] | None:
        """The ``storage`` message ``connection`` has not had yet: saving failed, or works again
        after it failed (None: nothing new to say)."""
        saving = self.saving
        if saving == connection.saving_told:
            return None
        connection.saving_told = saving
        message = SAVING_FAILED if saving == "failing" else SAVING_WORKS
        return {"type": "storage", "table": self.id, "status": saving, "message": message.translate(connection.lang),
                "message_i18n": message.to_json()}

    # -- the lifecycle (waiting, between races) ------------------------------------------
    @property
    def status(self) -> str:
        return self.runner.status

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
        lifecycle = self.runner.lifecycle
        if not self.description.bots and not lifecycle.started and lifecycle.empty_seats(host_seat):
            raise IllegalAction(Message("this game has no bots to take the seats of absent players"))
        return await self.runner.start_now(self._hand_over(level), host_seat)

    async def hand(self, seat: int, level: str | None, host_seat: int | None = None) -> None:
        """The host hands the person seat ``seat``, whose person has left (nobody is connected to
        it), to a bot of ``level`` (None: the game's strongest) while the game runs, as the start
        hands the empty seats; ``host_seat``: the seat of the host's own connection, never handed."""
        if not self.description.bots:
            raise IllegalAction(Message("this game has no bots to take the seats of absent players"))
        # (a connection that joined a moment ago, its presence not stored yet, counts as connected)
        await self.runner.hand(seat, self._hand_over(level), host_seat, connected=self.person_seats_present())

    def _hand_over(self, level: str | None) -> Callable[[int], Any]:
        """What makes the bot of a seat the host hands over: a bot of ``level`` (None: the game's
        strongest, the last it lists), its seat marked a bot's."""
        level = level or (self.description.bots[-1].name if self.description.bots else None)
        seed = self.table.match.seed

        def hand_over(seat: int):
            self.seats_info[seat].update(kind="bot", level=level)
            return make_bot(self.game, level, f"{seed}:bot:{seat}")

        return hand_over

    def _notify(self, table: Table) -> None:
        """A change is stored: the shared views, the lobby's view of the table follow, and every
        connection hears of it."""
        if table.over and self.over_since is None:
            self.over_since = time.monotonic()
        self._shown = self._lobby_fields()
        self.notify_all()
        for seat, lang in {(c.seat, c.lang) for c in self.connections if c.joined}:
            self.views.snapshot(seat, lang)   # the stored state, for them to be shown (update_for)

    def notify_all(self) -> None:
        """Something the connections show changed (a stored change, a join, a leave): the shared
        views are out of date, and every joined connection is told (once its state is stored)."""
        self.views.changed()
        for connection in list(self.connections):
            if connection.joined and not (connection.push is not None and connection.push()):
                connection.dirty.set()

    # -- messages -------------------------------------------------------------------
    def update_for(self, connection: Connection) -> str | None:
        """The JSON text to send ``connection`` now: the whole state (shared by its audience), or
        for a patch-reading connection the patch from the last state it was sent. While a change's
        commit is under way that is the last stored state (made when it was stored), or None when
        there is none for its audience (it joined meanwhile): it is told again once it is stored."""
        snapshot = self.views.snapshot(connection.seat, connection.lang, may_build=self.runner.stored)
        if snapshot is None:
            return None
        text = self.views.update_text(connection.sent, snapshot) if connection.patches else snapshot.text
        connection.sent = snapshot
        if connection.seat is None:
            self.act_clock.shown(snapshot.state_id)
        return text

    def public_seats(self) -> list[dict[str, Any]]:
        connected: dict[int, int] = {}
        for connection in self.connections:
            if connection.joined and connection.seat is not None:
                connected[connection.seat] = connected.get(connection.seat, 0) + 1
        return [{"seat": n, "name": info["name"], "kind": info["kind"], "level": info.get("level"),
                 "connected": connected.get(n, 0) > 0 or info["kind"] == "bot"}
                for n, info in enumerate(self.seats_info)]

    def decision_for(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any] | None:
        """The pending step as ``seat`` is shown it, notes in ``lang``, and whether a bot decides."""
        pending = self.table.pending()
        decision = decision_view(pending, seat, self.table.state.public_decision_context, lang)
        if isinstance(pending, Decision):
            decision["bot"] = self.seats_info[pending.seat]["kind"] == "bot"
        return decision

    def state_message(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        table = self.table
        cached = self._views.get(seat)
        if cached is None or cached[0] != table.state_id:
            cached = (table.state_id, json_text(table.state.view(seat)))
            self._views[seat] = cached
        return {"type": "state", "table": self.id, "game": self.game, "state_id": table.state_id,
                "seat": seat, "view": cached[1], "decision": self.decision_for(seat, lang),
                "free_actions": sorted(table.state.free_action_types), "over": table.over,
                "status": self.status, "lifecycle": self.runner.lifecycle.snapshot(table.over),
                "clock": self.runner.clock.snapshot(), "seats": self.public_seats(), **self.again_for(seat)}

    def again_for(self, seat: int | None) -> dict[str, Any]:
        """The next table of "Play again" as ``seat`` is told of it: a seat its own link there
        (its token: only its own audience's messages carry it), a spectator where to watch."""
        if self.again is None:
            return {}
        link = self.again["links"].get(seat) if seat is not None else None
        return {"again": {"table": self.again["table"], **({"link": link} if link else {"watch": self.again["watch"]})}}

    def _lobby_fields(self) -> dict[str, Any]:
        return {"state_id": self.table.state_id, "over": self.table.over, "status": self.status}

    def summary(self) -> dict[str, Any]:
        """The table in the lobby, as last stored; ``saving``: ``"failing"`` while it is paused
        because its progress cannot be stored."""
        return {"id": self.id, "game": self.game, "setup": self.public_setup(), "seats": self.public_seats(),
                "watch": watch_link(self.description, self.id), **self._shown, "saving": self.saving,
                "options": self.options,
                "free_seats": [s["seat"] for s in self.public_seats() if s["kind"] == "person" and not s["connected"]]}

    def public_setup(self) -> dict[str, Any]:
        return public_setup(self.table.match.setup)


def public_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """A table's setup as the lobby shows it: without the dealt hands and the seed."""
    return {k: v for k, v in setup.items() if k not in ("hands", "seed")}


def new_lifecycle(seats_info: list[dict[str, Any]], options: dict[str, Any], wait_for_host: bool = False,
                  started: bool | None = None) -> Lifecycle:
    """The lifecycle of a table of these seats: it waits for its person seats (or, made for the
    host alone, for the host); ``started``: a table stored before lifecycles existed was playing."""
    return Lifecycle([n for n, info in enumerate(seats_info) if info["kind"] == "person"],
                     next_race_seconds=options.get("next_race_seconds", NEXT_RACE_SECONDS),
                     hold=wait_for_host, started=started)


def new_seats(description: GameDescription, seats: Any, seed: str) -> tuple[list[Seat], list[dict[str, Any]], list[str]]:
    """Build seats from the lobby's request: (table seats, public info with digests, raw tokens)."""
    if description.max_seats == 0:  # a game without seats, such as the races called for the box
        if seats is not None and seats != []:
            raise InvalidSetup(Message("{game} has no seats: send 'seats': [] or leave it out", game=description.name))
        return [], [], []
    if not isinstance(seats, list) or not 1 <= len(seats) <= 16:
        raise InvalidSetup(Message("'seats' must list the seats, each {example}",
                                   example='{"name": ..., "kind": "person" | "bot"}'))
    game = description.name
    levels = [bot.name for bot in description.bots]
    table_seats, info, tokens = [], [], []
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise InvalidSetup(Message("seat {seat} must be an object such as {example}", seat=number + 1,
                                       example='{"name": "Ana", "kind": "person"}'))
        name = seat.get("name") or ""  # a page shows a nameless seat as "Player 2" in its language
        if not fit_name(name):
            raise InvalidSetup(Message("seat {seat}: a name is text of at most {n} characters, without control "
                                       "characters such as a line break", seat=number + 1, n=MAX_NAME))
        kind = seat.get("kind", "person")
        if kind not in ("person", "bot"):
            raise InvalidSetup(Message("seat {seat}: 'kind' must be 'person' or 'bot', not {kind}",
                                       seat=number + 1, kind=given(kind)))
        level = seat.get("level", "random") if kind == "bot" else None
        if kind == "bot" and level not in levels:
            raise InvalidSetup(Message("seat {seat}: unknown bot level {level}; levels: {levels}",
                                       seat=number + 1, level=given(level), levels=", ".join(levels)))
        token = secrets.token_urlsafe(24)
        bot = make_bot(game, level, f"{seed}:bot:{number}") if kind == "bot" else None
        table_seats.append(Seat(name, bot, hash_token(token)))
        info.append({"name": name, "kind": kind, "level": level, "token_hash": hash_token(token)})
        tokens.append(token)
    return table_seats, info, tokens


def restore_seats(game: str, seed: str, info: list[dict[str, Any]]) -> list[Seat]:
    """The seats of a stored table, its bots made again from the same seeds."""
    return [Seat(s["name"], make_bot(game, s["level"], f"{seed}:bot:{n}") if s["kind"] == "bot" else None,
                 s["token_hash"]) for n, s in enumerate(info)]


def watch_link(description: GameDescription, table_id: str) -> str:
    """Where a spectator watches a table: the race caller's page for a game without seats that
    is called (the box's races: there is no seat to play), the play page otherwise."""
    if description.caller and description.max_seats == 0:
        return f"/call/{table_id}"
    return f"/play/{table_id}"


def check_game(game: Any) -> GameDescription:
    """The description of the game a request names (InvalidSetup naming the games otherwise)."""
    if not isinstance(game, str):
        raise InvalidSetup(Message("'game' must be the name of a game"))
    description = game_class(game).description
    if not description.lobby:
        raise InvalidSetup(Message("{game} is not played at a table of seats", game=game))
    return description
