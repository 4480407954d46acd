"""JSON text written by orjson, else by the standard library: how the server's messages, a state's
JSON copy, JSON Patch's comparisons and a table's step contexts are written.

orjson writes what ``json.dumps`` writes (compactly, in UTF-8) in a fraction of its time, but
refuses some values with a ``TypeError`` (``orjson.JSONEncodeError`` is one): a key that is not a
string (unless ``OPT_NON_STR_KEYS``), an integer beyond 64 bits, a string that is not valid
Unicode, and under :data:`OPTIONS` a dataclass or a date, which go to ``default`` or to the
standard library as they did before orjson. The standard library writes what orjson refuses, as
a ``str`` with its own separators (``", "``, ``": "``): never equal to orjson's bytes. A float
that is not a number (none in a game's state or view) orjson writes as null.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import orjson

#: dataclasses and dates are not orjson's to write: they go to ``default`` or the standard library
OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def dumps(value: Any, default: Callable[[Any], Any] | None = None, option: int = OPTIONS,
          std_default: Callable[[Any], Any] | None = None) -> bytes | str:
    """``value``'s JSON text: orjson's (bytes, with ``default`` and ``option``), else the standard
    library's (a str, keys sorted where ``option`` sorts them; ``std_default`` its ``default``,
    ``default`` when None)."""
    try:
        return orjson.dumps(value, default=default, option=option)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, default=std_default or default, sort_keys=bool(option & orjson.OPT_SORT_KEYS))


def dumps_bytes(value: Any, default: Callable[[Any], Any] | None = None, option: int = OPTIONS,
                std_default: Callable[[Any], Any] | None = None) -> bytes:
    """:func:`dumps` in UTF-8."""
    text = dumps(value, default, option, std_default)
    return text if type(text) is bytes else text.encode()
