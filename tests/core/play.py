"""Random play on a bare game state (no Match), step by step, for the core's tests of every game."""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.game import Chance, Game
from hippodrome.core.registry import game_class
import hippodrome.readysetbet.race_game  # noqa: F401  (registers "readysetbet" and "readysetbet-race")
import hippodrome.turfmaster.meeting  # noqa: F401  (registers "turfmaster" and "turfmaster-race")

HORSES = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]

#: the four games, each with setups that reach their different parts
SETUPS: dict[str, list[dict[str, Any]]] = {
    "turfmaster-race": [
        {"course": "oval", "horses": [{"id": h, "owner": i % 3} for i, h in enumerate(HORSES)]},
        {"course": "triangle", "horses": [{"id": h, "owner": i} for i, h in enumerate(HORSES[:4])]},
        {"course": "oval", "steeplechase": True, "first_round": "dice",
         "horses": [{"id": h, "owner": i} for i, h in enumerate(HORSES[:5])]},
    ],
    "turfmaster": [
        {"players": 3, "horses_per_player": 2},
        {"players": 2, "horses_per_player": 3, "course": "oval", "steeplechase": True},
        {"players": 4, "horses_per_player": 1, "course": "triangle"},
    ],
    "readysetbet": [
        {"players": 4},
        {"players": 3, "variant": "rotating_house", "races": 3},
        {"players": 2, "variant": "house_bets", "races": 2},
    ],
    "readysetbet-race": [{}, {"positions": "4=3,7=6,11/12=2"}],
}

#: a step: ("act", None, action) for the pending step, ("free", seat, action) for a bet
Step = tuple[str, Any, dict[str, Any]]


def new_state(game: str, setup: dict[str, Any]) -> Game:
    return game_class(game).new(setup)


def random_step(state: Game, rng: random.Random) -> Step | None:
    """A random legal step now (None once the game is over): sometimes a seat's free action, else
    a random option of the pending decision or a random outcome of the pending chance step."""
    seats = getattr(state, "seats", 0)
    if state.free_action_types and rng.random() < 0.4:
        seat = rng.randrange(seats)
        options = state.free_options(seat)
        if options:
            return ("free", seat, rng.choice(options))
    pending = state.pending()
    if pending is None:
        return None
    if isinstance(pending, Chance):
        return ("act", None, pending.sample(rng))
    return ("act", None, rng.choice(pending.options))


def take(state: Game, step: Step) -> None:
    kind, seat, action = step
    if kind == "free":
        state.apply_free(seat, action)
    else:
        state.apply(action)


def play(state: Game, rng: random.Random, steps: int) -> list[Step]:
    """Play up to ``steps`` random steps; the steps taken."""
    taken = []
    for _ in range(steps):
        step = random_step(state, rng)
        if step is None:
            break
        take(state, step)
        taken.append(step)
    return taken
