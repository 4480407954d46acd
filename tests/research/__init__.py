"""Tests of the research extra (PettingZoo, Gymnasium, OpenSpiel): skipped when the extra is not
installed, unless HIPPODROME_REQUIRE_RESEARCH is set (as .ci/run does): then they fail."""

import importlib.util
import os

import pytest


def need_extra() -> None:
    """Skip the calling test module when pettingzoo, gymnasium or pyspiel is missing."""
    missing = [name for name in ("pettingzoo", "gymnasium", "pyspiel") if importlib.util.find_spec(name) is None]
    if not missing:
        return
    if os.environ.get("HIPPODROME_REQUIRE_RESEARCH"):
        pytest.fail(f"{', '.join(missing)} missing but HIPPODROME_REQUIRE_RESEARCH is set", pytrace=False)
    pytest.skip(f"the research extra is not installed ({', '.join(missing)} missing): "
                "pip install -e '.[research]'", allow_module_level=True)
