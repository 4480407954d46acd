"""One TurfMaster race as PettingZoo's own environments are laid out (``pettingzoo.classic``):

>>> from hippodrome.envs import turfmaster_race_v0
>>> env = turfmaster_race_v0.env(players=2)
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'

``env(**kwargs)``: the AEC environment wrapped as PettingZoo wraps its own (an action outside the
space is refused, and so is a step before ``reset``); ``raw_env(**kwargs)``: unwrapped. The
keyword arguments are :func:`hippodrome.envs.turfmaster_pz.env`'s (``players``,
``horses_per_player``, ``course``, ``steeplechase``, ``setup``, ``render_mode``, ``json_view``).
A race is turn-based: there is no ``parallel_env``.
"""

from hippodrome.envs.turfmaster_pz import versioned

raw_env, env = versioned("turfmaster-race", "turfmaster_race_v0")
