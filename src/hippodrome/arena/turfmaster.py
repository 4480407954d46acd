"""Bot-against-bot meetings, in parallel, with Wilson confidence intervals.

Game ``i`` of a run uses seed ``f"{seed}:{i}"`` and rotates the bots round the table by ``i``
seats, so over many games every bot sits in every seat (and stall draw) equally often.
A bot *wins* a meeting when its seat is ranked first in the final table (T9); a first place
shared after the tie-break counts as a win for each seat sharing it, and is also counted as a tie.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from hippodrome.arena.summary import levels_won, summary_json, wilson
from hippodrome.table.table import Player, Table
from hippodrome.table.bots import make_bot
import hippodrome.turfmaster.meeting  # noqa: F401  (registers the game)


def seat_bots(bots: list[str], game: int) -> list[str]:
    """The bot of each seat in game ``game`` (the list rotated by ``game`` seats)."""
    shift = game % len(bots)
    return bots[shift:] + bots[:shift]


def play_meeting(setup: dict[str, Any], bots: list[str], seed: int | str, think: float | None = None) -> dict[str, Any]:
    """One meeting of bots through the table layer; returns the bots per seat and the final table.
    ``think``: the search bot's seconds per decision."""
    seats = [Player(f"{name} {number}", make_bot("turfmaster", name, f"{seed}:{number}", think)) for number, name in enumerate(bots)]
    table = Table("turfmaster", setup, seats, seed=seed)
    table.run_bots()
    if not table.over:  # pragma: no cover - every decision is a bot's
        raise RuntimeError("a bot meeting stopped before its end")  # i18n: programming error
    return {"bots": bots, "table": table.state.standings(), "record": table.record()}


def _one(args: tuple[dict[str, Any], list[str], str, int, float | None, Callable[[int, dict], None] | None]) -> dict[str, Any]:
    setup, bots, seed, game, think, keep = args
    seated = seat_bots(bots, game)
    result = play_meeting(setup, seated, f"{seed}:{game}", think)
    if keep is not None:   # in the worker: a record is not sent back
        keep(game, result["record"])
    winners = [row["seat"] for row in result["table"] if row["rank"] == 1]
    return {"bots": seated, "winners": winners,
            "totals": {row["seat"]: row["total"] for row in result["table"]}}


@dataclass
class Tally:
    bots: list[str]
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)  # seat-games per bot kind
    points: dict[str, int] = field(default_factory=dict)
    ties: int = 0
    game_wins: dict[str, int] = field(default_factory=dict)  # games a seat of the bot kind won

    def add(self, outcome: dict[str, Any]) -> None:
        self.games += 1
        if len(outcome["winners"]) > 1:
            self.ties += 1
        for seat, name in enumerate(outcome["bots"]):
            self.seats[name] = self.seats.get(name, 0) + 1
            self.points[name] = self.points.get(name, 0) + outcome["totals"][seat]
            if seat in outcome["winners"]:
                self.wins[name] = self.wins.get(name, 0) + 1
        for name in levels_won(outcome["bots"], outcome["winners"]):
            self.game_wins[name] = self.game_wins.get(name, 0) + 1

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for name in dict.fromkeys(self.bots):
            trials = self.seats.get(name, 0)
            wins = self.wins.get(name, 0)
            low, high = wilson(wins, trials)
            rows.append({"bot": name, "seat_games": trials, "wins": wins,
                         "win_rate": wins / trials if trials else 0.0, "ci95": (low, high),
                         "mean_points": self.points.get(name, 0) / trials if trials else 0.0,
                         "fair_share": 1 / len(self.bots)})
        return rows

    def to_json(self) -> dict[str, Any]:
        """What ``simulate --json`` prints (hippodrome.arena.summary)."""
        return summary_json(self.games, self.bots, self.game_wins, self.points, self.seats)


def simulate(setup: dict[str, Any], bots: list[str], games: int, seed: str | int = 0, workers: int | None = None,
             on_result: Callable[[dict[str, Any]], None] | None = None, think: float | None = None,
             keep: Callable[[int, dict[str, Any]], None] | None = None) -> Tally:
    """Play ``games`` meetings of ``bots`` (one per seat) on ``workers`` processes (default: all cores);
    ``think``: the search bot's seconds per decision; ``keep(game, record)``, called in the process
    that played meeting ``game`` (from 0), keeps its record (a picklable function: ``simulate --save``)."""
    tally = Tally(list(bots))
    jobs = [(setup, list(bots), str(seed), game, think, keep) for game in range(games)]
    for outcome in _run(jobs, workers):
        tally.add(outcome)
        if on_result:
            on_result(outcome)
    return tally


def _run(jobs, workers) -> Iterator[dict[str, Any]]:
    if workers == 1:
        yield from map(_one, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_one, jobs, chunksize=max(1, min(20, len(jobs) // 40 or 1)))
