"""What machine a benchmark ran on, for the lines and tables it writes."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def processor() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe() -> str:
    return f"{processor()}, {os.cpu_count()} cores, Python {platform.python_version()}"
