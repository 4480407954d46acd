"""Game records on disk for the command line: reading a JSON file (a record, a position), and the
folder ``simulate --save DIR`` writes one record a game into (the record ``Match.record()`` makes,
which ``replay`` and ``review`` read)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import Message


def read_json_file(path: Path) -> Any:
    """The JSON in ``path``; a file that cannot be read or parsed is refused (InvalidSetup)."""
    try:
        return json.loads(path.read_text())
    except OSError as error:
        # NOTE: {reason} is the system's reason, such as "No such file or directory".
        raise InvalidSetup(Message("cannot read {file}: {reason}", file=str(path), reason=error.strerror)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        line = getattr(error, "lineno", 1)
        reason = getattr(error, "msg", None) or str(error)
        # NOTE: {reason} is the JSON parser's message (English).
        raise InvalidSetup(Message("{file} is not valid JSON (line {line}: {reason})", file=str(path),
                                   line=line, reason=reason)) from None


def save_folder(path: Path) -> Path:
    """``simulate --save DIR``: the folder the records go in, made if it is not there; refused
    (InvalidSetup) before anything is played if it is a file or cannot be written."""
    if path.exists() and not path.is_dir():
        # NOTE: `simulate --save DIR` writes one record a game into a folder; {folder} is the path given.
        raise InvalidSetup(Message("--save {folder} is a file: give a folder, where each game's record is written",
                                   folder=str(path)))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidSetup(Message("--save {folder}: the folder cannot be made: {reason}", folder=str(path),
                                   reason=error.strerror or str(error))) from None
    if not os.access(path, os.W_OK):
        raise InvalidSetup(Message("--save {folder}: this folder cannot be written (no permission)", folder=str(path)))
    return path


def record_name(kind: str, number: int, total: int) -> str:
    """The file of game ``number`` (from 0) of ``total`` in a ``--save`` folder: ``meeting-007.json``
    (numbered from 1, as many digits for every file so that they sort)."""
    return f"{kind}-{number + 1:0{len(str(total))}d}.json"


class RecordWriter:
    """Writes game ``number``'s record as ``<kind>-<number>.json`` in ``folder`` (picklable: a
    simulation's worker processes write their meetings' records themselves)."""

    def __init__(self, folder: Path, kind: str, total: int):
        self.folder, self.kind, self.total = folder, kind, total

    def __call__(self, number: int, record: dict[str, Any]) -> None:
        (self.folder / record_name(self.kind, number, self.total)).write_text(json.dumps(record, indent=1))
