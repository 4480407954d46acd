"""Ready Set Bet's guided first race ("readysetbet-tutorial", core/tutorial.py): one race of two
players on the real engine, the person against a scripted Seat 2, every roll on the person's
"Roll the dice".

The race is a real one: the dice of seed ``readysetbet-tutorial-74037`` (:data:`RACE_SEED`), found
by a search over seeds (tools/find_tutorial_race.py) for a short race in which the situations to
teach come in this order: horse 2/3 rolled twice running (the rulebook's own example of a bonus
move, R1), horse 10's bonus, horse 2/3 first over the red line, horse 10 second, horse 8 third ("No
more bets!", R2) and horse 2/3 winning with 10 second and 8 third (R3). The steps ask for a Win bet
on 2/3 (R5), a Place bet on 10 (R3) and the prop bet "10 beats 8" (R7) at those moments, and end on
the settlement (R4). tests/readysetbet/test_rsb_tutorial.py checks every situation through the
engine.

The race is real-time (core/tutorial.py plays it so): every roll is a *timed* chance step of the
engine, here played on the person's "Roll the dice", one per press; a bet is a *free action*, and a
step that asks for one waits for it with a decision of kind ``"bet"`` (the page shows it as its
board), no roll played before the bet is placed.

Seat 2's bets are scripted too (:data:`OPPONENT_BETS`, the tutorial's free script): on spaces the
person is never asked for, so they are never taken from under the person.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from hippodrome.core.dice import roll
from hippodrome.core.game import Action, Game
from hippodrome.core.registry import register_game
from hippodrome.core.tutorial import (
    PERSON, ScriptedFree, TutorialGame, TutorialStep, tutorial_description, watching,
)
from hippodrome.i18n import Message, Money
from hippodrome.readysetbet import vip as vipmod
from hippodrome.readysetbet.board import all_exotic_ids, all_prop_ids
from hippodrome.readysetbet.description import GAME
from hippodrome.readysetbet.dice_race import FINISH, RED_LINE, RaceState, roll_dice, roll_sums

#: the seed whose dice the race rolls (see the module docstring)
RACE_SEED = "readysetbet-tutorial-74037"
#: how many rolls the race takes, to the finish (the tests check it)
RACE_ROLLS = 30
#: the one race of two players; no VIP cards (they come after a race) nor exotic finishes: the
#: board is the Win/Place/Show grid, the colour bets and five prop bets
INNER_SETUP: dict[str, Any] = {"players": 2, "races": 1, "vip": False, "exotics": False}
#: the prop bets face up, the one the person is asked for first (R7)
PROPS_FACE_UP = ("10>8", "8>5,9", "9>7", "5>6", "2/3>8")
#: the person's bets, one per bet step
WIN_SPACES = frozenset({"win:2/3:M", "win:2/3:R"})   # the leftmost Win space is closed with two players (R4)
PLACE_SPACES = frozenset({"place:10:R"})
PROP_SPACES = frozenset({"prop:10>8"})
#: Seat 2's bets: (rolls made before it bets, token, space); one loses and one wins (R4)
OPPONENT = 1
OPPONENT_BETS: tuple[tuple[int, str, str], ...] = ((1, "5", "win:7:R"), (10, "4", "show:8:R"))


def seeded_race(seed: str, limit: int = 100) -> list[list[int]]:
    """The dice of a race drawn from ``seed`` as the game draws dice (core.dice.roll), until a horse
    finishes (or ``limit`` rolls): tools/find_tutorial_race.py searched seeds with it."""
    rng, race, dice = random.Random(seed), RaceState.start(), []
    while not race.finished and len(dice) < limit:
        dice.append(roll(rng))
        race, _ = roll_dice(race, dice[-1])
    return dice


def race_dice() -> list[list[int]]:
    """The tutorial race's dice, roll by roll."""
    return seeded_race(RACE_SEED)


def _shuffle() -> Action:
    """The decks in a prepared order: the props to teach first; the rest as printed."""
    props = list(PROPS_FACE_UP) + [card for card in all_prop_ids() if card not in PROPS_FACE_UP]
    return {"type": "shuffle", "props": props, "exotics": all_exotic_ids(), "vip": vipmod.deck_ids(), "caller": 1}


# -- what the steps read of the engine's state ---------------------------------------
def _moves(inner: Game) -> list[dict[str, Any]]:
    return [event for event in inner.race_log if event["event"] == "move"]


def _rolls(inner: Game) -> int:
    return len(roll_sums(inner.race_log))


def _bonus_moves(inner: Game, horse: str) -> int:
    return sum(1 for move in _moves(inner) if move["horse"] == horse and move["bonus_move"] and move["bonus"])


def _crossings(inner: Game) -> int:
    return inner.race.crossings


def _after(rolls: int) -> Callable[[Game], bool]:
    """An opponent's bet is due once ``rolls`` rolls are made, while betting is open."""
    return lambda inner: _rolls(inner) >= rolls and not inner.race.bets_closed


def _has_bet(spaces: frozenset[str]) -> Callable[[Game], bool]:
    return lambda inner: any(bet["seat"] == PERSON and bet["space"] in spaces for bet in inner.bets)


def _bet_on(spaces: frozenset[str]) -> Callable[[Game, Action], bool]:
    return lambda _inner, action: (isinstance(action, dict) and action.get("type") == "bet"
                                   and isinstance(action.get("space"), str) and action["space"] in spaces)


ROLL = Message("Roll the dice")
PRESS_ROLL = Message("In this step, press “Roll the dice”.")


def _betting(key: str, title: Message, text: Message, why: Message, rule: str, spaces: frozenset[str],
             hint: Message) -> TutorialStep:
    """A step that waits for one bet on one of ``spaces`` (any token) and refuses the rest with ``hint``."""
    return TutorialStep(key, title, text, why, rule, _bet_on(spaces), hint, _has_bet(spaces))


def _rolling(key: str, title: Message, text: Message, why: Message, rule: str,
             done: Callable[[Game], bool]) -> TutorialStep:
    """A step that only watches: each press of "Roll the dice" rolls once, until ``done``."""
    return TutorialStep(key, title, text, why, rule, watching, PRESS_ROLL, done, button=ROLL)


STEPS = (
    _betting(
        "win-bet", Message("Bet on a winner"),
        Message("The race has not started yet. Choose a token, then click the Win space on the right of "
                "horse {horse}'s row (×9).", horse="2/3"),
        Message("A Win bet pays your token times the number on its space if the horse finishes first; the "
                "right-hand spaces pay the most, so take them early."),
        "R5", WIN_SPACES, Message("In this step, put a token on one of horse {horse}'s Win spaces.", horse="2/3")),
    _rolling(
        "roll", Message("They're off!"),
        Message("Press “Roll the dice”. The two dice are added up and the horse with that number moves "
                "one space."),
        Message("Horse {low} moves on a 2 or a 3 and horse {high} on an 11 or a 12; a 7 comes up most "
                "often.", low="2/3", high="11/12"),
        "R1", lambda inner: _bonus_moves(inner, "2/3") >= 1),
    _rolling(
        "bonus", Message("A bonus move"),
        Message("Horse {horse} came up twice in a row, so it moved 1 + 3 spaces. Keep rolling.", horse="2/3"),
        Message("A horse rolled twice running adds its bonus: blue +3, orange +2, red +1, the black 7 "
                "nothing; a third roll in a row adds nothing."),
        "R1", lambda inner: _bonus_moves(inner, "10") >= 1),
    _betting(
        "place-bet", Message("A Place bet"),
        Message("Horse {horse} made a bonus move too. Put a token on its Place space (×4).", horse="10"),
        Message("A Place bet wins if the horse finishes 1st or 2nd, a Show bet if it finishes in the top "
                "3; they pay less than a Win bet."),
        "R3", PLACE_SPACES, Message("In this step, put a token on horse {horse}'s Place space.", horse="10")),
    _rolling(
        "to-red-line", Message("The red line"),
        Message("Roll on until a horse crosses the red line, between spaces {before} and {after}.",
                before=RED_LINE - 1, after=RED_LINE),
        Message("When the third horse crosses the red line, betting closes."),
        "R2", lambda inner: _crossings(inner) >= 1),
    _rolling(
        "red-line", Message("Over the red line: 1 of 3"),
        Message("Horse {horse} has crossed the red line. Keep rolling.", horse="2/3"),
        Message("At the third crossing the caller says “No more bets!” and nobody may bet after that."),
        "R2", lambda inner: _crossings(inner) >= 2),
    _betting(
        "prop-bet", Message("A prop bet, before it is too late"),
        Message("Horse {horse} crossed too: 2 of 3. Put a token on the prop bet “{first} beats {second}” "
                "now.", horse="10", first="10", second="8"),
        Message("A prop bet wins if its first horse finishes ahead of the other; a tie loses."),
        "R7", PROP_SPACES,
        Message("In this step, put a token on the prop bet “{first} beats {second}”.", first="10", second="8")),
    _rolling(
        "last-bets", Message("One crossing left"),
        Message("Roll on: the next horse over the red line closes the betting."),
        Message("Bets placed before “No more bets!” stay on the board; placed tokens never move."),
        "R2", lambda inner: inner.race.bets_closed),
    _rolling(
        "no-more-bets", Message("No more bets!"),
        Message("Horse {horse} was the third to cross the red line: betting is closed. Roll on to the "
                "finish.", horse="8"),
        Message("The race ends the moment a horse reaches space {finish}.", finish=FINISH),
        "R2", lambda inner: inner.race.finished),
    TutorialStep(
        "settlement", Message("The settlement"),
        Message("Horse {first} won, {second} came 2nd and {third} 3rd. Read the results: every bet with what "
                "it paid or cost.", first="2/3", second="10", third="8"),
        Message("A winning bet pays its token times the space's number; a losing one costs the red circle, "
                "but money never goes below {zero}.", zero=Money(0)),
        "R4", lambda _inner, _action: False, Message("The race is over: read the results."),
        lambda inner: inner.race.finished),
)


@register_game
class ReadySetBetTutorial(TutorialGame):
    name = "readysetbet-tutorial"
    # NOTE: the lobby's title of Ready Set Bet's guided first race ("Learn to play").
    description = tutorial_description(
        GAME, "readysetbet-tutorial", Message("Ready Set Bet: learn to play"),
        Message("A guided first race: a Win bet, a bonus move, the red line, a prop bet and the settlement"))
    inner_game = "readysetbet"
    inner_setup = INNER_SETUP
    script = (_shuffle(), *({"type": "roll", "dice": dice} for dice in race_dice()))
    free_script = tuple(ScriptedFree(OPPONENT, {"type": "bet", "token": token, "space": space}, _after(rolls))
                        for rolls, token, space in OPPONENT_BETS)
    free_decision = "bet"
    steps = STEPS
    free_action_types = frozenset({"bet"})   # the engine's (ReadySetBet.free_action_types)
