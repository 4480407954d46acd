"""Turning refused input into a clear message, in the player's language, and exit status 2."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

import typer

from hippodrome.core.errors import HippodromeError
from hippodrome.i18n import lang_from_env, localize_error, translate

REFUSED = 2


@contextmanager
def refused_input_exits(lang: str | None = None) -> Iterator[None]:
    """Print a refused input's error on stderr in ``lang`` (by default the environment's language,
    LANGUAGE / LC_ALL / LC_MESSAGES / LANG) and exit with status 2."""
    try:
        yield
    except HippodromeError as error:
        lang = lang or lang_from_env()
        # NOTE: how the terminal shows a refused input; {message} says what was wrong.
        print(translate(lang, "error: {message}", message=localize_error(error, lang)), file=sys.stderr)
        raise typer.Exit(REFUSED) from None

