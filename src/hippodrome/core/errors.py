"""Specific error classes: each says what was wrong and what would be right.

The message may be a plain string or anything translatable: an object with
``translate(lang) -> str`` whose ``str()`` is the English text, such as
:class:`hippodrome.i18n.Message`. Core needs no import of it: ``str(error)`` is English (logs,
tracebacks, tests), and a front end shows ``error.translate(lang)`` (or
``hippodrome.i18n.localize_error``) to a person.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, Union, runtime_checkable

from hippodrome.core.rulings import rule_of


@runtime_checkable
class Translatable(Protocol):
    """Text that can be shown in a language: ``str()`` is its English form."""

    def translate(self, lang: str | None) -> str: ...


Text = Union[str, Translatable]


class HippodromeError(Exception):
    """Base of every error the project raises on purpose."""

    def translate(self, lang: str | None) -> str:
        """The message in ``lang`` (a plain-string message is shown as it is)."""
        message = self.args[0] if self.args else ""
        if not isinstance(message, str) and callable(getattr(message, "translate", None)):
            return message.translate(lang)
        return str(self)


class InvalidSetup(HippodromeError):
    """A game, position or table description that cannot be played."""


class IllegalAction(HippodromeError):
    """An action that the rules do not allow now; the state is left unchanged.

    ``allowed`` lists the actions that would have been legal, so a front end can
    show them next to the message; ``rule`` is the ruling the refusal comes from ("T4", None when
    it comes from none), given here or carried by the message (``core.rulings.Ruled``), so that a
    page can link the refusal to the rules page's paragraph.
    """

    def __init__(self, message: Text, allowed: tuple = (), rule: str | None = None):  # noqa: D107
        super().__init__(message)
        self.allowed = tuple(allowed)
        self.rule = rule if rule is not None else rule_of(message)


#: characters of a list or object a message quotes
GIVEN_LIMIT = 60


def given(value: Any) -> str:
    """A value a request or a caller gave, as an error message quotes it: JSON's ``true``,
    ``false`` and ``null`` (a request is JSON: Python's True, False and None would puzzle its
    writer), a list or an object as JSON cut after ``GIVEN_LIMIT`` characters, text and numbers
    as ``repr`` shows them ('2', 2.5)."""
    if value is True or value is False or value is None:
        return json.dumps(value)
    if isinstance(value, (list, tuple, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except ValueError:   # a list holding itself
            text = repr(value)
        return text if len(text) <= GIVEN_LIMIT else text[:GIVEN_LIMIT] + "..."
    return repr(value)

