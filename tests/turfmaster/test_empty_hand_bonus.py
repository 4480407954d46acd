"""Ruling T8 as changed (docs/rulings.md, "Rulings changed"): when a horse's turn
comes in a round of cards with its hand empty, its owner is asked whether to claim the bonus cards
before the horse stands still (T13)."""

import random

import pytest

from hippodrome.core import IllegalAction, Match
from hippodrome.turfmaster.race import Race

HORSES = [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]


def race(unclaimed):
    return Race.new({"horses": HORSES, "hands": {"red": [], "blue": ["7", "8"]}, "bonus_unclaimed": unclaimed})


def test_T8_an_empty_hand_with_unclaimed_bonus_cards_asks_its_owner_first():
    state = race(["red"])
    pending = state.pending()
    assert (pending.kind, pending.seat, pending.context["horse"]) == ("empty_hand", 0, "red")
    assert pending.options == ({"type": "stand_still", "horse": "red"},)
    assert state.observation(1)["pending"]["horse"] == "red"  # the others see whose turn it is


def test_T8_T13_standing_still_passes_the_turn():
    state = race(["red"])
    state.apply({"type": "stand_still", "horse": "red"})
    assert state.history[-1] == {"round": 1, "event": "no_card", "horse": "red"}
    assert state.pending().kind == "card" and state.pending().context["horse"] == "blue"


def test_T8_the_bonus_cards_claimed_at_that_moment_are_played_at_once():
    state = race(["red"])
    state.add_cards("red", ["J12", "3"])
    pending = state.pending()
    assert pending.kind == "card" and pending.context["horse"] == "red"
    assert sorted(o["card"] for o in pending.options) == ["3", "J12"]
    assert state.bonus_unclaimed == []


def test_T13_without_bonus_cards_to_claim_the_horse_stands_still_unasked():
    state = race([])
    assert state.history[-1]["event"] == "no_card" and state.pending().context["horse"] == "blue"


def test_a_refused_answer_says_what_is_allowed():
    state = race(["red"])
    with pytest.raises(IllegalAction, match="claim its bonus cards, or let it stand still"):
        state.apply({"type": "card", "horse": "red", "card": "7"})
    assert state.pending().kind == "empty_hand"


def test_bonus_unclaimed_must_name_horses_of_the_race():
    with pytest.raises(Exception, match="bonus_unclaimed"):
        Race.new({"horses": HORSES, "bonus_unclaimed": ["purple"]})


def play_until_empty_hand(seed):
    """A meeting played at random, never claiming, until a horse's turn finds its hand empty."""
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "course": "triangle"}, seed=seed)
    rng = random.Random(seed)
    while (pending := match.pending()) is not None:
        if pending.kind == "empty_hand":
            return match, pending
        options = [o for o in pending.options if o["type"] != "claim_bonus"]
        match.act(pending.seat, rng.choice(options))
    raise AssertionError("no hand ran dry")


def test_T8_in_a_meeting_the_owner_may_claim_when_the_hand_runs_dry():
    match, pending = play_until_empty_hand(0)
    horse = pending.context["horse"]
    assert {"type": "claim_bonus", "horse": horse} in pending.options
    match.act(pending.seat, {"type": "claim_bonus", "horse": horse})
    after = match.pending()
    assert after.kind == "card" and after.context["horse"] == horse and len(after.options) >= 1
    assert match.state.observation(pending.seat)["hands"][horse]  # the two bonus cards, in its hand
    # claimed once per game: the next time its hand runs dry it just stands still
    race = match.state.race
    assert horse not in race.bonus_unclaimed


def test_T8_in_a_meeting_declining_lets_the_horse_stand_still_and_keeps_the_claim():
    match, pending = play_until_empty_hand(1)
    horse = pending.context["horse"]
    match.act(pending.seat, {"type": "stand_still", "horse": horse})
    assert match.state.race.history[-1]["event"] == "no_card"
    assert match.state.claimed[horse] is None  # the bonus cards stay unclaimed (dealt in race 3 at the latest)


def test_a_race_stored_before_the_change_reads_as_no_bonus_to_claim():
    data = race(["red"]).to_json()
    del data["state"]["bonus_unclaimed"]
    assert Race.from_json(data).bonus_unclaimed == []
