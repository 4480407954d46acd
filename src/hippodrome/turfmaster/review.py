"""The review of a finished TurfMaster meeting: for each decision of each seat, the expected points
of the choice made and of the best choice, from that seat's information only (issue 36).

Every decision a seat took with more than one option is valued (the engine takes the others at
once and logs nothing). Its options are played on the same seeded draws, playout after playout,
until the decision's budget is spent (``budget`` seconds of the reviewing thread's CPU, at least
:data:`MIN_PLAYOUTS` playouts and at most :data:`MAX_PLAYOUTS`; or exactly ``playouts``, which makes
a review the same on every machine). Without a budget a decision gets :data:`DEFAULT_BUDGET`, or
its share of :data:`MEETING_SECONDS` in a meeting of many decisions (:func:`default_budget`):

* a race decision (a card, a square, the use of the dice, a die) by the race points it leads to
  (T9), as the engine measure of the puzzles values it
  (:func:`~hippodrome.turfmaster.puzzle_measure.playout_points`: the other hands drawn from the
  cards the seat has not seen, the race run to its end by the search bot's playout policy). The
  bonus cards offered beside it are left out, unless the seat took them;
* a bonus decision (claim the bonus cards, or keep them for later, before a race or beside a race
  decision: "not now" is then the race played on without them) and a card given up to fit a hand's
  limit (T8) by the points from now to the end of the meeting
  (:mod:`hippodrome.turfmaster.meeting_measure`).

The marks' thresholds are in race points (:data:`SCALE`, docs/review.md). Each decision is named by
its ``step``: the index (from 0) of its entry in the record's log, the entry that holds the choice
made. A decision's playouts are seeded by the review's seed and that step, so the review of a seat
depends on nothing it could not see, and a review with ``playouts`` is the same every time.
"""

from __future__ import annotations

import time
from typing import Any, Iterator, Sequence

from hippodrome.core.game import Action, Decision, same_json
from hippodrome.core.match import apply_entry, initial_state
from hippodrome.core.review import (
    Progress, ReviewedDecision, Scale, Valued, finished_game, judge, mean_and_error, paired_error, record_names, review_json,
)
from hippodrome.turfmaster.determinize import RACE_DECISIONS
from hippodrome.turfmaster.meeting import RACES, Meeting
from hippodrome.turfmaster.meeting_measure import NOTHING, meeting_points
from hippodrome.turfmaster.puzzle_measure import playout_points

#: marks by race points lost: a loss of 3 is about a place in one race in ten (a place is worth 10 to
#: 20 points, T9), 6 a place in one race in three, 15 most of a place. A loss within two standard
#: errors of nothing is never marked: the playouts could not tell the choices apart
SCALE = Scale("points", inaccuracy=3.0, mistake=6.0, blunder=15.0)
#: seconds of the reviewing thread's CPU per decision when no budget is given: a meeting of two
#: players with two horses each (about 380 decisions) in about 40 s of one core (bench/review.py)...
DEFAULT_BUDGET = 0.1
#: ...and a meeting of more decisions shares this many seconds among them (at most DEFAULT_BUDGET
#: each), so that any meeting is reviewed within 60 s of one core
MEETING_SECONDS = 45.0
MIN_PLAYOUTS = 8
MAX_PLAYOUTS = 2000
GAME = "turfmaster"


def review(record: dict[str, Any], budget: float | None = None, seed: int | str = 0, playouts: int | None = None,
           progress: Progress | None = None) -> dict[str, Any]:
    """The review of ``record`` (a finished meeting) as plain data (:func:`hippodrome.core.review.review_json`).
    Refused in words (InvalidRecord) when the record is not one."""
    final = finished_game(record, GAME)
    found = decisions_to_review(record)
    budget = default_budget(len(found)) if budget is None else budget
    decisions = list(reviewed_decisions(record, budget, seed, playouts, progress, found))
    return review_json(GAME, SCALE, decisions, record_names(record, final.players), RACES,
                       budget=None if playouts else budget, playouts=playouts, seed=seed)


def default_budget(decisions: int) -> float:
    """Seconds per decision when none is given: :data:`DEFAULT_BUDGET`, or a share of
    :data:`MEETING_SECONDS` for a meeting of many decisions."""
    return min(DEFAULT_BUDGET, MEETING_SECONDS / max(decisions, 1))


def decisions_to_review(record: dict[str, Any]) -> list[tuple[int, Meeting, dict[str, Any]]]:
    """Each decision of a seat with a choice: its step, the meeting just before it and the log's entry."""
    state = initial_state(record)   # under the rulings it was played with
    found = []
    for step, entry in enumerate(record["log"]):
        pending = state.pending()
        if isinstance(pending, Decision) and entry.get("by") == pending.seat and len(pending.options) > 1:
            found.append((step, state.clone(), entry))
        apply_entry(state, entry)
    return found


def reviewed_decisions(record: dict[str, Any], budget: float = DEFAULT_BUDGET, seed: int | str = 0,
                       playouts: int | None = None, progress: Progress | None = None,
                       found: list[tuple[int, Meeting, dict[str, Any]]] | None = None) -> Iterator[ReviewedDecision]:
    """The decisions of ``record`` (a finished meeting, checked) judged one by one, in the log's
    order (``found``: :func:`decisions_to_review` of the record, if already made)."""
    found = decisions_to_review(record) if found is None else found
    for done, (step, state, entry) in enumerate(found, start=1):
        yield review_decision(state, step, entry["action"], budget, f"{seed}:{step}", playouts)
        if progress is not None:
            progress(done, len(found))


def review_decision(state: Meeting, step: int, action: Action, budget: float, seed: str,
                    playouts: int | None) -> ReviewedDecision:
    """The decision pending in ``state`` (a meeting), where its seat chose ``action``, judged."""
    kind, options, chosen, columns = valued_options(state, action, budget, seed, playouts)
    return judged(state.pending().seat, step, state.race_no, kind, options, chosen, columns)


def valued_options(state: Meeting, action: Action, budget: float, seed: str,
                   playouts: int | None) -> tuple[str, list[Action], int, list[list[int]]]:
    """The decision pending in ``state``, where its seat chose ``action``, as the review values it: its
    kind, the options valued, the index of the option chosen among them, and by option the points of
    each playout (:func:`sampled`)."""
    pending = state.pending()
    seat = pending.seat
    options = list(pending.options)
    if pending.kind in RACE_DECISIONS:
        claims = [o for o in options if o["type"] == "claim_bonus"]
        plays = [o for o in options if o["type"] != "claim_bonus"]
        if action["type"] != "claim_bonus" and len(plays) > 1:
            samples = playout_points(state.observation(seat), seat, plays, seed)
            return pending.kind, plays, _index(plays, action), sampled(samples, budget, playouts)
        # the bonus cards beside the race decision: claim them now, or play on without them
        chosen = action if action["type"] == "claim_bonus" else plays[0]
        not_now = plays[0] if len(plays) == 1 else {"type": "decline_bonus", "horse": claims[0]["horse"]}
        considered = claims + [not_now]
        samples = meeting_points(state, seat, claims + [NOTHING], seed)
        index = _index(claims, chosen) if chosen["type"] == "claim_bonus" else len(claims)
        return "bonus", considered, index, sampled(samples, budget, playouts)
    samples = meeting_points(state, seat, options, seed)
    return pending.kind, options, _index(options, action), sampled(samples, budget, playouts)


def _index(options: Sequence[Action], action: Action) -> int:
    return next(index for index, option in enumerate(options) if same_json(option, action))


def judged(seat: int, step: int, race: int, kind: str, options: Sequence[Action], chosen: int,
           columns: Sequence[Sequence[int]]) -> ReviewedDecision:
    """The decision whose ``options`` scored ``columns`` (by option, playout by playout), where the
    seat chose the ``chosen``-th, judged on :data:`SCALE`."""
    values = [Valued(option, *mean_and_error(points)) for option, points in zip(options, columns)]
    return judge(SCALE, seat, step, race, kind, values, chosen,
                 lambda best, made: paired_error(columns[best], columns[made]))


def sampled(samples: Iterator[list[int]], budget: float, playouts: int | None = None) -> list[list[int]]:
    """By option, the points of ``playouts`` playouts, or of as many as ``budget`` seconds of this
    thread's CPU allow (see the module docstring)."""
    if playouts is not None:
        drawn = [next(samples) for _ in range(playouts)]
    else:
        start = time.thread_time()
        drawn = []
        while len(drawn) < MAX_PLAYOUTS and (len(drawn) < MIN_PLAYOUTS or time.thread_time() - start < budget):
            drawn.append(next(samples))
    return [list(points) for points in zip(*drawn)]
