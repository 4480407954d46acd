"""A finished game's review: where each player won and lost points (issue 36), the part every game
shares.

A game reviews itself: its description names a review function (``GameDescription.review``,
``"module:function"``, as bot levels name their classes) that takes a finished game's record (the
``{"game", "setup", "seed", "log"}`` that ``Match.record()`` writes) and values, for each decision a
seat took, every option open to it then, from that seat's information only. This module holds what
is common to every game's review:

* :class:`Scale`: the unit of the values (TurfMaster's race points, Ready Set Bet's dollars) and the
  thresholds of the marks. A decision's *loss* is the value of the best option less the value of
  the option chosen (0 when the choice was the best). Its mark is :data:`GOOD` while the loss is
  below the scale's ``inaccuracy`` or within ``sigmas`` standard errors of nothing (the measure
  cannot tell it from noise), else :data:`INACCURACY`, :data:`MISTAKE` from ``mistake`` and
  :data:`BLUNDER` from ``blunder``;
* :class:`ReviewedDecision`: one decision judged (who, when: ``step``, the index of the decision's
  entry in the record's log, the kind, the choice made and the best one with their values, the
  loss with its standard error, the mark);
* :func:`summarize`: per player, the points lost per race (the losses of its decisions marked worse
  than good, over the game's races) and the accuracy, ``100 * (1 - sum(lost) / sum(best - worst))``
  over the player's decisions: the share of what was at stake in its decisions that it kept (100
  when nothing was);
* :func:`review_json` (the whole review, plain JSON-able data) and :func:`command_json` (what
  ``review --json`` prints);
* :func:`finished_game`: a record checked and replayed, refused in words when it is not a finished
  game of the game asked for.

A review is a pure function of the record, a budget and a seed: it runs in any process (a bot
worker) and reports its progress decision by decision (``progress(done, total)``), so a server can
stream it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from hippodrome.core.errors import HippodromeError, IllegalAction, InvalidSetup
from hippodrome.core.game import Action
from hippodrome.core.match import apply_numbered, initial_state
from hippodrome.i18n import Message

GOOD, INACCURACY, MISTAKE, BLUNDER = "good", "inaccuracy", "mistake", "blunder"
#: the marks, from the best to the worst
MARKS = (GOOD, INACCURACY, MISTAKE, BLUNDER)

#: ``progress(done, total)``: decisions reviewed so far, of how many
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Scale:
    """A game's unit of value and the losses that make each mark (see the module docstring)."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float
    #: a loss within this many standard errors of 0 is not told from noise: good
    sigmas: float = 2.0

    def mark(self, loss: float, error: float) -> str:
        if loss < self.inaccuracy or loss <= self.sigmas * error:
            return GOOD
        if loss < self.mistake:
            return INACCURACY
        if loss < self.blunder:
            return MISTAKE
        return BLUNDER

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder, "sigmas": self.sigmas}


@dataclass(frozen=True)
class Valued:
    """One option and its value (a mean) with the value's standard error."""

    action: Action
    value: float
    error: float = 0.0


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision judged: see the module docstring. ``race`` is the race it belongs to (from 1)."""

    seat: int
    step: int
    race: int
    kind: str
    chosen: Valued
    best: Valued
    worst: float
    loss: float
    stderr: float
    mark: str
    options: int

    @property
    def at_stake(self) -> float:
        return self.best.value - self.worst

    @property
    def counted_loss(self) -> float:
        """The loss a player's figures count: none for a good decision (below the first threshold,
        or not told from noise: the best of several noisy values is too high by a little, and a
        meeting's hundreds of decisions would add that little up)."""
        return 0.0 if self.mark == GOOD else self.loss

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "race": self.race, "kind": self.kind,
                "chosen": {"action": self.chosen.action, "value": _rounded(self.chosen.value)},
                "best": {"action": self.best.action, "value": _rounded(self.best.value)},
                "loss": _rounded(self.loss), "stderr": _rounded(self.stderr), "mark": self.mark,
                "options": self.options}


def _rounded(value: float) -> float:
    return round(float(value), 3)


def judge(scale: Scale, seat: int, step: int, race: int, kind: str, values: Sequence[Valued], chosen: int,
          loss_error: Callable[[int, int], float]) -> ReviewedDecision:
    """The decision whose options are ``values``, of which the seat chose the ``chosen``-th.
    ``loss_error(best, chosen)`` is the standard error of the difference of two options' values (a
    game that values every option on the same draws knows it better than the two errors alone)."""
    best = max(range(len(values)), key=lambda index: (values[index].value, index == chosen))
    loss = max(0.0, values[best].value - values[chosen].value)
    error = 0.0 if best == chosen else loss_error(best, chosen)
    return ReviewedDecision(seat=seat, step=step, race=race, kind=kind, chosen=values[chosen], best=values[best],
                            worst=min(v.value for v in values), loss=loss, stderr=error,
                            mark=scale.mark(loss, error), options=len(values))


def mean_and_error(samples: Sequence[float]) -> tuple[float, float]:
    """The mean of ``samples`` and its standard error."""
    count = len(samples)
    mean = sum(samples) / count
    variance = sum((x - mean) ** 2 for x in samples) / max(count - 1, 1)
    return mean, math.sqrt(variance / count)


def paired_error(first: Sequence[float], second: Sequence[float]) -> float:
    """The standard error of ``mean(first) - mean(second)`` for samples drawn in pairs (the same
    draw for both: their common noise cancels)."""
    return mean_and_error([a - b for a, b in zip(first, second)])[1]


@dataclass
class PlayerSummary:
    seat: int
    name: str
    races: int
    lost: dict[int, float] = field(default_factory=dict)
    taken: dict[int, float] = field(default_factory=dict)
    offered: dict[int, float] = field(default_factory=dict)
    at_stake: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))

    def add(self, decision: ReviewedDecision) -> None:
        race = decision.race
        self.lost[race] = self.lost.get(race, 0.0) + decision.counted_loss
        self.taken[race] = self.taken.get(race, 0.0) + decision.chosen.value
        self.offered[race] = self.offered.get(race, 0.0) + decision.best.value
        self.at_stake += decision.at_stake
        self.marks[decision.mark] += 1

    @property
    def total_lost(self) -> float:
        return sum(self.lost.values())

    @property
    def accuracy(self) -> float:
        if self.at_stake <= 0:
            return 100.0
        return max(0.0, 100.0 * (1.0 - self.total_lost / self.at_stake))

    @property
    def points_lost(self) -> float:
        """Lost per race of the game."""
        return self.total_lost / max(self.races, 1)

    def to_json(self, with_sums: bool) -> dict[str, Any]:
        races = []
        for race in range(1, self.races + 1):
            entry: dict[str, Any] = {"race": race, "lost": _rounded(self.lost.get(race, 0.0))}
            if with_sums:
                entry["taken"] = _rounded(self.taken.get(race, 0.0))
                entry["offered"] = _rounded(self.offered.get(race, 0.0))
            races.append(entry)
        return {"seat": self.seat, "name": self.name, "accuracy": round(self.accuracy, 1),
                "points_lost": _rounded(self.points_lost), "races": races, "marks": dict(self.marks)}


def summarize(decisions: Iterable[ReviewedDecision], names: Sequence[str], races: int) -> list[PlayerSummary]:
    """Per seat: losses and values by race, what was at stake, the marks (see the module docstring)."""
    players = [PlayerSummary(seat, name, races) for seat, name in enumerate(names)]
    for decision in decisions:
        players[decision.seat].add(decision)
    return players


def review_json(game: str, scale: Scale, decisions: Sequence[ReviewedDecision], names: Sequence[str],
                races: int, sums: bool = False, **extra: Any) -> dict[str, Any]:
    """The whole review as plain data: the game, the scale (unit and thresholds), the players'
    summaries (with each race's expected money taken and on offer when ``sums``: values that add up,
    such as Ready Set Bet's dollars) and every decision judged, in the log's order."""
    players = summarize(decisions, names, races)
    return {"game": game, "scale": scale.to_json(), "races": races, **extra,
            "players": [player.to_json(sums) for player in players],
            "decisions": [decision.to_json() for decision in decisions]}


#: what ``review --json`` prints of each player and each decision
COMMAND_PLAYER_KEYS = ("seat", "name", "accuracy", "points_lost")
COMMAND_DECISION_KEYS = ("seat", "step", "chosen", "best", "loss", "stderr", "mark")


def command_json(review: dict[str, Any]) -> dict[str, Any]:
    """The command line's ``--json``: the players and the decisions with the keys it promises."""
    return {"players": [{key: player[key] for key in COMMAND_PLAYER_KEYS} for player in review["players"]],
            "decisions": [{key: decision[key] for key in COMMAND_DECISION_KEYS} for decision in review["decisions"]]}


def record_names(record: dict[str, Any], seats: int) -> list[str]:
    """The seats' names of a record: its setup's, else "Player 1", "Player 2"... (data: a front end
    that shows them names the seats in its language where the setup named none)."""
    names = record["setup"].get("names") if isinstance(record.get("setup"), dict) else None
    if isinstance(names, list) and len(names) == seats and all(isinstance(name, str) and name for name in names):
        return list(names)
    return [f"Player {seat + 1}" for seat in range(seats)]  # i18n: data (the JSON's default names)


class InvalidRecord(InvalidSetup):
    """A record that is not a finished game of the game asked for."""


def finished_game(record: Any, game: str, label: str = "the record") -> Any:
    """The final state of ``record``, a finished game of ``game``; refused in words (InvalidRecord)
    when it is not a game record, records another game, does not replay or stops before the end."""
    if not isinstance(record, dict) or not {"game", "setup", "log"} <= record.keys() \
            or not isinstance(record["log"], list):
        raise InvalidRecord(Message("{file} is not a game record: it needs 'game', 'setup', 'seed' and 'log'",
                                    file=label))
    if record["game"] != game:
        # NOTE: {file} is a record's file name, {game} the game it records and {wanted} the one asked for (ids).
        raise InvalidRecord(Message("{file} records a {game} game, not a {wanted} game", file=label,
                                    game=repr(record["game"]), wanted=repr(game)))
    try:
        state = initial_state(record)
        for number, entry in enumerate(record["log"], start=1):
            apply_numbered(state, number, entry)
    except IllegalAction as error:
        # NOTE: {file} is a record's file name; {reason} says which entry of its log is refused and why.
        raise InvalidRecord(Message("{file} does not replay: {reason}", file=label, reason=error.args[0])) from None
    except HippodromeError as error:
        raise InvalidRecord(Message("{file} does not replay: {reason}", file=label,
                                    reason=error.args[0] if error.args else str(error))) from None
    if state.pending() is not None:
        # NOTE: a review needs a whole game; {file} is a record's file name.
        raise InvalidRecord(Message("{file} stops before the end of the game: only a finished game is reviewed",
                                    file=label))
    return state
