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
        from hippodrome.core.game import game_class
        assert gc.get_freeze_count() == 0
        collector.tune_for_server()
        assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
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
        from hippodrome.core.game import game_class
        _warm_up(game_class("turfmaster"))
        print(gc.get_freeze_count(), gc.get_threshold()[0])
    """)
    assert out == "0 700"
