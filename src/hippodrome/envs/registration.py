"""Gymnasium ids of the single-seat environments, registered when :mod:`hippodrome.envs` is
imported (where Gymnasium is installed):

* ``hippodrome/TurfMasterRace-v0``: one TurfMaster race (:class:`~hippodrome.envs.gym_envs.TurfMasterGymEnv`);
* ``hippodrome/TurfMasterMeeting-v0``: a TurfMaster meeting of three races;
* ``hippodrome/ReadySetBet-v0``: a Ready Set Bet game of one race (:class:`~hippodrome.envs.gym_envs.ReadySetBetGymEnv`).

``gymnasium.make(id, **kwargs)`` passes its keyword arguments to the class (``players``,
``opponents``, ``seat``, ``render_mode`` ...).
"""

from __future__ import annotations

import gymnasium

GYM_IDS = {
    "hippodrome/TurfMasterRace-v0": ("hippodrome.envs.gym_envs:TurfMasterGymEnv", {"game": "turfmaster-race"}),
    "hippodrome/TurfMasterMeeting-v0": ("hippodrome.envs.gym_envs:TurfMasterGymEnv", {"game": "turfmaster"}),
    "hippodrome/ReadySetBet-v0": ("hippodrome.envs.gym_envs:ReadySetBetGymEnv", {}),
}


def register() -> None:
    for env_id, (entry_point, kwargs) in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=entry_point, kwargs=kwargs)
