"""What the layers above need to know of TurfMaster's two games (hippodrome.core.description).

The meeting ("turfmaster", three races) and the single race ("turfmaster-race") share their
courses, horses and handicap limits: the public data the page draws with. Setup rules stay in
:mod:`hippodrome.turfmaster.setup` (T7's horses per player, T11's steeplechase on the oval
only); the lobby's form asks :func:`meeting_form` / :func:`race_form` rather than repeating them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, Mapping

from hippodrome.core.description import (
    BOOLEAN, CHOICE, INTEGER, SEAT_NAMES, BotLevel, Choice, GameDescription, Lookup, PuzzleBook, RulesPage, SeatPlan, SetupField,
    in_every_language,
)
from hippodrome.i18n import Message
from hippodrome.i18n.vocabulary import TURFMASTER_COURSES, horse_name, term
from hippodrome.turfmaster.cards import HANDICAP_LIMITS, HORSE_COLOURS, handicap_number
from hippodrome.turfmaster.course import COURSE_NAMES, load_course
from hippodrome.turfmaster.setup import HORSES_PER_PLAYER, MAX_PLAYERS, MIN_PLAYERS

# the courses that may be run as a steeplechase (T11, T12: the oval's fences)
@cache
def steeplechase_courses() -> tuple[str, ...]:
    """The courses with fences (read when first asked: importing the game loads no course file)."""
    return tuple(name for name in COURSE_NAMES if load_course(name).data.get("fences"))


LANES = 8


@cache
def public_data() -> dict[str, Any]:
    """Courses with their drawings, the horses with colours and names, the handicap limits and their
    numbers in the rulebooks (T6)."""
    courses = {}
    for name in COURSE_NAMES:
        course = load_course(name)
        data = course.data
        courses[name] = {
            "name": name, "title": in_every_language(term(TURFMASTER_COURSES, name)), "lanes": course.lanes,
            "finish": data["finish"], "fences": data.get("fences", []),
            "steeplechase": name in steeplechase_courses(),
            # each square: lane, index along its lane, line (level squares share one), drawing cell
            "squares": [[s["lane"], s["index"], s["line"], s["cell"]] for s in data["squares"]],
        }
    return {
        "courses": courses,
        "horses": [{"id": horse, "colour": colour, "name": in_every_language(horse_name(horse))}
                   for horse, colour in HORSE_COLOURS.items()],
        "handicaps": {str(rank): limit for rank, limit in HANDICAP_LIMITS.items()},
        # a limit -> its handicap's number in the rulebooks (8 -> 9): the pages show "handicap 9: at most 8"
        "handicap_numbers": {str(limit): handicap_number(limit) for limit in HANDICAP_LIMITS.values()},
    }


def _whole(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _steeplechase_field(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The steeplechase is run on a course with fences only (T11, T12): on another course the box
    is hidden (and unticked); ticked, the form offers only the courses with fences."""
    if values.get("course", "oval") not in steeplechase_courses():
        return {"steeplechase": {"hidden": True, "value": False}}
    if values.get("steeplechase") is True:
        return {"course": {"choices": list(steeplechase_courses())}}
    return {}


def meeting_form(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """T7: how many horses each player may run depends on the number of players."""
    players = _whole(values.get("players"), MIN_PLAYERS)
    allowed = HORSES_PER_PLAYER.get(players, (1,))
    return {"horses_per_player": {"choices": list(allowed)}, **_steeplechase_field(values)}


def race_form(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A single race in the lobby is a race of the meeting: T7's horses per player for 2 to 8
    players (4 to 8 horses). A setup sent some other way (the API, Python) may hold other counts,
    which the engine takes up to one horse per lane; the form then offers those."""
    players = _whole(values.get("players"), MIN_PLAYERS)
    if players in HORSES_PER_PLAYER:
        return meeting_form(values)
    players = max(1, players)
    return {"horses_per_player": {"choices": list(range(1, max(1, LANES // players) + 1))},
            **_steeplechase_field(values)}


def seats_of(state: Any) -> SeatPlan:
    return SeatPlan((None,) * state.seats)


def meeting_seats(state: Any) -> SeatPlan:
    return SeatPlan((None,) * state.players)


COURSE = SetupField("course", CHOICE, Message("Course"), default="oval",
                    choices=tuple(Choice(name, term(TURFMASTER_COURSES, name)) for name in COURSE_NAMES))
STEEPLECHASE = SetupField("steeplechase", BOOLEAN, Message("Steeplechase"), default=False,
                          help=Message("Fences to jump on the oval; a horse that cannot clear one in a round of cards falls"))

BOTS = (
    BotLevel("random", Message("Random bot"), Message("Plays any legal move: a first opponent for learning the rules"),
             "hippodrome.core.bot:RandomBot"),
    BotLevel("tactical", Message("Tactical bot"),
             Message("Follows the rulebook's tactical advice: saves its jokers, keeps to the inner lanes, "
                     "avoids leading too early"),
             "hippodrome.turfmaster.bots:TacticalBot"),
    BotLevel("search", Message("Search bot"),
             Message("Thinks ahead: plays each race forward hundreds of times from what it can see and picks "
                     "the move that scores best; the hardest to beat"),
             "hippodrome.turfmaster.search:SearchBot", budget=True),
)

PREVIEW = Lookup("preview", "hippodrome.turfmaster.preview:preview", about_option=True)
WHY = Lookup("why", "hippodrome.turfmaster.why:why")
RACES_RUN = Lookup("races", "hippodrome.turfmaster.preview:races", public=True)

RULES = RulesPage("turfmaster", "hippodrome.turfmaster.rules:ANCHORS", "hippodrome.turfmaster.rules:diagrams")
PUZZLES = PuzzleBook("hippodrome.turfmaster.puzzles:BOOK", "turfmaster_puzzle")

MEETING = GameDescription(
    name="turfmaster",
    # NOTE: the lobby's name of the full TurfMaster game.
    title=Message("TurfMaster: a meeting of three races"),
    summary=Message("Rounds of cards and of dice on eight lanes; the most points over three races wins"),
    min_seats=MIN_PLAYERS, max_seats=MAX_PLAYERS,
    setup=(
        COURSE, STEEPLECHASE,
        SetupField("players", INTEGER, Message("Players"), default=2, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
        SetupField("horses_per_player", CHOICE, Message("Horses per player"), default=2,
                   choices=tuple(Choice(n, str(n)) for n in range(1, 5))),
        SetupField("names", SEAT_NAMES, Message("Name")),
    ),
    bots=BOTS,
    seats=meeting_seats,
    page="turfmaster",
    public_data=public_data,
    form=meeting_form,
    lookups=(PREVIEW, WHY, RACES_RUN),
    examples=(
        {"players": 2, "horses_per_player": 2},
        {"players": 3, "horses_per_player": 2, "course": "triangle"},
        {"players": 4, "horses_per_player": 1, "steeplechase": True},
        {"players": 5, "course": "triangle"},
    ),
    order=10,
    rules=RULES,
    puzzles=PUZZLES,
    races=True,
    review="hippodrome.turfmaster.review:review",
    review_words="hippodrome.turfmaster.choice_words:choice_words",
    rated=True,
    # the horses' colours, seat by seat (meeting.py)
    extra_setup_keys=("horses",),
)

RACE = replace(
    MEETING,
    name="turfmaster-race",
    races=False,
    puzzles=None,  # one page of puzzles: the meeting's
    review=None,   # a meeting's review (a race alone has none yet)
    rated=False,   # the ladder is the meeting's
    # NOTE: the lobby's name of a TurfMaster game of one race.
    title=Message("TurfMaster: a single race"),
    summary=Message("One race of the meeting, ten cards per horse"),
    min_seats=1, max_seats=LANES,
    setup=(
        COURSE, STEEPLECHASE,
        # the lobby's race follows the meeting's rule of horses per player (T7: 4 to 8 horses); the
        # engine itself takes any count up to one horse per lane, and explicit horses (docs/turfmaster.md)
        SetupField("players", INTEGER, Message("Players"), default=2, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
        SetupField("horses_per_player", CHOICE, Message("Horses per player"), default=2,
                   choices=tuple(Choice(n, str(n)) for n in range(1, LANES + 1))),
    ),
    seats=seats_of,
    form=race_form,
    lookups=(PREVIEW, WHY),
    examples=(
        {"players": 4},
        {"players": 2, "horses_per_player": 3, "course": "triangle"},
        {"players": 8, "steeplechase": True},
        {"course": "triangle", "first_round": "dice", "first_roller": 1,
         "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
        {"steeplechase": True, "seats": 3,
         "horses": [{"id": h, "owner": i % 3} for i, h in enumerate(("red", "blue", "yellow", "green"))]},
    ),
    order=30,
    # a race set up in full (race.py): its horses and owners, where they stand, their hands, which
    # round comes first, who rolls first, how many seats, whose bonus cards are still unclaimed
    extra_setup_keys=("horses", "positions", "hands", "first_round", "first_roller", "seats", "bonus_unclaimed"),
    secret_setup_keys=("hands",),
)
