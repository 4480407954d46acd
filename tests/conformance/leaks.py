"""Views leak nothing: a seat's secrets (``Game.secrets``) are not in what it is shown
(``Game.observation``: its view, and the pending step as that seat sees it, as a table sends both)."""

from __future__ import annotations

import json
from typing import Any

from hippodrome.core.game import Game, merged_view, same_json


def check_views(state: Game, seats: int, seed: str) -> None:
    """Views are JSON, hold neither the seed nor the seat's secrets; what one seat may know and
    another may not shows in the first one's view (else no leak of it could ever be seen)."""
    assert seed not in json.dumps(state.to_json()), "the state holds the match's seed"
    all_secrets = {seat: state.secrets(seat) for seat in [*range(seats), None]}
    for seat, secrets in all_secrets.items():
        text = json.dumps(state.observation(seat), allow_nan=False)
        assert seed not in text, f"seat {seat}'s view holds the match's seed"
        assert all(secret not in (None, "", [], {}) for secret in secrets), "an empty secret hides nothing"
        view = json.loads(text)
        leaked = secrets_in(view, secrets)
        assert not leaked, f"seat {seat}'s view shows its secrets {leaked}"
        own = [secret for other, theirs in all_secrets.items() if other != seat for secret in theirs
               if secret not in secrets]
        if seat is not None and own:
            assert secrets_in(view, own), f"seat {seat} sees none of what only it may know: {own}"
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


def secrets_in(view: Any, secrets: list[Any]) -> list[Any]:
    """The secrets that the JSON ``view`` holds somewhere: a part of it equal to the secret (a list
    in the same order), or, for an object secret, an object holding every member of the secret."""
    by_shape: dict[tuple, list[int]] = {}
    by_first_key: dict[str, list[int]] = {}
    for index, secret in enumerate(secrets):
        if isinstance(secret, dict):
            by_first_key.setdefault(next(iter(secret)), []).append(index)
        else:
            by_shape.setdefault(_shape(secret), []).append(index)
    found: set[int] = set()
    # every part of the view, nested or not, through a stack: a view has a thousand parts or more,
    # and the conformance suite looks at every seat's view at each of its checks
    stack = [view]
    while stack:
        part = stack.pop()
        if isinstance(part, dict):
            stack.extend(part.values())
            candidates = [*by_shape.get((dict, None), ()),
                          *(index for key in part.keys() & by_first_key.keys() for index in by_first_key[key])]
        else:
            if isinstance(part, list):
                stack.extend(part)
            candidates = by_shape.get(_shape(part))
        if candidates:
            found.update(index for index in candidates if index not in found and _holds(part, secrets[index]))
    return [secret for index, secret in enumerate(secrets) if index in found]


def _shape(value: Any) -> tuple:
    return type(value), len(value) if isinstance(value, (list, str)) else None


def _holds(part: Any, secret: Any) -> bool:
    if isinstance(secret, dict):
        return all(key in part and same_json(part[key], value) for key, value in secret.items())
    return same_json(part, secret)
