"""Hippodrome's games for learning programs (the ``research`` extra): PettingZoo and Gymnasium
environments over the engines, and the encodings they share with the OpenSpiel games
(:mod:`hippodrome.openspiel`).

* :func:`turfmaster_env`: a PettingZoo AEC environment of a TurfMaster race or meeting;
* :func:`readysetbet_parallel_env`: a PettingZoo Parallel environment of a Ready Set Bet race,
  every player betting (or passing) on each roll;
* :func:`turfmaster_gym_env`, :func:`readysetbet_gym_env`: Gymnasium environments, one seat
  learning against hippodrome bots of a chosen level.

The encodings (``turfmaster_encoding``, ``readysetbet_encoding``) need NumPy only; PettingZoo
and Gymnasium are imported when an environment is made, so the base install imports this package.
"""

from __future__ import annotations

import importlib.util
from typing import Any


def turfmaster_env(**kwargs: Any):
    """A PettingZoo AEC environment (see :mod:`hippodrome.envs.turfmaster_pz`)."""
    from hippodrome.envs.turfmaster_pz import env

    return env(**kwargs)


def readysetbet_parallel_env(**kwargs: Any):
    """A PettingZoo Parallel environment (see :mod:`hippodrome.envs.readysetbet_pz`)."""
    from hippodrome.envs.readysetbet_pz import parallel_env

    return parallel_env(**kwargs)


def turfmaster_gym_env(**kwargs: Any):
    """A Gymnasium environment: one TurfMaster seat learns (see :mod:`hippodrome.envs.gym_envs`)."""
    from hippodrome.envs.gym_envs import TurfMasterGymEnv

    return TurfMasterGymEnv(**kwargs)


def readysetbet_gym_env(**kwargs: Any):
    """A Gymnasium environment: one Ready Set Bet seat learns (see :mod:`hippodrome.envs.gym_envs`)."""
    from hippodrome.envs.gym_envs import ReadySetBetGymEnv

    return ReadySetBetGymEnv(**kwargs)


if importlib.util.find_spec("gymnasium") is not None:   # the research extra: the Gymnasium ids
    from hippodrome.envs.registration import register as _register

    _register()

__all__ = ["turfmaster_env", "readysetbet_parallel_env", "turfmaster_gym_env", "readysetbet_gym_env"]
