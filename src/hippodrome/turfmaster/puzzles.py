"""TurfMaster puzzles: race positions where one move is clearly best (issue 13).

The positions are data (``data/puzzles.json``, found by ``tools/make_puzzles.py``): each a race's
own ``to_json`` with a decision pending for one seat, that seat, the options accepted as the
solution and the puzzle's theme. The words (title, question, explanation) are Messages here, so
that they are translated with the rest of the game. ``tests/turfmaster/test_puzzles.py`` checks
every puzzle against the engine (``puzzle_measure``: seeded playouts; the search bot's choice).

:data:`BOOK` is what the game's description names (``core.description.PuzzleBook``): the server
lists the puzzles, shows one as the deciding seat's view (no solution, no other hands) and checks
an answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Action, Decision, decision_view
from hippodrome.i18n import Message
from hippodrome.turfmaster.cards import is_joker
from hippodrome.turfmaster.race import Race

#: the puzzles' themes, each with its words (the page groups and names puzzles by them)
THEMES = {
    # NOTE: a TurfMaster puzzle's theme (rule T4): a horse cannot pass through another.
    "blocking": Message("Blocked lanes"),
    # NOTE: a TurfMaster puzzle's theme (rule T3): changing lanes costs points.
    "lanes": Message("Changing lanes"),
    # NOTE: a TurfMaster puzzle's theme (rule T6): cards above the limit do not move the horse.
    "handicap": Message("Handicaps"),
    # NOTE: a TurfMaster puzzle's theme (rule T6): a round of dice with handicapped horses.
    "dice": Message("Rounds of dice"),
    # NOTE: a TurfMaster puzzle's theme: when to play a joker.
    "joker": Message("Jokers"),
    # NOTE: a TurfMaster puzzle's theme (rule T11): fences in the steeplechase.
    "fence": Message("Fences"),
    # NOTE: a TurfMaster puzzle's theme (rule T9): reaching the finish first.
    "finish": Message("The finish"),
}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: its number (from 1), key, theme, the race as ``Race.to_json`` gives it, the seat
    that decides, the options accepted and the search bot's budget (iterations, seeded with the
    key) within which it chooses the solution (None: it does not, or was not asked)."""

    number: int
    key: str
    theme: str
    state: dict[str, Any]
    seat: int
    solution: tuple[Action, ...]
    search_iterations: int | None = None


def position(puzzle: Puzzle) -> Race:
    """A fresh race in the puzzle's position (the caller may play on it)."""
    return Race.from_json(puzzle.state)


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    entries = json.loads(files("hippodrome.turfmaster").joinpath("data/puzzles.json").read_text(encoding="utf-8"))
    return tuple(Puzzle(number, entry["key"], entry["theme"], entry["state"], entry["seat"],
                        tuple(entry["solution"]), entry.get("search_iterations"))
                 for number, entry in enumerate(entries, start=1))


def outcome(race: Race, option: Action) -> dict[str, Any] | None:
    """What ``option`` leads to for its horse: the history's move event when the move is made at
    once (a card with one end, a square), ``{"event": "card", "handicapped": limit}`` for a card
    spent without moving, or ``{"event": "choose", "points", "steps", "ends", "falls"}`` when a card
    leaves the end square to choose (``ends`` and ``falls`` as ``{"lane", "square"}``)."""
    after = race.clone()
    after.apply(option)
    new = after.history[len(race.history):]
    horse = option.get("horse")
    made = next((e for e in new if e.get("horse") == horse and e["event"] in ("move", "card")
                 and (e["event"] == "move" or "handicapped" in e)), None)
    pending = after.pending()
    if made is None and isinstance(pending, Decision) and pending.kind == "square":
        return {"event": "choose", "points": pending.context["points"], "steps": pending.context["steps"],
                "ends": [{"lane": o["lane"], "square": o["square"]} for o in pending.options],
                "falls": pending.context["falls"]}
    return made


def themes_of(race: Race, pending: Decision, solution: list[Action]) -> list[str]:
    """The themes a decision touches, guessed from the position (for the tool that finds puzzles)."""
    themes = set()
    if pending.kind in ("die", "dice_use"):
        themes.add("dice")
    if pending.kind == "card":
        if any(pending.notes):
            themes.add("handicap")
        if any(is_joker(o["card"]) for o in solution):
            themes.add("joker")
    crossed, square_of = race.course.crossed, race.course.square
    for event in filter(None, (outcome(race, o) for o in pending.options) if pending.kind in ("card", "square") else ()):
        ends = event.get("ends", [event.get("to")] if event["event"] == "move" else [])
        if event.get("fell") or event.get("falls"):
            themes.add("fence")
        if event["event"] in ("move", "choose") and event["steps"] < event["points"]:
            themes.add("blocking")
        if any(crossed[square_of(end["lane"], end["square"])] for end in ends):
            themes.add("finish")
    if pending.kind == "square" and len({o["lane"] for o in pending.options}) > 1:
        themes.add("lanes")
    return sorted(themes)


@dataclass(frozen=True)
class PuzzleWords:
    """A puzzle's words: its title, the question put to the player, why the solution is best."""

    title: Message
    question: Message
    explanation: Message


def words_of(puzzle: Puzzle) -> PuzzleWords:
    return WORDS[puzzle.key]


def pending_decision(race: Race, puzzle: Puzzle) -> Decision:
    pending = race.pending()
    if not isinstance(pending, Decision) or pending.seat != puzzle.seat:
        raise ValueError(f"puzzle {puzzle.key}: no decision pending for seat {puzzle.seat}")  # i18n: programming error
    return pending


class Book:
    """The collection as the server serves it (``core.description.PuzzleBook``)."""

    @staticmethod
    def count() -> int:
        return len(load_puzzles())

    @staticmethod
    def listing(lang: str) -> dict[str, Any]:
        return {"count": len(load_puzzles()),
                "themes": {theme: words.translate(lang) for theme, words in THEMES.items()},
                "puzzles": [{"number": p.number, "theme": p.theme, "title": words_of(p).title.translate(lang)}
                            for p in load_puzzles()]}

    @staticmethod
    def show(number: int, lang: str) -> dict[str, Any]:
        """The puzzle as its deciding seat sees it: that seat's view of the race (its own hands
        only), the decision in ``lang``, the words; never the solution."""
        puzzle = load_puzzles()[number - 1]
        race = position(puzzle)
        view = race.view(puzzle.seat)
        view["pending"] = decision_view(pending_decision(race, puzzle), puzzle.seat, race.public_decision_context, lang)
        words = words_of(puzzle)
        return {"number": number, "count": len(load_puzzles()), "key": puzzle.key, "theme": puzzle.theme,
                "theme_title": THEMES[puzzle.theme].translate(lang), "game": race.name, "seat": puzzle.seat,
                "title": words.title.translate(lang), "question": words.question.translate(lang), "view": view}

    @staticmethod
    def answer(number: int, action: Action, lang: str) -> dict[str, Any]:
        """Whether ``action`` solves puzzle ``number``, with the explanation; IllegalAction, in words,
        when it is not one of the options."""
        puzzle = load_puzzles()[number - 1]
        pending = pending_decision(position(puzzle), puzzle)
        if not pending.allows(action):
            # NOTE: a puzzle's answer that is not one of the moves the position allows.
            raise IllegalAction(Message("this move is not one of the puzzle's options: choose one of those shown"),
                                pending.options)
        correct = any(action == option for option in puzzle.solution)
        # NOTE: the answer to a puzzle was right / was not the best move.
        message = Message("Correct!") if correct else Message("Not this one.")
        return {"correct": correct, "message": message.translate(lang),
                "explanation": words_of(puzzle).explanation.translate(lang)}


BOOK = Book()


# NOTE: TurfMaster puzzles: each puzzle's title, the question put to the player and why its answer is
# best. Numbers are card values, points and squares; colours are the horses' names.
WORDS: dict[str, PuzzleWords] = {
    "handicap-at-the-limit": PuzzleWords(
        Message("At the limit"),
        Message("Black may move at most 10 squares. Which card do you play?"),
        Message("The 11 is above Black's limit of 10: it would be spent without moving. A card equal to the limit"
                " still moves the horse, so play the 10.")),
    "inner-lane-on-the-bend": PuzzleWords(
        Message("Keep to the inner lane"),
        Message("Blue moves 4 in this round of dice. Where should it end?"),
        Message("Both squares are on the back straight, but the inner lane takes the end of the bend in fewer "
                "squares: for the same 4 points, square 52 of the inner lane stands one square farther along the "
                "race than square 52 of the lane beside it.")),
    "inner-lane-at-the-line": PuzzleWords(
        Message("Level at the line"),
        Message("Purple crosses the finish line this round. Which square do you choose?"),
        Message("Both squares are over the line and level with each other. Horses that finish in the same round "
                "are ranked by how far past the line they stand, the inner lane first when level: the inner "
                "square keeps Purple ahead of Red, who moves the same 7 after it.")),
    "seven-not-ten": PuzzleWords(
        Message("Seven, not ten"),
        Message("Blue holds 7s and 10s, with fences ahead. Which card?"),
        Message("With a 10 Blue can go only 9 points before it is stopped in front of a fence with a point left "
                "over, and it falls. The 7 uses all its points and lands safely.")),
    "sum-for-the-win": PuzzleWords(
        Message("The roller decides"),
        Message("You rolled 3 and 6 and Black is yours. Sum or one die?"),
        Message("With the sum, 9, Black (at most 9 squares) crosses the line and wins, while White (at most 8) "
                "may move only one die and stops short. With one die both horses move the same and neither "
                "finishes.")),
    "joker-to-the-line": PuzzleWords(
        Message("Spend the joker"),
        Message("Yellow may move at most 8 squares, and both of its cards take it over the line. Which one?"),
        Message("Horses that finish in the same round are ranked by how far past the line they stand. A joker is "
                "never held back by a handicap: the joker 9 takes Yellow two squares farther than the 7, and that"
                " decides the places.")),
    "nine-under-nine": PuzzleWords(
        Message("Nine is allowed"),
        Message("Purple may move at most 9 squares. Play a 9 or the 10?"),
        Message("The 10 is above Purple's limit of 9: it would be spent and Purple would stand still. The 9 is at"
                " the limit and moves Purple its full 9 points.")),
    "clear-the-fence": PuzzleWords(
        Message("All the way over"),
        Message("Black holds a 6 and an 11, with a fence ahead. Which card?"),
        Message("With the 6 Black is stopped in front of the fence with points left over, and a horse that cannot"
                " complete its jump falls. The 11 carries it over the fence.")),
    "one-die-over-the-line": PuzzleWords(
        Message("Pick your die"),
        Message("The sum, 9, is above Red's limit of 8, so Red moves one die. Which one?"),
        Message("Red is 5 squares from the line: the 6 takes it over this round, the 3 does not.")),
    "shorter-way-round": PuzzleWords(
        Message("The shorter way"),
        Message("White moves 8. Which square?"),
        Message("Square 103 of the inner lane stands farther along the race than square 105 of the lane beside "
                "it: on a bend the inner lane is shorter, so a higher square number is not always ahead.")),
    "boxed-in-keep-the-ten": PuzzleWords(
        Message("Boxed in"),
        Message("Black is boxed in behind other horses. Play the 10 or the 12?"),
        Message("Either card moves Black only 7 squares, to the same square, because the way ahead is blocked. "
                "Spend the 12 and keep the 10: a 12 is above every limit, while a 10 still moves a horse whose "
                "limit is 10.")),
    "six-near-the-finish": PuzzleWords(
        Message("Eight squares to go"),
        Message("White leads, 8 squares from the line, and may move at most 8 squares. Which card?"),
        Message("The 10 is above White's limit of 8 and would not move it. The 6 keeps White in front, 2 squares "
                "from the line, ready to finish in the round of dice.")),
    "boxed-in-play-the-three": PuzzleWords(
        Message("Play the small card"),
        Message("White is hemmed in: any card moves it just 1 square. Play the 3 or the 10?"),
        Message("Blocked, White moves 1 square whatever it plays, and the rest of the card is lost. Give up the 3"
                " and keep the 10 for a round when the way is clear.")),
    "inside-on-the-level": PuzzleWords(
        Message("Inside at the finish"),
        Message("White crosses the finish line this round. Inner or outer square?"),
        Message("Both squares are over the line and level. Black, beside White, moves the same 7 after it; on a "
                "level line the inner lane ranks first, so take the inner square and Black can only draw level on"
                " the outside.")),
    "joker-past-the-limit": PuzzleWords(
        Message("The joker's moment"),
        Message("Brown may move at most 8 squares and holds a 3, a 9 and the joker 9. Which card?"),
        Message("The plain 9 is above the limit and would be spent without moving, and the 3 moves only 3. A "
                "joker is never held back by a handicap: the joker 9 moves Brown its full 9.")),
    "stop-before-the-fence": PuzzleWords(
        Message("Stop in time"),
        Message("A fence is just ahead of Brown, who may move at most 8 squares. Which card?"),
        Message("The 4 brings Brown to the fence with a point left over, and it falls; the 9, 10 and 11 are above"
                " its limit of 8. The 3 stops Brown just before the fence, safe.")),
    "the-bigger-die": PuzzleWords(
        Message("Far enough"),
        Message("White is handicapped and moves one die, 3 or 6; either takes it over the line. Which one?"),
        Message("Red moves the full 9 after White and crosses too. Horses that finish in the same round are "
                "ranked by how far past the line they stand: only the 6 keeps White ahead of Red.")),
    "a-card-that-does-not-move": PuzzleWords(
        Message("Better not to move"),
        Message("Yellow can move only 2 squares before a fence. Which card?"),
        Message("Any card that moves Yellow stops it at the fence with points left over, and it falls. The 11 is "
                "above its limit of 10: it is spent, Yellow stands still and stays in the race.")),
    "exactly-six": PuzzleWords(
        Message("Exactly enough"),
        Message("Which card takes Yellow over the fence without a fall?"),
        Message("The 3 and the 4 stop Yellow at the fence with points left over, and the joker 11 ends in front "
                "of a fence with a point left over: each of them makes Yellow fall. The 6 takes it cleanly over.")),
    "double-three": PuzzleWords(
        Message("Double three"),
        Message("You rolled a double 3; Yellow and Brown are yours. The sum, 6, or one die?"),
        Message("Yellow is 6 squares from the line: the sum takes it over, first, this round. With one die, 3, no"
                " horse finishes, and Red and Purple, close behind, get another chance.")),
    "joker-ten": PuzzleWords(
        Message("Joker to the line"),
        Message("Yellow is 10 squares from the line and may move at most 8. Play the 4 or the joker 10?"),
        Message("A joker is never held back by a handicap: the joker 10 takes Yellow over the line this round. "
                "The 4 leaves it 6 squares short, with Brown close behind.")),
    "keep-inside": PuzzleWords(
        Message("Don't drift wide"),
        Message("Brown moves 3. Which square?"),
        Message("Moving out to lane 3 on the bend loses ground: square 110 of lane 2 is farther along the race "
                "than square 112 of lane 3.")),
    "seven-under-eight": PuzzleWords(
        Message("Only one card moves"),
        Message("Yellow may move at most 8 squares. Which card?"),
        Message("The 10, the 11 and the 12 are all above Yellow's limit of 8 and would be spent without moving. "
                "Only the 7 moves it.")),
    "nine-not-ten": PuzzleWords(
        Message("Nine, not ten"),
        Message("A fence lies ahead of Red. Which card do you play?"),
        Message("A 10 or the joker 12 would leave Red in front of the fence with points left over, and it would "
                "fall. A 9, plain or joker, uses every point and Red lands safely; the plain 9 keeps the joker "
                "for later.")),
    "both-over-the-line": PuzzleWords(
        Message("Both home"),
        Message("You rolled 6 and 3; Blue and Purple are yours. Sum or one die?"),
        Message("The sum, 9, takes Purple and Blue over the line, Purple ahead of Red, who may move at most 8 "
                "and so moves only one die. With one die only Red can finish this round.")),
    "blocked-ahead": PuzzleWords(
        Message("No use pushing"),
        Message("Horses block the way: Green can move at most 4 squares. Which card?"),
        Message("A 9 or the joker 9 would move Green only 4 squares, and the rest of the card would be lost. The "
                "3 moves it almost as far and keeps both 9s for later.")),
    "first-on-a-level-line": PuzzleWords(
        Message("Inside on the level"),
        Message("White moves 6 and the three squares it may reach are level. Which one?"),
        Message("Level squares are ranked inner lane first: in the inner lane White moves first in the next "
                "round, and would be placed first if it finished level with another horse.")),
}
