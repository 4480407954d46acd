"""The built-in courses' tables of empty-course moves (:func:`hippodrome.turfmaster.movement._free_moves`),
kept on disk so that each process reads them instead of computing them again (about 1 s of a core
for every table, in every process that plays TurfMaster: a server, its bot and review workers, a
command, each test worker; reading them takes a fraction of that).

A file is named by a digest of everything its table is computed from: the course's squares and links
(its ``next``, ``inward``, ``outward``, ``prev`` and ``lane_last``), the fences, the source of the code
that computes it (``movement.py``, ``course.py``, this module) and the Python version, so a changed
course or code is never read from an older file; the file holds that name again and a digest of its
contents, and one that does not match is ignored. A file is written whole under another name, then
renamed (a process never reads half of one); the oldest beyond :data:`KEPT` are then removed. Where the
folder cannot be read or written, the table is computed as before.

The folder is ``$HIPPODROME_CACHE`` when set (empty: keep nothing on disk), else ``hippodrome`` in
``$XDG_CACHE_HOME`` (``~/.cache`` when unset).
"""

from __future__ import annotations

import functools
import gc
import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

#: the first line of a file: what it holds, and the version of its layout
_MAGIC = b"hippodrome move table 1\n"
#: the tables kept in the folder (3 for each version of the code: the oval with and without its fences,
#: the triangle); a table written removes the oldest beyond these
KEPT = 12


def cache_folder() -> Path | None:
    """Where the tables are kept, or None to keep none."""
    setting = os.environ.get("HIPPODROME_CACHE")
    if setting is not None:
        return Path(setting) if setting else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hippodrome"


@functools.cache
def _code_digest() -> bytes | None:
    """A digest of the code that computes a table and writes it (None where its source cannot be read:
    then nothing is kept)."""
    here = Path(__file__).parent
    digest = hashlib.sha256(f"{sys.version}\n{marshal.version}\n".encode())
    try:
        for name in ("movement.py", "course.py", "move_cache.py"):
            digest.update((here / name).read_bytes())
    except OSError:
        return None
    return digest.digest()


def table_key(course: Any, fences: frozenset[int]) -> str | None:
    """The name of the table of ``course`` with ``fences`` (None: keep none)."""
    code = _code_digest()
    if code is None:
        return None
    shape = (len(course), course.next, course.inward, course.outward, course.prev, course.lane_last,
             sorted(fences))
    return hashlib.sha256(code + repr(shape).encode()).hexdigest()


def _header(key: str) -> bytes:
    return _MAGIC + key.encode() + b"\n"


def load(key: str) -> Any:
    """The rows stored under ``key``, or None (no folder, no file, or a file that does not match)."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        data = (folder / f"moves-{key}").read_bytes()
    except OSError:
        return None
    header = _header(key)
    if not data.startswith(header):
        return None
    digest, payload = data[len(header):len(header) + 32], data[len(header) + 32:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    collecting = gc.isenabled()
    gc.disable()   # the collector would walk the hundreds of thousands of tuples read (2/3 of the time)
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    finally:
        if collecting:
            gc.enable()


def store(key: str, rows: Any) -> bool:
    """Keep ``rows`` (ints, tuples, frozensets, dicts, None) under ``key``: written to a file of its
    own, then renamed; False where the folder cannot be written (nothing is kept then)."""
    folder = cache_folder()
    if folder is None:
        return False
    payload = marshal.dumps(rows)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".moves-")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(_header(key) + hashlib.sha256(payload).digest() + payload)
        os.replace(temporary, folder / f"moves-{key}")
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    _prune(folder)
    return True


def _prune(folder: Path) -> None:
    """Remove all but the newest :data:`KEPT` tables (those of older code, for the most part)."""
    try:
        files = sorted(folder.glob("moves-*"), key=lambda path: path.stat().st_mtime, reverse=True)
        for old in files[KEPT:]:
            old.unlink()
    except OSError:   # removed by another process meanwhile: left to the next
        pass
