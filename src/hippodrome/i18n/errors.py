"""Errors in the player's language.

The engines raise ``IllegalAction(Message(...))`` / ``InvalidSetup(Message(...))``; core stays free
of any import of ours because it only needs ``str(message)`` (English) for logs and tracebacks.
The server and the CLI call ``localize_error(error, lang)`` to show the error to a person.
"""

from __future__ import annotations

from typing import Any

from hippodrome.i18n.catalogs import localize_value, resolve_language


def localize_error(error: BaseException, lang: str | None) -> str:
    """The error's message in ``lang``.

    Its first argument is translated when it is translatable (a ``Message``, ``Plural`` or anything
    with a ``translate(lang)`` method); a plain string is shown as it is: English, until the sweep
    has moved that raise onto the catalogs.

    >>> from hippodrome.core.errors import IllegalAction
    >>> from hippodrome.i18n import Message
    >>> localize_error(IllegalAction(Message("No more bets!")), "es")
    '¡Se acabaron las apuestas!'
    """
    lang = resolve_language(lang)
    first: Any = error.args[0] if error.args else None
    if first is not None and not isinstance(first, str) and callable(getattr(first, "translate", None)):
        return localize_value(first, lang)
    return str(error)


def error_to_json(error: BaseException, lang: str | None) -> dict[str, Any]:
    """What the server sends a seat about a refused action: the class, the text in the seat's
    language, and the actions that would have been allowed (IllegalAction.allowed)."""
    result: dict[str, Any] = {"error": type(error).__name__, "message": localize_error(error, lang)}
    allowed = getattr(error, "allowed", None)
    if allowed:
        result["allowed"] = list(allowed)
    return result
