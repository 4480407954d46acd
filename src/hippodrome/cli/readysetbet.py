"""``hippodrome readysetbet ...``: live odds, the race caller and bot measurements."""

from __future__ import annotations

import json

import typer

from hippodrome.cli.errors import refused_input_exits
from hippodrome.core.errors import InvalidSetup

app = typer.Typer(no_args_is_help=True, help="Ready Set Bet: live odds, a race caller, bot simulations.")


@app.command("odds")
def odds_command(
    positions: str = typer.Option(..., "--positions", help='spaces of the horses, e.g. "2/3=0,4=3,...,11/12=0" '
                                  "(horses left out stand at 0)"),
    last_roll: int = typer.Option(None, "--last-roll", help="the previous roll's dice sum (2-12): a repeat gets a "
                                  "bonus (R1)"),
    last_roll_was_bonus: bool = typer.Option(False, "--last-roll-was-bonus", help="the previous roll was itself a "
                                             "bonus move, so a repeat now gets none"),
    simulations: int = typer.Option(20_000, "--simulations", help="simulated finishes (standard error at most "
                                    "0.5/sqrt(N/10000) percentage points)"),
    seed: int = typer.Option(None, "--seed", help="seed of the simulation (default: fresh)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
    values: bool = typer.Option(False, "--ev", help="also the chance and expected value of every space for "
                                "every token (2, 3, 4, 5): JSON key \"spaces\""),
    props: list[str] = typer.Option([], "--prop", help="a prop card in play, e.g. \"8>5,9\" (repeatable)"),
    exotics: list[str] = typer.Option([], "--exotic", help="an exotic card in play, e.g. by-a-nose (repeatable)"),
) -> None:
    """Chances of each horse finishing 1st (win), top 2 (place) and top 3 (show)."""
    from hippodrome.readysetbet.dice_race import parse_race_state
    from hippodrome.readysetbet.odds import race_odds

    with refused_input_exits():
        if not 1 <= simulations <= 10_000_000:
            raise InvalidSetup(f"--simulations must be from 1 to 10000000, not {simulations}")
        state = parse_race_state(positions, last_roll, last_roll_was_bonus)
        from hippodrome.readysetbet.board import EXOTIC_CARDS, PROP_CARDS, race_spaces

        for card in props:
            if card not in PROP_CARDS:
                raise InvalidSetup(f"unknown prop card {card!r}; cards look like 8>5,9 or 7>blues")
        for card in exotics:
            if card not in EXOTIC_CARDS:
                raise InvalidSetup(f"unknown exotic card {card!r}; cards: {', '.join(EXOTIC_CARDS)}")
    odds = race_odds(state, simulations, seed=seed)
    result = odds.to_json()
    if values:
        from hippodrome.readysetbet.settlement import player_tokens

        tokens = [t for t in player_tokens(4) if t["id"] != "3b"]
        result["spaces"] = odds.space_values(race_spaces(list(props), list(exotics)), tokens)
    if as_json:
        print(json.dumps(result))
        return
    print(f"{'horse':>6} {'win':>7} {'place':>7} {'show':>7}   ({odds.simulations} simulations, "
          f"standard error <= {100 * odds.max_standard_error():.2f} points)")
    for horse, p in odds.horses.items():
        print(f"{horse:>6} {100 * p['win']:6.1f}% {100 * p['place']:6.1f}% {100 * p['show']:6.1f}%")
    if values:
        print(f"{'space':>22} {'chance':>7}   expected $ for token 2 / 3 / 4 / 5")
        for space, row in result["spaces"].items():
            evs = " / ".join(f"{v:+.2f}" for v in row["ev"].values())
            print(f"{space:>22} {100 * row['p']:6.1f}%   {evs}")


@app.command("simulate")
def simulate_command(
    bots: str = typer.Option("value,random,random,random", "--bots", help="bot level per seat (random, value), "
                             "comma-separated; seats rotate between games"),
    games: int = typer.Option(100, "--games", help="number of games"),
    variant: str = typer.Option("standard", "--variant", help="standard, app, house_bets or rotating_house"),
    seed: int = typer.Option(0, "--seed", help="seed of the whole series"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Play bot games and report each level's win rate and average final money."""
    from hippodrome.readysetbet.arena import tournament
    from hippodrome.readysetbet.bots import BOTS

    with refused_input_exits():
        levels = [b.strip() for b in bots.split(",") if b.strip()]
        unknown = [b for b in levels if b not in BOTS]
        if unknown:
            raise InvalidSetup(f"unknown bot level {unknown[0]!r}; levels: {', '.join(BOTS)}")
        if not 1 <= games <= 100_000:
            raise InvalidSetup(f"--games must be from 1 to 100000, not {games}")
        players = len(levels) - 1 if variant == "house_bets" else len(levels)
        setup = {"players": players, "variant": variant}
        from hippodrome.core.game import game_class
        game_class("readysetbet").new(setup)  # refuses a bad setup before any game is played
        tally = tournament(setup, levels, games, seed)
    result = {"games": tally.games, "levels": {
        level: {"seats": tally.seats[level], "win_rate_per_seat": round(tally.seat_win_rate(level), 4),
                "mean_money": round(tally.mean_money(level), 2)} for level in sorted(set(levels))}}
    if as_json:
        print(json.dumps(result))
        return
    print(f"{tally.games} games, {len(levels)} seats ({variant}); a fair win share is {1 / len(levels):.1%} per seat")
    for level, row in result["levels"].items():
        print(f"{level:>8}: wins {row['win_rate_per_seat']:.1%} per seat, average final money ${row['mean_money']}")


@app.command("call")
def call_command(
    pace: float = typer.Option(1.5, "--pace", help="seconds between rolls (the app's roll speed)"),
    lang: str = typer.Option("es", "--lang", help="language of the calls: es or en"),
    seed: int = typer.Option(None, "--seed", help="seed of the dice (default: fresh)"),
    plain: bool = typer.Option(False, "--plain", "--no-interactive", help="print the calls line by line, "
                               "without the live track or the keyboard (for scripts and tests)"),
) -> None:
    """Run and call a race for people playing with the box: space or p pauses and resumes, q quits."""
    from hippodrome.readysetbet.call_session import CallSession, run_live, run_plain
    from hippodrome.readysetbet.caller import LANGUAGES

    with refused_input_exits():
        if lang not in LANGUAGES:
            raise InvalidSetup(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
        if not 0 <= pace <= 60:
            raise InvalidSetup(f"--pace must be from 0 to 60 seconds per roll, not {pace}")
    session = CallSession(pace, lang, seed)
    if plain:
        run_plain(session)
    else:
        run_live(session)
