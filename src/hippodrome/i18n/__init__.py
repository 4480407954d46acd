"""Every word the project shows a person, in English, Spanish, French, Dutch and German.

See docs/i18n.md. The short version::

    from hippodrome.i18n import Message, N_, translate, format_money

    raise IllegalAction(Message("card {card} is above the limit of {limit}", card=11, limit=8))
    Message("No more bets!").translate("es")        # '¡Se acabaron las apuestas!'
    format_money(45, "de")                          # '45 $'
"""

from __future__ import annotations

from typing import Any

from hippodrome.i18n.catalogs import (
    C_, Listing, Message, N_, Plural, _, catalog_key, colon, help_text, load_catalog, localize_text, message_from_json,
    reload_catalogs, Seat, resolve_language, translate, translate_in_context, translate_plural,
)
from hippodrome.i18n.errors import error_to_json, localize_error
from hippodrome.i18n.formatting import (
    Money, Ordinal, Percent, format_money, format_number, format_ordinal, format_percent,
)
from hippodrome.i18n.languages import (
    DEFAULT_LANGUAGE, LANGUAGES, NATIVE_NAMES, SPEECH_TAGS, lang_from_env, negotiate, normalize,
)
from hippodrome.i18n.web import languages_for_web, plural_rule, web_catalog

__all__ = [
    "C_", "catalog_key", "colon", "translate_in_context", "DEFAULT_LANGUAGE", "LANGUAGES", "NATIVE_NAMES", "SPEECH_TAGS", "Listing", "Message", "Money", "N_", "Ordinal",
    "Percent", "Plural", "Seat", "_", "error_to_json", "format_money", "format_number", "format_ordinal",
    "format_percent", "help_text", "lang_from_env", "lang_option", "languages_for_web", "load_catalog",
    "localize_error", "localize_text", "message_from_json", "negotiate", "normalize", "plural_rule", "reload_catalogs", "resolve_language",
    "translate", "translate_plural", "web_catalog",
]


def __getattr__(name: str) -> Any:
    # Typer is imported only by the commands that use --lang, not by every engine that makes a Message.
    if name in ("lang_option", "resolve_lang_option"):
        from hippodrome.i18n import cli
        return getattr(cli, name)
    raise AttributeError(name)
