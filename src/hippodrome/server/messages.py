"""What a websocket session answers to each message a client sends (docs/protocol.md).

:data:`HANDLERS` maps each message type to its handler, as docs/protocol.md lists them; a
game's private look-ups (TurfMaster's ``preview`` and ``why``) are message types too, named by its
description. A handler returns the reply to send (None: nothing to send; the state follows once
stored), and refuses in words what it cannot do, changing nothing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

from hippodrome.core.errors import HippodromeError, IllegalAction, given
from hippodrome.i18n import LANGUAGES, Message, normalize
from hippodrome.server.context import MAX_MESSAGE, is_action
from hippodrome.server.localize import problem, refusal
from hippodrome.server.rooms import Connection, Room
from hippodrome.server.strict_json import StrictJSONError, loads
from hippodrome.server.views import PROTOCOL_VERSION
from hippodrome.table.table import StaleState

Reply = dict[str, Any] | None
Handler = Callable[[Room, Connection, dict[str, Any]], Awaitable[Reply]]


async def handle(room: Room, connection: Connection, text: str) -> Reply:
    """The reply to the message ``text`` (a JSON object of protocol version 1)."""
    lang = connection.lang
    try:
        message = loads(text)
    except StrictJSONError as error:
        return problem(lang, "bad_message", Message("{reason}; a message is a JSON object such as {example}",
                                                    example='{"v": 1, "type": "join"}', reason=error.args[0]))
    if not isinstance(message, dict):
        return problem(lang, "bad_message", Message("a message must be a JSON object such as {example}, not {value}",
                                                    example='{"v": 1, "type": "join"}', value=given(message)))
    if "v" not in message:
        return problem(lang, "bad_version", Message(
            "this server speaks protocol version {version}: a message says so with {example}, and this one has no \"v\"",
            version=str(PROTOCOL_VERSION), example='"v": 1'), protocol=PROTOCOL_VERSION)
    version = message["v"]
    if type(version) is not int or version != PROTOCOL_VERSION:  # not true, not 1.0
        return problem(lang, "bad_version", Message(
            "this server speaks protocol version {version}; the message says {said}",
            version=str(PROTOCOL_VERSION), said=json.dumps(version, ensure_ascii=False)[:40]), protocol=PROTOCOL_VERSION)
    kind = message.get("type")
    lookups = room.description.private_lookups()
    if kind not in HANDLERS and kind not in lookups:
        return problem(lang, "bad_message", Message("unknown message type {kind}; types: {types}",
                                                    kind=given(kind), types=", ".join((*HANDLERS, *lookups))))
    if kind not in ("join", "ping") and not connection.joined:
        return problem(lang, "not_joined", Message("send {example} first",
                                                   example='{"v": 1, "type": "join", "token": ...}'))
    if kind in lookups:
        return await private_lookup(room, connection, message)
    return await HANDLERS[kind](room, connection, message)


async def ping(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    return {"type": "pong"}


async def join(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    """A connection says who it is (a seat's token, or none to watch) and how it reads."""
    patches = message.get("patches", False)
    if not isinstance(patches, bool):
        return problem(connection.lang, "bad_message", Message(
            "'patches' must be true (send changes as patch messages) or false (whole states)"))
    requested = message.get("lang")
    if requested is not None:
        chosen = normalize(requested[:40]) if isinstance(requested, str) else None
        if chosen is None:
            return problem(connection.lang, "bad_message", Message(
                "'lang' must be one of the languages: {languages}", languages=", ".join(LANGUAGES)))
        connection.lang = chosen
    lang = connection.lang
    token = message.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 200):
        return problem(lang, "bad_message", Message("'token' must be the seat's token (text) or absent to watch"))
    seat = connection.account_seat if not token else None   # signed in: its own seat, from any device
    if token:
        seat = room.seat_for_token(token)
        if seat is None:
            return problem(lang, "forbidden", Message("this token holds no seat at this table; ask for your "
                                                      "seat's link, or join without a token to watch"))
    connection.seat = seat
    connection.joined = True
    connection.welcomed = False  # its states follow this welcome
    connection.patches = patches
    connection.rejoined()
    room.notify_all()
    return {"type": "welcome", "table": room.id, "game": room.game, "seat": seat, "lang": lang,
            "protocol": PROTOCOL_VERSION, "max_message": MAX_MESSAGE, **({"patches": True} if patches else {})}


async def act(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    lang = connection.lang
    if connection.seat is None:
        return problem(lang, "forbidden", Message("spectators watch only; join with a seat's token to play"))
    state_id, action = message.get("state_id"), message.get("action")
    if not isinstance(state_id, int) or isinstance(state_id, bool):
        return problem(lang, "bad_message", Message("'act' needs 'state_id': the state id of the update you acted on"))
    if not is_action(action):
        return problem(lang, "bad_message", Message("'act' needs 'action': one of the options, a JSON object "
                                                    "with a 'type' such as {example}", example='{"type": "card", ...}'))
    clock = room.act_clock.acted(room.table.state_id)   # its state's way to the spectators is measured
    try:
        await room.runner.act(connection.seat, action, state_id)
    except StaleState as error:
        room.act_clock.refused(clock)
        connection.dirty.set()
        return refusal(lang, "stale", error, state_id=room.runner.stored_state_id)
    except HippodromeError as error:
        room.act_clock.refused(clock)
        connection.dirty.set()
        return refusal(lang, "illegal", error, state_id=room.runner.stored_state_id)
    return None


async def private_lookup(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    """A seat asks one of the game's private look-ups about its own options (TurfMaster: where an
    option would lead, why a square is out of reach). The game answers for that seat only, and
    refuses (IllegalAction) a seat that is not the one it is about."""
    lang, name = connection.lang, message["type"]
    if connection.seat is None:
        return problem(lang, "forbidden", Message("spectators watch only"))
    entry = room.description.lookup(name)
    params = {key: value for key, value in message.items() if key not in ("v", "type")}
    if entry.about_option and not is_action(params.get("action")):
        # NOTE: {lookup} is the name of a look-up ("preview"), kept as the message's type.
        return problem(lang, "bad_message", Message("'{lookup}' needs 'action': one of your options", lookup=name))
    seat = connection.seat

    async def answer() -> tuple[int, Any]:
        try:
            return await run_lookup(room, entry, seat, params)
        except IllegalAction as error:
            return room.table.state_id, error

    try:
        state_id, answered = await room.runner.ask(answer)
    except IllegalAction as error:   # saving fails
        return refusal(lang, "illegal", error, state_id=room.runner.stored_state_id)
    if isinstance(answered, IllegalAction):
        return refusal(lang, "illegal", answered, state_id=state_id)
    return {"type": name, "state_id": state_id, **params, **answered}


async def run_lookup(room: Room, entry: Any, seat: int | None, params: dict[str, Any]) -> tuple[int, Any]:
    """(state id, answer) of a look-up on the table's state now. A slow one reads a copy taken
    here, in the loop that changes the state, and works in a thread."""
    if not entry.slow:
        return room.table.state_id, entry(room.table.state, seat, params)
    state_id, state = room.table.state_id, room.table.state.clone()
    answer = await asyncio.get_running_loop().run_in_executor(None, entry, state, seat, params)
    return state_id, answer


def from_host(room: Room, message: dict[str, Any]) -> bool:
    """Whether ``message`` carries the table's host token (``"host"``)."""
    token = message.get("host")
    return isinstance(token, str) and len(token) <= 200 and room.is_host(token)


def is_person(room: Room, connection: Connection) -> bool:
    return connection.seat is not None and room.table.players[connection.seat].is_person


async def refused(connection: Connection, room: Room, change: Awaitable[Any]) -> Reply:
    """Make a change of the table's life; a refusal in words (its state follows)."""
    try:
        await change
    except HippodromeError as error:
        connection.dirty.set()
        return refusal(connection.lang, "illegal", error, state_id=room.runner.stored_state_id)
    return None


async def ready(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    if not is_person(room, connection):
        return problem(connection.lang, "forbidden", Message("only a player seated at this table can say it is ready"))
    return await refused(connection, room, room.runner.ready(connection.seat))


def host_refusal(room: Room, connection: Connection, message: dict[str, Any], forbidden: Message) -> Reply:
    """A message only the host may send (``start``, ``hand``) refused in words: not the host's
    (``forbidden``), or a bot ``level`` the game has not; None when it may go on."""
    if not from_host(room, message):
        return problem(connection.lang, "forbidden", forbidden)
    if not bot_level_ok(room, message.get("level")):
        return bad_level(room, connection.lang)
    return None


async def start(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    refusal_words = host_refusal(room, connection, message, Message(
        "only the table's host may start the game before everyone is ready; send {example}",
        example='{"v": 1, "type": "start", "host": ...}'))
    if refusal_words is not None:
        return refusal_words
    level = message.get("level")
    host_seat = connection.seat if is_person(room, connection) else None
    return await refused(connection, room, room.start_now(level, host_seat))


async def hand(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    """The host hands a seat whose person left to a bot while the game runs."""
    lang = connection.lang
    refusal_words = host_refusal(room, connection, message, Message(
        "only the table's host may hand a seat to a bot; send {example}",
        example='{"v": 1, "type": "hand", "host": ..., "seat": ...}'))
    if refusal_words is not None:
        return refusal_words
    seat, count = message.get("seat"), len(room.table.players)
    if type(seat) is not int or not 0 <= seat < count:   # (not true, not 1.0)
        if not count:
            return problem(lang, "bad_message", Message("this table has no seats to hand to a bot"))
        # NOTE: {last} is the number of the table's last seat (seats count from 0).
        return problem(lang, "bad_message", Message(
            "'seat' must be the number of a seat at this table, from 0 to {last}", last=count - 1))
    return await refused(connection, room, room.hand(seat, message.get("level"), connection.seat))


async def next_race(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    host = from_host(room, message)
    if not (is_person(room, connection) or host):
        return problem(connection.lang, "forbidden", Message(
            "only a player seated at this table or its host may call the next race"))
    return await refused(connection, room, room.runner.next_race(None if host else connection.seat))


async def pause(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    return await clock(room, connection, message, room.runner.pause)


async def resume(room: Room, connection: Connection, message: dict[str, Any]) -> Reply:
    return await clock(room, connection, message, room.runner.resume)


async def clock(room: Room, connection: Connection, message: dict[str, Any],
                change: Callable[[], Awaitable[None]]) -> Reply:
    if connection.seat is None and not from_host(room, message):
        return problem(connection.lang, "forbidden",
                       Message("only a seated player or the table's host may pause or resume the clock"))
    try:
        await change()
    except HippodromeError as error:
        return refusal(connection.lang, "illegal", error, state_id=room.runner.stored_state_id)
    return None


def bot_level_ok(room: Room, level: Any) -> bool:
    """Whether ``level`` (of ``start`` or ``hand``) is absent (the default) or one of the game's bot levels."""
    return level is None or (isinstance(level, str) and room.description.bot(level) is not None)


def bad_level(room: Room, lang: str) -> dict[str, Any]:
    return problem(lang, "bad_message", Message("'level' must be one of the bot levels: {levels}",
                                                levels=", ".join(b.name for b in room.description.bots)))


#: every message type a client may send, as docs/protocol.md lists them, and its handler (the
#: game's private look-ups besides)
HANDLERS: dict[str, Handler] = {
    "join": join, "act": act, "pause": pause, "resume": resume, "ready": ready, "start": start,
    "next_race": next_race, "hand": hand, "ping": ping,
}
