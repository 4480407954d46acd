"""Hippodrome's bots as OpenSpiel bots, to play OpenSpiel's own (MCTS, ISMCTS, ...) in
``open_spiel.python.algorithms.evaluate_bots`` or any loop over ``bot.step(state)``.

A bot sees what it always sees, its seat's view and the options of its decision (Ready Set Bet:
its legal bets, to bet or pass, ``choose_free``), and answers an action id of the encodings.

>>> import pyspiel, hippodrome.openspiel
>>> from hippodrome.openspiel.bots import HippodromeBot
>>> from hippodrome.turfmaster.bots import TacticalBot
>>> game = pyspiel.load_game("hippodrome_turfmaster_race")
>>> bot = HippodromeBot(TacticalBot(seed=1))
"""

from __future__ import annotations

from typing import Any

import pyspiel

from hippodrome.core.game import Decision
from hippodrome.envs import readysetbet_encoding
from hippodrome.readysetbet.game import ReadySetBet


class HippodromeBot(pyspiel.Bot):
    def __init__(self, bot: Any):
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: pyspiel.State) -> int:
        core = state.core
        seat = state.current_player()
        engine = core.engine
        pending = engine.pending()
        legal = core.options()
        if isinstance(pending, Decision):
            option = self.bot.choose(engine.observation(seat), pending.options)
        elif isinstance(engine, ReadySetBet):
            option = self.bot.choose_free(engine.observation(seat), engine.free_options(seat))
            if option is None:
                return readysetbet_encoding.PASS
        else:
            raise ValueError("a hippodrome bot decides at a decision of its seat only")  # i18n: programming error
        return next(number for number, candidate in legal.items() if candidate == option)

    def restart_at(self, state: pyspiel.State) -> None:
        pass
