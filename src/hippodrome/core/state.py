"""A game state's fields, declared once: how a clone copies each one and how each crosses JSON.

A game lists its fields in order in ``state_fields``, each made by one of the functions below,
and mixes :class:`DeclaredState` into its class; ``create`` (for ``new``), ``clone``, ``to_json``
and ``from_json`` all follow that list::

    class Race(DeclaredState, Game):
        state_fields = StateFields(
            shared("setup"),
            derived("course", lambda race: setup_course(race.setup)[0]),
            shallow("places"),
            nested("hands"),
            caches={"_pending_cache": KEEP},
        )

How a clone gets each field (the clone must never change when the original plays on, nor the
original when the clone does):

* :func:`shared`: the same object; for values that are immutable or only ever replaced, never
  changed in place (numbers, strings, the setup, a frozen dataclass);
* :func:`shallow`: a copy of the list or dict (``None`` stays ``None``), whose items are never
  changed in place;
* :func:`nested`: a list or dict of lists or dicts, copied two levels deep (a hand per horse);
* :func:`substate`: another declared state, copied by its own ``clone``;
* :func:`derived`: not stored at all: shared by a clone and, when the state is read from JSON,
  computed again from the fields before it (a course from the setup's course name).

Caches (``_pending_cache``...) are not fields: a clone either keeps them (``KEEP``: the cached
value is immutable, or only read) or starts without them (``RESET``); a new or restored state
starts without them. A cache is ``None`` when empty.

JSON: each field goes out under its name (or ``key``), through its :class:`Codec` when it has
one, and the state JSON is a deep copy (nothing in it is shared with the state, nothing in the
state with the JSON it was read from). ``default`` is what an older stored state that lacks the
field means; without one, a missing field is an error.

``clone`` is written out as Python source from the declaration, as :mod:`dataclasses` writes
``__init__``: one attribute at a time in declaration order, as a hand-written clone would. A clone
made by copying ``__dict__`` would be as short but slower, and every attribute read on such a clone
is slower too (a clone is made to be played on: previews, searches).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping

import orjson

from hippodrome.core import jsondump

SHARED, SHALLOW, NESTED, SUBSTATE, DERIVED = "shared", "shallow", "nested", "substate", "derived"

#: what a clone does with a cache
KEEP, RESET = "keep", "reset"

_MISSING: Any = object()


@dataclass(frozen=True)
class Codec:
    """How a field's value crosses JSON; each function also gets the state (built up to that field,
    when reading) for values that need it, such as squares that need the course."""

    encode: Callable[[Any, Any], Any]
    decode: Callable[[Any, Any], Any]


def object_codec(cls: Any) -> Codec:
    """The codec of values that have ``to_json()`` and ``cls.from_json(data)`` (``None`` kept)."""
    return Codec(lambda _state, value: None if value is None else value.to_json(),
                 lambda _state, data: None if data is None else cls.from_json(data))


@dataclass(frozen=True)
class Field:
    """One declared field: its name, its kind (how a clone copies it) and how it crosses JSON."""

    name: str
    kind: str
    codec: Codec | None = None
    key: str | None = None
    default: Any = _MISSING
    derive: Callable[[Any], Any] | None = None

    @property
    def json_key(self) -> str:
        return self.key or self.name


def shared(name: str, *, codec: Codec | None = None, key: str | None = None, default: Any = _MISSING) -> Field:
    """A field a clone shares: immutable, or only ever replaced."""
    return Field(name, SHARED, codec, key, default)


def shallow(name: str, *, codec: Codec | None = None, key: str | None = None, default: Any = _MISSING) -> Field:
    """A list or dict (or None) a clone copies, whose items are never changed in place."""
    return Field(name, SHALLOW, codec, key, default)


def nested(name: str, *, codec: Codec | None = None, key: str | None = None, default: Any = _MISSING) -> Field:
    """A list or dict of lists or dicts (or None) a clone copies two levels deep."""
    return Field(name, NESTED, codec, key, default)


def substate(name: str, cls: Any, *, key: str | None = None) -> Field:
    """A state of class ``cls`` (or None), with its own clone and JSON."""
    return Field(name, SUBSTATE, object_codec(cls), key)


def derived(name: str, derive: Callable[[Any], Any]) -> Field:
    """A field computed by ``derive(state)`` from the fields before it; not in JSON, shared by a clone."""
    return Field(name, DERIVED, derive=derive)


#: how the generated clone copies ``value`` (a field read from ``self``), by kind of field
_COPY_EXPRESSIONS = {
    SHARED: "{value}",
    DERIVED: "{value}",
    SHALLOW: "None if (v := {value}) is None else v.copy()",
    NESTED: ("None if (v := {value}) is None else ({{k: i.copy() for k, i in v.items()}} "
             "if v.__class__ is dict else [i.copy() for i in v])"),
    SUBSTATE: "None if (v := {value}) is None else v.clone()",
}


class StateFields:
    """The declaration of a state class: its fields in order and its caches."""

    def __init__(self, *fields: Field, caches: Mapping[str, str] | None = None):
        names = [field.name for field in fields]
        caches = dict(caches or {})
        if len(set(names)) != len(names) or set(names) & set(caches):
            raise ValueError(f"a state field is declared twice: {names}, {sorted(caches)}")  # i18n: programming error
        if any(what not in (KEEP, RESET) for what in caches.values()):
            raise ValueError(f"a clone must KEEP or RESET each cache: {caches}")  # i18n: programming error
        self.fields = fields
        self.caches = caches

    def attributes(self) -> frozenset[str]:
        """Every attribute a state of this class has: its fields and its caches."""
        return frozenset(field.name for field in self.fields) | frozenset(self.caches)

    def stored(self) -> tuple[Field, ...]:
        """The fields that go into JSON (all but the derived ones)."""
        return tuple(field for field in self.fields if field.kind != DERIVED)

    def clone_function(self) -> Callable[[Any], Any]:
        """``clone(self)``, written out for these fields (see the module docstring)."""
        lines = ["def clone(self):", "    twin = _new(self.__class__)"]
        for field in self.fields:
            expression = _COPY_EXPRESSIONS[field.kind].format(value=f"self.{field.name}")
            lines.append(f"    twin.{field.name} = {expression}")
        for name, what in self.caches.items():
            lines.append(f"    twin.{name} = self.{name}" if what == KEEP else f"    twin.{name} = None")
        lines.append("    return twin")
        namespace: dict[str, Any] = {"_new": object.__new__}
        exec("\n".join(lines), namespace)  # noqa: S102 - our own source, built from the declaration
        clone = namespace["clone"]
        clone.__doc__ = "A copy that plays on independently of this state (fields copied as declared)."
        return clone


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON data, as it comes back from JSON (tuples become lists): its text
    (:func:`~hippodrome.core.jsondump.dumps`: orjson's, else the standard library's, which refuses
    dataclasses and dates as it did before orjson) read back by the library that wrote it."""
    text = jsondump.dumps(value)
    return orjson.loads(text) if type(text) is bytes else json.loads(text)


class DeclaredState:
    """``create``, ``clone``, ``to_json`` and ``from_json`` of a :class:`~hippodrome.core.game.Game`
    whose class declares ``state_fields``. Mix it in before ``Game``."""

    state_fields: ClassVar[StateFields]
    name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "state_fields" in cls.__dict__:
            cls.clone = cls.state_fields.clone_function()  # type: ignore[method-assign]

    @classmethod
    def create(cls, **values: Any) -> Any:
        """A state with these field values (every stored field, no other; derived fields are
        computed, caches empty)."""
        declared = cls.state_fields
        given, expected = set(values), {field.name for field in declared.stored()}
        if given != expected:
            missing, unknown = sorted(expected - given), sorted(given - expected)
            raise TypeError(f"{cls.__name__}.create: missing {missing}, unknown {unknown}")  # i18n: programming error
        state = cls.__new__(cls)
        for field in declared.fields:
            setattr(state, field.name, field.derive(state) if field.kind == DERIVED else values[field.name])
        state._empty_caches()
        return state

    def _empty_caches(self) -> None:
        for name in self.state_fields.caches:
            setattr(self, name, None)

    def clone(self) -> Any:  # replaced in each declaring class by the generated clone
        raise NotImplementedError(f"{type(self).__name__} declares no fields")  # i18n: programming error

    def to_json(self) -> dict[str, Any]:
        data = {}
        for field in self.state_fields.stored():
            value = getattr(self, field.name)
            data[field.json_key] = field.codec.encode(self, value) if field.codec else value
        return {"game": self.name, "state": _json_copy(data)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        return cls.from_own_json(_json_copy(data["state"]))

    @classmethod
    def from_own_json(cls, stored: dict[str, Any]) -> Any:
        """:meth:`from_json` of a state's JSON (its ``"state"`` part) made for this call, of lists
        and dicts that nothing else holds: the state takes them as they are, without the deep copy
        (a search builds one such state per determinisation)."""
        state = cls.__new__(cls)
        for field in cls.state_fields.fields:
            if field.kind == DERIVED:
                value = field.derive(state)
            elif field.json_key in stored:
                value = stored[field.json_key]
                value = field.codec.decode(state, value) if field.codec else value
            elif field.default is not _MISSING:
                value = field.default
            else:  # a stored state that never held this field, and no default says what that means
                raise KeyError(f"{cls.name} state without {field.json_key!r}")  # i18n: programming error
            setattr(state, field.name, value)
        state._empty_caches()
        return state
