"""The server's log as an operator reads it: one line per event, naming its table and its client.

* ``about_table(id)``: while it holds (a table's runner started, a connection served), every line
  logged there, and in the tasks started there, names the table (a context variable, which asyncio
  copies into every task it starts).
* ``refused(address, reason)``: one line per refusal (a connection over the limit, a request head
  too slow, a websocket handshake refused), with the client's address and why.
* ``configure(fmt)``: ``hippodrome serve``'s handler: ``text`` (the message, then ``table=...``
  and ``client=...`` where known) or ``json`` (one JSON object per line: time, level, logger,
  message, table, client). A line is one line: a fault's newlines and tracebacks stay out of it
  (``exception=`` names the exception's type for code that logs one).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

#: the table the code running now works for (None: none)
TABLE: ContextVar[str | None] = ContextVar("hippodrome_table", default=None)
#: the logger of refused connections and requests
REFUSALS = logging.getLogger("hippodrome.server.refusals")
FORMATS = ("text", "json")


@contextmanager
def about_table(table_id: str) -> Iterator[None]:
    """Lines logged inside (and in tasks started inside) name ``table_id``."""
    token = TABLE.set(table_id)
    try:
        yield
    finally:
        TABLE.reset(token)


def refused(address: str, reason: str) -> None:
    """One line: a refusal of ``address`` and its reason (English: the operator's log)."""
    REFUSALS.warning("refused %s: %s", address, reason, extra={"client": address})


def one_line(text: str) -> str:
    return " | ".join(part.strip() for part in str(text).splitlines() if part.strip())


class TableFilter(logging.Filter):
    """Gives every record its ``table`` (the record's own, else the context's) and ``client``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = TABLE.get()
        if not hasattr(record, "client"):
            record.client = None
        return True


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        parts = [self.formatTime(record, "%Y-%m-%d %H:%M:%S"), record.levelname, record.name + ":",
                 one_line(record.getMessage())]
        if getattr(record, "table", None):
            parts.append(f"table={record.table}")
        if getattr(record, "client", None):
            parts.append(f"client={record.client}")
        if record.exc_info and record.exc_info[0] is not None:
            parts.append(f"exception={record.exc_info[0].__name__}")
        return " ".join(parts)


class JSONFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                + f".{int(record.msecs):03d}Z",
                "level": record.levelname.lower(), "logger": record.name, "message": one_line(record.getMessage()),
                "table": getattr(record, "table", None), "client": getattr(record, "client", None)}
        if record.exc_info and record.exc_info[0] is not None:
            line["exception"] = record.exc_info[0].__name__
            line["detail"] = one_line(str(record.exc_info[1]))[:500]
        return json.dumps(line, ensure_ascii=False)


def handler(fmt: str = "text", stream=None) -> logging.Handler:
    """A handler writing ``fmt`` lines (``text`` or ``json``) to ``stream`` (stderr)."""
    if fmt not in FORMATS:
        raise ValueError(fmt)
    out = logging.StreamHandler(stream or sys.stderr)
    out.setFormatter(JSONFormatter() if fmt == "json" else TextFormatter())
    out.addFilter(TableFilter())
    return out


def configure(fmt: str = "text", level: int = logging.WARNING) -> logging.Handler:
    """The server's log: every logger (uvicorn's too) writes ``fmt`` lines to stderr from ``level`` on."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    out = handler(fmt)
    root.addHandler(out)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(level)
    return out
