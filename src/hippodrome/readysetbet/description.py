"""What the layers above need to know of Ready Set Bet's games (hippodrome.core.description).

"readysetbet" is the whole game of four races with the betting board (R1-R9); "readysetbet-box"
is the meeting's races run and called for people playing with the physical box (bets, tokens and
VIP cards stay on the real table, so it has no seats); "readysetbet-race" is one dice race (the
terminal race caller). Their public
data is the printed game: the horses with their bonus moves, the track, the betting board,
the exotic-finish, prop and VIP cards (data/*.json).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Mapping

from hippodrome.core.description import (
    BOOLEAN, BOT_REACTION_LATEST, BOT_REACTION_SOONEST, CHOICE, CLOCK_INTERVAL, INTEGER, NUMBER, BotLevel, Choice,
    GameDescription, Lookup, RulesPage, SeatPlan, SetupField,
)
from hippodrome.i18n import Message
from hippodrome.readysetbet.dice_race import RACE_DATA

VARIANTS = ("standard", "app", "house_bets", "rotating_house")
DATA_FILES = ("race", "board", "exotic", "props", "vip", "house")
#: R9's House data (house tokens, money, the bettors House bets takes): the engine reads it from here
HOUSE_DATA = json.loads((resources.files("hippodrome.readysetbet") / "data" / "house.json").read_text())


def game_form(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """R9 as ruled: House bets takes one to eight bettors besides the House; the others two to eight."""
    if values.get("variant") == "house_bets":
        return {}
    return {"players": {"minimum": RACE_DATA["min_players"]}}


@cache
def public_data() -> dict[str, Any]:
    """The printed game: each data file without its source note, keyed by its name."""
    data = {}
    for name in DATA_FILES:
        content = json.loads((resources.files("hippodrome.readysetbet") / "data" / f"{name}.json").read_text())
        data[name] = {key: value for key, value in content.items() if not key.startswith("_")}
    from hippodrome.readysetbet.pacing import pacing_data   # the pages' voice keeps pace by it

    data["caller_pacing"] = pacing_data()
    return data


def game_seats(state: Any) -> SeatPlan:
    """One seat per player; in the House bets variant the House has a seat of its own (R9)."""
    # NOTE: the seat of the player who runs the House in Ready Set Bet's House bets variant.
    return SeatPlan(tuple(Message("House") if state.is_house(seat) and state.variant == "house_bets" else None
                          for seat in range(state.seats)))


def no_seats(state: Any) -> SeatPlan:
    return SeatPlan(())


RULES = RulesPage("readysetbet", "hippodrome.readysetbet.rules:ANCHORS", "hippodrome.readysetbet.rules:diagrams")

#: the table's seconds between rolls (an option of the table, not of the game)
PACE = SetupField("pace", NUMBER, Message("Seconds between rolls"), default=2.0, minimum=0.05, maximum=30.0,
                  table_option=True, sets=CLOCK_INTERVAL)


def races_field() -> SetupField:
    return SetupField("races", INTEGER, Message("Races"), default=RACE_DATA["races"], minimum=1,
                      maximum=RACE_DATA["races"])


GAME = GameDescription(
    name="readysetbet",
    # NOTE: the game's name; published in Spanish as "Un día en las carreras".
    title=Message("Ready Set Bet"),
    summary=Message("A dice race of nine horses; everybody bets at once until the third crossing of the red line"),
    min_seats=RACE_DATA["min_players"], max_seats=RACE_DATA["max_players"] + 1,
    setup=(
        SetupField("players", INTEGER, Message("Players"), default=2, minimum=HOUSE_DATA["house_bets_min_players"],
                   maximum=RACE_DATA["max_players"]),
        SetupField("variant", CHOICE, Message("Variant"), default="standard", choices=(
            Choice("standard", Message("Standard")),
            Choice("app", Message("App: the program runs the race")),
            Choice("house_bets", Message("House bets")),
            Choice("rotating_house", Message("Rotating House")),
        )),
        races_field(),
        SetupField("props", BOOLEAN, Message("Prop bets"), default=True),
        SetupField("exotics", BOOLEAN, Message("Exotic finishes"), default=True),
        SetupField("vip", BOOLEAN, Message("VIP cards"), default=True),
        PACE,
        # a bot bets some time after each roll, drawn anew for each bet between these two
        SetupField("bot_free_delay_min", NUMBER, Message("Bots bet at the soonest (seconds after a roll)"),
                   default=0.6, minimum=0.0, maximum=30.0, step=0.1, table_option=True,
                   sets=BOT_REACTION_SOONEST),
        SetupField("bot_free_delay_max", NUMBER, Message("Bots bet at the latest (seconds after a roll)"),
                   default=2.5, minimum=0.0, maximum=30.0, step=0.1, table_option=True,
                   sets=BOT_REACTION_LATEST),
    ),
    bots=(
        BotLevel("random", Message("Random bot"), Message("Bets now and then on any open space"),
                 "hippodrome.readysetbet.bots:RandomBettor"),
        BotLevel("value", Message("Value bettor"),
                 Message("Prices every bet with the live odds and takes the good ones before you do"),
                 "hippodrome.readysetbet.bots:ValueBettor"),
        BotLevel("board", Message("Board player"),
                 Message("Plays the whole board: props, exotic finishes, colours and VIP cards; waits for "
                         "sharper odds and takes the best spaces first before betting closes"),
                 "hippodrome.readysetbet.board_bot:BoardBettor"),
    ),
    seats=game_seats,
    form=game_form,
    page="readysetbet",
    public_data=public_data,
    lookups=(Lookup("odds", "hippodrome.readysetbet.lookups:odds", public=True, slow=True),),
    examples=(
        {"players": 2},
        {"players": 4, "variant": "house_bets"},
        {"players": 3, "variant": "rotating_house"},
        {"players": 5, "variant": "app", "props": False, "exotics": False, "vip": False},
        {"players": 8, "races": 2},
    ),
    caller=True,
    races=True,
    order=20,
    rules=RULES,
    review="hippodrome.readysetbet.review:review",
    review_words="hippodrome.readysetbet.words:bet_words",
    rated=True,
)

BOX = GameDescription(
    name="readysetbet-box",
    # NOTE: Ready Set Bet played with the physical box: the program only rolls and calls the races.
    title=Message("Ready Set Bet for the box"),
    summary=Message("For the box: the program calls the races, you bet on your own board"),
    min_seats=0, max_seats=0,
    setup=(races_field(), PACE),
    bots=(),
    seats=no_seats,
    page="readysetbet",
    public_data=public_data,
    examples=({}, {"races": 1}, {"races": 2}),
    caller=True,
    order=25,
    rules=RULES,
)

RACE = GameDescription(
    name="readysetbet-race",
    # NOTE: a Ready Set Bet race run by the program for people betting on the physical board.
    title=Message("Ready Set Bet: a race called for the box"),
    summary=Message("The program rolls and calls the race; bets stay on your own board"),
    min_seats=0, max_seats=0,
    setup=(),
    bots=(),
    seats=no_seats,
    page="readysetbet",
    public_data=public_data,
    examples=({}, {"positions": "4=3,7=2"}),
    caller=True,
    lobby=False,
    order=40,
    rules=RULES,
    # a race started from a position ("4=3,7=2": horse 4 on space 3, ...; race_game.py)
    extra_setup_keys=("positions",),
)
