"""`hippodrome serve` refusing its options or its database, run in the test's process (a new
process would spend most of a second on its imports for a refusal made before any socket)."""

from __future__ import annotations

import logging

import pytest
from click.testing import Result
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.server.drain import DrainingServer

#: the loggers `hippodrome serve` sets up (server/logs.py's configure) before it refuses anything
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access")


def refused_serve(*args: str) -> Result:
    """`hippodrome serve --no-browser --port 0 ARGS`, which must refuse before it serves: a
    command that would serve fails the test instead. The loggers it configured are put back."""
    saved = [(logger, list(logger.handlers), logger.level, logger.propagate)
             for logger in map(logging.getLogger, LOGGERS)]

    def serves(*_, **__):
        raise AssertionError(f"`hippodrome serve {' '.join(args)}` did not refuse: it serves")

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(DrainingServer, "run", serves)
            return CliRunner().invoke(app, ["serve", "--no-browser", "--port", "0", *args])
    finally:
        for logger, handlers, level, propagate in saved:
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate


def said_and_exited_2(result: Result) -> str:
    """What the refusal said on stderr, once it is sure the command exited with 2 of its own
    accord (an exception let through is exit 1 and a traceback in a real process)."""
    assert isinstance(result.exception, SystemExit) and result.exit_code == 2, (result.exception, result.output)
    return result.stderr
