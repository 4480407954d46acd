"""A baseline that learns: a masked policy (NumPy only) trained by REINFORCE on the TurfMaster race
against the tactical bot, then measured against it.

    pip install -e '.[research]'
    python examples/turfmaster_baseline.py                     # about 10 minutes of one core
    python examples/turfmaster_baseline.py --minutes 1 --evaluation-races 100

The environment is Gymnasium's ``hippodrome/TurfMasterRace-v0``: a race of two players with one
horse each on the flat oval, the learner at seat 0 or 1 (drawn each race), the tactical bot at the
other. The policy is a small multi-layer perceptron over the observation vector (531 floats), its
logits masked to the legal action ids (``observation["action_mask"]``), trained by REINFORCE
with a running baseline and Adam; the reward is the race's points (50 for the winner, 30 for the
second), scaled. Every ``--checkpoint-seconds`` the policy, playing greedily, races the tactical bot
on a fixed set of deals, and the learning curve is printed as a table; at the end it races
``--evaluation-races`` races (half at each seat) on other deals, and prints its win rate with a
95% Wilson interval. Times are CPU times of the process (a busy machine does not count).

The policy's interface is the arena's (``hippodrome turfmaster arena --agent
examples.turfmaster_baseline:agent``): ``agent(observation, action_mask) -> action id``, with the
weights saved by ``--save`` and read from ``HIPPODROME_BASELINE`` (default
``turfmaster_baseline.npz`` in the working folder).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

OBSERVATION_SIZE = 531
ACTIONS = 366


# -- the policy ------------------------------------------------------------------------------------
class Policy:
    """logits = W2 tanh(W1 x + b1) + b2, masked to the legal ids."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "W1": rng.normal(0, 1 / math.sqrt(inputs), (hidden, inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": np.zeros((actions, hidden), np.float32),
            "b2": np.zeros(actions, np.float32),
        }

    def hidden(self, x: np.ndarray) -> np.ndarray:
        return np.tanh(self.params["W1"] @ x + self.params["b1"])

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The legal ids, their probabilities, and the hidden layer (for the gradient)."""
        legal = np.flatnonzero(mask)
        h = self.hidden(x)
        logits = self.params["W2"][legal] @ h + self.params["b2"][legal]
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum(), h

    def greedy(self, x: np.ndarray, mask: np.ndarray) -> int:
        legal, p, _ = self.probabilities(x, mask)
        return int(legal[int(np.argmax(p))])

    def save(self, path: str | Path) -> None:
        np.savez(path, **self.params)

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        data = np.load(path)
        policy = cls.__new__(cls)
        policy.params = {name: data[name] for name in ("W1", "b1", "W2", "b2")}
        return policy


class Adam:
    def __init__(self, params: dict[str, np.ndarray], rate: float):
        self.rate = rate
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9 ** self.t)
            v = self.v[k] / (1 - 0.999 ** self.t)
            params[k] += self.rate * m / (np.sqrt(v) + 1e-8)   # ascent: the gradient of the return


# -- training --------------------------------------------------------------------------------------
@dataclass
class Episode:
    xs: list = field(default_factory=list)
    hs: list = field(default_factory=list)
    legal: list = field(default_factory=list)
    p: list = field(default_factory=list)
    chosen: list = field(default_factory=list)


def play(env, seed: int, choose: Callable[[np.ndarray, np.ndarray], int]) -> float:
    """One race; the learner's points."""
    observation, _ = env.reset(seed=seed)
    points, terminated = 0.0, False
    while not terminated:
        observation, reward, terminated, _, _ = env.step(choose(observation["observation"], observation["action_mask"]))
        points += reward
    return points


def won(env) -> float:
    """1 if the learner's horse finished ahead of the other, 1/2 for a shared place, else 0."""
    points = env.unwrapped.driver.points
    mine, theirs = points[env.unwrapped.seat], max(p for s, p in enumerate(points) if s != env.unwrapped.seat)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def make_env(seat: int):
    import gymnasium

    import hippodrome.envs  # noqa: F401  (registers the environments)

    return gymnasium.make("hippodrome/TurfMasterRace-v0", players=2, seat=seat, opponents="tactical")


def evaluate(policy: Policy, seeds: list[int]) -> float:
    """The greedy policy's win rate against the tactical bot, each seed at both seats."""
    wins = 0.0
    for seat in (0, 1):
        env = make_env(seat)
        for seed in seeds:
            play(env, seed, policy.greedy)
            wins += won(env)
    return wins / (2 * len(seeds))


def train(minutes: float, seed: int = 0, hidden: int = 64, rate: float = 0.001, batch: int = 8,
          checkpoint_seconds: float = 60.0, checkpoint_races: int = 50, episodes_at_most: int | None = None,
          report: Callable[[dict], None] | None = None) -> tuple[Policy, list[dict]]:
    """Train for ``minutes`` (CPU time of this process, checkpoints included) or
    ``episodes_at_most`` races; the learning curve: at the start, at each checkpoint and at the end,
    the episodes, seconds and the greedy win rate on ``checkpoint_races`` deals (half at each seat)."""
    rng = np.random.default_rng(seed)
    policy = Policy(OBSERVATION_SIZE, ACTIONS, hidden, rng)
    adam = Adam(policy.params, rate)
    envs = [make_env(0), make_env(1)]
    checkpoint_seeds = [10 ** 6 + n for n in range(checkpoint_races // 2)]
    curve: list[dict] = []
    started = time.process_time()
    grads = {k: np.zeros_like(v) for k, v in policy.params.items()}
    baseline, episodes, in_batch, next_checkpoint = 0.5, 0, 0, 0.0

    def checkpoint() -> None:
        spent = time.process_time() - started
        point = {"episodes": episodes, "seconds": round(spent, 1), "win_rate": evaluate(policy, checkpoint_seeds)}
        curve.append(point)
        if report:
            report(point)

    while True:
        spent = time.process_time() - started
        if spent >= next_checkpoint:
            checkpoint()
            next_checkpoint += checkpoint_seconds
        if spent >= minutes * 60 or episodes == episodes_at_most:
            if curve[-1]["episodes"] != episodes:
                checkpoint()
            break
        env = envs[episodes % 2]
        episode = Episode()

        def sample(x: np.ndarray, mask: np.ndarray) -> int:
            legal, p, h = policy.probabilities(x, mask)
            choice = int(rng.choice(len(legal), p=p))
            if len(legal) > 1:
                episode.xs.append(x)
                episode.hs.append(h)
                episode.legal.append(legal)
                episode.p.append(p)
                episode.chosen.append(choice)
            return int(legal[choice])

        play(env, int(rng.integers(2 ** 62)), sample)
        outcome = won(env)
        advantage = outcome - baseline
        baseline += 0.02 * (outcome - baseline)
        for x, h, legal, p, choice in zip(episode.xs, episode.hs, episode.legal, episode.p, episode.chosen):
            d_logits = -p
            d_logits[choice] += 1.0
            d_logits *= advantage
            grads["W2"][legal] += np.outer(d_logits, h)
            grads["b2"][legal] += d_logits
            d_h = (policy.params["W2"][legal].T @ d_logits) * (1 - h * h)
            grads["W1"] += np.outer(d_h, x)
            grads["b1"] += d_h
        episodes += 1
        in_batch += 1
        if in_batch == batch:
            adam.step(policy.params, {k: g / batch for k, g in grads.items()})
            for g in grads.values():
                g[:] = 0
            in_batch = 0
    return policy, curve


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


# -- the arena's agent -----------------------------------------------------------------------------
_LOADED: dict[str, Policy] = {}


def agent(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """The trained policy, greedy, as ``hippodrome turfmaster arena --agent`` calls it."""
    path = os.environ.get("HIPPODROME_BASELINE", "turfmaster_baseline.npz")
    if path not in _LOADED:
        _LOADED[path] = Policy.load(path)
    return _LOADED[path].greedy(observation, action_mask)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=8.0, help="training time (CPU minutes of this process)")
    parser.add_argument("--evaluation-races", type=int, default=500, help="races against the tactical bot at the end")
    parser.add_argument("--checkpoint-seconds", type=float, default=60.0)
    parser.add_argument("--checkpoint-races", type=int, default=200)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--rate", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the weights here (.npz)")
    args = parser.parse_args()
    started, wall = time.process_time(), time.perf_counter()
    print(f"{'episodes':>8} {'CPU s':>7} {'win rate vs tactical':>21}")
    policy, curve = train(args.minutes, args.seed, args.hidden, args.rate, checkpoint_seconds=args.checkpoint_seconds,
                          checkpoint_races=args.checkpoint_races,
                          report=lambda p: print(f"{p['episodes']:8d} {p['seconds']:7.0f} {p['win_rate']:21.1%}",
                                                 flush=True))
    seeds = [2 * 10 ** 6 + n for n in range(args.evaluation_races // 2)]
    rate = evaluate(policy, seeds)
    races = 2 * len(seeds)
    low, high = wilson(rate * races, races)
    print(f"evaluation: {races} races against the tactical bot, won {rate:.1%} (95% interval {low:.1%} - {high:.1%}); "
          f"{time.process_time() - started:.0f} s of CPU, {time.perf_counter() - wall:.0f} s of wall time")
    if args.save:
        policy.save(args.save)


if __name__ == "__main__":
    main()
