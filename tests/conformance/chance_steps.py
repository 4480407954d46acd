"""A chance step lists its outcomes or describes its draws, consistently with what it draws."""

from __future__ import annotations

import json
import random
from typing import Any

from hippodrome.core.chance import chance_outcomes, draw_outcomes
from hippodrome.core.game import Chance


def check_chance_step(pending: Chance, drawn: Any, rng: random.Random) -> None:
    """The step lists its outcomes or describes its draws, ``drawn`` among them; each is valid."""
    assert (pending.outcomes is None) != (pending.draws is None), \
        f"chance step {pending.kind!r} must list its outcomes or describe its draws"
    if pending.outcomes is not None:
        outcomes = chance_outcomes(pending)
        assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
        assert len({json.dumps(a, sort_keys=True) for a, _ in outcomes}) == len(outcomes), "an outcome listed twice"
        assert all(pending.is_valid(action) for action, _ in outcomes)
        assert drawn in [action for action, _ in outcomes], f"{pending.kind}: drew {drawn}, not a listed outcome"
        return
    draws = pending.draws
    items = draws.drawn_in(drawn)
    assert len(items) == draws.length and draws.action(items) == drawn, f"{pending.kind}: {drawn} is not built by draws"
    for index, item in enumerate(items):
        step = dict(draw_outcomes(draws, items[:index]))
        assert sum(step.values()) == 1 and step.get(item, 0) > 0, f"{pending.kind}: {item!r} cannot be draw {index}"
    walk: list[Any] = []
    while len(walk) < draws.length:
        values, weights = zip(*draw_outcomes(draws, walk))
        walk.append(rng.choices(values, weights)[0])
    assert pending.is_valid(draws.action(walk)), f"{pending.kind}: the draws build an outcome it refuses"
