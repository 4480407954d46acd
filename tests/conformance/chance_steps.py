"""A chance step lists its outcomes or describes its draws, consistently with what it draws."""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.chance import chance_outcomes, draw_outcomes
from hippodrome.core.game import Chance

from ..json_text import json_text

#: the outcome lists (a step's kind, and each outcome with its probability, as JSON text) whose
#: probabilities were found to be positive and to sum to 1, no outcome listed twice; each with the
#: ``is_valid`` that last found every outcome valid (one per list: a step's own function, made
#: for its state, is replaced by the next one's)
_WHOLE: dict[bytes, Any] = {}


def check_chance_step(pending: Chance, drawn: Any, rng: random.Random) -> None:
    """The step lists its outcomes or describes its draws, ``drawn`` among them; each is valid."""
    assert (pending.outcomes is None) != (pending.draws is None), \
        f"chance step {pending.kind!r} must list its outcomes or describe its draws"
    if pending.outcomes is not None:
        outcomes = chance_outcomes(pending)
        listed = json_text([pending.kind, [[action, str(p)] for action, p in outcomes]])
        if listed not in _WHOLE:   # the same list again (two dice, roll after roll) was found whole
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            assert len({json_text(a) for a, _ in outcomes}) == len(outcomes), "an outcome listed twice"
            _WHOLE[listed] = None
        if _WHOLE[listed] is not pending.is_valid:   # the same function again (a step shared by states)
            assert all(pending.is_valid(action) for action, _ in outcomes)
            _WHOLE[listed] = pending.is_valid
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
