"""Text tied to the ruling it comes from, so that a page can link a refusal or a note to the
paragraph of the game's rules page that explains it.

An engine wraps a message where it refuses or notes something: ``Ruled(Message(...), "T4")``. The
wrapper reads as its message (``str``, ``translate``, ``to_json``, ``msgid``...), and adds ``rule``:
a ruling id of the game's rulings (T1.., R1..), which the game's ``RulesPage`` anchors map to a
paragraph. ``rule_of(text)`` reads it from a wrapper, a :class:`~hippodrome.core.game.Note` or an
:class:`~hippodrome.core.errors.IllegalAction` (None when the text says where it comes from nowhere).
Core stays free of any import of ours: it only duck-types the message.
"""

from __future__ import annotations

from typing import Any


class Ruled:
    """``text`` (a message or a plain string) coming from ruling ``rule`` ("T4")."""

    __slots__ = ("text", "rule")

    def __init__(self, text: Any, rule: str) -> None:
        self.text = text
        self.rule = rule

    def translate(self, lang: str | None) -> str:
        translate = getattr(self.text, "translate", None)
        return translate(lang) if callable(translate) and not isinstance(self.text, str) else str(self.text)

    def to_json(self) -> dict[str, Any]:
        """The message's own ``{"msgid", "params"}`` (the rule travels beside it, never inside)."""
        to_json = getattr(self.text, "to_json", None)
        return to_json() if callable(to_json) else {"msgid": str(self.text), "params": {}}

    def __getattr__(self, name: str) -> Any:   # msgid, params...: the message's
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.text, name)

    def __str__(self) -> str:
        return str(self.text)

    def __repr__(self) -> str:
        return f"Ruled({self.text!r}, {self.rule!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruled) and (self.text, self.rule) == (other.text, other.rule)

    def __hash__(self) -> int:
        return hash((self.rule, str(self.text)))


def rule_of(text: Any) -> str | None:
    """The ruling ``text`` comes from (a :class:`Ruled` message, a note or an error made of one), or None."""
    rule = getattr(text, "rule", None)
    return rule if isinstance(rule, str) else None
