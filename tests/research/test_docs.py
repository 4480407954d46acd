"""The examples in the research modules' docstrings run as written."""

import doctest
import importlib

import pytest

from tests.research import need_extra

need_extra()

MODULES = ["hippodrome.envs.features", "hippodrome.envs.turfmaster_pz", "hippodrome.envs.readysetbet_pz",
           "hippodrome.openspiel", "hippodrome.openspiel.bots", "hippodrome.envs.layout",
           "hippodrome.envs.turfmaster_race_v0", "hippodrome.envs.turfmaster_meeting_v0",
           "hippodrome.envs.readysetbet_v0", "hippodrome.envs.turfmaster_picture"]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted and not result.failed
