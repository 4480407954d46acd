"""core/state.py on a small state of its own: what each kind of field and cache does."""

from __future__ import annotations

import pytest

from hippodrome.core.state import (
    KEEP,
    RESET,
    DeclaredState,
    StateFields,
    derived,
    nested,
    shallow,
    shared,
    substate,
)


class Inner(DeclaredState):
    name = "inner"
    state_fields = StateFields(shallow("items"))


class Toy(DeclaredState):
    name = "toy"
    state_fields = StateFields(
        shared("label"),
        derived("shout", lambda toy: toy.label.upper()),
        shallow("scores"),
        nested("hands"),
        substate("inner", Inner),
        shared("added_later", default=0),
        caches={"_kept": KEEP, "_dropped": RESET},
    )


def toy() -> Toy:
    return Toy.create(label="ab", scores=[1, 2], hands={"x": [1], "y": [2]}, inner=Inner.create(items=[7]),
                      added_later=3)


def test_create_derives_and_starts_without_caches():
    state = toy()
    assert state.shout == "AB" and state._kept is None and state._dropped is None
    with pytest.raises(TypeError, match=r"missing \['added_later'\], unknown \['extra'\]"):
        Toy.create(label="ab", scores=[], hands={}, inner=None, extra=1)


def test_a_clone_copies_each_field_as_declared():
    state = toy()
    state._kept, state._dropped = ("kept",), ("dropped",)
    clone = state.clone()
    assert clone.label is state.label and clone.shout is state.shout
    assert clone.scores == state.scores and clone.scores is not state.scores
    assert clone.hands == state.hands and clone.hands["x"] is not state.hands["x"]
    assert clone.inner.items == [7] and clone.inner is not state.inner and clone.inner.items is not state.inner.items
    assert clone._kept is state._kept and clone._dropped is None
    state.inner = None
    state.scores = None
    assert state.clone().inner is None and state.clone().scores is None


def test_json_by_name_with_defaults_and_derived_fields_left_out():
    state = toy()
    data = state.to_json()
    assert data == {"game": "toy", "state": {"label": "ab", "scores": [1, 2], "hands": {"x": [1], "y": [2]},
                                             "inner": {"game": "inner", "state": {"items": [7]}}, "added_later": 3}}
    del data["state"]["added_later"]
    restored = Toy.from_json(data)
    assert restored.shout == "AB" and restored.added_later == 0 and restored.inner.items == [7]


def test_a_field_or_cache_declared_twice_is_refused():
    with pytest.raises(ValueError, match="declared twice"):
        StateFields(shared("a"), shallow("a"))
    with pytest.raises(ValueError, match="declared twice"):
        StateFields(shared("a"), caches={"a": KEEP})
    with pytest.raises(ValueError, match="KEEP or RESET"):
        StateFields(shared("a"), caches={"_b": "sometimes"})
