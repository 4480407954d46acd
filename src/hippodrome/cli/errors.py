"""Turning refused input into a clear message and exit status 2."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

import typer

from hippodrome.core.errors import HippodromeError

REFUSED = 2


@contextmanager
def refused_input_exits() -> Iterator[None]:
    try:
        yield
    except HippodromeError as error:
        print(f"error: {error}", file=sys.stderr)
        raise typer.Exit(REFUSED) from None
