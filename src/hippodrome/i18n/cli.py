"""``--lang`` for the terminal commands (Typer).

    @app.command()
    def play(lang: str = lang_option()) -> None:
        console.print(Message("They're off!").translate(lang))

The option also reads HIPPODROME_LANG; without either, the usual LANGUAGE / LC_ALL / LC_MESSAGES /
LANG decide (``lang_from_env``), and then English. The value the command receives is always one of
LANGUAGES.
"""

from __future__ import annotations

from typing import Any

import typer

from hippodrome.i18n.catalogs import N_, help_text, translate
from hippodrome.i18n.languages import LANGUAGES, lang_from_env, normalize

ENV_VARIABLE = "HIPPODROME_LANG"


def resolve_lang_option(value: str | None) -> str:
    """The language a ``--lang`` value (or its absence) means; refuses a language we lack."""
    if value is None or value == "":
        return lang_from_env()
    lang = normalize(value)
    if lang is None:
        raise typer.BadParameter(translate(
            lang_from_env(), N_("{value} is not one of the languages: {languages}"),
            value=repr(value), languages=", ".join(LANGUAGES)))
    return lang


def _callback(value: str | None) -> str:
    return resolve_lang_option(value)


def lang_option(**overrides: Any) -> Any:
    """A Typer option ``--lang`` (also HIPPODROME_LANG, then the locale variables); the command
    parameter receives a supported language code."""
    settings: dict[str, Any] = dict(
        envvar=ENV_VARIABLE,
        callback=_callback,
        metavar="LANG",
        show_default=False,
        help=help_text(N_("language of the messages: {languages} (default: HIPPODROME_LANG, then "
                          "LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"), languages=", ".join(LANGUAGES)),
    )
    settings.update(overrides)
    return typer.Option(None, "--lang", **settings)
