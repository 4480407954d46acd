"""TurfMaster's guided first race ("turfmaster-tutorial", the "Learn to play" of the meeting).

A single race on the oval (:class:`~hippodrome.turfmaster.race.Race`, the real engine) from a
prepared position near the end of the course: the person rides Red (seat 0), the other player
(seat 1, played from the script; "Your opponent" on the page) rides Blue and Yellow. Seven rounds, each teaching one thing,
about fifteen clicks in all:

1. a card round: play a card (T1) and end the move straight ahead (T5);
2. a dice round rolled by the other player: every horse moves the sum (T1);
3. Yellow, right ahead in Red's lane after playing a 3, blocks it: Red goes round (T4);
4. the person rolls and crosses two lanes to the inner lane, which takes a move of 7 or more (T3);
5. Red is 2nd: its 11 would be spent, so it plays its 6 (T6);
6. the other player rolls 11, above Red's limit: Red moves one die, the 6 (T6);
7. Red is handicapped again: the joker 12 ignores it and crosses the line (T6);
8. the others finish the round; the horses past the line are ranked (T9).

Each step allows exactly the move it asks for, so the race runs the same every time;
tests/turfmaster/test_turfmaster_tutorial.py plays it through the engine and checks that each
situation really arises (the blocked lane, the two lane changes, the spent card, the die, the joker).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from hippodrome.core.errors import IllegalAction
from hippodrome.core.description import Lookup
from hippodrome.core.game import Action, Game
from hippodrome.core.registry import register_game
from hippodrome.core.tutorial import CONTINUE, TutorialGame, TutorialStep, tutorial_description
from hippodrome.i18n import Message
from hippodrome.turfmaster.description import MEETING, RACE
from hippodrome.turfmaster.preview import preview as race_preview
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.why import why as race_why

PERSON_HORSE = "red"

#: the prepared race: Red behind Yellow in lane 3, Blue ahead on lane 1, near the last curve
SETUP: dict[str, Any] = {
    "course": "oval", "seats": 2, "first_roller": 1,
    "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}, {"id": "yellow", "owner": 1}],
    "positions": [{"id": "red", "lane": 3, "square": 66}, {"id": "blue", "lane": 1, "square": 71},
                  {"id": "yellow", "lane": 3, "square": 70}],
    # each horse holds the cards it plays; Red's 11 is the card a handicap spends (rounds 5 and 7)
    "hands": {"red": ["6", "7", "8", "11", "J12"], "blue": ["7", "8", "9", "J9"], "yellow": ["3", "7", "8", "J11"]},
}


def _card(horse: str, card: str) -> Action:
    return {"type": "card", "horse": horse, "card": card}


def _square(horse: str, lane: int, square: int) -> Action:
    return {"type": "square", "horse": horse, "lane": lane, "square": square}


def _roll(a: int, b: int) -> Action:
    return {"type": "roll", "dice": [a, b]}


SUM: Action = {"type": "dice_use", "use": "sum"}

#: the other player's moves and the dice, in the order the race asks for them
SCRIPT: tuple[Action, ...] = (
    # round 1, cards
    _card("blue", "8"), _square("blue", 1, 79), _card("yellow", "7"), _square("yellow", 3, 77),
    # round 2, dice: the other player rolls 5 and 3 and uses the sum
    _roll(5, 3), SUM, _square("blue", 1, 87), _square("yellow", 3, 85),
    # round 3, cards: Yellow plays a 3 and stays right in front of Red
    _card("blue", "7"), _square("blue", 1, 94), _card("yellow", "3"), _square("yellow", 3, 88),
    # round 4, dice: the person rolls 5 and 3
    _roll(5, 3), _square("blue", 1, 102), _square("yellow", 3, 96),
    # round 5, cards: Blue's 9 is above its limit of 8 and is spent
    _card("blue", "9"), _card("yellow", "8"), _square("yellow", 3, 104),
    # round 6, dice: the other player rolls 6 and 5, the sum is above every limit
    _roll(6, 5), SUM, {"type": "die", "horse": "blue", "value": 5}, _square("blue", 1, 107),
    {"type": "die", "horse": "yellow", "value": 5}, _square("yellow", 3, 109),
    # round 7, cards: everyone crosses the line
    _card("blue", "J9"), _square("blue", 1, 116), _card("yellow", "J11"), _square("yellow", 3, 120),
)


def allows(*actions: Action) -> Callable[[Game, Action], bool]:
    """A step's ``allows``: exactly these actions."""
    return lambda _inner, action: action in actions


def moved_in_round(round_no: int, horse: str = PERSON_HORSE) -> Callable[[Game], bool]:
    """A step's ``done``: ``horse`` has made its move of round ``round_no``."""
    return lambda race: any(event["event"] == "move" and event["horse"] == horse and event["round"] == round_no
                            for event in race.history)


def race_over(race: Game) -> bool:
    return race.pending() is None


STEPS: tuple[TutorialStep, ...] = (
    TutorialStep(
        "play-card", Message("Play a card"),
        Message("You ride Red. Play your 7, then choose the lit square straight ahead."),
        Message("Rounds of cards and rounds of dice take turns; in a round of cards each horse moves as many "
                "squares as the card its owner plays."),
        "T1", allows(_card("red", "7"), _square("red", 3, 73)),
        Message("In this step, play your 7 for Red, then choose the lit square."), moved_in_round(1)),
    TutorialStep(
        "dice-round", Message("A round of dice"),
        Message("Now your opponent rolls for every horse: press Continue, then move Red straight on to "
                "the lit square."),
        Message("In a round of dice one player rolls two dice, and every horse moves by the same number."),
        "T1", allows(CONTINUE, _square("red", 3, 81)),
        Message("In this step, press Continue, then move Red to the lit square."), moved_in_round(2)),
    TutorialStep(
        "blocked-lane", Message("A blocked lane"),
        Message("Yellow stands ahead of Red in its lane: play your 8 and go round Yellow on the inside."),
        Message("A horse blocks its own square and the squares just in front of and behind it in its lane; "
                "no other horse may stop on them or pass through them."),
        "T4", allows(_card("red", "8"), _square("red", 2, 88)),
        Message("In this step, play your 8 and move Red to the lit square on the inside."), moved_in_round(3)),
    TutorialStep(
        "change-lanes", Message("Change lanes"),
        Message("You roll this time: use the sum, 8, then cross two lanes to the inner lane."),
        Message("A horse may change lane at its first step and once more from its seventh step on, so crossing "
                "two lanes takes a move of 7 or more."),
        "T3", allows(SUM, _square("red", 0, 92)),
        Message("In this step, use the sum of the dice, then move Red to the lit square in the inner lane."),
        moved_in_round(4)),
    TutorialStep(
        "handicap", Message("A handicap"),
        Message("Red is 2nd, so it may move at most 9 squares: your 11 would be spent for nothing, so play "
                "your 6."),
        Message("The first three horses are handicapped: at most 8 squares for the 1st, 9 for the 2nd and 10 "
                "for the 3rd, and a higher card is spent without moving the horse."),
        "T6", allows(_card("red", "6"), _square("red", 0, 98)),
        Message("In this step, play your 6: the 11 would not move Red."), moved_in_round(5)),
    TutorialStep(
        "dice-handicap", Message("Dice and a handicap"),
        Message("Press Continue: Yellow ends the round of cards and your opponent rolls. Red is then 3rd, "
                "so it may move at most 10 squares; the sum, 11, is above that, so choose one die for Red, the 6."),
        Message("In a round of dice a handicapped horse whose limit is below the sum moves by one die of its "
                "owner's choice instead."),
        "T6", allows(CONTINUE, {"type": "die", "horse": "red", "value": 6}, _square("red", 0, 104)),
        Message("In this step, press Continue, then move Red by the 6."), moved_in_round(6)),
    TutorialStep(
        "joker", Message("A joker"),
        Message("Red is 2nd again and your 11 is above its limit: play the joker 12 and stay in the inner lane."),
        Message("Jokers (the 9, 10, 11 and 12 marked joker) ignore handicaps."),
        "T6", allows(_card("red", "J12"), _square("red", 0, 116)),
        Message("In this step, play the joker 12 and keep Red in the inner lane."), moved_in_round(7)),
    TutorialStep(
        "finish", Message("The finish"),
        Message("Red has crossed the finish line: now watch the others finish the round."),
        Message("The race ends once every horse has crossed the line, and the horses are ranked by how far "
                "past it they stand."),
        "T9", allows(CONTINUE),
        Message("In this step, press Continue to see the end of the race."), race_over,
        button=Message("See the finish"),
        finished_text=Message("Every horse has crossed the line: Red wins, Blue is 2nd and Yellow 3rd.")),
)


def preview(tutorial: "TurfMasterTutorial", seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The race's move preview, for an option the step allows, with only the squares it allows."""
    action = params.get("action")
    step = tutorial.current_step()
    if tutorial.finished or not isinstance(action, dict) or not step.allows(tutorial.inner, action):
        raise IllegalAction(step.hint)
    answer = race_preview(tutorial.inner, seat, params)
    answer["squares"] = [square for square in answer["squares"]
                         if step.allows(tutorial.inner, _square(action["horse"], square["lane"], square["square"]))]
    return answer


def why(tutorial: "TurfMasterTutorial", seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The race's "why" for a tapped square (T4, T5, T6 in words), asked of the race; a square the
    race would allow but the step does not is answered with the step's hint."""
    step = tutorial.current_step()
    if tutorial.finished:
        raise IllegalAction(step.hint)
    action = params.get("action")
    if action is not None and not (isinstance(action, dict) and step.allows(tutorial.inner, action)):
        raise IllegalAction(step.hint)
    answer = race_why(tutorial.inner, seat, params)
    pending = tutorial.inner.pending()
    square = params["square"]   # race_why has checked it
    if answer["reachable"] and not step.allows(tutorial.inner,
                                               _square(pending.context["horse"], square["lane"], square["square"])):
        answer = {**answer, "reachable": False, "reason": "step", "rule": None, "message": step.hint}
    return answer


@register_game
class TurfMasterTutorial(TutorialGame):
    """The guided first race: see the module docstring."""

    name = "turfmaster-tutorial"
    description = replace(
        tutorial_description(RACE, name, Message("TurfMaster: learn to play"),
                             Message("A short guided race against the program: each step shows one rule"),
                             teaches=MEETING.name),
        # the race's preview, shown only with the squares the step allows, and why a square is not
        lookups=(Lookup("preview", "hippodrome.turfmaster.tutorial:preview"),
                 Lookup("why", "hippodrome.turfmaster.tutorial:why")))
    inner_game = Race.name
    inner_setup = SETUP
    script = SCRIPT
    steps = STEPS
    public_decision_context = Race.public_decision_context
