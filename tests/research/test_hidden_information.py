"""What a seat is shown holds nothing it may not know: two games that differ only in what a seat
cannot see (the other seats' hands, the order of the decks) give that seat the same observation
(PettingZoo, Gymnasium), the same information state string and tensor and the same observation
string (OpenSpiel), step by step; the seats that can see the difference are shown it."""

import copy
import json
import random

from tests.research import need_extra

need_extra()

from hippodrome.envs import readysetbet_encoding, turfmaster_observation  # noqa: E402
from hippodrome.openspiel.readysetbet import ReadySetBetCore  # noqa: E402
from hippodrome.openspiel.turfmaster import TurfMasterCore  # noqa: E402
from hippodrome.turfmaster.cards import HAND_SIZE, full_deck  # noqa: E402
from tests.research.helpers import chance_entries, random_record, replay_in_step  # noqa: E402


def shown(state, seat, encoding, core_class):
    core = core_class(state.clone())
    return (encoding.observe(state, seat).tobytes(), json.dumps(state.observation(seat), sort_keys=True),
            core.info_string(seat), core.observation_string(seat), core.tensor(seat).tobytes())


def compare(record, other_log, seat, encoding, core_class, until=lambda state: False):
    """Play both games side by side: ``seat`` is shown the same; some other seat is not. Returns
    the number of steps compared."""
    steps, differed = 0, False
    for first, second in replay_in_step(record, other_log):
        if until(first):
            break
        assert shown(first, seat, encoding, core_class) == shown(second, seat, encoding, core_class), \
            f"seat {seat} is shown what it may not know at step {steps}"
        seats = type(first).description.seats(first).count
        differed |= any(first.observation(other) != second.observation(other) for other in range(seats) if other != seat)
        steps += 1
    assert differed, "the two games differ in nothing any seat could see: the test proves nothing"
    return steps


def test_turfmaster_race_the_other_hands_dealt_otherwise():
    record = random_record("turfmaster-race", {"players": 3, "horses_per_player": 2}, seed=1)
    state = [state for state, _ in replay_in_step(record, record["log"])][-1]
    rng = random.Random(7)
    other_log = copy.deepcopy(record["log"])
    deal = other_log[chance_entries(record, "deal")[0]]["action"]
    for horse, cards in deal["hands"].items():
        if state.owner[horse] == 0:
            continue
        played = [event["card"] for event in state.history if event["event"] == "card" and event["horse"] == horse]
        rest = full_deck()
        for card in played:
            rest.remove(card)
        hand = played + rng.sample(rest, HAND_SIZE - len(played))
        rng.shuffle(hand)
        deal["hands"][horse] = hand
    assert deal != record["log"][chance_entries(record, "deal")[0]]["action"]
    steps = compare(record, other_log, 0, turfmaster_observation, TurfMasterCore)
    assert steps == len(record["log"]) + 1


def test_turfmaster_meeting_another_card_in_a_hand_and_the_decks_in_another_order():
    """Seat 1's horses are dealt, for race 1, another card in place of the one they play last:
    seat 0 is shown the same until that card is played (the other game refuses it)."""
    record = random_record("turfmaster", {"players": 2, "horses_per_player": 2}, seed=2)
    other_log = copy.deepcopy(record["log"])
    changed = 0
    for number in chance_entries(record, "shuffle"):
        action = other_log[number]["action"]
        horse, deck = action["horse"], action["deck"]
        if horse in ("red", "blue"):  # seat 0's horses
            continue
        first_play = {card: min((at for at, entry in enumerate(record["log"]) if entry["action"].get("type") == "card"
                                 and entry["action"]["horse"] == horse and entry["action"]["card"] == card),
                                default=len(record["log"])) for card in deck[:HAND_SIZE]}
        position = max(range(HAND_SIZE), key=lambda i: first_play[deck[i]])
        swap = next(i for i in range(HAND_SIZE + 2, len(deck)) if deck[i] != deck[position])
        deck[position], deck[swap] = deck[swap], deck[position]
        changed += 1
    assert changed == 2
    steps = compare(record, other_log, 0, turfmaster_observation, TurfMasterCore,
                    until=lambda state: state.race_no == 2)
    assert steps > 50


def test_readysetbet_the_cards_nobody_has_seen_in_another_order():
    record = random_record("readysetbet", {"players": 2, "races": 1}, seed=3, bet_rate=0.4)
    other_log = copy.deepcopy(record["log"])
    shuffle = other_log[chance_entries(record, "shuffle")[0]]["action"]
    rng = random.Random(5)
    for deck, shown_cards in (("props", 5), ("exotics", 1), ("vip", 0)):
        hidden = shuffle[deck][shown_cards:]
        while hidden == shuffle[deck][shown_cards:]:
            rng.shuffle(hidden)
        shuffle[deck][shown_cards:] = hidden
    steps = 0
    for first, second in replay_in_step(record, other_log):
        for seat in range(2):
            assert shown(first, seat, readysetbet_encoding, ReadySetBetCore) == \
                shown(second, seat, readysetbet_encoding, ReadySetBetCore), f"seat {seat} at step {steps}"
        assert steps == 0 or first.prop_deck != second.prop_deck, "the decks do not differ"
        steps += 1
    assert steps == len(record["log"]) + 1
