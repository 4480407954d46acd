"""The server's garbage collector settings: long pauses out of the event loop's way.

CPython's cyclic collector stops the whole process while it runs, and a full collection walks
every tracked object. A server with a hundred tables holds a few hundred thousand of them, more
than half made once and kept for good (TurfMaster's move tables, filled when a game's first table
is made; the modules). Under load, CPython's own counts ran several full collections a
minute, each stopping the loop for up to a second: the tail of the act-to-spectator latency.

So a server process (:func:`tune_for_server`, called by ``hippodrome serve``) freezes what it made
to keep (:func:`freeze_kept`: after its start and after each game's warm-up, ``gc.freeze()``):
those objects are never walked again, and full collections cost what the tables themselves hold.

Every object made later is collected by the young and middle generations at CPython's own
thresholds, and by a full collection every :data:`FULL_COLLECTION_SECONDS` (a thread of its own,
:func:`collect_fully_now_and_then`), not whenever CPython's counts say. At 200 tables a full
collection walks the tables' states and logs (the loop stopped meanwhile), and with CPython's
counts it came every few seconds: the latency's whole tail. Cyclic garbage
that only a full collection finds (a table's room and runner, once it is archived) waits for
the next one.

(A young generation collected only every 5,000 new objects, tried before, made each collection
longer, not fewer in all. What piled up in the young generation, the
tables' views, is kept as text now: :class:`hippodrome.server.views.JsonText`.) What a freeze
finds besides the kept tables (the few tables already playing when a game's first warm-up ends)
stays in memory for good: a few hundred kilobytes, once per game.
"""

from __future__ import annotations

import gc
import threading
import time

#: seconds between two full collections in a server
FULL_COLLECTION_SECONDS = 600.0
#: the oldest generation's threshold in a server: never reached (full collections are scheduled)
NO_AUTOMATIC_FULL_COLLECTION = 2 ** 30

_lock = threading.Lock()
_tuned = False


def tune_for_server() -> None:
    """Set the collector for a long-running server: what exists now is frozen, and so is what each
    game's warm-up makes (:func:`warmed_up`); full collections come every
    :data:`FULL_COLLECTION_SECONDS`, never on CPython's counts."""
    global _tuned
    _tuned = True
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, NO_AUTOMATIC_FULL_COLLECTION)
    freeze_kept()
    threading.Thread(target=collect_fully_now_and_then, name="hippodrome-full-collections", daemon=True).start()


def collect_fully_now_and_then() -> None:
    """A full collection every :data:`FULL_COLLECTION_SECONDS`, for the server's life."""
    while True:
        time.sleep(FULL_COLLECTION_SECONDS)
        gc.collect()


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
