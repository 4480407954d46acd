"""Research extra benchmarks (not tests): python bench/bench_research.py

The cost of an environment step against the engine's own step, in the same process:

- TurfMaster (PettingZoo AEC): the random player's games (a legal id drawn uniformly) are played
  once through the environment and recorded: the ids, the engine options they stand for, the
  Match seeds. Both sides then replay them, with no time spent choosing: the engine's step is
  ``Match.pending()`` + ``Match.act(seat, option)`` (chance drawn by the seeded Match, as in the
  environment); the environment's is ``env.last()`` (the observation vector and the action mask,
  both read) + ``env.step(id)``, and ``env.step(id)`` alone for the record.
- Ready Set Bet (PettingZoo Parallel), per roll, each seat that may bet betting with probability
  0.3 (a stopwatch paused while the player chooses): the engine's is each seat's
  ``free_options()``, its bet through ``Match.act()`` and ``Match.tick()``; the environment's is
  ``env.step(actions)`` with every agent's observation and mask (once nobody can bet, one step
  rolls on to the finish).
- OpenSpiel, for the record: ``apply_action`` steps per second of random play, chance included.

"With views": the engine's step as its own bots and tables take it, the deciding seat's JSON
``view(seat)`` made at each decision (in Ready Set Bet, for each seat that may bet on the roll).

Times are CPU time of this process (a busy spell of the shared machine does not count); the runs
alternate, and each figure is the least of the repeats (the median beside it). The goal is a
ratio of at most 2.
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np
import pyspiel

import hippodrome.openspiel  # noqa: F401
import hippodrome.readysetbet  # noqa: F401
import hippodrome.turfmaster  # noqa: F401  (registers the games)
from hippodrome.core import Match
from hippodrome.core.game import Decision
from hippodrome.envs import readysetbet_parallel_env, turfmaster_env

REPEATS = 7
BET_RATE = 0.3


#: CPU time of this process: a busy spell of the shared machine (another process running) does not
#: count, as wall-clock time would
clock = time.process_time


def best(work) -> tuple[float, int]:
    """The shortest time of ``work()`` over the repeats, and the steps it made."""
    times = []
    for _ in range(REPEATS):
        started = clock()
        steps = work()
        times.append(clock() - started)
    return min(times), steps


class Stopwatch:
    """Time spent in the engine or the environment: paused while the random player chooses."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.started = clock()

    def pause(self) -> None:
        self.spent += clock() - self.started

    def resume(self) -> None:
        self.started = clock()


def engine_decision(match: Match, decision: Decision, rng: random.Random, views: bool, watch: Stopwatch) -> None:
    """One decision the engine's way: (the seat's view,) a random option, ``Match.act``."""
    if views:
        match.state.observation(decision.seat)
    watch.pause()
    action = rng.choice(decision.options)
    watch.resume()
    match.act(decision.seat, action)


# -- TurfMaster -----------------------------------------------------------------------------------
# The random player's games are played once (the choices recorded), then replayed, timed: both
# sides take the same games, the same choices, and no time goes to choosing. Each function returns
# (seconds, steps).

def turfmaster_games(game: str, setup: dict, seeds: range) -> list[tuple[int, int, list[int], list[dict]]]:
    """Random games through the environment: each one's seed, its Match's seed, the action ids
    taken and the engine's options they stand for."""
    env = turfmaster_env(game=game, setup=setup)
    games = []
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        ids, options = [], []
        for _ in env.agent_iter():
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            ids.append(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            options.append(env.driver.legal()[ids[-1]])
            env.step(ids[-1])
        games.append((seed, env.driver.match.seed, ids, options))
    return games


def engine_turfmaster(game: str, setup: dict, games: list, views: bool = False) -> tuple[float, int]:
    """The engine's loop: ``Match.pending()``, (the seat's view,) ``Match.act(seat, option)``."""
    steps = 0
    started = clock()
    for _, seed, _, options in games:
        match = Match(game, setup, seed)
        for option in options:
            decision = match.pending()
            if views:
                match.state.observation(decision.seat)
            match.act(decision.seat, option)
        steps += len(options)
    return clock() - started, steps


def env_turfmaster(game: str, setup: dict, games: list, observe: bool = True) -> tuple[float, int]:
    """The environment's loop: ``env.last()`` (observation vector and action mask) and ``env.step(id)``
    for each decision (``observe=False``: ``env.step`` alone)."""
    env = turfmaster_env(game=game, setup=setup)
    steps = 0
    started = clock()
    for seed, _, ids, _ in games:
        env.reset(seed=seed)
        for action in ids:
            if observe:
                observation = env.last()[0]
                observation["observation"], observation["action_mask"]
            env.step(action)
        steps += len(ids)
    return clock() - started, steps


# -- Ready Set Bet ----------------------------------------------------------------------------------
def rolls_of(game) -> int:
    """The rolls of a game of one race (the environment rolls on by itself once nobody can bet)."""
    return sum(1 for event in game.race_log if event["event"] == "move")


def engine_readysetbet(setup: dict, seeds: range, views: bool = False) -> tuple[float, int]:
    watch, rolls = Stopwatch(), 0
    for seed in seeds:
        match = Match("readysetbet", setup, seed)
        rng = random.Random(seed)
        while (pending := match.pending()) is not None:
            if isinstance(pending, Decision):
                engine_decision(match, pending, rng, views, watch)
                continue
            for seat in range(match.state.seats):
                options = match.state.free_options(seat)
                if views and options:
                    match.state.observation(seat)
                watch.pause()
                bet = rng.choice(options) if options and rng.random() < BET_RATE else None
                watch.resume()
                if bet is not None:
                    match.act(seat, bet)
            match.tick()
        rolls += rolls_of(match.state)
    watch.pause()
    return watch.spent, rolls


def env_readysetbet(setup: dict, seeds: range) -> tuple[float, int]:
    env = readysetbet_parallel_env(setup=setup)
    watch, rolls = Stopwatch(), 0
    for seed in seeds:
        rng = random.Random(seed)
        observations, _ = env.reset(seed=seed)
        while env.agents:
            watch.pause()
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"]).tolist()
                bets = legal[1:] if legal[0] == 0 else legal
                actions[agent] = rng.choice(bets) if bets and (legal[0] != 0 or rng.random() < BET_RATE) else 0
            watch.resume()
            observations, *_ = env.step(actions)
        rolls += rolls_of(env.driver.state)
    watch.pause()
    return watch.spent, rolls


# -- OpenSpiel ----------------------------------------------------------------------------------------
def openspiel_steps(name: str, params: dict, seeds: range) -> int:
    game = pyspiel.load_game(name, params)
    steps = 0
    for seed in seeds:
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(actions[rng.choice(len(actions), p=probabilities)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def compare(label: str, unit: str, works: dict) -> dict[str, float]:
    """Each work's time per step: the least and the median over the repeats. The runs alternate, so
    that a busy spell of the machine slows them all alike. Prints the ratios to the engine's step."""
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(REPEATS):
        for name, work in works.items():
            spent, steps = work()
            times[name].append(spent / steps)
    least = {name: min(values) for name, values in times.items()}
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"{label}")
    for name in works:
        print(f"  {name:34} {1e6 * least[name]:7.1f} µs/{unit} (median {1e6 * median[name]:7.1f})   "
              f"ratio {least[name] / least['engine']:4.2f} (medians {median[name] / median['engine']:4.2f})")
    return least


def main() -> None:
    for label, game, setup, seeds in (
            ("TurfMaster race, 4 x 2 horses (AEC)", "turfmaster-race", {"players": 4, "horses_per_player": 2}, range(8)),
            ("TurfMaster meeting, 2 x 2 horses (AEC)", "turfmaster", {"players": 2, "horses_per_player": 2}, range(2))):
        games = turfmaster_games(game, setup, seeds)
        compare(label, "step", {
            "engine": lambda: engine_turfmaster(game, setup, games),
            "engine with views": lambda: engine_turfmaster(game, setup, games, views=True),
            "environment (last + step)": lambda: env_turfmaster(game, setup, games),
            "environment (step alone)": lambda: env_turfmaster(game, setup, games, observe=False)})
    bets = {"players": 4, "races": 1}
    compare("Ready Set Bet race, 4 players (Parallel)", "roll", {
        "engine": lambda: engine_readysetbet(bets, range(6)),
        "engine with views": lambda: engine_readysetbet(bets, range(6), views=True),
        "environment (step)": lambda: env_readysetbet(bets, range(6))})
    for name, params, seeds in (("hippodrome_turfmaster_race", {"players": 4, "horses_per_player": 2}, range(3)),
                                ("hippodrome_readysetbet_race", {"players": 4}, range(3))):
        elapsed, steps = best(lambda: openspiel_steps(name, params, seeds))
        print(f"OpenSpiel {name:32} {steps / elapsed:9,.0f} apply_action/s (random play, chance included)")


if __name__ == "__main__":
    main()
