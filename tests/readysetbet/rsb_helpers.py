"""Shared helpers for the Ready Set Bet tests."""

from hippodrome.core import Match
from hippodrome.core.game import Chance
from hippodrome.readysetbet.dice_race import HORSE_INDEX, HORSES
import hippodrome.readysetbet  # noqa: F401  (registers the game)

#: one dice pair for each sum
DICE = {s: [min(6, s - 1), s - min(6, s - 1)] for s in range(2, 13)}


def positions(**named):
    """A positions tuple from keyword names: h4=3, h2_3=5 ..."""
    pos = [0] * len(HORSES)
    for key, value in named.items():
        pos[HORSE_INDEX[key[1:].replace("_", "/")]] = value
    return tuple(pos)


def match_at_race(setup, seed=0):
    """A match whose decks are shuffled and whose first race is waiting for its first roll."""
    match = Match("readysetbet", setup, seed=seed)
    match.resolve_chance()
    return match


def roll(match, dice_sum):
    """Apply one roll of this sum as the table's clock would (logged as chance)."""
    action = {"type": "roll", "dice": DICE[dice_sum]}
    match.state.apply(action)
    match.log.append({"by": "chance", "action": action})


def run_race_with(match, sums):
    for s in sums:
        roll(match, s)


def random_game_states(setup, rng, seeds=range(3), bet_chance=0.5, races=2, steps=2000):
    """The state of random games of ``setup`` at each of their steps, before its move: a bet by a
    seat that may bet (with ``bet_chance``), else the clock's roll or the pending decision. Every
    game must reach its end."""
    for seed in seeds:
        match = Match("readysetbet", {**setup, "races": races}, seed=seed)
        for _step in range(steps):
            if match.pending() is None:
                break
            state = match.state
            yield state
            betting = [s for s in range(state.seats) if state.free_options(s)]
            pending = match.pending()
            if betting and rng.random() < bet_chance:
                seat = rng.choice(betting)
                match.act(seat, rng.choice(state.free_options(seat)))
            elif isinstance(pending, Chance):
                match.tick()
            else:
                match.act(pending.seat, rng.choice(pending.options))
        assert match.pending() is None, "the game should reach its end"
