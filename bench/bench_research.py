"""Research extra benchmarks (not tests): python bench/bench_research.py

The cost of an environment step against the engine's own step, in the same process, with the
same random player (a legal option drawn uniformly; in Ready Set Bet each seat that may bet bets
with probability 0.3 on each roll), the player's own choosing left out of the time on both sides:

- TurfMaster (PettingZoo AEC): the engine's step is ``Match.pending()`` + ``Match.act()``, the
  loop a program driving the engine runs (chance drawn by the seeded Match); the environment's
  step is ``env.last()`` (the observation vector and the action mask) + ``env.step(id)``.
- Ready Set Bet (PettingZoo Parallel), per roll: the engine's is each seat's ``free_options()``,
  its bet through ``Match.act()`` and ``Match.tick()``; the environment's is ``env.step(actions)``
  with every agent's observation and mask (once nobody can bet, one step rolls on to the finish).
- OpenSpiel, for the record: ``apply_action`` steps per second of random play, chance included.

"With views": the engine's step as its own bots and tables take it, the deciding seat's JSON
``view(seat)`` made at each decision (in Ready Set Bet, for each seat that may bet on the roll).

Each figure is the best of several repeats, the runs alternating (these machines are noisy); the
goal is a ratio of at most 2.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pyspiel

import hippodrome.openspiel  # noqa: F401
import hippodrome.readysetbet  # noqa: F401
import hippodrome.turfmaster  # noqa: F401  (registers the games)
from hippodrome.core import Match
from hippodrome.core.game import Decision
from hippodrome.envs import readysetbet_parallel_env, turfmaster_env

REPEATS = 5
BET_RATE = 0.3


def best(work) -> tuple[float, int]:
    """The shortest time of ``work()`` over the repeats, and the steps it made."""
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        steps = work()
        times.append(time.perf_counter() - started)
    return min(times), steps



class Stopwatch:
    """Time spent in the engine or the environment: paused while the random player chooses."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.started = time.perf_counter()

    def pause(self) -> None:
        self.spent += time.perf_counter() - self.started

    def resume(self) -> None:
        self.started = time.perf_counter()


def engine_decision(match: Match, decision: Decision, rng: random.Random, views: bool, watch: Stopwatch) -> None:
    """One decision the engine's way: (the seat's view,) a random option, ``Match.act``."""
    if views:
        match.state.view(decision.seat)
    watch.pause()
    action = rng.choice(decision.options)
    watch.resume()
    match.act(decision.seat, action)


# -- TurfMaster -----------------------------------------------------------------------------------
# Each function plays random games and returns (seconds spent in the engine or the environment,
# steps).

def engine_turfmaster(game: str, setup: dict, seeds: range, views: bool = False) -> tuple[float, int]:
    watch, steps = Stopwatch(), 0
    for seed in seeds:
        match = Match(game, setup, seed)
        rng = random.Random(seed)
        while (decision := match.pending()) is not None:
            engine_decision(match, decision, rng, views, watch)
            steps += 1
    watch.pause()
    return watch.spent, steps


def env_turfmaster(game: str, setup: dict, seeds: range) -> tuple[float, int]:
    env = turfmaster_env(game=game, setup=setup)
    watch, steps = Stopwatch(), 0
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, _, _ = env.last()
            watch.pause()
            action = None if terminated else rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            watch.resume()
            env.step(action)
            steps += action is not None
    watch.pause()
    return watch.spent, steps


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
                    match.state.view(seat)
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


def compare(label: str, engine, with_views, env, unit: str) -> None:
    """The runs alternate, so that a busy spell of the machine slows them all alike."""
    best_of = {"engine": float("inf"), "views": float("inf"), "env": float("inf")}
    for _ in range(REPEATS):
        for name, work in (("engine", engine), ("views", with_views), ("env", env)):
            spent, steps = work()
            best_of[name] = min(best_of[name], spent / steps)
    engine_step, view_step, env_step = best_of["engine"], best_of["views"], best_of["env"]
    print(f"{label:40} engine {1e6 * engine_step:6.1f} µs/{unit} (with views {1e6 * view_step:6.1f})   "
          f"environment {1e6 * env_step:6.1f} µs/{unit}   ratio {env_step / engine_step:4.2f} "
          f"(to the step with views {env_step / view_step:4.2f})")


def main() -> None:
    race = {"players": 4, "horses_per_player": 2}
    compare("TurfMaster race, 4 x 2 horses (AEC)", lambda: engine_turfmaster("turfmaster-race", race, range(8)),
            lambda: engine_turfmaster("turfmaster-race", race, range(8), views=True),
            lambda: env_turfmaster("turfmaster-race", race, range(8)), "step")
    meeting = {"players": 2, "horses_per_player": 2}
    compare("TurfMaster meeting, 2 x 2 horses (AEC)", lambda: engine_turfmaster("turfmaster", meeting, range(2)),
            lambda: engine_turfmaster("turfmaster", meeting, range(2), views=True),
            lambda: env_turfmaster("turfmaster", meeting, range(2)), "step")
    bets = {"players": 4, "races": 1}
    compare("Ready Set Bet race, 4 players (Parallel)", lambda: engine_readysetbet(bets, range(6)),
            lambda: engine_readysetbet(bets, range(6), views=True),
            lambda: env_readysetbet(bets, range(6)), "roll")
    for name, params, seeds in (("hippodrome_turfmaster_race", {"players": 4, "horses_per_player": 2}, range(3)),
                                ("hippodrome_readysetbet_race", {"players": 4}, range(3))):
        elapsed, steps = best(lambda: openspiel_steps(name, params, seeds))
        print(f"OpenSpiel {name:32} {steps / elapsed:9,.0f} apply_action/s (random play, chance included)")


if __name__ == "__main__":
    main()
