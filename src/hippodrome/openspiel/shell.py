"""The OpenSpiel side of every hippodrome game: a ``pyspiel.Game``, ``pyspiel.State`` and observer
that hand every question to a *core* (the game in play, a plain Python object of the game's
module: :mod:`hippodrome.openspiel.turfmaster`, :mod:`hippodrome.openspiel.readysetbet`).

A core answers ``player()`` (a seat, :data:`CHANCE`, or None at the end), ``legal_actions()``,
``chance_outcomes()``, ``apply(action)``, ``returns()``, ``tensor(seat)``, ``info_string(seat)``,
``observation_string(seat)``, ``action_string(player, action)``, ``text()``, ``clone()`` and
``resampled(history, seat, rng, world)`` (the action ids of a history its seat cannot tell from
this one, for ISMCTS: ``world`` is the state they rebuild, applied each id before the next is
asked, for a core that reads the world as it grows). OpenSpiel clones a state by deep-copying its attributes and serializes it by
pickling them: the state's one attribute is its core, whose deep copy is the engine's ``clone()``
and whose pickle is the engine's JSON.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import numpy as np
import pyspiel

from hippodrome.openspiel.recall import RecallLayout

CHANCE = int(pyspiel.PlayerId.CHANCE)


class EngineGame(pyspiel.Game):
    """An OpenSpiel game whose states wrap cores made by ``make_core()`` (called once: every new
    state starts from a clone of that first core)."""

    def __init__(self, game_type: pyspiel.GameType, info: pyspiel.GameInfo, params: dict[str, Any],
                 make_core: Callable[[], Any], tensor_size: int, most_chance_nodes: int, recall: RecallLayout):
        super().__init__(game_type, info, params or {})
        self._first = make_core()
        self._tensor_size = tensor_size
        self._most_chance_nodes = most_chance_nodes
        #: the layout of the information-state tensor (:mod:`hippodrome.openspiel.recall`)
        self.recall_layout = recall

    def new_initial_state(self) -> "EngineState":
        return EngineState(self, self._first.clone())

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> "EngineObserver":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")  # i18n: programming error
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InfoStateObserver(self.recall_layout)
        return EngineObserver(self._tensor_size)

    def max_chance_nodes_in_history(self) -> int:
        return self._most_chance_nodes


class EngineState(pyspiel.State):
    def __init__(self, game: EngineGame, core: Any):
        super().__init__(game)
        self._core = core

    def current_player(self) -> int:
        player = self._core.player()
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.action_string(player, int(action))

    def is_terminal(self) -> bool:
        return self._core.player() is None

    def returns(self) -> list[float]:
        return self._core.returns()

    def __str__(self) -> str:
        return self._core.text()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "EngineState":
        """A state that ``player_id`` cannot tell from this one (same information state), drawn
        according to chance: the hidden cards or deck orders dealt again, consistently with every
        action since. ``probability_sampler()`` (uniform in [0, 1), as ISMCTS passes it) seeds the draw."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        state = self.get_game().new_initial_state()
        for action in self._core.resampled(self.history(), player_id, rng, state):
            state.apply_action(action)
        return state

    @property
    def core(self) -> Any:
        """The game in play (for tools that want the engine: ``state.core.engine``)."""
        return self._core


class EngineObserver:
    """OpenSpiel's observer of what a seat sees now: the tensor is the encoding's observation
    vector, the string the view without its histories."""

    def __init__(self, size: int):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EngineState, player: int) -> None:
        self.tensor[:] = state.core.tensor(player)

    def string_from(self, state: EngineState, player: int) -> str:
        return state.core.observation_string(player)


class InfoStateObserver:
    """OpenSpiel's observer of a seat's information state (perfect recall): the tensor is the
    observation, every step of the game as the seat saw it, and its private part each time it
    changed (:mod:`hippodrome.openspiel.recall`); the string is the seat's view with what it
    no longer shows."""

    def __init__(self, layout: RecallLayout):
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[start:start + width] for name, (start, width) in layout.fields.items()}

    def set_from(self, state: EngineState, player: int) -> None:
        self.tensor[:] = state.core.info_tensor(player)

    def string_from(self, state: EngineState, player: int) -> str:
        return state.core.info_string(player)
