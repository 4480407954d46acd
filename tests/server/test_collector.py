"""The server's collector settings (hippodrome.server.collector, issue #15: full collections
walked a few hundred thousand objects made once and kept, stopping the loop for up to a second
at 200 tables): what a server keeps for good is frozen, new objects are collected as before."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_a_server_freezes_what_it_keeps_and_still_collects_new_garbage():
    out = run("""
        import gc
        from hippodrome.server import collector
        from hippodrome.server.rooms import _warm_up
        from hippodrome.core.registry import game_class
        assert gc.get_freeze_count() == 0
        collector.tune_for_server()
        # CPython's own young and middle thresholds (short collections); no automatic full one
        assert gc.get_threshold() == (700, 10, collector.NO_AUTOMATIC_FULL_COLLECTION)
        started = gc.get_freeze_count()
        _warm_up(game_class("turfmaster"))          # the move tables are made, then frozen
        warmed = gc.get_freeze_count()
        class Cycle: pass
        a, b = Cycle(), Cycle(); a.other, b.other = b, a   # garbage made later is still collected
        del a, b
        print(started > 0, warmed > started + 10_000, gc.collect() >= 2)
    """)
    assert out == "True True True"


def test_outside_a_server_a_warm_up_freezes_nothing():
    out = run("""
        import gc
        from hippodrome.server.rooms import _warm_up
        from hippodrome.core.registry import game_class
        _warm_up(game_class("turfmaster"))
        print(gc.get_freeze_count(), gc.get_threshold()[0])
    """)
    assert out == "0 700"


def test_a_server_collects_fully_on_a_schedule_and_frees_old_cycles_then():
    """(#15) Full collections stopped the loop 115-160 ms every few seconds at 200 tables: a server
    runs them on a schedule instead. A cycle that became garbage in the oldest generation (a
    room and its runner once archived) is freed by the next scheduled one."""
    out = run("""
        import gc, time, weakref
        from hippodrome.server import collector
        collector.FULL_COLLECTION_SECONDS = 0.2
        collector.tune_for_server()
        class Cycle: pass
        a, b = Cycle(), Cycle(); a.other, b.other = b, a
        gc.collect(1); gc.collect(1)       # both now in the oldest generation
        alive = weakref.ref(a)
        del a, b
        for _ in range(200):
            gc.collect(1)                  # young and middle collections do not free it
        print(alive() is not None, end=" ")
        time.sleep(1.0)
        print(alive() is None)
    """)
    assert out == "True True"
