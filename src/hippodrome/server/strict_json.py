"""Strict JSON for everything a client sends (the lobby's bodies and the table's messages).

Python's ``json`` module accepts more than JSON and more than the server can store or send back:
``NaN`` and ``Infinity``, ``1e999`` (read as infinity), lone UTF-16 surrogates (``"\\ud800"``, a
``str`` that cannot be written as UTF-8), and nesting deep enough to exhaust the interpreter's
stack (``RecursionError``). Any of them, once stored, made every later answer that shows it fail.

``loads`` takes what RFC 8259 and I-JSON (RFC 7493) allow and nothing more: UTF-8 text, finite
numbers, integers a browser holds exactly (at most 2**53 - 1 either way), valid Unicode strings,
no name twice in an object, and at most ``MAX_DEPTH`` levels of arrays and objects. The depth is
counted before parsing, so a deep document never reaches the recursive parser. ``check_value``
applies the same rules to a value already decoded (a table stored by an older server).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hippodrome.i18n import Message
from hippodrome.server.localize import quoted

#: arrays and objects inside one another; a create request needs 4 (body, setup, horses, horse)
MAX_DEPTH = 16
#: the largest integer a browser's JavaScript holds exactly (Number.MAX_SAFE_INTEGER)
MAX_SAFE_INTEGER = 2 ** 53 - 1

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


class StrictJSONError(ValueError):
    """A document or value refused; ``args[0]`` is a Message saying what is wrong."""


def loads(document: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The value of a JSON document (UTF-8 bytes or text); StrictJSONError if it is not strict JSON."""
    if isinstance(document, bytes):
        try:
            document = document.decode("utf-8")
        except UnicodeDecodeError:
            raise StrictJSONError(Message("JSON must be UTF-8 text; this is not valid UTF-8"))
    check_depth(document, max_depth)
    try:
        value = json.loads(document, object_pairs_hook=_object)
    except StrictJSONError:
        raise
    except (ValueError, RecursionError):  # a syntax error, or an integer of more than 4300 digits
        raise StrictJSONError(Message("this is not JSON: check quotes, commas and brackets"))
    check_value(value, max_depth)
    return value


def check_depth(document: str, max_depth: int = MAX_DEPTH) -> None:
    """Refuse ``document`` if its arrays and objects nest more than ``max_depth`` deep (strings,
    which may hold brackets, are skipped). Only counts: a malformed document is left to the parser."""
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", document)):
        if bracket in "[{":
            depth += 1
            if depth > max_depth:
                raise StrictJSONError(too_deep(max_depth))
        else:
            depth -= 1


def too_deep(max_depth: int) -> Message:
    return Message("JSON may nest arrays and objects at most {depth} levels deep", depth=max_depth)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise StrictJSONError(Message("the name {name} appears twice in one JSON object", name=quoted(twice)))
    return value


def check_value(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Refuse a decoded value holding what strict JSON cannot: a number that is not finite or an
    integer beyond 2**53 - 1, a string that is not valid Unicode, nesting deeper than ``max_depth``.
    Walks without recursion, so any depth is reported rather than overflowing the stack."""
    # a place is kept as (parent place, key) and written out only for a refusal: a table's whole
    # stored record is checked when it is loaded, and most values pass
    stack: list[tuple[Any, tuple | None, int]] = [(value, None, 0)]
    while stack:
        item, place, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                raise StrictJSONError(too_deep(max_depth))
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, inner in pairs:
                if isinstance(key, str):
                    _check_text(key, place)
                stack.append((inner, (place, key), depth + 1))
        elif isinstance(item, str):
            _check_text(item, place)
        elif isinstance(item, float) and not math.isfinite(item):
            # NOTE: {where} is a place in a JSON document, such as /setup/players.
            raise StrictJSONError(Message("the number at {where} is not finite: JSON has no NaN or Infinity",
                                          where=_pointer(place)))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_SAFE_INTEGER:
            raise StrictJSONError(Message("the integer at {where} is out of range: from -{limit} to {limit}",
                                          where=_pointer(place), limit=f"{MAX_SAFE_INTEGER}"))


def _pointer(place: tuple | None) -> str:
    """A place (nested (parent, key) pairs) as a JSON pointer such as /setup/players; "/" for the top."""
    parts = []
    while place is not None:
        place, key = place
        parts.append(_path_part(key))
    return "/" + "/".join(reversed(parts)) if parts else "/"


def _check_text(text: str, place: tuple | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise StrictJSONError(Message("the text at {where} is not valid Unicode: it holds a lone surrogate",
                                      where=_pointer(place)))


def _path_part(key: Any) -> str:
    """A key as a JSON pointer part (RFC 6901), cut short and with lone surrogates escaped."""
    text = str(key)
    shown = text[:40].encode("utf-8", "backslashreplace").decode("utf-8")
    return shown.replace("~", "~0").replace("/", "~1") + ("..." if len(text) > 40 else "")

