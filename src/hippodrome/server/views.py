"""What a table sends its connections, made once and shared.

A table's ``state`` message depends on who reads it (a seat, or None for every spectator), the
language its notes are in, and the table's *revision* (bumped by :meth:`ViewCache.changed` on every
change the connections must hear of: a move, a ready, a join). :class:`ViewCache` builds the message
and its JSON text once per (seat, language, revision) and hands the same :class:`Snapshot` to every
connection that needs it: a hundred spectators cost one view and one JSON text (:func:`dumps`).

A connection that asked for patches (``"patches": true`` in its ``join``) is sent, instead of the
whole state, a ``patch`` message: the JSON Patch (RFC 6902, :mod:`hippodrome.server.jsonpatch`)
from the last snapshot it was sent to the new one, itself made once per (audience, from, to) and
shared. It gets the whole ``state`` when the patch would not be smaller, and on every (re)join.

Parts of a state follow the clock (the seconds before the next roll, the countdown between races):
a snapshot older than :data:`FRESH_SECONDS` is built again even at the same revision.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from hippodrome.core import jsondump
from hippodrome.server import jsonpatch

PROTOCOL_VERSION = 1
#: a snapshot is built again after this many seconds even if nothing changed (its clock readings)
FRESH_SECONDS = 0.5

Audience = tuple[int | None, str]   # (seat or None for spectators, language)


class JsonText:
    """A part of a message already written as JSON (:func:`json_text`), put in the messages that
    hold it as it is: a seat's view, written once per state and shared by every language.

    Kept as text, not as the dicts and lists it was made of: a table's view lives from one change
    to the next, and thousands of such objects, each replaced by the next change, would pile up in
    the collector's youngest generation (CPython counts an old object freed as a young one gone, so
    the young generation grows unchecked while views are replaced one by one, and its collections,
    which walk it all, came to stop the loop for 30 to 70 ms under load)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data


def json_default(value: Any) -> Any:
    """A message left in a view goes out as ``{"msgid", "params"}``, for the page to translate."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, JsonText):
        return json.loads(value.data)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")  # i18n: programming error


def _orjson_default(value: Any) -> Any:
    """As :func:`json_default`, a :class:`JsonText` going out as it is written."""
    if isinstance(value, JsonText):
        return orjson.Fragment(value.data)
    return json_default(value)


#: orjson (:mod:`hippodrome.core.jsondump`) writing keys that are not strings (seats by number) as
#: strings, as json.dumps does: an option that makes orjson take half as long again over every
#: dict, so only for the values that need it (refused without it)
ORJSON_NON_STR_KEYS = jsondump.OPTIONS | orjson.OPT_NON_STR_KEYS


def dumps(message: dict[str, Any]) -> str:
    """The JSON text of a protocol message (``"v"`` first). orjson makes it (a view of a late
    TurfMaster race in a sixth of the time json.dumps takes); what orjson cannot write (an integer
    over 64 bits, a string that is not valid Unicode) the standard library writes as before."""
    return dumps_bytes(message).decode()


def dumps_bytes(message: dict[str, Any]) -> bytes:
    """:func:`dumps` in UTF-8, as the websocket sends it (a state is never decoded to be encoded)."""
    return _dumps_bytes({"v": PROTOCOL_VERSION, **message})


def json_text(value: Any) -> JsonText:
    """``value`` written as JSON once, to be put in messages as it is (see :class:`JsonText`)."""
    return JsonText(_dumps_bytes(value))


class SharedView:
    """A state's view part shared by every audience (``Game.shared_view``), written once: its
    members but those a seat's own part adds members to (``nested``: a race's shared part, a
    seat's hands in it), and each of those apart. :meth:`view_text` writes a seat's whole view
    from it and the seat's own part without writing the shared members again."""

    __slots__ = ("keys", "top", "inner")

    def __init__(self, shared: dict[str, Any], nested: set[str]):
        self.keys = frozenset(shared)
        self.top = json_text({key: value for key, value in shared.items() if key not in nested})
        self.inner = {key: json_text(shared[key]) for key in nested}

    def view_text(self, own: dict[str, Any]) -> JsonText | None:
        """``merged_view(shared, own)`` as JSON (members in another order), or None where ``own``
        adds members to other shared objects than those written apart (the caller writes the view
        whole)."""
        if self.keys.intersection(own) != self.inner.keys():
            return None
        text = joined(self.top, json_text({key: value for key, value in own.items() if key not in self.inner}))
        for key, shared_text in self.inner.items():
            text = with_member(text, key, joined(shared_text, json_text(own[key])))
        return text


def with_member(obj: JsonText, key: str, value: JsonText) -> JsonText:
    """The JSON object ``obj`` with one more member (``key`` not in it)."""
    comma = b"," if obj.data != b"{}" else b""
    return JsonText(b"".join((obj.data[:-1], comma, orjson.dumps(key), b":", value.data, b"}")))


def joined(first: JsonText, second: JsonText) -> JsonText:
    """The JSON object holding the members of two others (written as objects, no key in both): a
    view made of its part shared by every audience and a seat's own part."""
    if first.data == b"{}":
        return second
    if second.data == b"{}":
        return first
    return JsonText(b"".join((first.data[:-1], b",", second.data[1:])))


def _dumps_bytes(value: Any) -> bytes:
    """:func:`hippodrome.core.jsondump.dumps_bytes` (dataclasses and dates through json_default),
    tried first without :data:`ORJSON_NON_STR_KEYS` (on every state message)."""
    try:
        return orjson.dumps(value, default=_orjson_default, option=jsondump.OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is one: a key that is not a string, or see dumps
        return jsondump.dumps_bytes(value, _orjson_default, ORJSON_NON_STR_KEYS, json_default)


@dataclass(eq=False)
class Snapshot:
    """One ``state`` message as built for an audience at a revision, and its JSON text in UTF-8."""

    serial: int        # unique per cache: patches are keyed by it
    audience: Audience
    revision: int
    built: float
    state_id: int
    data: bytes
    _plain: Any = field(default=None, repr=False)

    @property
    def text(self) -> str:
        return self.data.decode()

    @property
    def plain(self) -> Any:
        """The message as the client holds it (parsed back from the text, made once)."""
        if self._plain is None:
            try:
                self._plain = orjson.loads(self.data)
            except orjson.JSONDecodeError:  # what only the standard library wrote (see dumps)
                self._plain = json.loads(self.data)
        return self._plain


class ViewCache:
    def __init__(self, build: Callable[[int | None, str], dict[str, Any]],
                 now: Callable[[], float] = time.monotonic):
        self.build = build
        self.now = now
        self.revision = 0
        self._snapshots: dict[Audience, Snapshot] = {}
        self._patches: dict[tuple[int, int], bytes] = {}   # (from, to) snapshot serials -> what to send
        self.builds = 0    # snapshots built so far (for tests and measurements)

    def changed(self) -> None:
        """Something the connections show changed: every snapshot and patch is out of date."""
        self.revision += 1
        self._snapshots.clear()
        self._patches.clear()

    def snapshot(self, seat: int | None, lang: str, may_build: bool = True) -> Snapshot | None:
        """The audience's snapshot at this revision, built if there is none (or it is older than
        :data:`FRESH_SECONDS`). ``may_build`` False (the table's state is not the one to show: a
        change's commit is under way): the one built at this revision whatever its age, or None."""
        audience = (seat, lang)
        cached = self._snapshots.get(audience)
        now = self.now()
        if cached is not None and cached.revision == self.revision and (not may_build or now - cached.built < FRESH_SECONDS):
            return cached
        if not may_build:
            return None
        message = self.build(seat, lang)
        snapshot = Snapshot(self.builds, audience, self.revision, now, message["state_id"], dumps_bytes(message))
        self._snapshots[audience] = snapshot
        self.builds += 1
        return snapshot

    def update_data(self, sent: Snapshot | None, new: Snapshot) -> bytes:
        """What to send a patch-reading connection whose last message was ``sent`` so that it holds
        ``new``: a ``patch`` message, or ``new``'s whole text when that is not longer (or there is
        nothing to patch: a first message, another audience); in UTF-8."""
        if sent is None or sent.audience != new.audience:
            return new.data
        key = (sent.serial, new.serial)
        data = self._patches.get(key)
        if data is None:
            ops = jsonpatch.diff(sent.plain, new.plain)
            patch = dumps_bytes({"type": "patch", "state_id": new.state_id, "ops": ops})
            data = patch if len(patch) < len(new.data) else new.data
            if len(self._patches) > 64:   # connections far behind: do not hoard their patches
                self._patches.clear()
            self._patches[key] = data
        return data
