"""A TurfMaster meeting of three races as PettingZoo's own environments are laid out
(``pettingzoo.classic``): ``env(**kwargs)`` wrapped as PettingZoo wraps its own, ``raw_env(**kwargs)``
unwrapped (see :mod:`hippodrome.envs.turfmaster_race_v0`; the setup's default is two players with
two horses each). A meeting is turn-based: there is no ``parallel_env``.

>>> from hippodrome.envs import turfmaster_meeting_v0
>>> env = turfmaster_meeting_v0.env(players=2, horses_per_player=2)
>>> env.reset(seed=1)
>>> env.unwrapped.metadata["name"]
'turfmaster_meeting_v0'
"""

from hippodrome.envs.turfmaster_pz import versioned

raw_env, env = versioned("turfmaster", "turfmaster_meeting_v0")
