"""Hippodrome's bots at the seats a learner does not play (NumPy only): what the Gymnasium
environments and the arena's ``--agent`` games share. A bot sees what it always sees, its seat's
view and the options of its decision (Ready Set Bet: its legal bets, to bet or pass)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from hippodrome.core.game import Action, Decision
from hippodrome.core.registry import game_class
from hippodrome.envs import readysetbet_encoding

#: a bot level's maker for a seat: (level, seed) -> bot
MakeBot = Callable[[str, str], Any]


def bot_levels(game: str, opponents: str | Sequence[str], seats: int, seat: int) -> list[str | None]:
    """The bot level of every seat (None: the learner's)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"seat must be a seat of the game, from 0 to {seats - 1}, not {seat!r}")  # i18n: programming error
    others = [opponents] * (seats - 1) if isinstance(opponents, str) else list(opponents)
    if len(others) != seats - 1:
        raise ValueError(f"{seats - 1} opponents needed, not {len(others)}")  # i18n: programming error
    known = [bot.name for bot in game_class(game).description.bots]
    for level in others:
        if level not in known:
            raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(known)}")  # i18n: programming error
    levels: list[str | None] = list(others)
    levels.insert(seat, None)
    return levels


def make_bots(game: str, levels: list[str | None], seed: int | str, make: MakeBot | None = None) -> list[Any]:
    """A bot for every seat with a level (None at the learner's), seeded ``seed:seat``; ``make``
    builds one (default: the game description's level)."""
    description = game_class(game).description
    make = make or (lambda level, bot_seed: description.bot(level).make(bot_seed))
    return [None if level is None else make(level, f"{seed}:{seat}") for seat, level in enumerate(levels)]


def id_of(legal: dict[int, Action], option: Action) -> int:
    """The id of one of the legal options."""
    return next(number for number, candidate in legal.items() if candidate == option)


def turfmaster_bots_play(driver: Any, bots: list[Any], seat: int) -> int:
    """The bots decide until it is ``seat``'s turn or the game is over; ``seat``'s points meanwhile."""
    earned = 0
    while (decision := driver.decision()) is not None and decision.seat != seat:
        option = bots[decision.seat].choose(driver.state.observation(decision.seat), decision.options)
        earned += driver.act(id_of(driver.legal(), option))[seat]
    return earned


def readysetbet_bot_choice(driver: Any, bots: list[Any], seat: int) -> int:
    """The action id of the bot at ``seat``, chosen now (its turn of arrival, or its decision)."""
    state, bot = driver.state, bots[seat]
    legal = readysetbet_encoding.legal_actions(state, seat)
    pending = state.pending()
    if isinstance(pending, Decision):
        return id_of(legal, bot.choose(state.observation(seat), pending.options))
    option = bot.choose_free(state.observation(seat), state.free_options(seat))
    return readysetbet_encoding.PASS if option is None else id_of(legal, option)


def readysetbet_bots_play(driver: Any, bots: list[Any], seat: int) -> int:
    """Steps without ``seat`` (its tokens spent, a bot's decision) until it acts or the game is
    over; its money won or lost meanwhile."""
    won = 0
    while not driver.over and seat not in driver.acting():
        won += driver.step({}, lambda other: readysetbet_bot_choice(driver, bots, other))[0][seat]
    return won
