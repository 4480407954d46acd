"""The review of a finished Ready Set Bet game: each bet against the best bet open to its player at
that moment, in dollars of expected value (issue 36).

Each bet of the record (and each House token the House placed, R9) is valued when it was placed, on
the board as it stood then (the spaces taken, the tokens the player had left, the bets its VIP cards
allowed: the game's own ``free_options``), from the race position then: the rest of the race is
simulated by the odds engine (:mod:`hippodrome.readysetbet.odds`, judged by ``board.wins``, the
function that settles races) and each option's expected money is that of
:func:`~hippodrome.readysetbet.pricing.bet_value` (a loss costs no more than the money the player has,
R4), worked out on every simulated finish, so the standard error of a difference between two bets is
that of the same finishes. A position's odds are those the bots read
(:data:`~hippodrome.readysetbet.pricing.position_odds`: seeded by the position itself), so a
review is the same every time, whatever its seed.

Only what the player placed is judged, when it placed it: not the bets it did not place, nor when it
waited. Per player and race the review adds up the expected money of its bets (``taken``) and of the
best bet open at each of those moments (``offered``). ``step`` is the index (from 0) of the bet's
entry in the record's log.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Sequence

import numpy as np

from hippodrome.core.game import Action, Decision, same_json
from hippodrome.core.match import apply_entry, initial_state
from hippodrome.core.review import (
    Progress, ReviewedDecision, Scale, Valued, finished_game, judge, record_names, review_json,
)
from hippodrome.readysetbet.board import wins
from hippodrome.readysetbet.dice_race import RaceState
from hippodrome.readysetbet.game import ReadySetBet
from hippodrome.readysetbet.odds import DEFAULT_SIMULATIONS
from hippodrome.readysetbet.pricing import board_spaces, bet_value, option_token, position_odds

#: marks by dollars of expected value lost: 50 cents is a fifth of the smallest token's value, $1.50 a
#: space's whole red circle, $4 a winning 2 on a space of x2
SCALE = Scale("dollars", inaccuracy=0.5, mistake=1.5, blunder=4.0)
SIMULATIONS = DEFAULT_SIMULATIONS
GAME = "readysetbet"


def review(record: dict[str, Any], budget: float | None = None, seed: int | str = 0,
           progress: Progress | None = None) -> dict[str, Any]:
    """The review of ``record`` (a finished game) as plain data (:func:`hippodrome.core.review.review_json`).
    ``budget`` and ``seed`` are taken for the common signature: the odds are exact to their
    simulations and seeded by each position. Refused in words (InvalidRecord) when the record is not
    a finished game."""
    final = finished_game(record, GAME)
    decisions = list(reviewed_decisions(record, progress))
    return review_json(GAME, SCALE, decisions, record_names(record, final.seats), final.races, sums=True,
                       simulations=SIMULATIONS)


def bets_to_review(record: dict[str, Any]) -> list[tuple[int, ReadySetBet, dict[str, Any]]]:
    """Each bet and each House token with a choice: its step, the game just before it, the log's entry."""
    state = initial_state(record)   # under the rulings it was played with
    found = []
    for step, entry in enumerate(record["log"]):
        action = entry.get("action")
        if entry.get("free") and isinstance(action, dict) and action.get("type") == "bet":
            found.append((step, state.clone(), entry))
        else:
            pending = state.pending()
            if isinstance(pending, Decision) and pending.kind == "house_token" and len(pending.options) > 1:
                found.append((step, state.clone(), entry))
        apply_entry(state, entry)
    return found


def reviewed_decisions(record: dict[str, Any], progress: Progress | None = None) -> Iterator[ReviewedDecision]:
    """The bets of ``record`` (a finished game, checked) judged one by one, in the log's order."""
    found = bets_to_review(record)
    for done, (step, state, entry) in enumerate(found, start=1):
        yield review_bet(state, step, entry["by"], entry["action"])
        if progress is not None:
            progress(done, len(found))


def review_bet(state: ReadySetBet, step: int, seat: int, action: Action) -> ReviewedDecision:
    """The bet (or House token) ``seat`` placed in ``state``, judged against every other open to it."""
    if action.get("type") == "bet":
        options, kind = list(state.free_options(seat)), "bet"
    else:
        options, kind = list(state.pending().options), "house_token"
    view = state.observation(seat)
    chosen = _chosen(options, action, view)
    terms = payoff_terms(view, options)
    values = [Valued(option, *_mean_and_error(*term)) for option, term in zip(options, terms)]

    def loss_error(best: int, made: int) -> float:
        difference = _payoff(*terms[best]) - _payoff(*terms[made])
        return float(difference.std(ddof=1) / np.sqrt(difference.size))
    return judge(SCALE, seat, step, state.race_no, kind, values, chosen, loss_error)


def _chosen(options: list[Action], action: Action, view: dict[str, Any]) -> int:
    """The option placed. ``free_options`` offers one of two identical tokens (the two 3s): a bet
    with the other one is that option."""
    for index, option in enumerate(options):
        if same_json(option, action):
            return index
    token = option_token(view, action)
    same = (token["value"], token["penalty"], token["cancels_loss"])
    for index, option in enumerate(options):
        other = option_token(view, option)
        if option["space"] == action["space"] and (other["value"], other["penalty"], other["cancels_loss"]) == same:
            return index
    raise ValueError(f"{action!r} is not among the bets open then")  # i18n: programming error (a replayed record)


def option_payoffs(view: dict[str, Any], options: Sequence[Action]) -> list[np.ndarray]:
    """For each option (a bet or a House token), the money it brings on each simulated finish of the
    race from the view's position (a loss capped at the seat's money, R4)."""
    return [_payoff(*term) for term in payoff_terms(view, options)]


def payoff_terms(view: dict[str, Any], options: Sequence[Action]) -> list[tuple[np.ndarray, float, float]]:
    """For each option, its payoffs (:func:`option_payoffs`) as ``(won, gain, loss)``: ``won`` says
    on which simulated finishes its space wins (one array per space, shared), the option then
    brings ``gain``, else costs ``loss`` (:func:`~hippodrome.readysetbet.pricing.bet_value` of a sure
    win and of a sure loss). A review needs the arrays of two options at most: the others' means and
    errors follow from ``won``'s count of wins (:func:`_mean_and_error`)."""
    odds = position_odds(RaceState.from_json(view["race"]), SIMULATIONS, False)
    spaces = board_spaces(view)
    money = view["money"][view["seat"]]
    won: dict[str, np.ndarray] = {}
    terms = []
    for option in options:
        space = spaces[option["space"]]
        if space.id not in won:
            won[space.id] = wins(space, odds.finish)
        token = option_token(view, option)
        terms.append((won[space.id], bet_value(space, token, 1.0, money), -bet_value(space, token, 0.0, money)))
    return terms


def _payoff(won: np.ndarray, gain: float, loss: float) -> np.ndarray:
    return np.where(won, float(gain), -float(loss))


def _mean_and_error(won: np.ndarray, gain: float, loss: float) -> tuple[float, float]:
    """The mean of :func:`_payoff` and its standard error, from the count of wins alone (the payoff
    takes two values)."""
    n = won.size
    share = np.count_nonzero(won) / n
    spread = abs(gain + loss) * math.sqrt(share * (1 - share) * n / (n - 1))
    return share * gain - (1 - share) * loss, spread / math.sqrt(n)
