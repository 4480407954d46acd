"""A game's review (hippodrome.core.review) as the terminal shows it: in words, in one language.

Names no game: a game's command hands over how its choices read (``describe``) and how its values
read (``amount``). Seats are named by their players' names, moves counted from 1 as ``replay``
counts them (a decision's ``step`` is the index of its entry in the log: move ``step + 1``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from hippodrome.core.review import BLUNDER, GOOD, INACCURACY, MISTAKE
from hippodrome.i18n import N_, Percent, translate

# NOTE: the marks of a game's review, from the best to the worst (as chess sites mark moves).
MARK_WORDS: Mapping[str, str] = {GOOD: N_("good"), INACCURACY: N_("inaccuracy"), MISTAKE: N_("mistake"),
                                 BLUNDER: N_("blunder")}
MARK_STYLES: Mapping[str, str] = {GOOD: "green", INACCURACY: "yellow", MISTAKE: "dark_orange", BLUNDER: "red"}


def report(review: Mapping[str, Any], names: Sequence[str], lang: str, describe: Callable[[dict], str],
           amount: Callable[[float], str], title: str, lost_heading: str) -> list[Any]:
    """The Rich renderables of ``review``: the players' table (accuracy, lost per race, marks; with
    each race's expected money taken and on offer where the review adds them up) and every decision
    marked worse than good, with the better choice."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    # One column per player and one row per measure (as simulate's table): the measures' names, long
    # in some languages, get the width they need.
    players = Table(title=title, box=box.SIMPLE_HEAD)
    players.add_column("")
    for player in review["players"]:
        players.add_column(names[player["seat"]], justify="right")
    # NOTE: a game's review: a row of the players' table (the share of what was at stake that the player kept).
    players.add_row(translate(lang, "accuracy"),
                    *(Percent(player["accuracy"] / 100, 1).translate(lang) for player in review["players"]))
    players.add_row(lost_heading, *(amount(player["points_lost"]) for player in review["players"]))
    for mark, words in MARK_WORDS.items():
        players.add_row(Text(translate(lang, words), style=MARK_STYLES[mark]),
                        *(str(player["marks"][mark]) for player in review["players"]))
    shown: list[Any] = [players]
    if any("taken" in race for player in review["players"] for race in player["races"]):
        shown.append(_races_table(review, names, lang, amount))
    marked = [decision for decision in review["decisions"] if decision["mark"] != GOOD]
    if not marked:
        # NOTE: a game's review: no decision was marked inaccuracy, mistake or blunder.
        shown.append(Text(translate(lang, "No decision lost anything the review could measure.")))
        return shown
    # NOTE: a game's review: the heading of the list of decisions marked inaccuracy, mistake or blunder.
    shown.append(Text(translate(lang, "Decisions marked inaccuracy, mistake or blunder"), style="bold"))
    for decision in marked:
        line = Text()
        # NOTE: a game's review, one decision: {race} is the race's number, {move} the move's number as
        # replay counts them, {player} a player's name, {choice} what the player chose, {value} what it was
        # worth (expected points or money).
        line.append(translate(lang, "Race {race}, move {move}: {player} chose {choice} ({value})",
                              race=decision["race"], move=decision["step"] + 1, player=names[decision["seat"]],
                              choice=describe(decision["chosen"]["action"]),
                              value=amount(decision["chosen"]["value"])))
        line.append("; ")
        words = MARK_WORDS[decision["mark"]]
        mark = translate(lang, words)
        # NOTE: a game's review, after a decision: the better choice, what it was worth, the loss and the
        # mark ({mark}: good, inaccuracy, mistake or blunder).
        line.append(translate(lang, "better: {choice} ({value}), {lost} lost: {mark}",
                              choice=describe(decision["best"]["action"]), value=amount(decision["best"]["value"]),
                              lost=amount(decision["loss"]), mark=mark))
        line.highlight_words([mark], style=MARK_STYLES[decision["mark"]])
        shown.append(line)
    return shown


def _races_table(review: Mapping[str, Any], names: Sequence[str], lang: str, amount: Callable[[float], str]) -> Any:
    from rich import box
    from rich.table import Table

    # NOTE: a game's review (Ready Set Bet): per player and race, the expected money of the bets placed
    # against the expected money of the best bets open at the same moments.
    table = Table(title=translate(lang, "Expected money taken, of the expected money on offer"), box=box.SIMPLE_HEAD)
    table.add_column(translate(lang, "player"))
    for race in range(1, review["races"] + 1):
        # NOTE: a column of the review's table: race {race}.
        table.add_column(translate(lang, "race {race}", race=race), justify="right")
    for player in review["players"]:
        # NOTE: a game's review: expected money taken "of" the expected money on offer, such as "$12 of $15".
        table.add_row(names[player["seat"]], *(translate(lang, "{taken} of {offered}", taken=amount(race["taken"]),
                                                         offered=amount(race["offered"])) for race in player["races"]))
    return table


def run_review(game: str, record_file: Any, lang: str, as_json: bool, describe_for: Callable[[list[str]], Callable[[dict], str]],
               amount: Callable[[float], str], title: str, lost_heading: str, **options: Any) -> None:
    """``hippodrome <game> review RECORD.json``: the record read and checked (refused in words,
    exit status 2), reviewed by the game's review function (its description's ``review``) and
    printed: the ``--json`` of :func:`hippodrome.core.review.command_json`, or the report in words
    with a progress bar on the way."""
    import json

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hippodrome.cli.errors import refused_input_exits
    from hippodrome.cli.records import read_json_file
    from hippodrome.core.registry import game_class
    from hippodrome.core.review import command_json, finished_game

    with refused_input_exits(lang):
        record = read_json_file(record_file)
        finished_game(record, game, str(record_file))
    reviewer = game_class(game).description.review_function()
    if as_json:
        print(json.dumps(command_json(reviewer(record, **options))))  # i18n: machine output (JSON), keys and ids stay English
        return
    console = Console()
    # NOTE: the progress bar of a game's review: decisions reviewed so far.
    label = translate(lang, "decisions reviewed")
    with Progress(TextColumn(label.replace("[", r"\[")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=None)
        review = reviewer(record, progress=lambda done, total: progress.update(task, completed=done, total=total),
                          **options)
    named = isinstance(record["setup"].get("names"), list)
    # NOTE: a seat's name where the record names none; {n} counts the seats from 1.
    names = [player["name"] if named else translate(lang, "Player {n}", n=player["seat"] + 1)
             for player in review["players"]]
    for shown in report(review, names, lang, describe_for(names), amount, title, lost_heading):
        console.print(shown)
