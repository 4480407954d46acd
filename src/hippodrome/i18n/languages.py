"""The players' languages: which ones exist, and choosing one from a browser or an environment.

>>> negotiate("de-AT,de;q=0.9,en;q=0.5")
'de'
>>> negotiate(["pt_BR", "fr_CA"])
'fr'
>>> negotiate("pt-BR")
'en'
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping

#: Every language with a complete catalog, in the order a language selector lists them.
LANGUAGES: tuple[str, ...] = ("en", "es", "fr", "nl", "de")
DEFAULT_LANGUAGE = "en"

#: What a language selector shows: each language's name in that language (never translated).
NATIVE_NAMES: Mapping[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "nl": "Nederlands",
    "de": "Deutsch",
}

#: BCP 47 tags for a speech synthesizer (the web's SpeechSynthesisUtterance.lang, espeak-ng -v).
SPEECH_TAGS: Mapping[str, str] = {
    "en": "en-GB",
    "es": "es-ES",
    "fr": "fr-FR",
    "nl": "nl-NL",
    "de": "de-DE",
}

#: Environment variables read by the terminal commands, in gettext's order of precedence.
ENV_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def normalize(tag: str | None) -> str | None:
    """The supported language a tag or locale name means, or None.

    Accepts BCP 47 tags ("de-AT"), POSIX locale names ("es_ES.UTF-8@euro") and bare codes,
    in any case. "C" and "POSIX" mean English, as they do for gettext.

    >>> normalize("es_ES.UTF-8"), normalize("FR-ca"), normalize("C.UTF-8"), normalize("pt")
    ('es', 'fr', 'en', None)
    """
    if not tag:
        return None
    tag = tag.strip().split(".")[0].split("@")[0]
    if tag.upper() in ("C", "POSIX"):
        return DEFAULT_LANGUAGE
    primary = tag.replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def _accept_language_entries(header: str) -> list[str]:
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(preferences: str | Iterable[str] | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The supported language that best fits an Accept-Language header or a list of tags.

    A header is ordered by its q-values (q=0 refuses a language); a list is taken in order.
    The first entry naming a supported language wins, whatever its region ("fr-CA" is "fr").
    """
    if preferences is None:
        return default
    entries = _accept_language_entries(preferences) if isinstance(preferences, str) else list(preferences)
    for entry in entries:
        if entry == "*":
            continue
        lang = normalize(entry)
        if lang is not None:
            return lang
    return default


def lang_from_env(environ: Mapping[str, str] | None = None, default: str = DEFAULT_LANGUAGE) -> str:
    """The language the usual environment variables ask for: LANGUAGE, LC_ALL, LC_MESSAGES, LANG.

    Like gettext, the first variable that is set decides; LANGUAGE may list several languages
    separated by colons ("nl:de"). Unlike gettext, a variable that names no language we have
    (LANGUAGE=pt) gives way to the next one instead of falling back to English at once.
    """
    environ = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = environ.get(name, "")
        for entry in value.split(":"):
            lang = normalize(entry)
            if lang is not None:
                return lang
    return default
