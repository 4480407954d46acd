"""Message catalogs: loading the .po files, translating, and the lazy ``Message``.

The .po files are read at run time with Babel (no compile step, no .mo files): each language is
parsed once, on first use, and cached. A translation that is missing, empty or marked fuzzy falls
back to the English msgid, so a half-translated catalog never breaks a screen (the tests refuse to
ship one anyway).

Messages are ``str.format`` templates with named placeholders: ``"card {card} is above the limit
of {limit}"``. Write literal braces as ``{{`` and ``}}``. Numbers given as parameters are formatted
for the language (``12345`` is "12.345" in German); wrap money in ``Money`` and shares in
``Percent`` (hippodrome.i18n.formatting); a parameter that is itself a ``Message`` (a horse's
name, a bet's name) is translated into the same language.
"""

from __future__ import annotations

import gettext
import os
import string
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from babel.lists import format_list
from babel.messages.pofile import read_po

from hippodrome.i18n.formatting import Money, Ordinal, Percent, format_number
from hippodrome.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, lang_from_env, normalize

DOMAIN = "hippodrome"
LOCALE_DIR = Path(__file__).parent / "locale"
TEMPLATE_PATH = LOCALE_DIR / "messages.pot"


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


#: Between a message's context and its msgid in a catalog key, as GNU gettext joins them.
CONTEXT_SEPARATOR = "\x04"


def catalog_key(msgid: str, context: str | None = None) -> str:
    """The key of a message in a loaded catalog (and in the web catalog): the msgid, or
    ``context + "\\x04" + msgid`` for a message with a context (``C_``): "Start" on the money
    table and "Start" on the course are two messages."""
    return msgid if context is None else f"{context}{CONTEXT_SEPARATOR}{msgid}"


@dataclass(frozen=True)
class LoadedCatalog:
    """One language's usable translations: key -> text, or key -> plural forms (the key is the
    msgid, or the context and the msgid joined by ``catalog_key``)."""

    lang: str
    singular: Mapping[str, str]
    plural: Mapping[str, tuple[str, ...]]
    plural_index: Callable[[int], int]
    plural_expr: str


@lru_cache(maxsize=None)
def load_catalog(lang: str) -> LoadedCatalog:
    """Read and cache a language's .po file (translations that are empty or fuzzy are left out)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}; languages: {', '.join(LANGUAGES)}")  # i18n: programming error
    with catalog_path(lang).open("rb") as file:
        catalog = read_po(file, locale=lang, domain=DOMAIN)
    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    for entry in catalog:
        if not entry.id or entry.fuzzy:
            continue
        if isinstance(entry.id, (list, tuple)):
            forms = tuple(entry.string)
            if forms and all(forms):
                plural[catalog_key(entry.id[0], entry.context)] = forms
        elif entry.string:
            singular[catalog_key(entry.id, entry.context)] = entry.string
    return LoadedCatalog(lang, singular, plural, gettext.c2py(catalog.plural_expr), catalog.plural_expr)


def reload_catalogs() -> None:
    """Forget the cached catalogs (after editing a .po file in a running process)."""
    load_catalog.cache_clear()


def resolve_language(lang: str | None) -> str:
    """A supported language code for ``lang`` ("es_ES" -> "es"); English when unknown or None."""
    if lang in LANGUAGES:
        return lang  # type: ignore[return-value]
    return normalize(lang) or DEFAULT_LANGUAGE


class _LocalizingFormatter(string.Formatter):
    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec and isinstance(value, (int, float)) and not isinstance(value, bool):
            return format_number(value, self.lang)
        return super().format_field(value, format_spec)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return super().convert_field(localize_value(value, self.lang), conversion)


def localize_value(value: Any, lang: str) -> Any:
    """A parameter as the language shows it: a Message/Money/Percent is translated, others kept."""
    if not isinstance(value, str) and callable(getattr(value, "translate", None)):
        return value.translate(lang)
    return value


def placeholders(text: str) -> set[tuple[str, str | None, str]]:
    """The ``{name!conversion:spec}`` fields of a str.format template (ValueError if braces are broken)."""
    return {(name, conversion, spec or "") for _, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def localize_text(value: Any, lang: str | None) -> str:
    """What a person reads for ``value`` in ``lang``: a Message (or Money, Listing...) translated,
    anything else as ``str()`` gives it."""
    return str(localize_value(value, resolve_language(lang)))


def _render(lang: str, template: str, fallback: str, params: Mapping[str, Any]) -> str:
    try:
        return _LocalizingFormatter(lang).vformat(template, (), params)
    except (KeyError, IndexError, ValueError):
        if template is fallback:
            raise
        # A broken translation must not hide the message: show the English one instead.
        return _LocalizingFormatter(lang).vformat(fallback, (), params)


def translate(lang: str | None, msgid: str, /, **params: Any) -> str:
    """``msgid`` in language ``lang`` with its placeholders filled.

    >>> translate("es", "round of cards")
    'ronda de cartas'
    """
    return translate_in_context(lang, None, msgid, **params)


def translate_in_context(lang: str | None, context: str | None, msgid: str, /, **params: Any) -> str:
    """``msgid`` in the sense ``context`` names (gettext's pgettext), in language ``lang``.

    >>> translate_in_context("es", "money before the first race", "Start")
    'Inicio'
    """
    lang = resolve_language(lang)
    text = load_catalog(lang).singular.get(catalog_key(msgid, context), msgid)
    return _render(lang, text, msgid, params)


def translate_plural(lang: str | None, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of a plural message that fits ``n`` in ``lang``; ``{n}`` is available to it."""
    lang = resolve_language(lang)
    catalog = load_catalog(lang)
    forms = catalog.plural.get(singular)
    if forms is None:
        text = singular if n == 1 else plural
    else:
        text = forms[min(catalog.plural_index(n), len(forms) - 1)]
    fallback = singular if n == 1 else plural
    return _render(lang, text, fallback, {"n": n, **params})


class Message:
    """A translatable message, translated only when shown (so it can be made before a language
    is known, raised in an error, stored in a game's history, and shown to each seat in its own
    language).

    >>> message = Message("{horse} falls at the fence", horse=Message("Red"))
    >>> str(message)
    'Red falls at the fence'
    >>> message.translate("fr")
    'Rouge chute sur la haie'
    """

    __slots__ = ("msgid", "params", "context")

    def __init__(self, msgid: str, /, **params: Any):
        self.msgid = msgid
        self.params = params
        self.context: str | None = None

    def translate(self, lang: str | None) -> str:
        return translate_in_context(lang, self.context, self.msgid, **self.params)

    def __str__(self) -> str:
        return self.translate(DEFAULT_LANGUAGE)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        if self.context is not None:
            return f"C_({self.context!r}, {self.msgid!r}{params})"
        return f"{type(self).__name__}({self.msgid!r}{params})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.msgid, self.params, self.context) == (
            other.msgid, other.params, other.context)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self.msgid)

    def to_json(self) -> dict[str, Any]:
        """A JSON form a web page can translate itself with /i18n/<lang>.json (with ``"context"``
        when the message has one)."""
        data = {"msgid": self.msgid, "params": {key: _json_value(value) for key, value in self.params.items()}}
        if self.context is not None:
            data["context"] = self.context
        return data


class Plural(Message):
    """A message with a singular and a plural English form, chosen by the count ``n``.

    >>> Plural("{n} point", "{n} points", 50).translate("de")
    '50 Punkte'
    """

    __slots__ = ("plural", "n")

    def __init__(self, singular: str, plural: str, n: int, /, **params: Any):
        super().__init__(singular, **params)
        self.plural = plural
        self.n = n

    def translate(self, lang: str | None) -> str:
        return translate_plural(lang, self.msgid, self.plural, self.n, **self.params)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        return f"Plural({self.msgid!r}, {self.plural!r}, {self.n!r}{params})"

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and (self.plural, self.n) == (other.plural, other.n)  # type: ignore[attr-defined]

    __hash__ = Message.__hash__

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "plural": self.plural, "n": self.n}


def _json_value(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


class Listing:
    """Several values shown as one parameter, each in the language of the sentence around it:
    ``Message("may end on: {ends}", ends=Listing([Message("lane {lane} square {square}", ...), ...], "; "))``.
    The separator is written as the language writes it (French puts a no-break space before ";"):
    the catalogs hold it in the context :data:`LIST_SEPARATOR`. ``conjunction=True`` joins them as
    the language says "this and that" ("5 and 9", "5 y 9", "5 und 9": CLDR's lists, which the
    pages' ``Intl.ListFormat`` also reads) in place of a separator.
    Its JSON form is ``{"list": [...], "separator": "; "}``, or ``{"list": [...], "conjunction": true}``."""

    def __init__(self, items: list[Any], separator: str = ", ", *, conjunction: bool = False):
        self.items = list(items)
        self.separator = separator
        self.conjunction = conjunction

    def translate(self, lang: str | None) -> str:
        lang = resolve_language(lang)
        return self._joined([str(localize_value(item, lang)) for item in self.items], lang)

    def _joined(self, texts: list[str], lang: str) -> str:
        if self.conjunction and texts:
            return format_list(texts, locale=lang)
        # the separator as the language writes it (French: "\u00a0; "), from the catalog (SEPARATORS)
        return translate_in_context(lang, LIST_SEPARATOR, self.separator).join(texts)

    def __str__(self) -> str:
        return self._joined([str(item) for item in self.items], DEFAULT_LANGUAGE)

    def __repr__(self) -> str:
        extra = ", conjunction=True" if self.conjunction else ""
        return f"Listing({self.items!r}, {self.separator!r}{extra})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listing) and \
            (self.items, self.separator, self.conjunction) == (other.items, other.separator, other.conjunction)

    def to_json(self) -> dict[str, Any]:
        items = [_json_value(item) for item in self.items]
        return {"list": items, "conjunction": True} if self.conjunction else {"list": items, "separator": self.separator}


class Seat:
    """A seat of the table as a Message parameter: a page shows the seat's name (it knows the
    names); elsewhere it is "player 2" (1-based). Its JSON form is ``{"seat": 1}`` (0-based)."""

    def __init__(self, seat: int):
        self.seat = seat

    def translate(self, lang: str | None) -> str:
        # NOTE: a seat of the table whose player's name is not known here; {n} counts from 1.
        return Message("player {n}", n=self.seat + 1).translate(lang)

    def __str__(self) -> str:
        return self.translate(DEFAULT_LANGUAGE)

    def __repr__(self) -> str:
        return f"Seat({self.seat!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seat) and other.seat == self.seat

    def __hash__(self) -> int:
        return hash(self.seat)

    def to_json(self) -> dict:
        return {"seat": self.seat}


def message_from_json(data: Any) -> Any:
    """The translatable value a JSON form stands for (the inverse of ``to_json``): ``{"msgid",
    "params"[, "plural", "n"]}`` a Message or Plural, ``{"list", "separator" or "conjunction"}`` a Listing,
    ``{"money"}``/``{"percent"}``/``{"ordinal"}`` the formatted amounts, ``{"seat"}`` a Seat; anything else as it is."""
    if not isinstance(data, dict):
        return data
    if "msgid" in data:
        msgid, plural = data["msgid"], data.get("plural")   # (variables: the extractor must not see the keys)
        params = {key: message_from_json(value) for key, value in (data.get("params") or {}).items()}
        message = Message(msgid, **params) if plural is None else Plural(msgid, plural, data["n"], **params)
        message.context = data.get("context")
        return message
    if "list" in data:
        return Listing([message_from_json(item) for item in data["list"]], data.get("separator", ", "),
                       conjunction=data.get("conjunction") is True)
    if "money" in data:
        return Money(data["money"])
    if "ordinal" in data:
        return Ordinal(data["ordinal"])
    if "percent" in data:
        return Percent(data["percent"], data.get("decimals", 0))
    if "seat" in data and len(data) == 1:
        return Seat(data["seat"])
    return data


def _(msgid: str, /, **params: Any) -> Message:
    """Mark a message in code and make it: the short spelling of ``Message``."""
    return Message(msgid, **params)


def C_(context: str, msgid: str, /, **params: Any) -> Message:
    """Mark and make a message whose English word has another meaning elsewhere (gettext's
    pgettext; GLib's ``C_``): ``C_("money before the first race", "Start")``. The context is a
    short English description for the translator; the catalogs hold one entry per (context, msgid)."""
    message = Message(msgid, **params)
    message.context = context
    return message


#: the catalogs' context of a Listing's separators (SEPARATORS)
LIST_SEPARATOR = "between the items of a list"
SEPARATORS = (
    # NOTE: between the items of a list: "Red, Blue, Green".
    C_("between the items of a list", ", "),
    # NOTE: between the items of a list whose items have commas of their own: "lane 1 square 3; lane 2
    # square 4" (French writes a no-break space before the semicolon).
    C_("between the items of a list", "; "),
)
# NOTE: between a label and what it says, where the two are drawn apart: "Red: 10 cards" (French
# writes a no-break space before the colon).
LABEL_COLON = C_("between a label and what it says", ": ")


def colon(lang: str | None) -> str:
    """The colon between a label and what it says, as ``lang`` writes it ("\u00a0: " in French),
    for texts put together piece by piece (a sentence with both parts is one Message instead)."""
    return LABEL_COLON.translate(lang)


def N_(msgid: str, /) -> str:
    """Mark a string for extraction and return it unchanged (for module-level tables and constants
    that are translated later with ``translate(lang, text)`` or ``Message(text)``)."""
    return msgid


def help_language(argv: list[str] | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of help texts, which exist before the command line is parsed: a ``--lang``
    on the command line, else HIPPODROME_LANG, else the locale variables (``lang_from_env``)."""
    argv = sys.argv[1:] if argv is None else argv
    environ = os.environ if environ is None else environ
    for index, argument in enumerate(argv):
        value = None
        if argument == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif argument.startswith("--lang="):
            value = argument.partition("=")[2]
        if normalize(value):
            return normalize(value)
    return normalize(environ.get("HIPPODROME_LANG")) or lang_from_env(environ)


def help_text(msgid: str, /, **params: Any) -> str:
    """A message translated now, for Typer/argparse help texts, into ``help_language()``: so
    ``hippodrome turfmaster play --lang de --help`` is German."""
    return translate(help_language(), msgid, **params)
