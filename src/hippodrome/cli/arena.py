"""``hippodrome turfmaster arena`` and ``hippodrome readysetbet arena``: a learner's policy
(``--agent module:callable``) against every bot level, rated on the bots' Elo ladder
(:mod:`hippodrome.arena.agent`), in the language of ``--lang``."""

from __future__ import annotations

from typing import Any

import typer

from hippodrome.cli.errors import refused_input_exits
from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import Message, N_, Plural, format_number, help_text, translate

#: the help texts both games' commands share
AGENT_HELP = N_("your policy, as module:callable: a function (observation, action_mask) -> action id "
                "(docs/research.md)")
GAMES_HELP = N_("games against each bot level, and between each two levels")
LEVELS_HELP = N_("the bot levels it plays, comma-separated (random, the ladder's anchor, among them)")
WORKERS_HELP = N_("processes for the bots' own games (the agent plays in this one)")
MAX_GAMES = 10_000


def agent_option() -> Any:
    return typer.Option(..., "--agent", help=help_text(AGENT_HELP))


def games_option() -> Any:
    return typer.Option(20, "--games", help=help_text(GAMES_HELP))


def levels_option(levels: list[str]) -> Any:
    return typer.Option(",".join(levels), "--levels", help=help_text(LEVELS_HELP))


def workers_option() -> Any:
    return typer.Option(1, "--workers", min=1, help=help_text(WORKERS_HELP))


def run_arena(game: str, spec: str, levels: str, known: list[str], games: int, think: float | None, workers: int,
              lang: str) -> None:
    """Rate ``spec`` against the ``levels`` (comma-separated, among ``known``) and print the table."""
    from hippodrome.arena.agent import AGENT, load_agent, rate_agent

    with refused_input_exits(lang):
        names = [name.strip() for name in levels.split(",") if name.strip()]
        unknown = [name for name in names if name not in known]
        if unknown:
            raise InvalidSetup(Message("unknown bot level {level}; levels: {levels}", level=repr(unknown[0]),
                                       levels=", ".join(known)))
        if not 1 <= games <= MAX_GAMES:
            raise InvalidSetup(Message("--games must be from {low} to {high}, not {value}", low=1, high=MAX_GAMES,
                                       value=games))
        agent = load_agent(spec)
        ratings, results = rate_agent(agent, game, list(dict.fromkeys(names)), games, think, workers)
    # NOTE: `arena`'s title: {agent} is what --agent named (module:callable); {games} is "20 games".
    print(translate(lang, "{agent}: {games} against each bot level, seats alternating, and as many between each "
                          "two levels; one Elo fit of them all, random = 1000 (the ladder of bench/elo.py)",
                    agent=spec, games=Plural("{n} game", "{n} games", games)))
    headers = [translate(lang, name) for name in (N_("player"), N_("Elo"), N_("95% interval"), N_("games"))]
    rows = []
    for rating in ratings:
        low, high = rating.ci95
        interval = (translate(lang, "(anchor)") if rating.se == 0
                    else f"{format_number(round(low), lang)} - {format_number(round(high), lang)}")
        rows.append([spec if rating.level == AGENT else rating.level, format_number(round(rating.elo), lang), interval,
                     format_number(rating.games, lang)])
    widths = [max(len(row[column]) for row in rows + [headers]) for column in range(4)]
    for row in [headers] + rows:
        print("  ".join([row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]))  # i18n: cells translated above
    for level in results.levels[:-1]:
        # NOTE: one line per bot level: the agent's score against it (a win 1, a shared win 1/2).
        print(translate(lang, "against {level}: {score} of {games}", level=level,
                        score=format_number(results.score[(AGENT, level)], lang),
                        games=Plural("{n} game", "{n} games", results.games[(AGENT, level)])))
