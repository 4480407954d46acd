"""``hippodrome readysetbet ...``: live odds, the race caller and bot measurements, in the
language of ``--lang`` (else HIPPODROME_LANG, LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from hippodrome.cli import arena
from hippodrome.cli.errors import refused_input_exits
from hippodrome.cli.records import RecordWriter, save_folder
from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import (
    Message, Money, N_, Percent, Plural, format_money, format_percent, help_text, lang_option, translate,
)
from hippodrome.i18n.vocabulary import READYSETBET_BETS

app = typer.Typer(no_args_is_help=True, help=help_text("Ready Set Bet: live odds, a race caller, bot simulations."))

MAX_SIMULATIONS = 10_000_000
MAX_GAMES = 100_000
MAX_PACE = 60


def _check_range(option: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise InvalidSetup(Message("{option} must be from {low} to {high}, not {value}",
                                   option=option, low=low, high=high, value=value))


@app.command("odds", help=help_text("Chances of each horse finishing 1st (win), top 2 (place) and top 3 (show)."))
def odds_command(
    positions: str = typer.Option(..., "--positions", help=help_text(
        'spaces of the horses, e.g. "2/3=0,4=3,...,11/12=0" (horses left out stand at 0)')),
    last_roll: int = typer.Option(None, "--last-roll", help=help_text(
        "the previous roll's dice sum (2-12): a repeat gets a bonus")),
    last_roll_was_bonus: bool = typer.Option(False, "--last-roll-was-bonus", help=help_text(
        "the previous roll was itself a bonus move, so a repeat now gets none")),
    simulations: int = typer.Option(20_000, "--simulations", help=help_text(
        "simulated finishes (standard error at most 0.5/sqrt(N/10000) percentage points)")),
    seed: int = typer.Option(None, "--seed", help=help_text("seed of the simulation (default: fresh)")),
    as_json: bool = typer.Option(False, "--json", help=help_text("print JSON")),
    values: bool = typer.Option(False, "--ev", help=help_text(
        'also the chance and expected value of every space for every token (2, 3, 4, 5): JSON key "spaces"')),
    props: list[str] = typer.Option([], "--prop", help=help_text(
        'a prop card in play, e.g. "8>5,9" (repeatable)')),
    exotics: list[str] = typer.Option([], "--exotic", help=help_text(
        "an exotic card in play, e.g. by-a-nose (repeatable)")),
    lang: str = lang_option(),
) -> None:
    from hippodrome.readysetbet.board import EXOTIC_CARDS, PROP_CARDS, race_spaces
    from hippodrome.readysetbet.dice_race import parse_race_state
    from hippodrome.readysetbet.odds import race_odds

    with refused_input_exits(lang):
        _check_range("--simulations", simulations, 1, MAX_SIMULATIONS)
        state = parse_race_state(positions, last_roll, last_roll_was_bonus)
        for card in props:
            if card not in PROP_CARDS:
                raise InvalidSetup(Message("unknown prop card {card}; cards look like 8>5,9 or 7>blues",
                                           card=repr(card)))
        for card in exotics:
            if card not in EXOTIC_CARDS:
                raise InvalidSetup(Message("unknown exotic card {card}; cards: {cards}",
                                           card=repr(card), cards=", ".join(EXOTIC_CARDS)))
    odds = race_odds(state, simulations, seed=seed)
    result = odds.to_json()
    if values:
        from hippodrome.readysetbet.settlement import player_tokens

        tokens = [t for t in player_tokens(4) if t["id"] != "3b"]
        spaces = race_spaces(list(props), list(exotics))
        result["spaces"] = {space: {"p": row["p"], "ev": {token: round(value, 4) for token, value in row["ev"].items()}}
                            for space, row in odds.space_values(spaces, tokens).items()}
    if as_json:
        print(json.dumps(result))
        return
    _print_odds(odds, lang)
    if values:
        _print_values(result["spaces"], {space.id: space for space in spaces}, lang)


def _print_odds(odds, lang: str) -> None:
    bets = [translate(lang, READYSETBET_BETS[bet]) for bet in ("win", "place", "show")]
    # NOTE: column heading of the odds table: the horse's number.
    heading = [translate(lang, N_("horse"))] + bets
    print(" ".join(f"{cell:>7}" for cell in heading) + "   " + Plural(
        # NOTE: after the odds table's headings; {error} is a percentage such as 0.35%.
        "({n} simulated finish, standard error at most {error})",
        "({n} simulated finishes, standard error at most {error})",
        odds.simulations, error=Percent(odds.max_standard_error(), decimals=2)).translate(lang))
    for horse, p in odds.horses.items():
        cells = [horse] + [format_percent(p[bet], lang, decimals=1) for bet in ("win", "place", "show")]
        print(" ".join(f"{cell:>7}" for cell in cells))


def _print_values(values: dict, spaces: dict, lang: str) -> None:
    """The table of every space (``values``: ``Odds.space_values``; ``spaces``: the board's Space by id)."""
    from hippodrome.readysetbet.words import space_on_board

    labels = {space: space_on_board(space, spaces[space].multiplier, spaces[space].penalty).translate(lang)
              for space in values}
    width = max(len(label) for label in labels.values())
    # NOTE: column heading of the table of every bet: a space of the betting board.
    space_heading = translate(lang, N_("space"))
    # NOTE: column heading of the table of every bet: the space's chance of winning.
    chance_heading = translate(lang, N_("chance"))
    # NOTE: the headings of the table of every bet: {space} and {chance} are the two headings above, then
    # what each betting token brings on average.
    chance_width = max(7, len(chance_heading))
    print(translate(lang, N_("{space} {chance}   expected winnings of tokens 2 / 3 / 4 / 5"),
                    space=space_heading.ljust(width), chance=chance_heading.rjust(chance_width)))
    for space, row in values.items():
        chance = format_percent(row["p"], lang, decimals=1)
        evs = " / ".join(format_money(round(v, 2), lang) for v in row["ev"].values())
        print(" ".join((labels[space].ljust(width), chance.rjust(chance_width), "", "", evs)))


@app.command("simulate", help=help_text("Play bot games and report each level's win rate and average final money."))
def simulate_command(
    bots: str = typer.Option("value,random,random,random", "--bots", help=help_text(
        "bot level per seat (random, value, board), comma-separated; seats rotate between games")),
    games: int = typer.Option(100, "--games", help=help_text("number of games")),
    variant: str = typer.Option("standard", "--variant", help=help_text(
        "standard, app, house_bets or rotating_house")),
    seed: int = typer.Option(0, "--seed", help=help_text("seed of the whole series")),
    as_json: bool = typer.Option(False, "--json", help=help_text(
        "print only JSON: games, and per level wins, win_rate, ci95 and mean_points (mean money)")),
    save: Path = typer.Option(None, "--save", metavar="DIR", help=help_text(
        "write each game's record (JSON) in this folder")),
    lang: str = lang_option(),
) -> None:
    from hippodrome.core.registry import game_class
    from hippodrome.arena.readysetbet import tournament
    from hippodrome.readysetbet.description import VARIANTS
    from hippodrome.table.bots import bot_levels
    from hippodrome.readysetbet.game import player_range

    with refused_input_exits(lang):
        levels = [b.strip() for b in bots.split(",") if b.strip()]
        known = bot_levels("readysetbet")
        unknown = [b for b in levels if b not in known]
        if unknown:
            raise InvalidSetup(Message("unknown bot level {level}; levels: {levels}",
                                       level=repr(unknown[0]), levels=", ".join(known)))
        _check_range("--games", games, 1, MAX_GAMES)
        house = 1 if variant == "house_bets" else 0   # a bot plays the House too
        players = len(levels) - house
        if variant in VARIANTS:
            low, high = player_range(variant)
            if not low <= players <= high:
                # NOTE: `readysetbet simulate --bots`: one bot level a seat (the House's seat too in House bets).
                raise InvalidSetup(Plural("--bots names {n} bot level, one a seat: name {low} to {high}",
                                          "--bots names {n} bot levels, one a seat: name {low} to {high}",
                                          len(levels), low=low + house, high=high + house))
        setup = {"players": players, "variant": variant}
        game_class("readysetbet").new(setup)  # refuses a bad setup before any game is played
        keep = None if save is None else RecordWriter(save_folder(save), "game", games)
        tally = tournament(setup, levels, games, seed, keep=keep)
    if as_json:
        print(json.dumps(tally.to_json(levels)))  # i18n: machine output (JSON), keys and ids stay English
        return
    result = {"games": tally.games, "levels": {
        level: {"seats": tally.seats[level], "win_rate_per_seat": round(tally.seat_win_rate(level), 4),
                "mean_money": round(tally.mean_money(level), 2)} for level in dict.fromkeys(levels)}}   # as --bots names them
    print(Message("{games}, {seats} ({variant}); a fair win share is {share} per seat",
                  games=Plural("{n} game", "{n} games", tally.games),
                  seats=Plural("{n} seat", "{n} seats", len(levels)),
                  variant=variant, share=Percent(1 / len(levels), decimals=1)).translate(lang))
    for level, row in result["levels"].items():
        # NOTE: one line per bot level of `readysetbet simulate`; {level} is a bot level's id (random, value).
        print(Message("{level}: wins {rate} per seat, average final money {money}", level=f"{level:>8}",
                      rate=Percent(row["win_rate_per_seat"], decimals=1), money=Money(row["mean_money"]))
              .translate(lang))


@app.command("call", help=help_text(
    "Run and call a race for people playing with the box: space or p pauses and resumes, q quits."))
def call_command(
    pace: float = typer.Option(1.5, "--pace", help=help_text("seconds between rolls (the app's roll speed)")),
    seed: int = typer.Option(None, "--seed", help=help_text("seed of the dice (default: fresh)")),
    plain: bool = typer.Option(False, "--plain", "--no-interactive", help=help_text(
        "print the calls line by line, without the live track or the keyboard (for scripts and tests)")),
    voice: bool = typer.Option(False, "--voice", help=help_text(
        "also speak the calls aloud with espeak-ng, in the language of the calls")),
    lang: str = lang_option(),
) -> None:
    from hippodrome.cli.race_caller import CallSession, run_live, run_plain, speaker

    with refused_input_exits(lang):
        _check_range("--pace", pace, 0, MAX_PACE)
        speak = speaker(lang) if voice else None
        if voice and speak is None:
            raise InvalidSetup(Message("--voice needs the espeak-ng program (apt-get install espeak-ng)"))
    session = CallSession(pace, lang, seed)
    if plain:
        run_plain(session, speak=speak)
    else:
        run_live(session, speak=speak)


@app.command("arena", help=help_text("Rate your policy on the bots' Elo ladder: it plays two-player games against "
                                     "every bot level, and its rating is printed with a 95% interval."))
def arena_command(
    agent: str = arena.agent_option(),
    games: int = arena.games_option(),
    levels: str = arena.levels_option(["random", "value", "board"]),
    workers: int = arena.workers_option(),
    lang: str = lang_option(),
) -> None:
    from hippodrome.table.bots import bot_levels

    arena.run_arena("readysetbet", agent, levels, list(bot_levels("readysetbet")), games, None, workers, lang)


@app.command("review", help=help_text("Review a finished game: each bet's expected money against the best bet "
                                      "open at that moment, marked good, inaccuracy, mistake or blunder."))
def review_command(
    record_file: Path = typer.Argument(..., metavar="RECORD.json", help=help_text("a game's record (simulate --save)")),
    as_json: bool = typer.Option(False, "--json", help=help_text(
        "print only JSON: players (seat, name, accuracy, points_lost: dollars lost per race) and decisions "
        "(seat, step, chosen, best, loss, stderr, mark)")),
    lang: str = lang_option(),
) -> None:
    from hippodrome.cli.review_report import run_review
    from hippodrome.readysetbet.words import bet_words

    run_review("readysetbet", record_file, lang, as_json,
               lambda names: lambda action: bet_words(action).translate(lang),
               lambda value: format_money(round(value, 2), lang),
               # NOTE: the title of a Ready Set Bet game's review.
               translate(lang, "Review of the game"),
               # NOTE: a column of a Ready Set Bet game's review: expected dollars lost, per race.
               translate(lang, "money lost per race"))
