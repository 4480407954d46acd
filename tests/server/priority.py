"""A review worker's priority as a process sees it: a module of its own, which a process started to
look imports alone (not a test module, which would import the server and its tests' helpers)."""

from __future__ import annotations

import os
from typing import Any

from hippodrome.server.review_worker import lower_priority


def scheduler_after_lowering(idle: bool, answer: Any) -> None:
    """Lower this process's priority as a review worker's, then send ``answer`` (a pipe's end) its
    scheduling policy and niceness."""
    lower_priority(idle)
    answer.send((os.sched_getscheduler(0), os.nice(0)))
