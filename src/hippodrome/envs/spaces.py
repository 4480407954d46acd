"""The Gymnasium spaces every environment here shares: an observation is the encoding's vector in
[0, 1] and the mask of legal action ids; an action is one id."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


def observation_space(size: int, actions: int) -> spaces.Dict:
    return spaces.Dict({"observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                        "action_mask": spaces.Box(0, 1, (actions,), np.int8)})


def action_space(actions: int) -> spaces.Discrete:
    return spaces.Discrete(actions)
