"""One conformance suite over every registered game, as OpenSpiel's random-play test.

Every game in the registry is played from each of its example setups with several seeds:
random legal options, random free actions from random seats where the game has simultaneous
play, and the clock's ticks for timed chance steps, all through ``core.match.Match``. At random
points along the way, at the end, and over every step of the record it checks what every game
promises (docs/architecture.md, "core"):

* ``replay(record)`` rebuilds the live state, and a chance step drawn again from the record's
  generator gives what the match drew;
* ``clone()`` and ``from_json(to_json())`` are independent copies that continue identically;
* a refused action (a wrong seat, not an option, malformed JSON, a bad chance outcome) raises
  IllegalAction and changes nothing;
* every chance step lists its outcomes or describes its draws, and what the match drew is one of
  them;
* every view is JSON and holds neither the seed nor any of the seat's secrets, while what a seat
  may know and another may not does show in its own view;
* ``between_races()`` is a bool that copies and replays agree on, never true at the start or once
  the game is over (the table layer stops its clock and bots there);
* several seats may decide at once (``decisions()``, Ready Set Bet's VIP cards under R8 as
  amended): the pending decision is the first of them, one per seat, each answered by its own
  seat in any order (``apply_as``, ``Match.act``), which the record replays.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hippodrome.core import Match, replay
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import game_class
from hippodrome.core.match import CHANCE
from hippodrome.core.registry import load_games

from ..json_text import json_text
from .chance_steps import check_chance_step
from .leaks import check_views
from .refusals import check_bad_outcomes, check_refusals

GAMES = sorted(load_games())

#: seeds played per example setup: more for the games that are a single short race
SEEDS = {"turfmaster-race": 5, "readysetbet-race": 5}
DEFAULT_SEEDS = 3
CHECK_EVERY = 0.02  # the chance of a full check after each step (plus one at the start and at the end)
REPLAY_AT_CHECKS = 0.3  # the share of those checks that replay the record so far (the last one always does)
FREE_ACTION_RATE = 0.3
MAX_STEPS = 20_000


def example_setups(cls: type[Game]) -> tuple[dict[str, Any], ...]:
    """The setups a game's description gives as examples."""
    return tuple(cls.description.examples)


def seats_of(state: Game) -> int:
    """How many seats play (none for a game that runs by itself, such as a Ready Set Bet race)."""
    return type(state).description.seats(state).count


def secret_seed(seed: int) -> str:
    return f"conformance-secret-seed-{seed:03d}"


# -- playing ----------------------------------------------------------------------------------
class Earlier:
    """Copies made at one check, looked at again at the next: the original played on, the copies not."""

    def __init__(self) -> None:
        self.copies: list[tuple[Game, bytes]] = []
        self.restored: tuple[Game, int] | None = None

    def check_and_renew(self, match: Match) -> None:
        for copy, text in self.copies:
            assert json_text(copy.to_json()) == text, "playing the original changed a copy"
        if self.restored is not None:
            restored, logged = self.restored
            for entry in match.log[logged:]:
                if entry.get("free"):
                    restored.apply_free(entry["by"], entry["action"])
                elif entry["by"] == CHANCE:
                    restored.apply(entry["action"])
                else:
                    restored.apply_as(entry["by"], entry["action"])
            assert restored.to_json() == match.state.to_json(), "a state from JSON continued differently"
        state = match.state
        text = json_text(state.to_json())
        restored = type(state).from_json(json.loads(text))
        assert json_text(restored.to_json()) == text, "from_json(to_json()) differs"
        copy = state.clone()
        assert json_text(copy.to_json()) == text, "a clone differs from its original"
        self.copies = [(copy, text)]
        self.restored = (restored, len(match.log))


def random_free_action(state: Game, rng: random.Random, seats: int) -> tuple[int, dict] | None:
    if not state.free_action_types or not seats or rng.random() >= FREE_ACTION_RATE:
        return None
    seat = rng.randrange(seats)
    options = state.free_options(seat)
    return (seat, rng.choice(options)) if options else None


def play_on(state: Game, rng: random.Random, steps: int, seats: int) -> None:
    """Play ``state`` itself (a copy) forward at random, chance drawn from ``rng``."""
    for _ in range(steps):
        free = random_free_action(state, rng, seats)
        if free is not None:
            state.apply_free(*free)
        pending = state.pending()
        if pending is None:
            return
        if isinstance(pending, Decision):
            decision = rng.choice(open_decisions(state))
            state.apply_as(decision.seat, rng.choice(decision.options))
        else:
            state.apply(pending.sample(rng))


def open_decisions(state: Game) -> tuple[Decision, ...]:
    """The decisions open now, checked: the pending one first, one per seat, each with options."""
    pending, decisions = state.pending(), state.decisions()
    if not isinstance(pending, Decision):
        assert decisions == (), "decisions open while chance is drawn or the game is over"
        return decisions
    assert decisions and decisions[0] == pending, "the pending decision is the first of those open"
    seats = [decision.seat for decision in decisions]
    assert len(set(seats)) == len(seats), f"two decisions open for one seat: {seats}"
    assert all(decision.options and state.decision_for(decision.seat) == decision for decision in decisions)
    return decisions


def check_point(match: Match, rng: random.Random, seats: int, earlier: Earlier, replaying: bool = True) -> None:
    state = match.state
    text = json_text(state.to_json())
    if replaying:
        assert json_text(replay(json.loads(json.dumps(match.record()))).to_json()) == text, \
            "replay(record) differs from the live state"
    earlier.check_and_renew(match)
    between = state.between_races()
    assert isinstance(between, bool) and state.clone().between_races() == between
    assert not (between and state.pending() is None), "a game that is over stands between no races"
    check_places(state, seats)
    play_on(state.clone(), rng, rng.randrange(1, 30), seats)
    assert json_text(state.to_json()) == text, "playing a clone changed the original"
    check_refusals(match, rng, seats)
    check_views(state, seats, str(match.seed))


def check_places(state: Game, seats: int) -> None:
    """A rated game ranks its seats once it is over (1 the best, levels sharing a place), and no
    game ranks anyone while it runs (issue 35: the ratings)."""
    places = state.final_places()
    if state.pending() is not None:
        assert places is None, "places before the game is over"
        return
    assert places is not None or not state.description.rated, "a rated game that ranks nobody at its end"
    if places is not None:
        assert len(places) == seats and min(places) == 1
        assert all(place == 1 + sum(other < place for other in places) for place in places), \
            f"places {places} are not a competition ranking"


def check_record(match: Match, rng: random.Random) -> None:
    """Replay the record step by step: every chance step drawn again from the record's generator
    gives what the match drew, among the outcomes it describes; bad outcomes are refused."""
    state = game_class(match.game_name).new_under(match.setup, match.rulings)
    kinds_seen = set()
    for number, entry in enumerate(match.log):
        if entry.get("free"):
            state.apply_free(entry["by"], entry["action"])
            continue
        pending = state.pending()
        if entry["by"] == CHANCE:
            assert isinstance(pending, Chance)
            assert pending.sample(random.Random(f"{match.seed}:{number}")) == entry["action"]
            check_chance_step(pending, entry["action"], rng)
            if pending.kind not in kinds_seen or rng.random() < 0.05:
                check_bad_outcomes(state, pending, rng)
                kinds_seen.add(pending.kind)
            state.apply(entry["action"])
        else:
            decision = state.decision_for(entry["by"])
            assert isinstance(pending, Decision) and decision is not None and decision.allows(entry["action"])
            state.apply_as(entry["by"], entry["action"])


def play_and_check(name: str, setup: dict[str, Any], seed: int) -> Match:
    rng = random.Random(f"conformance:{name}:{seed}")
    match = Match(name, setup, seed=secret_seed(seed))
    seats = seats_of(match.state)
    earlier = Earlier()
    assert not match.state.between_races(), "a game begins with its first race, not between two"
    check_point(match, rng, seats, earlier)
    for _ in range(MAX_STEPS):
        free = random_free_action(match.state, rng, seats)
        if free is not None:
            match.act(*free)
        pending = match.pending()
        if pending is None:
            break
        if isinstance(pending, Decision):   # any seat that has a decision open, in any order
            decision = rng.choice(open_decisions(match.state))
            match.act(decision.seat, rng.choice(decision.options))
        else:
            assert pending.timed and match.tick(), "an untimed chance step left undrawn"
        if rng.random() < CHECK_EVERY:
            check_point(match, rng, seats, earlier, replaying=rng.random() < REPLAY_AT_CHECKS)
    else:
        pytest.fail(f"{name} not over after {MAX_STEPS} steps")
    check_point(match, rng, seats, earlier)
    check_record(match, rng)
    return match


CASES = [pytest.param(name, setup, seed, id=f"{name}-setup{index}-seed{seed}")
         for name in GAMES for index, setup in enumerate(example_setups(game_class(name)))
         for seed in range(SEEDS.get(name, DEFAULT_SEEDS))]


@pytest.mark.parametrize("name, setup, seed", CASES)
def test_random_play_keeps_every_promise(name, setup, seed):
    match = play_and_check(name, setup, seed)
    assert match.state.pending() is None


# -- the suite itself ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_has_example_setups_that_make_a_game(name):
    setups = example_setups(game_class(name))
    assert setups, f"{name} has no example setups: give its description examples "
    for setup in setups:
        assert game_class(name).new(setup).pending() is not None


def test_the_games_of_every_package_are_registered():
    assert {"turfmaster-race", "turfmaster", "readysetbet", "readysetbet-race"} <= set(GAMES)
