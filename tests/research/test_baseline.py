"""examples/turfmaster_baseline.py learns (a short run here; its 10-minute figures are in
docs/research.md): after 800 races against the tactical bot its greedy policy wins more races
against it than the same network untrained and than a policy choosing at random among the legal
ids, and the arena's agent function plays the weights it saved."""

import pytest
import importlib.util
import sys
from pathlib import Path

import numpy as np

from tests.research import need_extra

need_extra()

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "turfmaster_baseline.py"


def load_example():
    spec = importlib.util.spec_from_file_location("turfmaster_baseline", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class AtRandom:
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def greedy(self, observation, mask):
        return int(self.rng.choice(np.flatnonzero(mask)))


@pytest.mark.slow
def test_a_short_training_beats_random_play_and_the_agent_plays_its_weights(tmp_path, monkeypatch):
    baseline = load_example()
    policy, curve = baseline.train(minutes=10, seed=3, episodes_at_most=800, checkpoint_seconds=1e9,
                                   checkpoint_races=2)
    assert [point["episodes"] for point in curve] == [0, 800]
    untrained = baseline.Policy(baseline.OBSERVATION_SIZE, baseline.ACTIONS, 64, np.random.default_rng(3))
    seeds = [7 * 10 ** 6 + n for n in range(50)]
    trained, before, at_random = (baseline.evaluate(player, seeds) for player in (policy, untrained, AtRandom()))
    assert trained > before + 0.08 and trained > at_random + 0.2, (trained, before, at_random)
    policy.save(tmp_path / "weights.npz")
    monkeypatch.setenv("HIPPODROME_BASELINE", str(tmp_path / "weights.npz"))
    env = baseline.make_env(0)
    observation, _ = env.reset(seed=1)
    chosen = baseline.agent(observation["observation"], observation["action_mask"])
    assert chosen == policy.greedy(observation["observation"], observation["action_mask"])
    assert observation["action_mask"][chosen]
