"""Refused actions change nothing: wrong seats, actions that are no option, malformed JSON, bad
chance outcomes all raise IllegalAction and leave the state and the log as they were."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hippodrome.core import IllegalAction, Match
from hippodrome.core.game import Chance, Decision, Game

from ..json_text import json_text

#: values of the wrong kind for any field of an action
JUNK = (None, True, 1.5, "?", [], {})


def signature(state: Game) -> bytes:
    """The whole of a state as text: its JSON and what it waits for (a cache could go stale)."""
    pending = state.pending()
    if isinstance(pending, Decision):
        waiting = [pending.seat, pending.kind, list(pending.options), pending.context]
    elif isinstance(pending, Chance):
        waiting = [pending.kind, pending.context, pending.timed]
    else:
        waiting = None
    return json_text([state.to_json(), waiting])


def assert_refused(state: Game, log: list, attempt, what: str, before: bytes | None = None) -> None:
    """``attempt()`` raises IllegalAction and leaves ``state`` (``before``: its signature, when
    known) and the match's ``log`` as they were."""
    before, logged = before or signature(state), len(log)
    with pytest.raises(IllegalAction):
        attempt()
        pytest.fail(f"accepted {what}")
    assert signature(state) == before, f"refusing {what} changed the state"
    assert len(log) == logged


def junk_variants(action: Any, rng: random.Random, count: int = 3) -> list[Any]:
    """``action`` with one of its values, nested up to three deep, replaced by a value of the wrong kind."""
    paths: list[tuple] = []

    def collect(value: Any, path: tuple) -> None:
        if path:
            paths.append(path)
        if len(path) < 3:
            keys = value.keys() if isinstance(value, dict) else range(len(value)) if isinstance(value, list) else ()
            for key in keys:
                collect(value[key], path + (key,))

    collect(action, ())
    variants = []
    for path in rng.sample(paths, min(count, len(paths))):
        variant = json.loads(json.dumps(action))
        parent = variant
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = rng.choice(JUNK)
        variants.append(variant)
    return variants


def check_refusals(match: Match, rng: random.Random, seats: int) -> None:
    """Wrong seats, actions that are no option, malformed JSON and bad chance outcomes change nothing."""
    state, pending = match.state, match.pending()
    before = signature(state)

    def refused(attempt, what: str) -> None:
        assert_refused(state, match.log, attempt, what, before)

    malformed = rng.choice(("roll", None, [], 3))
    refused(lambda: state.apply(malformed), f"the malformed action {malformed!r}")
    refused(lambda: state.apply({"type": "no-such-action"}), "an unknown action")
    for free_type in state.free_action_types:
        refused(lambda: state.apply({"type": free_type}), f"a free {free_type!r} outside apply_free")
    if isinstance(pending, Decision):
        option = rng.choice(pending.options)
        deciding = {decision.seat: decision for decision in state.decisions()}
        idle = [seat for seat in range(max(seats, pending.seat + 2)) if seat not in deciding]
        if idle:
            other = rng.choice(idle)
            refused(lambda: match.act(other, option), "an option from a seat with no decision open")
            refused(lambda: state.apply_as(other, option), "apply_as for a seat with no decision open")
        # several seats choosing at once: one seat cannot take another's option
        for seat, decision in deciding.items():
            foreign = next((o for d in deciding.values() if d.seat != seat for o in d.options if not decision.allows(o)), None)
            if foreign is not None:
                refused(lambda: match.act(seat, foreign), "another seat's option")
                break
        for junk in junk_variants(option, rng):
            refused(lambda: match.act(pending.seat, junk), f"{junk} for {pending.kind}")
        earlier = [entry["action"] for entry in match.log[-40:] if not entry.get("free")]
        stale = next((action for action in reversed(earlier) if not pending.allows(action)), None)
        if stale is not None:
            refused(lambda: state.apply(stale), f"the earlier action {stale} now")
    elif isinstance(pending, Chance):
        refused(lambda: match.act(0, {"type": "no-such-action"}), "a decision while chance is drawn")
        check_bad_outcomes(state, pending, rng, before)
    if state.free_action_types and seats:
        seat = rng.randrange(seats)
        free = rng.choice(state.free_options(seat) or ({"type": min(state.free_action_types)},))
        for junk in junk_variants(free, rng):
            refused(lambda: match.act(seat, junk), f"the free action {junk}")
        refused(lambda: state.apply_free(-1, free), "a free action of no seat")


def check_bad_outcomes(state: Game, pending: Chance, rng: random.Random, before: bytes | None = None) -> None:
    """An outcome of the pending chance step with a value of the wrong kind in it is refused."""
    drawn = pending.sample(rng)
    assert pending.is_valid(drawn)
    before = before or signature(state)
    for junk in junk_variants(drawn, rng):
        assert_refused(state, [], lambda: state.apply(junk), f"the bad {pending.kind} outcome {junk}", before)
