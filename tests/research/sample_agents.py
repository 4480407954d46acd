"""Agents for the arena's tests (``hippodrome ... arena --agent tests.research.sample_agents:NAME``)."""

import numpy as np

NOT_CALLABLE = 3


def first_legal(observation, action_mask):
    """The lowest legal id (NumPy's integer, as many policies return)."""
    assert observation.dtype == np.float32 and action_mask.dtype == np.int8
    return np.flatnonzero(action_mask)[0]


def out_of_range(observation, action_mask):
    return len(action_mask) + 5


def raising(observation, action_mask):
    raise RuntimeError("my network is not trained")
