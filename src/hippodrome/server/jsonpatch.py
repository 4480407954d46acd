"""JSON Patch (RFC 6902), the part the server's ``patch`` messages use: ``add``, ``remove`` and
``replace`` operations, found by :func:`diff` and applied by :func:`apply` (the web client's twin
is ``applyPatch`` in web/net.js).

``diff(old, new)`` walks both documents: objects key by key, arrays index by index (a longer array
gets ``add`` at its end, a shorter one ``remove`` from its end, last index first), any other change
a ``replace`` of the value. Values compare by JSON type as well (``1`` is not ``true``), so applying
the patch gives a document equal to ``new`` as JSON. The parts Python finds equal are not walked
(one comparison of their JSON texts per level makes sure), so the cost follows what changed.
"""

from __future__ import annotations

import copy
from typing import Any

from hippodrome.core import jsondump


def pointer(path: str, key: str | int) -> str:
    """``path`` (a JSON pointer) extended by one object key or array index (``~`` and ``/`` escaped)."""
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def same(old: Any, new: Any) -> bool:
    """Equal as JSON: same type (bool is not int), equal value (a float's sign too: -0.0 is not 0.0)."""
    return type(old) is type(new) and old == new and (type(old) is not float or repr(old) == repr(new))


def diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The operations that turn ``old`` into ``new`` (both plain JSON values)."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, path, ops)
    return ops


def _walked(old: list[Any], new: list[Any]) -> list[int]:
    """Which of the pairs (``old[i]``, ``new[i]``) to walk into: those Python finds unequal (at C
    speed); all of them in the rare case where values Python finds equal differ as JSON (1 and
    true), which one comparison of their texts tells."""
    unequal = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    if len(unequal) < len(old):
        skipped = set(unequal)
        equal = [i for i in range(len(old)) if i not in skipped]
        if _text([old[i] for i in equal]) != _text([new[i] for i in equal]):
            return list(range(len(old)))
    return unequal


#: the JSON text of a list of values: orjson's, else (a key that is not a string, an integer beyond
#: 64 bits) the standard library's, a str, which never equals orjson's bytes (then all pairs are
#: walked); dataclasses and dates are refused (diff takes plain JSON)
_text = jsondump.dumps


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": pointer(path, key)})
        common = [key for key in new if key in old]
        for index in _walked([old[key] for key in common], [new[key] for key in common]):
            key = common[index]
            _diff(old[key], new[key], pointer(path, key), ops)
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": pointer(path, key), "value": value})
    elif type(old) is list and type(new) is list:
        common = min(len(old), len(new))
        for index in _walked(old[:common], new[:common]):
            _diff(old[index], new[index], pointer(path, index), ops)
        for index in range(common, len(new)):
            ops.append({"op": "add", "path": pointer(path, index), "value": new[index]})
        for index in reversed(range(common, len(old))):
            ops.append({"op": "remove", "path": pointer(path, index)})
    elif not same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {path!r}")  # i18n: programming error
    return [token.replace("~1", "/").replace("~0", "~") for token in path[1:].split("/")]


def apply(document: Any, ops: list[dict[str, Any]]) -> Any:
    """``document`` with ``ops`` applied, ``document`` itself left as it was. The new document's
    objects and arrays on the paths that ``ops`` change are copies (each copied once), and so are
    the values ``ops`` put in; the parts no operation reaches are ``document``'s own, shared (so
    that the cost follows the patch, not the document)."""
    fresh: dict[int, Any] = {}   # this call's copies, by id (kept: no id is reused while it runs)

    def own(value: Any) -> Any:
        """``value`` (an object or an array) as this call's copy, which it may change."""
        if id(value) not in fresh:
            value = list(value) if isinstance(value, list) else dict(value)
            fresh[id(value)] = value
        return value

    for op in ops:
        tokens = _tokens(op["path"])
        if not tokens:
            if op["op"] == "remove":
                raise ValueError("cannot remove the whole document")  # i18n: programming error
            document = copy.deepcopy(op["value"])
            continue
        document = parent = own(document)
        for token in tokens[:-1]:
            key = int(token) if isinstance(parent, list) else token
            child = own(parent[key])
            parent[key] = child
            parent = child
        last = tokens[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op["op"] == "add":
                parent.insert(index, copy.deepcopy(op["value"]))
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = copy.deepcopy(op["value"])
        elif op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = copy.deepcopy(op["value"])
    return document
