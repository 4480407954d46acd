"""``hippodrome turfmaster ...``

Every command takes ``--lang`` (else HIPPODROME_LANG, LANGUAGE, LC_ALL, LC_MESSAGES, LANG): its
screens, prompts and errors come out in that language. The JSON that ``destinations`` prints and
the records that ``play --save`` writes keep their keys and ids in English (they are data).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer

from hippodrome.cli import arena
from hippodrome.cli.errors import refused_input_exits
from hippodrome.cli.records import RecordWriter, read_json_file, save_folder
from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import Message, N_, Percent, Plural, format_number, help_text, lang_option, localize_error, translate
from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.position import parse_position

app = typer.Typer(no_args_is_help=True, help=help_text("TurfMaster: check rules, play, simulate, replay."))

REFUSED_STYLE = "red"

#: Help texts shared by several commands.
COURSE_HELP = N_("oval or triangle")
WIDTH_HELP = N_("columns of the screen (default: the terminal's width, 80 when unknown)")
THINK_HELP = N_("seconds the search bot thinks per decision (default: 1)")
HORSES_HELP = N_("horses per player (2 players: 2-4; 3: 2; 4: 1-2; 5-8: 1)")


_read_json = read_json_file


@app.command("destinations", help=help_text("Print the legal end squares of a move "
                                            "as JSON."))
def destinations_command(
    position_file: Path = typer.Argument(..., metavar="POSITION.json", help=help_text("the position (see docs/turfmaster.md)")),
    horse: str = typer.Option(..., "--horse", help=help_text("id of the horse that moves")),
    points: int = typer.Option(..., "--points", help=help_text("points of the move: a card's value or the dice "
                                                               "used")),
    round_kind: str = typer.Option("dice", "--round", help=help_text("card or dice: in a round of cards a horse "
                                                                     "that cannot complete a fence jump falls")),
    lang: str = lang_option(),
) -> None:
    with refused_input_exits(lang):
        position = parse_position(_read_json(position_file))
        if position.ignored_keys:
            typer.echo(translate(lang, "warning: ignoring unknown key(s) {keys}; a position has 'course', "
                                       "'steeplechase' and 'horses'", keys=", ".join(position.ignored_keys)),
                       err=True)
        if horse not in position.squares:
            raise InvalidSetup(Message("no horse {horse} in the position; horses: {horses}", horse=repr(horse),
                                       horses=", ".join(position.squares)))
        if not 0 <= points <= 24:
            raise InvalidSetup(Message("--points must be from 0 to 24 (a card is 3 to 12, dice 1 to 12), not "
                                       "{points}", points=points))
        if round_kind not in ("card", "dice"):
            raise InvalidSetup(Message("--round must be 'card' or 'dice', not {value}", value=repr(round_kind)))
        course = position.course
        others = [square for other, square in position.squares.items() if other != horse]
        moves = destinations(course, position.squares[horse], points, blocked_squares(course, others),
                             position.fences)
        result = {"steps": moves.steps, "destinations": [course.name_of(end) for end in moves.ends]}
        if round_kind == "card" and moves.some_end_falls(points):
            result["falls"] = [course.name_of(end) for end in moves.ends if moves.falls_at(end, points)]
    print(json.dumps(result))  # i18n: machine output (JSON), keys and ids stay English


# -- meetings: play, simulate, replay ------------------------------------------------------

def _meeting_setup(players: int, horses: int | None, course: str, steeplechase: bool) -> dict:
    import hippodrome.turfmaster.meeting as meeting_module

    allowed = meeting_module.allowed_horses(players)
    if horses is not None:
        meeting_module.horses_per_player(players, horses, "--horses")   # refused in the option's name (T7)
    setup = {"players": players, "horses_per_player": allowed[0] if horses is None else horses,
             "course": course, "steeplechase": steeplechase}
    meeting_module.Meeting.new(setup)  # refuse a bad table before anything starts
    return setup


def _bot_names(bots: str, seats: int) -> list[str]:
    """The bots named by ``--bots`` for ``seats`` seats: one name for all, or one per seat."""
    from hippodrome.table.bots import bot_levels

    levels = bot_levels("turfmaster")
    names = [b.strip() for b in bots.split(",")]
    unknown = [n for n in names if n not in levels]
    if unknown:
        raise InvalidSetup(Message("unknown bot(s) {unknown}; bots: {bots}", unknown=", ".join(unknown),
                                   bots=", ".join(levels)))
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        # NOTE: {n} seats are played by bots; --bots named {given} bots (a comma-separated list).
        raise InvalidSetup(Plural("--bots names {given} bots, but {n} seat is played by a bot: name one",
                                  "--bots names {given} bots, but {n} seats are played by bots: name one bot for all "
                                  "of them, or {n}, one a seat", seats, given=len(names)))
    return names


def _read_record(path: Path) -> dict:
    record = _read_json(path)
    if not isinstance(record, dict) or not {"game", "setup", "log"} <= record.keys():
        raise InvalidSetup(Message("{file} is not a game record: it needs 'game', 'setup', 'seed' and 'log'",
                                   file=str(path)))
    if record["game"] != "turfmaster":
        raise InvalidSetup(Message("{file} records a {game} game, not a TurfMaster meeting", file=str(path),
                                   game=repr(record["game"])))
    return record


class _Events:
    """The "what happened" lines of a meeting, in one language: the meeting's events (bonus cards,
    cards given up), the current race's history, as they grow, and each race run's places and points."""

    def __init__(self, lang: str):
        self.lang = lang
        self.lines: list[str] = []
        self.race_no = 0
        self.seen = 0
        self.meeting_seen = 0
        self.races_told = 0

    def catch_up(self, state: Any, announce_start: bool = False) -> None:
        from hippodrome.cli.turfmaster_view import race_over_line, stalls_line

        new_race = state.race is not None and state.race_no != self.race_no and state.phase == "race"
        if state.race is not None and not new_race:   # the race told so far (between races the last one stays)
            self._race_moves(state)
        for result in state.results[self.races_told:]:   # a race run: its places and points (T9)
            self.lines.append(race_over_line(result, self.lang))
        self.races_told = len(state.results)
        self._tell(state.events[self.meeting_seen:], state.names)
        self.meeting_seen = len(state.events)
        if new_race:
            self.race_no, self.seen = state.race_no, 0
            if announce_start:
                self.lines.append("--- " + stalls_line(state.race_no, list(state.stalls), self.lang))
            self._race_moves(state)

    def _race_moves(self, state: Any) -> None:
        history = state.race.history
        self.seen = min(self.seen, len(history))
        self._tell(history[self.seen:], state.names)
        self.seen = len(history)

    def _tell(self, events: list[dict], names: list[str]) -> None:
        from hippodrome.cli.turfmaster_view import describe_event

        self.lines.extend(describe_event(event, names, self.lang) for event in events)


def _sure_to_quit(console: Any, lang: str) -> bool:
    """Asked after "q": a meeting quit is lost, so a stray key does not end it. "q" again quits (in
    every language, as the question's "q" does); anything else goes back to the question. With
    nobody left to answer (the input ended) it quits."""
    from rich.text import Text

    try:
        # NOTE: TurfMaster terminal, asked after "q" (quit); "q" quits in every language.
        answer = console.input(Text(translate(lang, "Quit? The meeting will be lost. Type q again to quit, "
                                                    "or press Enter to go on: "), style="yellow"))
    except EOFError:
        return True
    return answer.strip().lower() in ("q", "quit")


def _choice(answer: str, count: int) -> int | None:
    """The option number typed (1 to ``count``), or None."""
    return int(answer) if answer.isdigit() and 1 <= int(answer) <= count else None


@app.command("play", help=help_text("Play a meeting of three races against bots in the terminal; choose by "
                                    "number."))
def play_command(
    players: int = typer.Option(4, "--players", help=help_text("players at the table, 2 to 8 (you are player 1)")),
    horses: int = typer.Option(None, "--horses", help=help_text(HORSES_HELP)),
    course: str = typer.Option("oval", "--course", help=help_text(COURSE_HELP)),
    steeplechase: bool = typer.Option(False, "--steeplechase/--flat", help=help_text("fences (oval only)")),
    seed: str = typer.Option(None, "--seed", help=help_text("the meeting's seed (random if not given)")),
    bots: str = typer.Option("tactical", "--bots", help=help_text("bot of the other seats: tactical, search or random, "
                                                                  "or a comma-separated list, one per seat after "
                                                                  "yours")),
    name: str = typer.Option(None, "--name", help=help_text("your name at the table (default: “Player” in the "
                                                            "language of the messages)")),
    save: Path = typer.Option(None, "--save", help=help_text("write the meeting's record (JSON) here at the end")),
    width: int = typer.Option(None, "--width", min=40, help=help_text(WIDTH_HELP)),
    think: float = typer.Option(None, "--think", min=0.001, help=help_text(THINK_HELP)),
    scroll: bool = typer.Option(False, "--scroll", help=help_text(
        "print the game as a scrolling log instead of one screen redrawn in place (for screen readers and pipes)")),
    lang: str = lang_option(),
) -> None:
    from contextlib import nullcontext

    from rich.console import Console
    from rich.text import Text

    from hippodrome.cli.turfmaster_screen import frame, note_of, too_small
    from hippodrome.cli.turfmaster_view import final_block, options_block, screen
    from hippodrome.core.errors import IllegalAction
    from hippodrome.table.table import Player, Table
    from hippodrome.table.bots import make_bot
    from hippodrome.turfmaster.description import MEETING

    console = Console(width=width)   # without --width, the terminal's width at each screen (a resized window)
    with refused_input_exits(lang):
        if save is not None:
            _check_writable(save)
        setup = _meeting_setup(players, horses, course, steeplechase)
        names = _bot_names(bots, players - 1)
        bot_objects = [make_bot("turfmaster", n, f"{seed}:{i}", think) for i, n in enumerate(names, start=1)]
        titles = {level.name: level.title for level in MEETING.bots}
        # NOTE: the name of a bot's seat at the table: {bot} is its level's name ("Tactical bot"), {seat} a number.
        setup["names"] = [name or translate(lang, "Player")] + [
            translate(lang, "{bot} {seat}", bot=titles[n], seat=i) for i, n in enumerate(names, start=1)]
        seats = [Player(setup["names"][0])] + [Player(setup["names"][i], bot) for i, bot in enumerate(bot_objects, start=1)]
        table = Table("turfmaster", setup, seats, seed=seed)
    events = _Events(lang)
    said: Text | None = None  # why the last answer was refused, or an option's note: under the question
    # one screen redrawn in place (the terminal's alternate screen, as less or htop), or a scrolling log
    full = console.is_terminal and not scroll
    with console.screen(hide_cursor=False) if full else nullcontext():
        while True:
            table.run_bots()
            events.catch_up(table.state, announce_start=True)
            if table.over:
                break
            view = table.state.observation(0)
            warnings = consequence_warnings(table.state, 0, lang)
            if full:
                console.clear()
                small = too_small(console.width, console.height, lang)
                console.print(small if small is not None else frame(view, events.lines, lang, console.width,
                                                                     console.height, warnings))
            else:
                console.print(screen(view, events.lines, lang, console.width))
                console.print(options_block(view, lang, warnings))
            if said is not None:
                console.print(said)
                said = None
            options = view["pending"]["options"]
            # NOTE: the terminal's question; "q" quits in every language.
            answer = console.input(Text(translate(lang, "your choice (1-{last}, q to quit): ", last=len(options))))
            answer = answer.strip().lower()
            if answer in ("q", "quit"):
                if _sure_to_quit(console, lang):
                    break
                continue
            if answer.startswith("?") and _choice(answer[1:].strip(), len(options)) is not None:   # an option's note
                index = _choice(answer[1:].strip(), len(options)) - 1
                # NOTE: TurfMaster terminal: the answer to "?3" for an option without a note.
                said = Text(note_of(view, index, warnings, lang) or translate(lang, "option {n} has no note", n=index + 1),
                            style="yellow")
                continue
            choice = _choice(answer, len(options))
            if choice is None:
                said = Text(translate(lang, "'{answer}' is not a choice: type a number from 1 to {last}",
                                      answer=answer, last=len(options)), style=REFUSED_STYLE)
                continue
            try:
                table.act(0, options[choice - 1])
            except IllegalAction as error:  # pragma: no cover - numbered options are legal
                said = Text(localize_error(error, lang), style=REFUSED_STYLE)
    if not table.over:
        console.print(Text(translate(lang, "meeting abandoned")))
    if table.over:
        console.print(final_block(table.state.observation(0), lang))
    if save is not None:
        try:
            save.write_text(json.dumps(table.record(), indent=1))
        except OSError as error:   # the folder went away or filled up during the meeting
            # NOTE: {file} is the --save path, {reason} the system's words for what went wrong.
            console.print(Text(translate(lang, "the record could not be written to {file}: {reason}", file=str(save),
                                         reason=error.strerror or str(error)), style=REFUSED_STYLE))
            raise typer.Exit(1) from None
        console.print(Text(translate(lang, "record saved to {file}", file=str(save))))


def _check_writable(path: Path) -> None:
    """``play --save``: refused before the meeting starts if the record could not be written there."""
    folder = path.parent   # "." for a bare file name
    if path.is_dir():
        raise InvalidSetup(Message("--save {file} is a folder: give a file name, such as {example}",
                                   file=str(path), example=str(path / "meeting.json")))
    if not folder.is_dir():
        raise InvalidSetup(Message("--save {file}: there is no folder {folder}", file=str(path), folder=str(folder)))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidSetup(Message("--save {file}: this file cannot be written here (no permission)", file=str(path)))


def _simulation_title(games: int, players: int, setup: dict, lang: str) -> str:
    from hippodrome.cli.turfmaster_view import course_label

    # NOTE: simulate's table title: {meetings} is "100 meetings", {horses} "2 horses", {course} the course.
    return translate(lang, "{meetings}: {players} players with {horses} each, {course}; the bots change seats "
                           "every game", meetings=Plural("{n} meeting", "{n} meetings", games), players=players,
                     horses=Plural("{n} horse", "{n} horses", setup["horses_per_player"]),
                     course=course_label(setup["course"], setup["steeplechase"]))


def _simulation_table(tally: Any, title: str, lang: str) -> Any:
    from rich import box
    from rich.table import Table as RichTable

    def percent(value: float) -> str:
        return Percent(value, 1).translate(lang)

    # One column per bot and one row per measure: the measures' names, long in some languages, get
    # the width they need, and the table stays narrow whatever the language.
    rows = list(tally.rows())
    table = RichTable(title=title, box=box.SIMPLE_HEAD)
    table.add_column("")
    for row in rows:
        table.add_column(row["bot"], justify="right", no_wrap=True)
    # NOTE: simulate's table: row headers; "seat-games" counts the games each bot played (one seat each).
    measures = [
        (N_("seat-games"), lambda row: format_number(row["seat_games"], lang)),
        (N_("wins"), lambda row: format_number(row["wins"], lang)),
        (N_("win rate"), lambda row: percent(row["win_rate"])),
        (N_("95% CI (Wilson)"), lambda row: f"{percent(row['ci95'][0])} - {percent(row['ci95'][1])}"),
        (N_("fair share"), lambda row: percent(row["fair_share"])),
        (N_("mean points"), lambda row: format_number(round(row["mean_points"], 1), lang)),
    ]
    for name, cell in measures:
        table.add_row(translate(lang, name), *(cell(row) for row in rows))
    return table


@app.command("simulate", help=help_text("Play bot meetings in parallel and print win rates with 95% Wilson "
                                        "intervals."))
def simulate_command(
    games: int = typer.Option(100, "--games", help=help_text("number of meetings")),
    bots: str = typer.Option("tactical,random", "--bots", help=help_text("one bot per seat, comma-separated")),
    horses: int = typer.Option(None, "--horses", help=help_text("horses per player (default: the fewest "
                                                                "allowed)")),
    course: str = typer.Option("oval", "--course", help=help_text(COURSE_HELP)),
    steeplechase: bool = typer.Option(False, "--steeplechase/--flat", help=help_text("fences (oval only)")),
    seed: str = typer.Option("0", "--seed", help=help_text("game i is played with seed SEED:i")),
    workers: int = typer.Option(None, "--workers", min=1, help=help_text("processes (default: all cores)")),
    think: float = typer.Option(None, "--think", min=0.001, help=help_text(THINK_HELP)),
    as_json: bool = typer.Option(False, "--json", help=help_text(
        "print only JSON: games, and per bot wins, win_rate, ci95 and mean_points")),
    save: Path = typer.Option(None, "--save", metavar="DIR", help=help_text(
        "write each meeting's record (JSON, as play --save writes it) in this folder")),
    lang: str = lang_option(),
) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from hippodrome.arena.turfmaster import simulate

    console = Console()
    with refused_input_exits(lang):
        names = [b.strip() for b in bots.split(",")]
        _bot_names(bots, len(names))
        setup = _meeting_setup(len(names), horses, course, steeplechase)
        if games < 1:
            raise InvalidSetup(Message("--games must be at least 1"))
        keep = None if save is None else RecordWriter(save_folder(save), "meeting", games)
    if as_json:
        tally = simulate(setup, names, games, seed=seed, workers=workers, think=think, keep=keep)
        print(json.dumps(tally.to_json()))  # i18n: machine output (JSON), keys and ids stay English
        return
    label = translate(lang, "meetings")
    with Progress(TextColumn(label.replace("[", r"\[")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        task = progress.add_task(label, total=games)
        tally = simulate(setup, names, games, seed=seed, workers=workers,
                         on_result=lambda _: progress.advance(task), think=think, keep=keep)
    console.print(_simulation_table(tally, _simulation_title(games, len(names), setup, lang), lang))
    if tally.ties:
        console.print(Text(Plural("{n} meeting ended with a shared first place (a win for each seat sharing it)",
                                  "{n} meetings ended with a shared first place (a win for each seat sharing it)",
                                  tally.ties).translate(lang)))


def consequence_warnings(state: Any, seat: int, lang: str) -> dict[int, str]:
    """What the page's preview shows before a card or a die is played, in words for the terminal,
    by option index: the horse falls at a fence whichever square it ends on (T11), or it is boxed
    in and uses only some of the points (T5). Nothing for a card the handicap spends (T6: the
    engine's own note says so) nor for other options."""
    from hippodrome.core.game import Decision
    from hippodrome.turfmaster.preview import PREVIEWABLE, consequences

    pending = state.pending()
    if not isinstance(pending, Decision) or pending.seat != seat:
        return {}
    warnings = {}
    for index, option in enumerate(pending.options):
        if option.get("type") not in PREVIEWABLE:
            continue
        seen = consequences(state, seat, option)
        if seen["squares"] and all(square["falls"] for square in seen["squares"]):
            # NOTE: TurfMaster, rule T11: a card or die whose every possible end square makes the horse fall at a fence.
            warnings[index] = translate(lang, "the horse falls at a fence whichever square it ends on")
        elif seen["squares"] and seen["steps"] < seen["points"]:
            # NOTE: TurfMaster, rule T5: the horse is boxed in and can use only some of the points.
            warnings[index] = translate(lang, "boxed in: it can use only {steps} of its {points} points",
                                        steps=seen["steps"], points=seen["points"])
    return warnings


def decision_line(state: Any, entry: Any, viewer: int | None, lang: str) -> str | None:
    """Replay's line for a log entry about to be applied to ``state``: the player's decision as
    ``viewer`` (None: a spectator) may see it, or None (a chance draw, an entry that is not a
    decision, a card given up face down by another seat: the meeting's event says that one was)."""
    from hippodrome.cli.turfmaster_view import describe_option

    by, action = (entry.get("by"), entry.get("action")) if isinstance(entry, dict) else (None, None)
    if (by == "chance" or not isinstance(by, int) or not 0 <= by < state.players or not isinstance(action, dict)
            or state.action_hidden_from(action, viewer)):   # a card given up is face down (T8)
        return None
    # NOTE: replay's list of what happened: a player's decision.
    return translate(lang, "{player}: {action}", player=state.names[by], action=describe_option(action, lang, state.names))


@app.command("replay", help=help_text("Replay a recorded meeting decision by decision and print its final "
                                      "table."))
def replay_command(
    record_file: Path = typer.Argument(..., metavar="RECORD.json", help=help_text("a meeting record (see docs/turfmaster.md)")),
    seat: int = typer.Option(None, "--seat", help=help_text("see the meeting as this seat (its hands); default: "
                                                            "spectator")),
    step: bool = typer.Option(False, "--step", help=help_text("wait for Enter after every decision")),
    quiet: bool = typer.Option(False, "--final-only", help=help_text("print only the final table")),
    width: int = typer.Option(None, "--width", min=40, help=help_text(WIDTH_HELP)),
    lang: str = lang_option(),
) -> None:
    from rich.console import Console
    from rich.text import Text

    from hippodrome.cli.turfmaster_view import final_block, screen
    from hippodrome.core.match import initial_state, record_rulings
    from hippodrome.core.match import apply_numbered
    import hippodrome.turfmaster.meeting  # noqa: F401

    console = Console(width=width)
    width = console.width
    with refused_input_exits(lang):
        record = _read_record(record_file)
        state = initial_state(record)   # under the rulings it was played with
        if record["setup"].get("names") is None:   # a record made without names (in Python, say):
            # its seats are shown as the players know them, not as the engine's "seat 0"
            state = initial_state({**record, "setup": {**record["setup"], "names": [
                translate(lang, "Player {n}", n=number + 1) for number in range(state.players)]}},
                rulings=record_rulings(record))
        if seat is not None and not 1 <= seat <= state.players:
            # NOTE: seats are numbered as the players know them: 1 for the first.
            raise InvalidSetup(Message("--seat must be from 1 to {last}", last=state.players))
        viewer = None if seat is None else seat - 1   # the view's seat (0-based inside the engine)
        events = _Events(lang)
        for number, entry in enumerate(record["log"], start=1):
            line = decision_line(state, entry, viewer, lang)
            if line is not None:
                events.lines.append(line)
            apply_numbered(state, number, entry)
            events.catch_up(state)
            if quiet or entry["by"] == "chance":   # (an entry applied is an object with "by")
                continue
            console.print(screen(state.observation(viewer), events.lines, lang, width))
            console.rule(Text(translate(lang, "move {number} of {total}", number=number,
                                        total=len(record["log"]))))
            if step:
                console.input(Text(translate(lang, "Enter for the next move ")))
        if not state.over:
            console.print(Text(translate(lang, "the record stops before the end of the meeting (race {race})",
                                         race=state.race_no)))
        console.print(final_block(state.observation(viewer), lang))


@app.command("arena", help=help_text("Rate your policy on the bots' Elo ladder: it plays meetings against every bot "
                                     "level, and its rating is printed with a 95% interval."))
def arena_command(
    agent: str = arena.agent_option(),
    games: int = arena.games_option(),
    levels: str = arena.levels_option(["random", "tactical", "search"]),
    think: float = typer.Option(0.05, "--think", min=0.001, help=help_text(
        "seconds the search bot thinks per decision (the ladder's: 0.05)")),
    workers: int = arena.workers_option(),
    lang: str = lang_option(),
) -> None:
    from hippodrome.table.bots import bot_levels

    arena.run_arena("turfmaster", agent, levels, list(bot_levels("turfmaster")), games, think, workers, lang)


@app.command("review", help=help_text("Review a finished meeting: each decision's expected race points against "
                                      "the best choice's, marked good, inaccuracy, mistake or blunder."))
def review_command(
    record_file: Path = typer.Argument(..., metavar="RECORD.json", help=help_text(
        "a meeting's record (play --save, simulate --save)")),
    as_json: bool = typer.Option(False, "--json", help=help_text(
        "print only JSON: players (seat, name, accuracy, points_lost) and decisions (seat, step, chosen, best, "
        "loss, stderr, mark)")),
    budget: float = typer.Option(None, "--budget", min=0.001, metavar="SECONDS", help=help_text(
        "seconds of thought per decision (default: 0.1, less in a meeting of many decisions: 45 s in all)")),
    lang: str = lang_option(),
) -> None:
    from hippodrome.cli.review_report import run_review
    from hippodrome.cli.turfmaster_view import describe_option

    def points(value: float) -> str:
        # NOTE: a game's review (TurfMaster): expected race points, such as "23.5 points".
        return translate(lang, "{points} points", points=format_number(round(value, 1), lang))

    run_review("turfmaster", record_file, lang, as_json,
               lambda names: lambda action: describe_option(action, lang, names), points,
               # NOTE: the title of a TurfMaster meeting's review.
               translate(lang, "Review of the meeting"),
               # NOTE: a column of a TurfMaster meeting's review: expected race points lost, per race.
               translate(lang, "points lost per race"), budget=budget)
