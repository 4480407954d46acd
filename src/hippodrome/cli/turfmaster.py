"""``hippodrome turfmaster ...``"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from hippodrome.cli.errors import refused_input_exits
from hippodrome.core.errors import InvalidSetup
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
) -> None:
    """Print the legal end squares of a move (rulings T3, T4, T5, T11) as JSON."""
    with refused_input_exits():
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
