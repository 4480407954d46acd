"""``hippodrome turfmaster ...``"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from hippodrome.cli.errors import refused_input_exits
from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import lang_option
from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.position import parse_position

app = typer.Typer(no_args_is_help=True, help="TurfMaster: check rules, play, simulate, replay.")


@app.command("destinations")
def destinations_command(
    position_file: Path = typer.Argument(..., metavar="POSITION.json", help="the position (see README)"),
    horse: str = typer.Option(..., "--horse", help="id of the horse that moves"),
    points: int = typer.Option(..., "--points", help="points of the move: a card's value or the dice used"),
    round_kind: str = typer.Option("dice", "--round", help="card or dice: in a card round a horse that "
                                   "cannot complete a fence jump falls (T11)"),
    lang: str = lang_option(),
) -> None:
    """Print the legal end squares of a move (rulings T3, T4, T5, T11) as JSON."""
    with refused_input_exits(lang):
        try:
            data = json.loads(position_file.read_text())
        except OSError as error:
            raise InvalidSetup(f"cannot read {position_file}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise InvalidSetup(f"{position_file} is not valid JSON (line {error.lineno}: {error.msg})") from None
        position = parse_position(data)
        if position.ignored_keys:
            typer.echo(f"warning: ignoring unknown key(s) {', '.join(position.ignored_keys)}; a position has "
                       "'course', 'steeplechase' and 'horses'", err=True)
        if horse not in position.squares:
            raise InvalidSetup(f"no horse {horse!r} in the position; horses: {', '.join(position.squares)}")
        if not 0 <= points <= 24:
            raise InvalidSetup(f"--points must be from 0 to 24 (a card is 3 to 12, dice 1 to 12), not {points}")
        if round_kind not in ("card", "dice"):
            raise InvalidSetup(f"--round must be 'card' or 'dice', not {round_kind!r}")
        course = position.course
        others = [square for other, square in position.squares.items() if other != horse]
        moves = destinations(course, position.squares[horse], points, blocked_squares(course, others),
                             position.fences)
        result = {"steps": moves.steps, "destinations": [course.name_of(end) for end in moves.ends]}
        if round_kind == "card" and any(moves.falls_at(end, points) for end in moves.ends):
            result["falls"] = [course.name_of(end) for end in moves.ends if moves.falls_at(end, points)]
    print(json.dumps(result))


# -- meetings: play, simulate, replay ------------------------------------------------------

def _meeting_setup(players: int, horses: int | None, course: str, steeplechase: bool) -> dict:
    import hippodrome.turfmaster.meeting as meeting_module

    allowed = meeting_module.allowed_horses(players)
    setup = {"players": players, "horses_per_player": allowed[0] if horses is None else horses,
             "course": course, "steeplechase": steeplechase}
    meeting_module.Meeting.new(setup)  # refuse a bad table before anything starts
    return setup


def _read_record(path: Path) -> dict:
    try:
        record = json.loads(path.read_text())
    except OSError as error:
        raise InvalidSetup(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise InvalidSetup(f"{path} is not valid JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(record, dict) or not {"game", "setup", "log"} <= record.keys():
        raise InvalidSetup(f"{path} is not a game record: it needs 'game', 'setup', 'seed' and 'log'")
    if record["game"] != "turfmaster":
        raise InvalidSetup(f"{path} records a {record['game']!r} game, not a TurfMaster meeting")
    return record


@app.command("play")
def play_command(
    players: int = typer.Option(4, "--players", help="players at the table, 2 to 8 (you are seat 0)"),
    horses: int = typer.Option(None, "--horses", help="horses per player (2 players: 2-4; 3: 2; 4: 1-2; 5-8: 1)"),
    course: str = typer.Option("oval", "--course", help="oval or triangle"),
    steeplechase: bool = typer.Option(False, "--steeplechase/--flat", help="fences (oval only)"),
    seed: str = typer.Option(None, "--seed", help="the meeting's seed (random if not given)"),
    bots: str = typer.Option("tactical", "--bots", help="bot of the other seats: tactical or random, or a "
                             "comma-separated list, one per seat after yours"),
    name: str = typer.Option("you", "--name", help="your name at the table"),
    save: Path = typer.Option(None, "--save", help="write the meeting's record (JSON) here at the end"),
    width: int = typer.Option(100, "--width", help="columns of the course map"),
) -> None:
    """Play a meeting of three races against bots in the terminal; choose by number."""
    from rich.console import Console

    from hippodrome.cli.turfmaster_view import describe_event, final_block, options_block, screen
    from hippodrome.core.errors import IllegalAction
    from hippodrome.table.table import Seat, Table
    from hippodrome.turfmaster.bots import make_bot

    console = Console()
    with refused_input_exits():
        setup = _meeting_setup(players, horses, course, steeplechase)
        names = [b.strip() for b in bots.split(",")]
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise InvalidSetup(f"--bots must name one bot, or {players - 1} (one per other seat)")
        try:
            bot_objects = [make_bot(n, f"{seed}:{i}") for i, n in enumerate(names, start=1)]
        except ValueError as error:
            raise InvalidSetup(str(error)) from None
        setup["names"] = [name] + [f"{n} bot {i}" for i, n in enumerate(names, start=1)]
        seats = [Seat(name)] + [Seat(setup["names"][i], bot) for i, bot in enumerate(bot_objects, start=1)]
        table = Table("turfmaster", setup, seats, seed=seed)
    seen = 0
    events: list[str] = []

    def catch_up() -> None:
        nonlocal seen
        state = table.state
        names_ = state.names
        if state.race is None:
            return
        history = state.race.history
        if len(history) < seen:
            seen = 0
        events.extend(describe_event(e, names_) for e in history[seen:])
        seen = len(history)

    race_no = 0
    while True:
        table.run_bots()
        state = table.state
        if state.race_no != race_no and state.phase == "race":
            race_no, seen = state.race_no, 0
            events.append(f"--- race {race_no}: stalls " + ", ".join(state.stalls))
        catch_up()
        if table.over:
            break
        view = state.view(0)
        console.print(screen(view, events, width))
        console.print(options_block(view))
        options = view["pending"]["options"]
        answer = console.input(f"your choice (1-{len(options)}, q to quit): ").strip().lower()
        if answer in ("q", "quit"):
            console.print("meeting abandoned")
            break
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            console.print(f"[red]'{answer}' is not a choice: type a number from 1 to {len(options)}[/red]")
            continue
        try:
            table.act(0, options[int(answer) - 1])
        except IllegalAction as error:  # pragma: no cover - numbered options are legal
            console.print(f"[red]{error}[/red]")
    if table.over:
        view = table.state.view(0)
        console.print(final_block(view))
    if save is not None:
        save.write_text(json.dumps(table.record(), indent=1))
        console.print(f"record saved to {save}")


@app.command("simulate")
def simulate_command(
    games: int = typer.Option(100, "--games", help="number of meetings"),
    bots: str = typer.Option("tactical,random", "--bots", help="one bot per seat, comma-separated"),
    horses: int = typer.Option(None, "--horses", help="horses per player (default: the fewest allowed)"),
    course: str = typer.Option("oval", "--course", help="oval or triangle"),
    steeplechase: bool = typer.Option(False, "--steeplechase/--flat"),
    seed: str = typer.Option("0", "--seed", help="game i is played with seed SEED:i"),
    workers: int = typer.Option(None, "--workers", help="processes (default: all cores)"),
) -> None:
    """Play bot meetings in parallel and print win rates with 95% Wilson intervals."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table as RichTable

    from hippodrome.turfmaster.bots import BOTS
    from hippodrome.turfmaster.simulate import simulate

    console = Console()
    with refused_input_exits():
        names = [b.strip() for b in bots.split(",")]
        unknown = [n for n in names if n not in BOTS]
        if unknown:
            raise InvalidSetup(f"unknown bot(s) {', '.join(unknown)}; bots: {', '.join(BOTS)}")
        setup = _meeting_setup(len(names), horses, course, steeplechase)
        if games < 1:
            raise InvalidSetup("--games must be at least 1")
    with Progress(TextColumn("meetings"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        task = progress.add_task("meetings", total=games)
        tally = simulate(setup, names, games, seed=seed, workers=workers,
                         on_result=lambda _: progress.advance(task))
    table = RichTable(title=f"{games} meetings: {len(names)} players x {setup['horses_per_player']} horses, "
                            f"{course}{' steeplechase' if steeplechase else ''}; bots rotate seats each game")
    for column in ("bot", "seat-games", "wins", "win rate", "95% CI (Wilson)", "fair share", "mean points"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    for row in tally.rows():
        low, high = row["ci95"]
        table.add_row(row["bot"], str(row["seat_games"]), str(row["wins"]), f"{row['win_rate']:.1%}",
                      f"{low:.1%} - {high:.1%}", f"{row['fair_share']:.1%}", f"{row['mean_points']:.1f}")
    console.print(table)
    if tally.ties:
        console.print(f"{tally.ties} meeting(s) ended with a shared first place (a win for each seat sharing it)")


@app.command("replay")
def replay_command(
    record_file: Path = typer.Argument(..., metavar="RECORD.json", help="a meeting record (see README)"),
    seat: int = typer.Option(None, "--seat", help="see the meeting as this seat (its hands); default: spectator"),
    step: bool = typer.Option(False, "--step", help="wait for Enter after every decision"),
    quiet: bool = typer.Option(False, "--final-only", help="print only the final table"),
    width: int = typer.Option(100, "--width", help="columns of the course map"),
) -> None:
    """Replay a recorded meeting decision by decision and print its final table."""
    from rich.console import Console

    from hippodrome.cli.turfmaster_view import describe_event, describe_option, final_block, screen
    from hippodrome.core.errors import IllegalAction
    from hippodrome.core.game import game_class
    import hippodrome.turfmaster.meeting  # noqa: F401

    console = Console()
    with refused_input_exits():
        record = _read_record(record_file)
        state = game_class("turfmaster").new(record["setup"])
        if seat is not None and not 0 <= seat < state.players:
            raise InvalidSetup(f"--seat must be from 0 to {state.players - 1}")
        events: list[str] = []
        seen, race_no = 0, 0
        for number, entry in enumerate(record["log"]):
            by, action = entry.get("by"), entry.get("action")
            if by != "chance" and isinstance(by, int) and 0 <= by < state.players:
                events.append(f"{state.names[by]}: {describe_option(action)}")
            try:
                state.apply(action)
            except IllegalAction as error:
                raise IllegalAction(f"log entry {number} cannot be replayed: {error}") from None
            if state.race is not None:
                if state.race_no != race_no:
                    race_no, seen = state.race_no, 0
                history = state.race.history
                events.extend(describe_event(e, state.names) for e in history[seen:])
                seen = len(history)
            if by == "chance" or quiet:
                continue
            console.print(screen(state.view(seat), events, width))
            console.rule(f"move {number + 1} of {len(record['log'])}")
            if step:
                console.input("Enter for the next move ")
        if not state.over:
            console.print(f"the record stops before the end of the meeting (race {state.race_no})")
        console.print(final_block(state.view(seat)))
