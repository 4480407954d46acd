"""Views leak nothing: a seat's secrets (``Game.secrets``) are not in what it is shown
(``Game.observation``: its view, and the pending step as that seat sees it, as a table sends both)."""

from __future__ import annotations

import json
from typing import Any

from hippodrome.core.game import Game, merged_view, same_json

from ..json_text import json_text


def check_views(state: Game, seats: int, seed: str) -> None:
    """Views are JSON, hold neither the seed nor the seat's secrets; what one seat may know and
    another may not shows in the first one's view (else no leak of it could ever be seen)."""
    assert seed.encode() not in json_text(state.to_json()), "the state holds the match's seed"
    all_secrets = {seat: state.secrets(seat) for seat in [*range(seats), None]}
    for seat, secrets in all_secrets.items():
        text = json.dumps(state.observation(seat), allow_nan=False)
        assert seed not in text, f"seat {seat}'s view holds the match's seed"
        assert all(secret not in (None, "", [], {}) for secret in secrets), "an empty secret hides nothing"
        own = [secret for other, theirs in all_secrets.items() if other != seat for secret in theirs
               if secret not in secrets] if seat is not None else []
        # one walk over the view looks for both lists: the seat's secrets, then what only it may know
        seen = secrets_in(json.loads(text), secrets + own, found_indices=True)
        leaked = [secrets[index] for index in sorted(seen) if index < len(secrets)]
        assert not leaked, f"seat {seat}'s view shows its secrets {leaked}"
        if own:
            assert max(seen, default=-1) >= len(secrets), f"seat {seat} sees none of what only it may know: {own}"
    # a table writes the part of the views every audience shares once for them all, and each
    # seat's own part beside it: together they are the seat's view (a spectator's holds no secret)
    shared = state.shared_view()
    own_keys = state.own_view(None).keys()
    for seat in all_secrets:
        own = state.own_view(seat)
        assert own.keys() == own_keys, \
            f"seat {seat}'s own part has keys {sorted(own)}, a spectator's {sorted(own_keys)}"
        for key in shared.keys() & own.keys():   # objects whose members the own part adds to
            assert isinstance(shared[key], dict) and isinstance(own[key], dict), f"{key!r} shared and own, not objects"
            assert not shared[key].keys() & own[key].keys(), f"{key!r}: members both shared and seat {seat}'s own"
        assert merged_view(shared, own) == state.view(seat), f"seat {seat}'s view is not its shared and own parts"


def secrets_in(view: Any, secrets: list[Any], found_indices: bool = False) -> Any:
    """The secrets that the JSON ``view`` holds somewhere: a part of it equal to the secret (a list
    in the same order), or, for an object secret, an object holding every member of the secret
    (``found_indices``: their indices in ``secrets``, as a set)."""
    strings: dict[str, list[int]] = {}
    lists: dict[int, list[int]] = {}       # by length
    unsized: dict[type, list[int]] = {}    # numbers, booleans, null, by type (JSON 1 is not true)
    by_first_item: dict[tuple[str, str], list[int]] = {}   # objects whose first member is a string
    by_first_key: dict[str, list[int]] = {}                 # the other objects
    for index, secret in enumerate(secrets):
        if isinstance(secret, dict):
            key, value = next(iter(secret.items()))
            if type(value) is str:
                by_first_item.setdefault((key, value), []).append(index)
            else:
                by_first_key.setdefault(key, []).append(index)
        elif isinstance(secret, str):
            strings.setdefault(secret, []).append(index)
        elif isinstance(secret, list):
            lists.setdefault(len(secret), []).append(index)
        else:
            unsized.setdefault(type(secret), []).append(index)
    first_keys = by_first_key.keys() | {key for key, _ in by_first_item}
    found: set[int] = set()
    # every part of the view, nested or not, through a stack: a view has a thousand parts or more,
    # and the conformance suite looks at every seat's view at each of its checks
    stack = [view]
    while stack:
        part = stack.pop()
        kind = type(part)
        if kind is dict:
            stack.extend(part.values())
            if not first_keys:
                continue
            candidates = []
            for key in part.keys() & first_keys:
                candidates += by_first_key.get(key, ())
                if type(part[key]) is str:
                    candidates += by_first_item.get((key, part[key]), ())
        elif kind is list:
            stack.extend(part)
            candidates = lists.get(len(part))
        elif kind is str:
            found.update(strings.get(part, ()))   # a string part equal to the secret string
            continue
        else:
            candidates = unsized.get(kind)
        if candidates:
            found.update(index for index in candidates if index not in found and _holds(part, secrets[index]))
    if found_indices:
        return found
    return [secret for index, secret in enumerate(secrets) if index in found]


def _holds(part: Any, secret: Any) -> bool:
    if isinstance(secret, dict):
        return all(key in part and same_json(part[key], value) for key, value in secret.items())
    return same_json(part, secret)
