"""An Elo ladder of bot levels from head-to-head games: Bradley-Terry ratings fitted by maximum
likelihood, on the Elo scale, anchored at a chosen level (``random`` = 1000).

Each pair of levels of a game plays ``games`` two-player games (seats alternating, seeds
``elo:<game>:<a>-<b>:<k>``): a win counts 1, a shared win 1/2 each (a draw). The Bradley-Terry
model says level i beats level j with chance ``s_i / (s_i + s_j)``; the strengths are fitted by
the minorisation-maximisation iteration of Hunter (2004), which converges to the maximum of the
likelihood, and shown as Elo ratings ``1000 + 400 log10(s_i / s_anchor)``, so a 400-point gap
means winning 10 games in 11 and a win rate w between two levels means a gap of
``400 log10(w / (1 - w))``. Each pair of levels that met gets a tenth of a virtual draw, so a
level that won every game keeps a finite rating; with tens of games this moves ratings by a few
points at most. Standard errors come from the inverse of the fitted likelihood's information
matrix (the anchor held fixed).
"""

from __future__ import annotations

import math
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import combinations, zip_longest
from typing import Any, Callable, Iterable

import numpy as np

ELO_SCALE = 400 / math.log(10)
ANCHOR_RATING = 1000.0
#: virtual draws added between two levels that met (keeps a clean sweep finite)
PRIOR_DRAWS = 0.1
#: the ladder's games: two-player TurfMaster meetings, 2 horses each on the flat oval; two-player
#: games of Ready Set Bet as the game's own (four races)
LADDER_SETUPS: dict[str, dict[str, Any]] = {
    "turfmaster": {"players": 2, "horses_per_player": 2, "course": "oval", "steeplechase": False},
    "readysetbet": {"players": 2},
}


@dataclass
class PairResults:
    """Scores between levels: ``score[(a, b)]`` is a's points against b over ``games[(a, b)]`` games."""

    levels: list[str]
    score: dict[tuple[str, str], float] = field(default_factory=dict)
    games: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, a: str, b: str, a_points: float) -> None:
        """One game between a and b in which a scored ``a_points`` (1 win, 1/2 draw, 0 loss)."""
        for key, points in (((a, b), a_points), ((b, a), 1 - a_points)):
            self.score[key] = self.score.get(key, 0.0) + points
            self.games[key] = self.games.get(key, 0) + 1

    def total_games(self) -> int:
        return sum(self.games.values()) // 2


@dataclass
class Rating:
    level: str
    elo: float
    se: float  # standard error (0 for the anchor)
    games: int

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.elo - 1.96 * self.se, self.elo + 1.96 * self.se)


def fit_bradley_terry(results: PairResults, anchor: str, iterations: int = 10_000,
                      tolerance: float = 1e-10) -> list[Rating]:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale, ``anchor`` at 1000, best first."""
    levels = results.levels
    if anchor not in levels:
        raise ValueError(f"the anchor {anchor!r} is not one of the levels {levels}")  # i18n: programming error
    n = len(levels)
    wins = np.zeros((n, n))
    played = np.zeros((n, n))
    for i, a in enumerate(levels):
        for j, b in enumerate(levels):
            if i != j and results.games.get((a, b)):
                wins[i, j] = results.score[(a, b)] + PRIOR_DRAWS / 2
                played[i, j] = results.games[(a, b)] + PRIOR_DRAWS
    strength = np.ones(n)
    total_wins = wins.sum(axis=1)
    for _ in range(iterations):
        denominator = (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total_wins / np.maximum(denominator, 1e-300), strength)
        new /= new[levels.index(anchor)]
        if np.max(np.abs(np.log(new) - np.log(strength))) < tolerance:
            strength = new
            break
        strength = new
    log_s = np.log(strength)
    ses = _standard_errors(log_s, played, levels.index(anchor))
    ratings = [Rating(level, ANCHOR_RATING + ELO_SCALE * log_s[i], ELO_SCALE * ses[i],
                      int(sum(results.games.get((level, other), 0) for other in levels)))
               for i, level in enumerate(levels)]
    return sorted(ratings, key=lambda r: -r.elo)


def _standard_errors(log_s: np.ndarray, played: np.ndarray, anchor: int) -> np.ndarray:
    """Standard errors of the log-strengths from the information matrix, the anchor fixed at 0."""
    n = len(log_s)
    q = 1 / (1 + np.exp(log_s[None, :] - log_s[:, None]))  # chance that i beats j
    weight = played * q * (1 - q)
    information = np.diag(weight.sum(axis=1)) - weight
    keep = [i for i in range(n) if i != anchor]
    ses = np.zeros(n)
    try:
        covariance = np.linalg.inv(information[np.ix_(keep, keep)])
        ses[keep] = np.sqrt(np.maximum(np.diag(covariance), 0))
    except np.linalg.LinAlgError:  # levels not connected by games
        ses[keep] = float("inf")
    return ses


def expected_gap(win_rate: float) -> float:
    """The Elo gap that makes a level win with this rate against another."""
    return ELO_SCALE * math.log(win_rate / (1 - win_rate))


# -- playing the games -----------------------------------------------------------------

def schedule(game: str, levels: Iterable[str], games: int) -> list[tuple[str, str, str, int]]:
    """(game, a, b, k) for ``games`` games of each pair of levels, the pairs interleaved so that a
    run cut short by its time limit still has games of every pair."""
    pairs = list(combinations(levels, 2))
    return [(game, a, b, k) for k in range(games) for a, b in pairs]


def play_pair_game(job: tuple[str, str, str, int], think: float) -> tuple[str, str, str, float]:
    """One two-player game of ``job``; seats alternate with ``k``. Returns (game, a, b, a's points)."""
    game, a, b, k = job
    seated = [a, b] if k % 2 == 0 else [b, a]
    seed = f"elo:{game}:{a}-{b}:{k}"
    winners = PLAYERS[game](seated, seed, think)
    mine = seated.index(a)
    points = (1.0 / len(winners)) if mine in winners else 0.0
    return game, a, b, points


def _turfmaster_winners(seated: list[str], seed: str, think: float) -> list[int]:
    from hippodrome.arena.turfmaster import play_meeting

    result = play_meeting(dict(LADDER_SETUPS["turfmaster"]), seated, seed, think)
    return [row["seat"] for row in result["table"] if row["rank"] == 1]


def _readysetbet_winners(seated: list[str], seed: str, think: float) -> list[int]:
    from hippodrome.arena.readysetbet import play_bot_game

    table = play_bot_game(dict(LADDER_SETUPS["readysetbet"]), seated, seed)
    return table.state.winners()


PLAYERS: dict[str, Callable[[list[str], str, float], list[int]]] = {
    "turfmaster": _turfmaster_winners,
    "readysetbet": _readysetbet_winners,
}


def run_games(jobs: list[Any], think: float, workers: int, seconds: float | None, on_result: Callable[[Any], None],
              play: Callable[[Any, float], Any] | None = None) -> int:
    """Play ``jobs`` (by default pair games, :func:`play_pair_game`; ``play(job, think)``, a
    module-level function) on ``workers`` processes until done or ``seconds`` have passed (games
    still running then are dropped); ``on_result`` gets each finished game. Returns the games played."""
    play = play or play_pair_game
    deadline = None if seconds is None else time.monotonic() + seconds
    done = 0
    if workers <= 1:
        for job in jobs:
            if deadline is not None and time.monotonic() > deadline:
                break
            on_result(play(job, think))
            done += 1
        return done
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        pending = {pool.submit(play, job, think) for job in jobs}
        while pending:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            finished, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            for future in finished:
                on_result(future.result())
                done += 1
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return done


def ladder(levels_by_game: dict[str, list[str]], games: dict[str, int], think: float, workers: int,
           seconds: float | None, anchor: str = "random") -> dict[str, Any]:
    """Play the pairwise games of every game's levels and fit each game's ladder."""
    results = {game: PairResults(list(levels)) for game, levels in levels_by_game.items()}
    schedules = [schedule(game, levels, games[game]) for game, levels in levels_by_game.items()]
    # the games' jobs interleaved, so that a run cut short by its time limit has games of each
    jobs = [job for round_ in zip_longest(*schedules) for job in round_ if job is not None]

    def record(outcome: tuple[str, str, str, float]) -> None:
        game, a, b, points = outcome
        results[game].add(a, b, points)

    run_games(jobs, think, workers, seconds, record)
    return {game: {"ratings": fit_bradley_terry(result, anchor), "results": result}
            for game, result in results.items()}
