"""Random play for the research tests: positions to encode, records to perturb."""

from __future__ import annotations

import random
from typing import Any, Iterator

from hippodrome.core import Match
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import game_class

TURFMASTER_SETUPS = (
    ("turfmaster-race", {"players": 8, "steeplechase": True}),
    ("turfmaster-race", {"players": 2, "horses_per_player": 4, "course": "triangle"}),
    ("turfmaster-race", {"players": 1, "horses_per_player": 8, "steeplechase": True}),
    ("turfmaster", {"players": 2, "horses_per_player": 4, "course": "triangle"}),
    ("turfmaster", {"players": 4, "horses_per_player": 1, "steeplechase": True}),
    ("turfmaster", {"players": 3, "horses_per_player": 2}),
)
READYSETBET_SETUPS = (
    {"players": 2, "races": 1},
    {"players": 4, "variant": "house_bets", "races": 1},
    {"players": 3, "variant": "rotating_house", "races": 2},
    {"players": 8, "races": 4},
    {"players": 5, "props": False, "exotics": False, "vip": False, "races": 2},
)


def turfmaster_decisions(seed: int) -> Iterator[tuple[Game, Decision]]:
    """Every decision of random TurfMaster games, one game per setup, chance drawn from ``seed``.
    With an odd seed the players never claim bonus cards during a race (a random player offered
    them at every decision claims them early), so hands run empty (the ``empty_hand`` decision, T8)."""
    rng = random.Random(f"decisions:{seed}")
    for game, setup in TURFMASTER_SETUPS:
        match = Match(game, setup, f"{seed}:{game}:{sorted(setup.items())}")
        while (decision := match.pending()) is not None:
            yield match.state, decision
            options = decision.options
            if seed % 2 and decision.kind != "claim_bonus":
                options = [option for option in options if option["type"] != "claim_bonus"] or options
            match.act(decision.seat, rng.choice(options))


def readysetbet_positions(seed: int, bet_rate: float = 0.3) -> Iterator[Game]:
    """Every step of random Ready Set Bet games (one per setup): before each decision and roll."""
    rng = random.Random(f"positions:{seed}")
    for setup in READYSETBET_SETUPS:
        match = Match("readysetbet", setup, f"{seed}:{sorted(setup.items())}")
        while (pending := match.pending()) is not None:
            yield match.state
            if isinstance(pending, Decision):
                match.act(pending.seat, rng.choice(pending.options))
                continue
            seats = list(range(match.state.seats))
            rng.shuffle(seats)
            for seat in seats:
                options = match.state.free_options(seat)
                if options and rng.random() < bet_rate:
                    match.act(seat, rng.choice(options))
            match.tick()


def random_record(game: str, setup: dict[str, Any], seed: int, bet_rate: float = 0.3) -> dict[str, Any]:
    """The record of one random game (bets included, for Ready Set Bet)."""
    rng = random.Random(f"record:{seed}")
    match = Match(game, setup, f"record:{seed}")
    while (pending := match.pending()) is not None:
        if isinstance(pending, Decision):
            match.act(pending.seat, rng.choice(pending.options))
            continue
        for seat in range(match.state.seats):
            options = match.state.free_options(seat)
            if options and rng.random() < bet_rate:
                match.act(seat, rng.choice(options))
        match.tick()
    return match.record()


def replay_in_step(record: dict[str, Any], other_log: list[dict[str, Any]]) -> Iterator[tuple[Game, Game]]:
    """The states of ``record`` and of the same game with ``other_log`` (its log, some chance
    outcomes changed), step by step, as long as the other game accepts each entry."""
    cls = game_class(record["game"])
    first, second = cls.new(record["setup"]), cls.new(record["setup"])
    yield first, second
    for entry, other in zip(record["log"], other_log):
        for state, step in ((second, other), (first, entry)):
            try:
                if step.get("free"):
                    state.apply_free(step["by"], step["action"])
                else:
                    state.apply(step["action"])
            except IllegalAction:
                return
        yield first, second


def chance_entries(record: dict[str, Any], kind: str) -> list[int]:
    """The places in the log of the chance outcomes of one type ("deal", "shuffle" ...)."""
    return [number for number, entry in enumerate(record["log"])
            if entry["by"] == "chance" and entry["action"].get("type") == kind]


def is_chance(state: Game) -> bool:
    return isinstance(state.pending(), Chance)
