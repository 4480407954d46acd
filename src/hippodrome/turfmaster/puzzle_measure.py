"""How good each option of a race decision is, by the engine: seeded playouts from what the deciding
seat can see (the measure that says a puzzle's solution is clearly best).

For each option, ``playouts`` races are drawn from the seat's view alone
(:func:`~hippodrome.turfmaster.determinize.determinize`: the other hands sampled from the cards not
seen, the same draw for every option), the option is played, and the race is run to its end by the
search bot's fast policy (:func:`~hippodrome.turfmaster.search.playout`). An option's value is the
mean of the race points (T9: 50, 30, 20, 10) its seat's horses score, with its standard error.

A decision is *clear* when one option (or a few options that lead to the same result) is ahead of
every other by at least :data:`MARGIN` points and by :data:`SIGMAS` standard errors of the
difference: :func:`clear_solution` answers the accepted options, or None. Finding and re-checking a
puzzle takes hundreds of playouts per option (``tools/make_puzzles.py``, ``--check``); the test
suite's quick check (:func:`lead` over :data:`QUICK_PLAYOUTS` seeded playouts, at least
:data:`QUICK_MARGIN`) takes a few seconds for the whole collection.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import count, islice
from typing import Any, Iterator, Sequence

from hippodrome.core.game import Action
from hippodrome.core.review import mean_and_error
from hippodrome.turfmaster.determinize import search_draws
from hippodrome.turfmaster.scoring import points_for_place
from hippodrome.turfmaster.search import playout
from hippodrome.turfmaster.search_state import SearchRace

#: race points the solution must lead every other option by
MARGIN = 8.0
#: ...and by this many standard errors of the difference of the means
SIGMAS = 3.0
#: options this close to the best are taken as the same result (each accepted)
SAME = 1.5
#: the test suite's quick check: playouts per option, and the lead the solution must keep
QUICK_PLAYOUTS = 12
QUICK_MARGIN = MARGIN / 2


@dataclass(frozen=True)
class OptionValue:
    """An option and the race points its seat scored after it: mean and standard error."""

    action: Action
    mean: float
    error: float


def seat_points(race: SearchRace, seat: int) -> int:
    return sum(points_for_place(place) for place, horse in enumerate(race.places, start=1)
               if race.owner[horse] == seat)


def option_values(view: dict[str, Any], seat: int, playouts: int = 200, seed: int | str = 0) -> list[OptionValue]:
    """Each option of the decision pending for ``seat`` in ``view``, valued by ``playouts`` seeded
    playouts (the same determinisations and dice for every option)."""
    options = view["pending"]["options"]
    scores = list(zip(*islice(playout_points(view, seat, options, seed), playouts)))
    return [OptionValue(option, *mean_and_error(points)) for option, points in zip(options, scores)]


def playout_points(view: dict[str, Any], seat: int, options: Sequence[Action], seed: int | str = 0) -> Iterator[list[int]]:
    """Playout after playout (0, 1, ... without end): the race points ``seat`` scores after each of
    ``options`` (race options of the decision pending for it in ``view``), every option played on the
    same determinisation with the same dice. A caller takes as many as its budget allows."""
    draw = search_draws(view, seat)
    for n in count():
        drawn = draw(random.Random(f"{seed}:deal:{n}"))
        points = []
        for option in options:
            race = drawn.clone()
            race.apply(race.lean_action(option))
            playout(race, random.Random(f"{seed}:play:{n}"))
            points.append(seat_points(race, seat))
        yield points


def clear_solution(values: list[OptionValue]) -> list[Action] | None:
    """The options accepted as the solution when the decision is clear (see the module docstring),
    else None: every option within :data:`SAME` of the best, provided every other option trails the
    worst of them by :data:`MARGIN` points and :data:`SIGMAS` standard errors."""
    best = max(value.mean for value in values)
    accepted = [value for value in values if value.mean >= best - SAME]
    others = [value for value in values if value.mean < best - SAME]
    if not others or len(accepted) > max(1, len(values) // 2):
        return None
    for worse in others:
        for good in accepted:
            gap = good.mean - worse.mean
            if gap < MARGIN or gap < SIGMAS * math.hypot(good.error, worse.error):
                return None
    return [value.action for value in accepted]


def lead(values: list[OptionValue], solution: list[Action]) -> float:
    """How far the worst of the ``solution``'s options is ahead of the best other option (race points)."""
    accepted = [value.mean for value in values if value.action in solution]
    others = [value.mean for value in values if value.action not in solution]
    return min(accepted) - max(others)
