"""R8 as amended: the VIP cards are drawn and chosen by everyone at once, in private, in any order;
the cards kept are held back and take effect only once all have chosen, then the next race
begins. A game stored before the amendment (a record that names no rulings) still replays under
the rulings it was played under (1: one player after the other, in seat order)."""

import json
import random

import pytest

from hippodrome.core import IllegalAction, InvalidSetup, Match, replay
from hippodrome.core.game import Chance, Decision
from hippodrome.readysetbet.game import ReadySetBet
from tests.readysetbet.rsb_helpers import match_at_race


def after_race_1(setup, seed=0, rulings=None):
    match = Match("readysetbet", {"races": 3, **setup}, seed=seed, rulings=rulings)
    match.resolve_chance()
    while match.state.phase != "vip":
        pending = match.pending()
        if isinstance(pending, Decision):
            match.act(pending.seat, pending.options[0])
        else:
            match.tick()
    return match


def test_R8_new_games_are_played_under_the_amended_rulings():
    assert ReadySetBet.rulings_version == 2
    match = match_at_race({"players": 3})
    assert match.rulings == 2 and match.state.rulings == 2 and match.record()["rulings"] == 2


def test_R8_everyone_draws_two_at_once_and_chooses_in_private_in_any_order():
    match = after_race_1({"players": 3}, seed=4)
    state = match.state
    decisions = state.decisions()
    assert [d.seat for d in decisions] == [0, 1, 2] and all(len(d.options) == 2 for d in decisions)
    assert match.pending() == decisions[0], "the first still choosing, for whoever decides one at a time"
    hands = [list(d.context["drawn"]) for d in decisions]
    assert len({card for hand in hands for card in hand}) == 6, "six different cards"
    assert decisions[0].context["together"] == [0, 1, 2]
    # private: each seat sees its own two cards, nobody else's
    for seat in range(3):
        text = json.dumps(state.observation(seat))
        assert all(card in text for card in hands[seat])
        assert not any(f'"{card}"' in text for other in range(3) if other != seat for card in hands[other])
    spectator = json.dumps(state.observation(None))
    assert not any(f'"{card}"' in spectator for hand in hands for card in hand)
    assert state.observation(None)["vip_choosing"] == [0, 1, 2]
    # each its own decision, the others' seats named (a spectator: the first, and who chooses)
    assert state.observation(1)["pending"]["options"] == list(decisions[1].options)
    assert state.observation(1)["pending"]["together"] == [0, 1, 2]
    assert state.observation(None)["pending"] == {"seat": 0, "kind": "vip", "together": [0, 1, 2]}
    # any order: the last seat first
    money, cards = list(state.money), [list(c) for c in state.vip_cards]
    match.act(2, {"type": "vip", "keep": hands[2][0]})
    assert [d.seat for d in match.state.decisions()] == [0, 1] and match.state.phase == "vip"
    # held back: nothing paid, nothing shown, until everyone has chosen
    assert match.state.money == money and match.state.vip_cards == cards
    assert match.state.observation(2)["vip_choice"] == {"drawn": hands[2], "kept": hands[2][0]}
    assert hands[2][0] not in json.dumps(match.state.observation(0)) and match.state.observation(0)["vip_choosing"] == [0, 1]
    # a seat that has chosen cannot choose again, nor take another seat's card: nothing changes
    before, logged = json.dumps(match.state.to_json(), sort_keys=True), len(match.log)
    for seat, action in ((2, {"type": "vip", "keep": hands[2][1]}), (1, {"type": "vip", "keep": hands[0][0]})):
        with pytest.raises(IllegalAction):
            match.act(seat, action)
    assert json.dumps(match.state.to_json(), sort_keys=True) == before and len(match.log) == logged
    match.act(0, {"type": "vip", "keep": hands[0][1]})
    assert match.state.race_no == 1 and match.state.phase == "vip"
    match.act(1, {"type": "vip", "keep": hands[1][0]})
    # all chose: the kept cards show and take effect, the next race begins
    state = match.state
    assert state.race_no == 2 and state.phase == "race"
    assert [c[-1] for c in state.vip_cards] == [hands[0][1], hands[1][0], hands[2][0]]
    assert state.observation(None)["vip_choosing"] == [] and state.observation(0)["vip_choice"] is None
    assert json.dumps(replay(json.loads(json.dumps(match.record()))).to_json()) == json.dumps(state.to_json())


def test_R8_comp_chips_and_bonus_tokens_take_effect_only_when_all_have_chosen():
    for seed in range(40):
        match = after_race_1({"players": 2}, seed=seed)
        hands = {d.seat: d.context["drawn"] for d in match.state.decisions()}
        comp = next(((seat, card) for seat, hand in hands.items() for card in hand if card.startswith("comp-")), None)
        if comp:
            break
    seat, card = comp
    other = 1 - seat
    before = match.state.money[seat]
    match.act(seat, {"type": "vip", "keep": card})
    assert match.state.money[seat] == before, "held back until the other has chosen"
    match.act(other, {"type": "vip", "keep": hands[other][0]})
    assert match.state.money[seat] == before + int(card.split("-")[1])


def test_R8_the_house_of_house_bets_draws_no_card():
    match = after_race_1({"players": 2, "variant": "house_bets"}, seed=1)
    assert [d.seat for d in match.state.decisions()] == [0, 1]


def test_R8_the_discards_are_reshuffled_when_the_deck_runs_short():
    """Eight players draw 16 cards a round from a deck of 32: before race 3's draw the deck is
    empty and the discards of the first two rounds are reshuffled (a chance step) first."""
    match = Match("readysetbet", {"players": 8}, seed=3)
    rng = random.Random(3)
    rounds = []
    while (pending := match.pending()) is not None:
        if isinstance(pending, Chance):
            match.tick()
            continue
        decisions = match.state.decisions()
        if pending.kind == "vip" and len(decisions) == 8:
            rounds.append(sorted(card for d in decisions for card in d.context["drawn"]))
        decision = rng.choice(decisions)
        match.act(decision.seat, rng.choice(decision.options))
    assert len(rounds) == 3 and all(len(cards) == 16 and len(set(cards)) == 16 for cards in rounds)
    reshuffles = [entry for entry in match.log if entry["action"].get("type") == "vip_reshuffle"]
    assert len(reshuffles) == 1 and len(reshuffles[0]["action"]["order"]) == 16
    assert all(len(cards) == 3 for cards in match.state.vip_cards)


def test_R8_a_record_that_names_no_rulings_replays_one_player_after_the_other():
    """A game stored before the amendment: its record has no "rulings"; it replays under 1, where
    each player's card takes effect as soon as it is kept, in seat order."""
    match = after_race_1({"players": 3}, seed=4, rulings=1)
    assert len(match.state.decisions()) == 1 and match.pending().seat == 0
    while match.state.phase == "vip":
        pending = match.pending()
        match.act(pending.seat, pending.options[0])
    assert match.state.race_no == 2 and all(len(cards) == 1 for cards in match.state.vip_cards)
    while match.pending() is not None:
        pending = match.pending()
        match.act(pending.seat, pending.options[0]) if isinstance(pending, Decision) else match.tick()
    record = json.loads(json.dumps(match.record()))
    assert record.pop("rulings") == 1   # a record stored before rulings had versions names none
    assert replay(record).to_json() == match.state.to_json()
    restored = Match.from_record(record)
    assert restored.state.to_json() == match.state.to_json() and restored.rulings == 1


@pytest.mark.parametrize("rulings", [0, 3, "2", True, 9])
def test_R8_a_rulings_version_the_game_does_not_know_is_refused(rulings):
    with pytest.raises(InvalidSetup):
        Match("readysetbet", {"players": 2}, rulings=rulings)
    with pytest.raises(InvalidSetup):   # a game whose rulings never changed knows only 1
        Match("turfmaster-race", {}, rulings=2)


def test_R8_a_state_stored_before_the_amendment_plays_on_one_player_after_the_other():
    match = Match("readysetbet", {"players": 3, "races": 3}, seed=2, rulings=1)
    match.resolve_chance()
    data = match.state.to_json()
    for key in ("rulings", "vip_hands", "vip_kept"):   # the fields a state stored before R8 was amended lacks
        del data["state"][key]
    state = type(match.state).from_json(data)
    assert state.rulings == 1
    rng = random.Random(2)
    while (pending := state.pending()) is not None:
        if isinstance(pending, Decision):
            assert len(state.decisions()) == 1 and state.observation(pending.seat)["vip_choice"] is None
            state.apply(rng.choice(pending.options))
        else:
            state.apply(pending.sample(rng))
    assert all(len(cards) == 2 for cards in state.vip_cards)


def test_R8_a_bots_worker_rebuilds_the_game_under_its_rulings():
    """A bot thinking in a worker process reads a replica rebuilt from the table's log: under the
    table's rulings (its first race reads the same under version 1, where only seat 0 would choose)."""
    from hippodrome.table.capture import Replicas, logged, question

    match = after_race_1({"players": 3}, seed=4)
    record = logged(match, 2).record()
    assert record["rulings"] == 2
    replica = Replicas().advance("t", record, 0, [])
    assert [d.seat for d in replica.decisions()] == [0, 1, 2]
    view, options = question(replica, 2, free=False)
    assert list(options) == list(match.state.decision_for(2).options) and view["vip_choice"]["kept"] is None
