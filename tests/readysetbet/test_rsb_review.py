"""The review of a Ready Set Bet game (issue 36, docs/review.md): each bet valued by the odds
engine on the board as it stood (R4 tokens and the $0 floor, R5-R7 spaces), against the best bet
open then; the House's tokens too (R9)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hippodrome.arena.readysetbet import play_bot_game
from hippodrome.core.review import GOOD, command_json
from hippodrome.readysetbet.review import bets_to_review, option_payoffs, review, review_bet


@pytest.fixture(scope="module")
def game_record() -> dict:
    return play_bot_game({"players": 3, "races": 2}, ["value", "random", "random"], "review").record()


def test_R4_the_value_bettor_loses_far_less_than_random_bettors(game_record):
    data = review(game_record)
    lost = {player["seat"]: player["points_lost"] for player in data["players"]}
    assert lost[0] < 1.0 and min(lost[1], lost[2]) > 3 * max(lost[0], 0.5), lost
    assert [player["accuracy"] for player in data["players"]][0] > 90
    for player in data["players"]:   # per race: the expected money taken, of the money on offer
        assert [race["race"] for race in player["races"]] == [1, 2]
        assert all(race["taken"] <= race["offered"] + 1e-6 for race in player["races"])
    shown = command_json(data)
    assert all(set(d) == {"seat", "step", "chosen", "best", "loss", "stderr", "mark"} for d in shown["decisions"])
    json.dumps(data)


def test_R5_a_bet_is_judged_against_every_bet_open_then(game_record):
    step, state, entry = bets_to_review(game_record)[0]
    seat = entry["by"]
    options = list(state.free_options(seat))
    means = [float(payoff.mean()) for payoff in option_payoffs(state.observation(seat), options)]
    best, worst = options[int(np.argmax(means))], options[int(np.argmin(means))]
    judged_best = review_bet(state, step, seat, best)
    assert judged_best.loss == 0 and judged_best.mark == GOOD and judged_best.chosen.value == pytest.approx(max(means))
    judged_worst = review_bet(state, step, seat, worst)
    assert judged_worst.loss == pytest.approx(max(means) - min(means))
    assert judged_worst.mark == "blunder" and judged_worst.stderr > 0


def test_R9_the_house_tokens_are_reviewed():
    record = play_bot_game({"players": 3, "races": 1, "variant": "house_bets"},
                           ["value", "random", "random", "value"], "house").record()
    data = review(record)
    house = [d for d in data["decisions"] if d["kind"] == "house_token"]
    assert house and all(d["chosen"]["action"]["type"] == "house_token" for d in house)
