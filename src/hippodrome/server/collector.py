"""The server's garbage collector settings: long pauses out of the event loop's way.

CPython's cyclic collector stops the whole process while it runs, and a full collection walks
every tracked object. A server with a hundred tables holds a few hundred thousand of them, more
than half made once and kept for good (TurfMaster's move tables, filled when a game's first table
is made; the modules). Measured under load at 200 tables (2026-11-26): nine full collections in 30
s, each stopping the loop for up to a second: the tail of the act-to-spectator latency.

So a server process (:func:`tune_for_server`, called by ``hippodrome serve``):

* collects its youngest generation every :data:`YOUNG_THRESHOLD` new objects (not CPython's 700):
  fewer, still short, pauses;
* freezes what it made to keep (:func:`freeze_kept`: after its start and after each game's warm-up,
  ``gc.freeze()``): those objects are never walked again, and full collections cost what the
  tables themselves hold.

Every object made later is collected as before. What a freeze finds besides the kept tables (the
few tables already playing when a game's first warm-up ends) stays in memory for good: a few
hundred kilobytes, once per game.
"""

from __future__ import annotations

import gc
import threading

#: new objects between two collections of the youngest generation (CPython's default is 700)
YOUNG_THRESHOLD = 5_000

_lock = threading.Lock()
_tuned = False


def tune_for_server() -> None:
    """Set the collector for a long-running server and freeze what exists now."""
    global _tuned
    _tuned = True
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    freeze_kept()


def warmed_up() -> None:
    """A game's warm-up has just filled its tables: in a server (:func:`tune_for_server`) they are
    frozen; elsewhere (tests, simulations, the terminal) nothing changes."""
    if _tuned:
        freeze_kept()


def freeze_kept() -> None:
    """Move every object that exists now out of the collector's sight for good (``gc.freeze()``):
    call it when what was just made is kept for the process's life (its start, a game's warm-up)."""
    with _lock:
        gc.collect()   # what is garbage now is freed, not frozen
        gc.freeze()
