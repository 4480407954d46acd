"""What a web page needs to show messages: the whole catalog of one language, as JSON.

The server serves ``web_catalog(lang)`` at ``/i18n/<lang>.json``; the page's ``t(msgid, params)``
looks the text up and fills ``{name}`` placeholders itself (see docs/i18n.md).
"""

from __future__ import annotations

from typing import Any

from hippodrome.i18n.catalogs import load_catalog, resolve_language
from hippodrome.i18n.languages import LANGUAGES, NATIVE_NAMES, SPEECH_TAGS


def web_catalog(lang: str | None) -> dict[str, Any]:
    """Every message of ``lang``: msgid -> translation.

    A plural message maps its singular msgid to the list of forms; which form fits a count is
    ``plural_rule(lang)`` (a C expression in ``n``; in our five languages form 0 is the singular
    and form 1 the plural, and French uses the singular for 0 too). Untranslated messages are left
    out: the page shows the English msgid for them, as the server does.
    """
    catalog = load_catalog(resolve_language(lang))
    messages: dict[str, Any] = dict(catalog.singular)
    messages.update({msgid: list(forms) for msgid, forms in catalog.plural.items()})
    return messages


def plural_rule(lang: str | None) -> str:
    """The language's plural rule as gettext writes it, e.g. "(n > 1)" for French."""
    return load_catalog(resolve_language(lang)).plural_expr


def languages_for_web() -> list[dict[str, str]]:
    """The language selector's entries: code, native name and speech synthesis tag."""
    return [{"code": code, "name": NATIVE_NAMES[code], "speech": SPEECH_TAGS[code]} for code in LANGUAGES]
