"""Rulings R4 and R9 as changed (docs/rulings.md, "Rulings changed"): House bets
takes one to eight bettors besides the House, and the leftmost spaces closed when only two bet
count everyone betting in the race, the House placing house tokens included."""

import pytest

from hippodrome.core import IllegalAction, InvalidSetup, Match
from hippodrome.core.registry import description_of
from hippodrome.readysetbet.board import CLOSED_WITH_TWO
from hippodrome.readysetbet.game import ReadySetBet



def at_the_race(setup):
    match = Match("readysetbet", setup, seed=3)
    while (pending := match.pending()) is not None and not (hasattr(pending, "timed") and pending.timed):
        match.act(pending.seat, pending.options[0])
    return match.state


def test_R9_house_bets_with_a_single_bettor_besides_the_house():
    state = ReadySetBet.new({"players": 1, "variant": "house_bets"})
    assert state.seats == 2 and state.house_seat == 1 and state.betting_seats() == [0]
    assert description_of("readysetbet").seats(state).count == 2
    for variant in ("standard", "app", "rotating_house"):
        with pytest.raises(InvalidSetup, match="from 2 to 8"):
            ReadySetBet.new({"players": 1, "variant": variant})
    with pytest.raises(InvalidSetup, match="from 1 to 8"):
        ReadySetBet.new({"players": 9, "variant": "house_bets"})


@pytest.mark.parametrize("setup, closed", [
    ({"players": 2}, True),                                  # two players bet
    ({"players": 3}, False),
    ({"players": 1, "variant": "house_bets"}, True),          # one bettor and the House
    ({"players": 2, "variant": "house_bets"}, False),         # two bettors and the House: three
    ({"players": 2, "variant": "rotating_house"}, True),      # one bettor and the House
    ({"players": 3, "variant": "rotating_house"}, False),     # two bettors and the House
])
def test_R4_the_closed_leftmost_spaces_count_the_house_with_its_tokens(setup, closed):
    state = at_the_race({**setup, "races": 1})
    closed_spaces = {space["id"] for space in state.observation(0)["board"] if space.get("closed")}
    if closed:
        assert closed_spaces == {f"{kind}:{horse}:L" for kind in ("win", "place", "show")
                                 for horse in ("2/3", "4", "5", "6", "7", "8", "9", "10", "11/12")}
        assert not any(option["space"] in closed_spaces for option in state.free_options(0))
    else:
        assert closed_spaces == set()


def test_R4_a_bet_on_a_closed_space_is_refused_with_its_reason():
    state = at_the_race({"players": 1, "variant": "house_bets", "races": 1})
    before = state.to_json()
    with pytest.raises(IllegalAction, match="closed"):
        state.apply_free(0, {"type": "bet", "token": "2", "space": "win:7:L"})
    assert state.to_json() == before


def test_the_lobby_form_allows_one_bettor_only_with_house_bets():
    description = description_of("readysetbet")
    assert description.form({"variant": "house_bets"}) == {}
    assert description.form({"variant": "standard"})["players"]["minimum"] == 2
