"""A worked example of hippodrome's research extra, on a laptop CPU in a few minutes.

1. TurfMaster race (OpenSpiel): OpenSpiel's ISMCTS, OpenSpiel's MCTS searching a world resampled
   from what its seat knows, our random bot and our tactical bot each race against the tactical
   bot (two players, one horse each; each deal of cards and dice raced twice, seats swapped, so
   the mirror match is an even 50%); wins, points and time per decision.
2. TurfMaster meeting (OpenSpiel, ``--meeting``): OpenSpiel's ISMCTS plays a whole meeting of
   three races against the tactical bot, searching worlds dealt anew from what its seat knows
   (the other hands, the decks beyond its own draws, the cards lost face down); the final table.
3. Ready Set Bet (Gymnasium): a small policy (a PyTorch MLP over the observation vector, masked to
   the legal actions, trained by REINFORCE with a running baseline) learns to bet in a one-race
   game against our value bettor; then its win rate against the value bettor, next to a policy
   that bets at random among the legal actions, over the same seeds.

    pip install -e '.[research]' && pip install torch    # torch for part 3 only
    python examples/research.py --minutes 3
    python examples/research.py --minutes 3 --meeting      # and a whole meeting (a few minutes more)

``--minutes`` is the whole budget (a third for the races, a half for training, the rest for
the evaluation); every contestant races at least once and the evaluation plays at least a few
games, so a tiny budget (``--minutes 0.1``) still runs every part, with few games.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import hippodrome.openspiel  # noqa: F401  (registers the games)
from hippodrome.envs import readysetbet_gym_env
from hippodrome.envs.readysetbet_encoding import ACTIONS, OBSERVATION_SIZE
from hippodrome.openspiel.bots import HippodromeBot
from hippodrome.turfmaster.bots import RandomBot, TacticalBot

try:   # the Ready Set Bet part trains with PyTorch; the TurfMaster parts run without it
    import torch
except ImportError:
    torch = None

MIN_EVALUATION_GAMES = 6


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


# -- 1 and 2. TurfMaster: search against the tactical bot ------------------------------------------------
class ResampledMCTS(pyspiel.Bot):
    """OpenSpiel's MCTS on a world resampled from the seat's information state at each decision
    (MCTS on the true state would see the other hands)."""

    def __init__(self, game, simulations, uct, rng):
        pyspiel.Bot.__init__(self)
        self.search = mcts.MCTSBot(game, uct, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng,
                                   solve=False)
        self.sampler = pyspiel.UniformProbabilitySampler(int(rng.randint(2 ** 31)), 0.0, 1.0)

    def step(self, state):
        world = state.resample_from_infostate(state.current_player(), self.sampler)
        return self.search.step(world)

    def restart_at(self, state):
        pass


def race(game, bots, rng, timing, whole=False):
    """One race (or meeting): chance by its probabilities, single options taken at once; each
    bot's time kept. The returns (``whole``: the final state)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(actions[rng.choice(len(actions), p=probabilities)])
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        seat = state.current_player()
        started = time.perf_counter()
        state.apply_action(bots[seat].step(state))
        timing[seat].append(time.perf_counter() - started)
    return state if whole else state.returns()


def turfmaster_part(seconds: float, simulations: int, uct: float, seed: int) -> None:
    game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 2, "horses_per_player": 1})
    search_rng = np.random.RandomState(seed)
    contestants = {
        "OpenSpiel ISMCTS": lambda: ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, search_rng), uct,
                                                     simulations, random_state=search_rng),
        "OpenSpiel MCTS (resampled)": lambda: ResampledMCTS(game, simulations, uct, search_rng),
        "hippodrome random": lambda: HippodromeBot(RandomBot(seed)),
        "hippodrome tactical": lambda: HippodromeBot(TacticalBot(seed)),
    }
    print(f"TurfMaster race, 2 players, 1 horse each, oval; each contestant against the tactical bot, "
          f"each deal of cards and dice raced twice, seats swapped ({simulations} simulations a decision, "
          f"UCT constant {uct})")
    tallies = {name: {"games": 0, "wins": 0.0, "points": 0.0, "times": []} for name in contestants}
    deadline = time.perf_counter() + seconds
    number = 0
    while number < len(contestants) or time.perf_counter() < deadline:
        name = list(contestants)[number % len(contestants)]
        for seat in (0, 1):
            bots = [None, None]
            bots[seat], bots[1 - seat] = contestants[name](), HippodromeBot(TacticalBot(seed))
            timing = [[], []]
            # the same chance for both seatings: the deals and dice the moves allow
            returns = race(game, bots, np.random.RandomState([seed, number]), timing)
            tally = tallies[name]
            tally["games"] += 1
            tally["points"] += returns[seat]
            tally["wins"] += (1.0 if returns[seat] > returns[1 - seat]
                              else 0.5 if returns[seat] == returns[1 - seat] else 0.0)
            tally["times"] += timing[seat]
        number += 1
    print(f"{'contestant':28} {'races':>5} {'wins':>6} {'95% interval':>15} {'points':>7} {'ms/decision':>12}")
    for name, tally in tallies.items():
        low, high = wilson(tally["wins"], tally["games"])
        rate = tally["wins"] / tally["games"]
        print(f"{name:28} {tally['games']:5d} {rate:6.0%} {low:7.0%} - {high:4.0%} "
              f"{tally['points'] / tally['games']:7.1f} {1000 * np.mean(tally['times']):12.2f}")


# -- 2. Ready Set Bet: a policy learns to bet --------------------------------------------------------
def make_policy(hidden: int = 128):
    """A masked MLP policy over the observation vector (a PyTorch module)."""
    class Policy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(OBSERVATION_SIZE, hidden), torch.nn.Tanh(),
                                           torch.nn.Linear(hidden, ACTIONS))

        def distribution(self, observation) -> "torch.distributions.Categorical":
            logits = self.net(torch.as_tensor(observation["observation"]))
            mask = torch.as_tensor(observation["action_mask"], dtype=torch.bool)
            return torch.distributions.Categorical(logits=logits.masked_fill(~mask, -1e9))

    return Policy()


def play_game(env, seed, choose) -> tuple[float, float]:
    """One game; the learner's money and the value bettor's."""
    observation, _ = env.reset(seed=seed)
    terminated = False
    while not terminated:
        observation, _, terminated, _, _ = env.step(choose(observation))
    money = env.driver.state.money
    return money[0], money[1]


def train(env, policy, seconds: float, seed: int) -> int:
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    baseline, episodes = 0.0, 0
    deadline = time.perf_counter() + seconds
    while episodes == 0 or time.perf_counter() < deadline:
        observation, _ = env.reset(seed=seed * 1_000_003 + episodes)
        log_probabilities, entropies, money, terminated = [], [], 0.0, False
        while not terminated:
            distribution = policy.distribution(observation)
            action = distribution.sample()
            log_probabilities.append(distribution.log_prob(action))
            entropies.append(distribution.entropy())
            observation, reward, terminated, _, _ = env.step(int(action))
            money += reward
        advantage = money - baseline
        baseline += 0.05 * (money - baseline)
        loss = -advantage * torch.stack(log_probabilities).sum() - 0.01 * torch.stack(entropies).sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        episodes += 1
    return episodes


def evaluate(env, seeds, choose) -> dict:
    wins, learner, other = 0.0, [], []
    for seed in seeds:
        mine, theirs = play_game(env, seed, choose)
        wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        learner.append(mine)
        other.append(theirs)
    return {"games": len(seeds), "wins": wins, "money": np.mean(learner), "value money": np.mean(other)}


def meeting_part(simulations: int, uct: float, seed: int) -> None:
    """OpenSpiel's ISMCTS (seat 1) against the tactical bot (seat 2) over a whole meeting."""
    game = pyspiel.load_game("hippodrome_turfmaster", {"players": 2, "horses_per_player": 2})
    search_rng = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, search_rng), uct, simulations,
                                random_state=search_rng)
    timing = [[], []]
    started = time.perf_counter()
    state = race(game, [searcher, HippodromeBot(TacticalBot(seed))], np.random.RandomState(seed), timing, whole=True)
    engine = state.core.engine
    print(f"\nTurfMaster meeting, 2 players, 2 horses each, oval: OpenSpiel ISMCTS ({simulations} simulations "
          f"a decision) against the tactical bot, {len(timing[0])} decisions searched, "
          f"{1000 * np.mean(timing[0]):.0f} ms each, {time.perf_counter() - started:.0f} s in all")
    for row in engine.standings():
        print(f"  {row['rank']}. {'ISMCTS' if row['seat'] == 0 else 'tactical':9} {row['total']:4d} points "
              f"(races {', '.join(str(points) for points in row['races'])})")


def readysetbet_part(train_seconds: float, evaluate_seconds: float, seed: int) -> None:
    torch.manual_seed(seed)
    env = readysetbet_gym_env(players=2, opponents="value")
    policy = make_policy()
    started = time.perf_counter()
    episodes = train(env, policy, train_seconds, seed)
    print(f"\nReady Set Bet, one race, 2 players: the policy trained for {time.perf_counter() - started:.0f} s "
          f"({episodes} games against the value bettor)")
    rng = random.Random(seed)

    def greedy(observation):
        with torch.no_grad():
            return int(policy.distribution(observation).probs.argmax())

    def at_random(observation):
        return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())

    started = time.perf_counter()
    trained = evaluate(env, [10 ** 9 + seed * 1000 + n for n in range(MIN_EVALUATION_GAMES)], greedy)
    per_game = (time.perf_counter() - started) / MIN_EVALUATION_GAMES
    games = max(MIN_EVALUATION_GAMES, int(evaluate_seconds / 2 / per_game))
    seeds = [10 ** 9 + seed * 1000 + n for n in range(games)]
    if games > MIN_EVALUATION_GAMES:
        trained = evaluate(env, seeds, greedy)
    uniform = evaluate(env, seeds, at_random)
    print(f"{'policy':30} {'games':>5} {'win rate vs value':>18} {'95% interval':>15} {'money':>6} {'value bettor':>13}")
    for name, result in (("trained (greedy)", trained), ("random among legal actions", uniform)):
        low, high = wilson(result["wins"], result["games"])
        print(f"{name:30} {result['games']:5d} {result['wins'] / result['games']:18.0%} {low:7.0%} - {high:4.0%} "
              f"{result['money']:6.1f} {result['value money']:13.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="the whole budget, in minutes")
    parser.add_argument("--simulations", type=int, default=20, help="MCTS/ISMCTS simulations a decision")
    parser.add_argument("--uct", type=float, default=60.0, help="UCT exploration constant (points are 0 to 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--meeting", action="store_true", help="also ISMCTS over a whole meeting (a few minutes)")
    parser.add_argument("--meeting-simulations", type=int, default=4, help="ISMCTS simulations a decision in the meeting")
    arguments = parser.parse_args()
    budget = arguments.minutes * 60
    turfmaster_part(budget / 3, arguments.simulations, arguments.uct, arguments.seed)
    if arguments.meeting:
        meeting_part(arguments.meeting_simulations, arguments.uct, arguments.seed)
    if torch is None:
        print("\nReady Set Bet: the policy's training needs PyTorch (pip install torch); left out", file=sys.stderr)
        return
    torch.set_num_threads(1)
    readysetbet_part(budget / 2, budget / 6, arguments.seed)


if __name__ == "__main__":
    main()
