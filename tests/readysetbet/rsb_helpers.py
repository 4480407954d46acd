"""Shared helpers for the Ready Set Bet tests."""

from hippodrome.core import Match
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
