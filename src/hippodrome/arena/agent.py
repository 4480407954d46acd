"""A learner's policy on the bots' Elo ladder (``hippodrome turfmaster arena --agent
module:callable``, ``hippodrome readysetbet arena --agent module:callable``).

The agent is a callable, named ``module:callable`` (a module Python can import from the working
folder or the path, then a name in it; dotted names reach an attribute)::

    def agent(observation: numpy.ndarray, action_mask: numpy.ndarray) -> int

called at each of its seat's decisions with what the research environments give an agent
(:mod:`hippodrome.envs`): ``observation``, the seat's observation vector (float32 in [0, 1];
TurfMaster's 531 entries, Ready Set Bet's 684), and ``action_mask``, 1 for each legal action id
(int8; TurfMaster's 366 ids, Ready Set Bet's 1,025). It returns one of the legal ids (an int or a
NumPy integer); in Ready Set Bet, 0 passes on a roll. Anything else, or an exception, stops the
run with a message that says which.

It plays the ladder's games of :mod:`hippodrome.arena.elo` (``bench/elo.py``): two-player
TurfMaster meetings, 2 horses each on the flat oval, or two-player games of Ready Set Bet, against
every bot level, seats alternating. The bots' own games between levels are the ladder's (the same
seeds), and one Bradley-Terry fit rates them all, ``random`` = 1000: the agent's rating is on the
ladder's scale, with its 95% interval.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any, Callable

from hippodrome.arena.elo import LADDER_SETUPS, PairResults, Rating, fit_bradley_terry, run_games, schedule
from hippodrome.core.errors import InvalidSetup
from hippodrome.envs.actions import action_id, legal_text
from hippodrome.envs.opponents import (
    make_bots,
    readysetbet_bot_choice,
    readysetbet_bots_play,
    turfmaster_bots_play,
)
from hippodrome.i18n import Message

Agent = Callable[[Any, Any], Any]
#: the agent's name in the ladder's results
AGENT = "agent"
ANCHOR = "random"


class AgentError(InvalidSetup):
    """An agent that cannot be loaded, or that answered what it may not."""


def load_agent(spec: str) -> Agent:
    """The callable ``spec`` names (``"module:callable"``), imported from the working folder or the path."""
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise AgentError(Message("--agent must name a module and a callable in it, as module:callable (such as "
                                 "{example}), not {spec}", example="examples.turfmaster_baseline:agent",
                                 spec=repr(spec)))
    if str(Path.cwd()) not in sys.path and "" not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        found: Any = importlib.import_module(module_name)
    except Exception as error:  # a module that does not import, whatever its reason
        # NOTE: {reason} is Python's own message (English), such as "No module named 'mybot'".
        raise AgentError(Message("cannot import the module {module}: {reason}", module=module_name,
                                 reason=f"{type(error).__name__}: {error}")) from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise AgentError(Message("the module {module} has no {name}", module=module_name, name=name))
        found = getattr(found, part)
    if not callable(found):
        raise AgentError(Message("{spec} is not callable: the agent is a function (observation, action_mask) -> "
                                 "action id", spec=spec))
    return found


def ask(agent: Agent, observation: dict[str, Any], legal: dict[int, Any]) -> int:
    """The agent's action id for this observation, checked against the legal ids."""
    try:
        chosen = agent(observation["observation"], observation["action_mask"])
    except Exception as error:  # the agent's own failure: said in words, nothing crashes
        raise AgentError(Message("the agent stopped with an error: {reason}",
                                 reason=f"{type(error).__name__}: {error}")) from None
    number = action_id(chosen)
    if number not in legal:
        raise AgentError(Message("the agent chose {value}, which is not a legal action now; the legal action ids: "
                                 "{legal}", value=repr(chosen), legal=legal_text(legal)))
    return number


# -- the agent's games ------------------------------------------------------------------------------
def _turfmaster_points(agent: Agent, level: str, seat: int, seed: str, think: float | None) -> float:
    from hippodrome.envs.turfmaster_driver import TurfMasterDriver
    from hippodrome.table.bots import make_bot

    driver = TurfMasterDriver("turfmaster", dict(LADDER_SETUPS["turfmaster"]))
    driver.reset(seed)
    levels: list[str | None] = [level, level]
    levels[seat] = None
    bots = make_bots("turfmaster", levels, seed, lambda name, bot_seed: make_bot("turfmaster", name, bot_seed, think))
    while True:
        turfmaster_bots_play(driver, bots, seat)
        if driver.decision() is None:
            break
        driver.act(ask(agent, driver.observation(seat), driver.legal()))
    winners = [row["seat"] for row in driver.state.standings() if row["rank"] == 1]
    return 1 / len(winners) if seat in winners else 0.0


def _readysetbet_points(agent: Agent, level: str, seat: int, seed: str, think: float | None) -> float:
    from hippodrome.envs.readysetbet_driver import ReadySetBetDriver
    from hippodrome.table.bots import make_bot

    driver = ReadySetBetDriver(dict(LADDER_SETUPS["readysetbet"]))
    driver.reset(seed)
    levels: list[str | None] = [level, level]
    levels[seat] = None
    bots = make_bots("readysetbet", levels, seed, lambda name, bot_seed: make_bot("readysetbet", name, bot_seed))

    def late(other: int) -> int:
        return readysetbet_bot_choice(driver, bots, other)

    while True:
        readysetbet_bots_play(driver, bots, seat)
        if driver.over:
            break
        driver.step({seat: ask(agent, driver.observation(seat), driver.legal(seat))}, late)
    winners = driver.state.winners()
    return 1 / len(winners) if seat in winners else 0.0


AGENT_GAMES: dict[str, Callable[[Agent, str, int, str, float | None], float]] = {
    "turfmaster": _turfmaster_points,
    "readysetbet": _readysetbet_points,
}


def rate_agent(agent: Agent, game: str, levels: list[str], games: int, think: float | None, workers: int = 1,
               on_game: Callable[[], None] | None = None) -> tuple[list[Rating], PairResults]:
    """``games`` games of the agent against each level (seats alternating, seeds
    ``arena:<game>:<level>:<k>``) and of each pair of levels (the ladder's own games), one
    Bradley-Terry fit of them all, ``random`` = 1000. The agent plays in this process, the bots'
    games on ``workers`` processes."""
    if ANCHOR not in levels:
        raise AgentError(Message("the levels must include {anchor}: the ladder's ratings are anchored there",
                                 anchor=ANCHOR))
    results = PairResults(list(levels) + [AGENT])

    def record(outcome: tuple[str, str, str, float]) -> None:
        _, a, b, points = outcome
        results.add(a, b, points)
        if on_game:
            on_game()

    run_games(schedule(game, levels, games), think or 0.05, workers, None, record)
    play = AGENT_GAMES[game]
    for k in range(games):
        for level in levels:
            results.add(AGENT, level, play(agent, level, k % 2, f"arena:{game}:{level}:{k}", think))
            if on_game:
                on_game()
    return fit_bradley_terry(results, ANCHOR), results
