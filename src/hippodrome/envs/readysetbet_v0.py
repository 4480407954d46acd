"""A Ready Set Bet game of one race as PettingZoo's own environments are laid out:
``parallel_env(**kwargs)``, the Parallel environment (every agent acts on every roll);
``env(**kwargs)``, the same game as an AEC environment (PettingZoo's ``parallel_to_aec``), wrapped
as PettingZoo wraps its own; ``raw_env(**kwargs)``, that AEC environment unwrapped. The keyword
arguments are :func:`hippodrome.envs.readysetbet_pz.parallel_env`'s (``players``, ``variant``,
``props``, ``exotics``, ``vip``, ``races``, ``setup``, ``illegal``, ``illegal_reward``,
``render_mode``, ``json_view``).

>>> from hippodrome.envs import readysetbet_v0
>>> observations, infos = readysetbet_v0.parallel_env(players=3).reset(seed=1)
>>> sorted(observations)
['player_0', 'player_1', 'player_2']
"""

from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import parallel_to_aec

from hippodrome.envs.readysetbet_pz import ReadySetBetEnv, parallel_env as _parallel_env

NAME = "readysetbet_v0"


def parallel_env(**kwargs: Any) -> ReadySetBetEnv:
    made = _parallel_env(**kwargs)
    made.metadata = {**made.metadata, "name": NAME}
    return made


def raw_env(**kwargs: Any):
    return parallel_to_aec(parallel_env(**kwargs))


def env(**kwargs: Any):
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))
