"""The OpenSpiel games: registered by importing hippodrome.openspiel, accepted by OpenSpiel's own
random simulation test, with chance nodes whose probabilities are the engines', information
states that a resampled world keeps, and OpenSpiel's MCTS and ISMCTS bots playing them."""

import json
import math
import random

import numpy as np
import pytest

from tests.research import need_extra

need_extra()

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

import hippodrome.openspiel  # noqa: E402
from hippodrome.core.chance import outcome_probability  # noqa: E402
from hippodrome.openspiel.bots import HippodromeBot  # noqa: E402
from hippodrome.readysetbet.bots import ValueBettor  # noqa: E402
from hippodrome.turfmaster.bots import TacticalBot  # noqa: E402


def test_importing_the_package_registers_the_three_games():
    assert set(hippodrome.openspiel.GAMES) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("hippodrome_turfmaster(players=3,horses_per_player=2,course=triangle)")
    assert game.num_players() == 3 and game.max_utility() == 3 * 80
    assert pyspiel.load_game("hippodrome_readysetbet_race", {"players": 4, "variant": "house_bets"}).num_players() == 5


@pytest.mark.parametrize("name, params, sims", [
    ("hippodrome_turfmaster_race", {"players": 3}, 2),
    ("hippodrome_turfmaster_race", {"players": 2, "horses_per_player": 2, "steeplechase": True}, 1),
    ("hippodrome_turfmaster", {"players": 2, "horses_per_player": 2}, 1),
    ("hippodrome_readysetbet_race", {"players": 2}, 1),
    ("hippodrome_readysetbet_race", {"players": 2, "variant": "house_bets", "props": False}, 1),
])
@pytest.mark.slow
def test_openspiels_random_simulation_test_accepts_the_game(name, params, sims):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=sims, serialize=True, verbose=False)


def test_the_draws_of_a_deal_multiply_to_the_engines_probability_of_the_whole_deal():
    game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 2})
    state = game.new_initial_state()
    engine_step = state.core.engine.pending()
    rng = random.Random(1)
    probability = 1.0
    while state.is_chance_node() and state.core.engine.pending() is engine_step:
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0) and all(a < game.max_chance_outcomes() for a, _ in outcomes)
        action, p = rng.choice(outcomes)
        probability *= p
        state.apply_action(action)
    hands = state.core.engine.hands
    deal = {"type": "deal", "hands": {horse: list(cards) for horse, cards in hands.items()}}
    assert math.isclose(probability, float(outcome_probability(engine_step, deal)), rel_tol=1e-9)
    roll = None
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    roll = state.chance_outcomes()
    assert len(roll) == 36 and all(math.isclose(p, 1 / 36) for _, p in roll)


def play(state, choose, rng, steps=None):
    """Play on: chance by its probabilities, decisions by ``choose(state)`` (a single legal action is taken)."""
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(actions[rng.choice(len(actions), p=probabilities)])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[0] if len(legal) == 1 else choose(state))
        taken += 1
    return state


def test_openspiels_mcts_plays_a_whole_race_against_our_tactical_bot():
    game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 2})
    rng = np.random.RandomState(0)
    searcher = mcts.MCTSBot(game, 100.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False)
    tactical = HippodromeBot(TacticalBot(seed=0))
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [searcher, tactical], rng)
    assert sorted(returns) == [30.0, 50.0]


def test_ismcts_plays_the_race_and_the_readysetbet_race_from_resampled_worlds():
    rng = np.random.RandomState(1)
    for name, params, moves in (("hippodrome_turfmaster_race", {"players": 3}, 6),
                                ("hippodrome_readysetbet_race", {"players": 2}, 4)):
        game = pyspiel.load_game(name, params)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 50.0, 4, random_state=rng)
        state = play(game.new_initial_state(), bot.step, rng, steps=moves)
        assert state.move_number() > moves


def test_a_resampled_world_has_the_same_information_state_and_other_hands():
    game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 3})
    rng = np.random.RandomState(2)
    state = play(game.new_initial_state(), lambda s: rng.choice(s.legal_actions()), rng, steps=40)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    engine = state.core.engine
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        mine = {h: sorted(c) for h, c in world.core.engine.hands.items() if engine.owner[h] == seat}
        assert mine == {h: sorted(c) for h, c in engine.hands.items() if engine.owner[h] == seat}
        others.add(json.dumps({h: sorted(c) for h, c in world.core.engine.hands.items() if engine.owner[h] != seat}))
    assert len(others) > 1, "the other hands are never dealt otherwise"


def meeting_states(seed: int, every: int = 90) -> list:
    """Decisions of a random meeting (2 players, 2 horses each), one every ``every`` moves, to
    its end: in each race, and between races after random discards and cards given up (T8)."""
    game = pyspiel.load_game("hippodrome_turfmaster", {"players": 2, "horses_per_player": 2})
    rng = np.random.RandomState(seed)
    state, found = game.new_initial_state(), []
    while not state.is_terminal():
        play(state, lambda s: rng.choice(s.legal_actions()), rng, steps=every)
        while state.is_chance_node():
            chance(state, rng)
        if not state.is_terminal():
            found.append(state.clone())
    return found


def chance(state, rng) -> None:
    actions, probabilities = zip(*state.chance_outcomes())
    state.apply_action(actions[rng.choice(len(actions), p=probabilities)])


def hidden_from(engine, seat: int) -> dict:
    """What ``seat`` does not know: the other horses' hands, every deck's cards not drawn."""
    return {"hands": {h: sorted(engine.hand(h)) for h in engine.ids if engine.owner[h] != seat},
            "decks": {h: engine.decks[h][engine.drawn[h]:] for h in engine.ids}}


def test_a_resampled_meeting_keeps_what_the_seat_knows_and_deals_anew_what_it_does_not():
    """T7, T8: the seat's own hands, every card played, the counts of hands and decks stay; the
    other hands, the decks beyond the seat's own draws and the cards lost face down are dealt
    again (never the true ones copied: the worlds differ from the truth and from each other)."""
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    rng = np.random.RandomState(8)
    states = meeting_states(9)   # a meeting whose sampled decisions come after the other seat lost cards face down
    phases = {(state.core.engine.phase, state.core.engine.race_no) for state in states}
    assert {("race", 1), ("race", 2), ("race", 3)} <= phases, phases
    lost = 0
    for state in states:
        seat, engine = state.current_player(), state.core.engine
        truth = hidden_from(engine, seat)
        lost += sum(1 for event in engine.events if event["event"] in ("bonus_discard", "keep_discard")
                    and engine.owner[event["horse"]] != seat)
        worlds = []
        for _ in range(4):
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert world.legal_actions() == state.legal_actions()
            assert world.current_player() == seat and len(world.history()) == len(state.history())
            mine = world.core.engine
            assert {h: sorted(mine.hand(h)) for h in mine.horses_of(seat)} == \
                {h: sorted(engine.hand(h)) for h in engine.horses_of(seat)}
            worlds.append(hidden_from(mine, seat))
        for horse, deck in truth["decks"].items():
            if len(deck) >= 8:  # the same order of 8 cards or more by chance: about 1 in 10^4 or less
                assert all(world["decks"][horse] != deck for world in worlds), "a deck's true order copied"
        if any(cards and truth["decks"][horse] for horse, cards in truth["hands"].items()):
            # a hand held while its deck still has cards: the seat cannot tell which are which
            assert len({json.dumps(world["hands"], sort_keys=True) for world in worlds}) > 1, \
                "the other hands are never dealt otherwise"
    assert lost, "no card was lost face down in the meeting: the test saw no hidden discard"
    world = states[len(states) // 2].resample_from_infostate(0, sampler)
    assert play(world, lambda s: rng.choice(s.legal_actions()), rng).is_terminal()


def test_ismcts_plays_in_a_meeting_from_worlds_dealt_anew():
    """OpenSpiel's ISMCTS (seat 0) decides in the meeting's second race, after cards were dealt,
    discarded and given up, against our tactical bot (the whole meeting: examples/research.py --meeting)."""
    state = next(s for s in meeting_states(5, every=40) if s.core.engine.race_no == 2)
    rng = np.random.RandomState(6)
    game = state.get_game()
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 60.0, 2, random_state=rng)
    tactical = HippodromeBot(TacticalBot(seed=6))
    searched = 0
    while searched < 4 and not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
        elif len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
        elif state.current_player() == 1:
            state.apply_action(tactical.step(state))
        else:
            state.apply_action(searcher.step(state))
            searched += 1
    assert searched == 4


def test_our_value_bettor_bets_and_passes_through_the_openspiel_game():
    game = pyspiel.load_game("hippodrome_readysetbet_race", {"players": 2})
    rng = np.random.RandomState(3)
    bots = [HippodromeBot(ValueBettor(seed=seat, simulations=200)) for seat in range(2)]
    state = play(game.new_initial_state(), lambda s: bots[s.current_player()].step(s), rng)
    assert state.is_terminal() and state.returns() == [float(m) for m in state.core.engine.money]
    assert any(event["event"] == "bet" for event in state.core.engine.race_log)
