"""Finding a game's bots by level, for any registered game: the levels of its description.

Bots used in simultaneous play (Ready Set Bet's bets) may implement
``choose_free(observation, options) -> action | None``; a bot without it bets now and then at
random among the free options (see :func:`free_choice`).
"""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.bot import Bot
from hippodrome.core.errors import InvalidSetup, given
from hippodrome.core.game import Action
from hippodrome.core.registry import game_class
from hippodrome.i18n import Message

#: chance that a bot without ``choose_free`` takes one free action at a clock strike
FREE_ACTION_CHANCE = 0.3


def bot_levels(game: str) -> dict[str, Any]:
    """Level name -> the description's :class:`~hippodrome.core.description.BotLevel` for ``game``."""
    return {bot.name: bot for bot in game_class(game).description.bots}


def make_bot(game: str, level: str, seed: int | str = 0, budget: float | None = None) -> Bot:
    """A bot of ``level`` for ``game`` (InvalidSetup naming the levels otherwise); ``budget``: the
    seconds a bot that searches thinks a decision (None: its default)."""
    levels = bot_levels(game)
    if level not in levels:
        raise InvalidSetup(Message("unknown bot level {level} for {game}; levels: {levels}",
                                   level=given(level), game=game, levels=", ".join(levels)))
    return levels[level].make(seed, budget)


def free_choice(bot: Bot, observation: dict[str, Any], options: tuple[Action, ...],
                rng: random.Random) -> Action | None:
    """The free action a bot takes now, or None to wait."""
    if not options:
        return None
    chooser = getattr(bot, "choose_free", None)
    if chooser is not None:
        return chooser(observation, options)
    if rng.random() >= FREE_ACTION_CHANCE:
        return None
    return rng.choice(options)
