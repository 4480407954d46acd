"""The leak check can fail: deliberately leaky views are caught, and so are secrets given in a
form no view would ever show (T8 hands and decks, R8 VIP cards)."""

import itertools
import random

import pytest

from hippodrome.core.game import Chance, Decision
from hippodrome.readysetbet.game import ReadySetBet
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race, shown_hand

from .leaks import check_views, secrets_in

SEED = "conformance-secret-seed-leaks"


def dealt(cls, setup, until=lambda state: isinstance(state.pending(), Decision)):
    """A state of ``cls`` whose chance steps were drawn from fixed seeds until ``until`` holds."""
    state = cls.new(setup)
    for number in itertools.count():
        if until(state):
            return state
        pending = state.pending()
        assert isinstance(pending, Chance)
        state.apply(pending.sample(random.Random(number)))


def test_a_secret_is_found_as_an_equal_part_or_an_object_holding_its_members():
    view = {"hands": {"red": ["3", "7"], "blue": ["7", "9"]}, "log": [{"horse": "blue", "card": "9", "race": 1}],
            "dice": [1, 6], "flag": True}
    assert secrets_in(view, [{"blue": ["7", "9"]}]) == [{"blue": ["7", "9"]}]
    assert secrets_in(view, [{"green": ["7", "9"]}, {"blue": ["9", "7"]}]) == []  # another horse; another order
    assert secrets_in(view, [["3", "7"], ["7", "3"]]) == [["3", "7"]]
    assert secrets_in(view, [{"horse": "blue", "card": "9"}, {"horse": "blue", "card": "8"}]) == [
        {"horse": "blue", "card": "9"}]
    assert secrets_in(view, [2, [True, 6]]) == []  # JSON 1 is not true
    assert secrets_in(view, [True, [1, 6], 1]) == [True, [1, 6], 1]


class RaceShowingEveryHand(Race):
    def view(self, seat):
        view = super().view(seat)
        view["hands"] = {horse: shown_hand(cards) for horse, cards in self.hands.items()}
        return view


class RaceHidingHandsInAnUnseenOrder(Race):
    def secrets(self, seat):
        return [{horse: sorted(self.hands[horse], key=str, reverse=True)} for horse in self.ids
                if self.owner[horse] != seat]


class MeetingShowingDecks(Meeting):
    def view(self, seat):
        view = super().view(seat)
        for entry in view["horses"]:
            entry["deck"] = self.decks[entry["id"]][self.drawn[entry["id"]]:]
        return view


class ReadySetBetShowingTheVipChoice(ReadySetBet):
    """Shows every player the two VIP cards the first one still choosing holds (R8)."""

    def view(self, seat):
        view = super().view(seat)
        view["vip_drawn"] = list(self.vip_hands[self.vip_choosing()[0]]) if self.rulings >= 2 else list(self.vip_drawn)
        return view


RACE_SETUP = {"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}


def test_the_honest_games_pass_the_check():
    check_views(dealt(Race, RACE_SETUP), 2, SEED)
    check_views(dealt(Meeting, {"players": 2, "horses_per_player": 2}), 2, SEED)


def test_a_view_showing_other_owners_hands_is_caught():
    state = RaceShowingEveryHand.from_json(dealt(Race, RACE_SETUP).to_json())
    with pytest.raises(AssertionError, match="seat 0's view shows its secrets"):
        check_views(state, 2, SEED)


def test_secrets_in_a_form_no_view_shows_are_caught_by_the_seat_that_should_see_them():
    state = RaceHidingHandsInAnUnseenOrder.from_json(dealt(Race, RACE_SETUP).to_json())
    with pytest.raises(AssertionError, match="sees none of what only it may know"):
        check_views(state, 2, SEED)


def test_a_view_showing_what_is_left_of_the_decks_is_caught():
    state = MeetingShowingDecks.from_json(dealt(Meeting, {"players": 2, "horses_per_player": 2}).to_json())
    with pytest.raises(AssertionError, match="view shows its secrets"):
        check_views(state, 2, SEED)


def test_a_view_showing_the_vip_cards_another_player_chooses_between_is_caught():
    honest = ReadySetBet.new({"players": 3, "races": 2})
    honest.apply(honest.pending().sample(random.Random(0)))
    rng = random.Random(1)
    while honest.phase != "vip":
        honest.apply(honest.pending().sample(rng))
    check_views(honest, 3, SEED)
    leaky = ReadySetBetShowingTheVipChoice.from_json(honest.to_json())
    with pytest.raises(AssertionError, match="seat 1's view shows its secrets"):
        check_views(leaky, 3, SEED)
    honest.rulings = 1   # a game stored before R8 was amended: one player after the other
    honest.vip_hands, honest.vip_queue, honest.vip_drawn = [[], [], []], [0, 1, 2], []
    honest._draw_vip()
    check_views(honest, 3, SEED)
    with pytest.raises(AssertionError, match="seat 1's view shows its secrets"):
        check_views(ReadySetBetShowingTheVipChoice.from_json(honest.to_json()), 3, SEED)


def test_a_state_holding_the_seed_is_caught():
    state = dealt(Race, RACE_SETUP)
    state.history.append({"event": "note", "text": f"drawn with {SEED}"})
    with pytest.raises(AssertionError, match="seed"):
        check_views(state, 2, SEED)
