"""Race rules T1, T2, T6, T9, T11 (falls), T13 and the rulebooks' own examples."""

import pytest

from hippodrome.core import IllegalAction
from hippodrome.core.game import Chance, Decision
from hippodrome.turfmaster.race import Race

from .helpers import race_at, where


def roll(race, a, b):
    pending = race.pending()
    assert isinstance(pending, Chance) and pending.kind == "roll"
    race.apply({"type": "roll", "dice": [a, b]})


def play_card(race, card):
    pending = race.pending()
    assert pending.kind == "card", pending
    race.apply({"type": "card", "horse": pending.context["horse"], "card": card})


def take_first_square(race):
    pending = race.pending()
    if isinstance(pending, Decision) and pending.kind == "square":
        race.apply(pending.options[0])


def test_T1_card_round_first_then_dice_rounds_alternate():
    race = race_at({"red": (0, 0), "blue": (1, 0)})
    kinds = []
    for _ in range(3):
        kinds.append(race.round_kind)
        while race.round_kind == "card":
            play_card(race, race.pending().options[0]["card"])
            take_first_square(race)
        kinds.append(race.round_kind)
        roll(race, 1, 2)
        race.apply({"type": "dice_use", "use": "die", "value": 1})
        while race.round_kind == "dice":
            take_first_square(race)
    assert kinds == ["card", "dice"] * 3


def test_T1_each_horse_moves_once_per_round_and_the_card_is_spent():
    race = race_at({"red": (0, 0), "blue": (1, 0)})
    play_card(race, "3")
    take_first_square(race)
    assert race.hands["red"].count("3") == 0
    assert race.pending().context["horse"] == "blue"
    play_card(race, "4")
    take_first_square(race)
    assert isinstance(race.pending(), Chance)


def test_T2_move_order_farthest_first_inner_lane_first_on_a_line():
    race = race_at({"red": (3, 10), "blue": (1, 12), "yellow": (0, 10), "green": (5, 12)})
    assert race.order == ["blue", "green", "yellow", "red"]


def test_T2_T6_competition_ranking_french_example_1():
    # Yellow and Black level in front, Red behind them, Brown and Blue further back
    race = race_at({"yellow": (0, 16), "brown": (1, 12), "red": (1, 14), "black": (1, 16), "blue": (2, 12)})
    assert race.limits == {"yellow": 8, "black": 8, "red": 10}


def test_T2_T6_competition_ranking_french_example_2():
    race = race_at({"red": (0, 14), "purple": (0, 16), "yellow": (1, 14), "brown": (2, 12),
                    "black": (2, 14), "blue": (3, 12), "green": (3, 14)})
    assert race.limits == {"purple": 8, "red": 9, "yellow": 9, "black": 9, "green": 9}


def test_T2_T6_three_level_in_front_then_the_next_is_fourth_dutch_example():
    race = race_at({"red": (0, 20), "blue": (1, 20), "yellow": (2, 20), "green": (0, 15)})
    assert race.limits == {"red": 8, "blue": 8, "yellow": 8}


def test_T2_T6_levelness_in_a_curve_follows_the_lines():
    # rail curve square 10 of 20 and lane 2 curve square 11 of 22 stand at the same fraction
    race = race_at({"red": (0, 40), "blue": (2, 41), "yellow": (1, 35), "green": (3, 30)})
    assert race.course.line_of[race.square["red"]] == race.course.line_of[race.square["blue"]]
    assert race.limits == {"red": 8, "blue": 8, "yellow": 10}
    assert race.order[:2] == ["red", "blue"]


def test_T6_start_every_horse_is_first_and_a_9_plus_non_joker_does_not_move():
    race = race_at({h: (lane, 0) for lane, h in enumerate(["red", "blue", "yellow", "green"])})
    assert race.limits == {"red": 8, "blue": 8, "yellow": 8, "green": 8}
    pending = race.pending()
    assert "does not move" in pending.notes[[o["card"] for o in pending.options].index("9")]
    play_card(race, "9")
    assert where(race, "red") == (0, 0) and "9" not in race.hands["red"]
    assert race.pending().context["horse"] == "blue"


def test_T6_a_joker_ignores_the_handicap():
    race = race_at({h: (lane, 0) for lane, h in enumerate(["red", "blue", "yellow", "green"])})
    play_card(race, "J12")
    take_first_square(race)
    assert where(race, "red")[1] == 12


def test_T6_handicaps_are_fixed_at_the_start_of_the_round():
    race = race_at({"red": (0, 20), "blue": (1, 10), "yellow": (2, 10), "green": (3, 5)})
    assert race.limits["blue"] == 9
    play_card(race, "3")  # red goes to 23
    take_first_square(race)
    play_card(race, "J12")  # blue passes red: still limited to 9 this round
    take_first_square(race)
    assert race.limits["blue"] == 9 and race.limits["red"] == 8


def test_T6_turn_roll_10_example_leaders_move_one_die_of_their_choice():
    race = race_at({"red": (0, 30 - 10), "blue": (1, 18), "yellow": (2, 16), "green": (3, 10)},
                   first_round="dice")
    assert race.limits == {"red": 8, "blue": 9, "yellow": 10}
    roll(race, 6, 4)
    race.apply({"type": "dice_use", "use": "sum"})
    pending = race.pending()
    assert pending.kind == "die" and pending.context["horse"] == "red"
    assert [o["value"] for o in pending.options] == [4, 6]
    with pytest.raises(IllegalAction):
        race.apply({"type": "die", "horse": "red", "value": 10})
    race.apply({"type": "die", "horse": "red", "value": 6})
    take_first_square(race)
    assert where(race, "red")[1] == 26
    pending = race.pending()
    assert pending.kind == "die" and pending.context["horse"] == "blue"
    race.apply({"type": "die", "horse": "blue", "value": 4})
    take_first_square(race)
    assert where(race, "blue")[1] == 22
    # third place's maximum is 10: a sum of 10 is not above it
    take_first_square(race)
    assert where(race, "yellow")[1] == 26
    take_first_square(race)
    assert where(race, "green")[1] == 20


def test_T6_a_double_above_the_limit_moves_that_die_without_asking():
    race = race_at({"red": (0, 20), "blue": (1, 10)}, first_round="dice")
    roll(race, 5, 5)
    race.apply({"type": "dice_use", "use": "sum"})
    take_first_square(race)
    assert where(race, "red")[1] == 25


def test_T6_one_die_chosen_means_no_handicap_question():
    race = race_at({"red": (0, 20), "blue": (1, 10)}, first_round="dice")
    roll(race, 6, 2)
    race.apply({"type": "dice_use", "use": "die", "value": 6})
    take_first_square(race)
    assert where(race, "red")[1] == 26


def test_T10_the_right_to_roll_passes_clockwise_every_dice_round():
    race = race_at({"red": (0, 0), "blue": (1, 0), "yellow": (2, 0)}, first_roller=1)
    rollers = []
    for _ in range(4):
        while race.round_kind == "card":
            play_card(race, race.pending().options[0]["card"])
            take_first_square(race)
        roll(race, 1, 1)
        rollers.append(race.pending().seat)
        race.apply({"type": "dice_use", "use": "sum"})
        while race.round_kind == "dice":
            take_first_square(race)
    assert rollers == [1, 2, 0, 1]


def test_T9_round_is_played_out_and_a_later_horse_can_win():
    # red crosses first in order, blue (behind) passes it in the same round and wins
    race = race_at({"red": (0, 108), "blue": (2, 107), "yellow": (4, 50), "green": (6, 40)},
                   hands={"red": ["6"], "blue": ["J12"], "yellow": ["3"], "green": ["3"]})
    play_card(race, "6")
    take_first_square(race)
    assert race.course.crossed[race.square["red"]] and race.stage["red"] == "racing"
    play_card(race, "J12")
    race.apply({"type": "square", "horse": "blue", "lane": 2, "square": 119})
    play_card(race, "3")
    take_first_square(race)
    play_card(race, "3")
    take_first_square(race)
    assert race.places == ["blue", "red"]
    assert race.stage["blue"] == "finished" and race.stage["yellow"] == "racing"


def test_T9_level_past_the_line_inner_lane_wins():
    race = race_at({"blue": (0, 104), "red": (2, 108), "yellow": (4, 50), "green": (6, 40)},
                   hands={"red": ["J12"], "blue": ["J12"], "yellow": ["3"], "green": ["3"]})
    assert race.order[:2] == ["blue", "red"]
    play_card(race, "J12")
    race.apply({"type": "square", "horse": "blue", "lane": 0, "square": 116})
    play_card(race, "J12")
    race.apply({"type": "square", "horse": "red", "lane": 2, "square": 120})
    assert race.course.line_of[race.square["red"]] == race.course.line_of[race.square["blue"]]
    for _ in range(2):
        play_card(race, "3")
        take_first_square(race)
    assert race.places == ["blue", "red"]


def test_T9_T2_finished_horses_count_ahead_in_the_handicap_ranking():
    race = race_at({"red": (0, 110), "blue": (2, 50), "yellow": (4, 48), "green": (6, 30)},
                   hands={"red": ["J12"], "blue": ["3"], "yellow": ["3"], "green": ["3"]})
    play_card(race, "J12")
    take_first_square(race)
    for _ in range(3):
        play_card(race, "3")
        take_first_square(race)
    assert race.places == ["red"]
    # the next round: blue leads the track but is 2nd in the race
    assert race.limits == {"blue": 9, "yellow": 10}


def test_T9_race_goes_on_until_every_horse_has_finished():
    race = race_at({"red": (0, 110), "blue": (2, 112)}, hands={"red": ["J12"], "blue": ["3"]})
    play_card(race, "J12")
    take_first_square(race)
    play_card(race, "3")
    take_first_square(race)
    assert race.places == ["red"] and not race.over
    roll(race, 6, 6)
    race.apply({"type": "dice_use", "use": "sum"})
    # blue is 2nd (red finished ahead of it): 12 > 9, so one die, a 6
    take_first_square(race)
    assert race.places == ["red", "blue"] and race.over and race.pending() is None


def test_T11_card_round_fall_when_the_jump_cannot_be_completed():
    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True,
                   hands={"red": ["6"], "blue": ["3"]})
    play_card(race, "6")
    pending = race.pending()
    assert all("falls" in note for note in pending.notes)
    race.apply(pending.options[0])
    assert race.stage["red"] == "fallen" and race.fallen == ["red"]
    assert "red" not in race.racing()


def test_T11_dice_round_stops_before_the_fence_instead_of_falling():
    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True, first_round="dice")
    roll(race, 5, 1)
    race.apply({"type": "dice_use", "use": "die", "value": 5})
    pending = race.pending()
    assert pending.kind == "square" and pending.context["steps"] == 3
    race.apply({"type": "square", "horse": "red", "lane": 2, "square": 9})
    assert race.stage["red"] == "racing" and where(race, "red") == (2, 9)


def test_T11_fallen_horse_is_out_and_scores_no_place():
    race = race_at({"red": (2, 6), "blue": (4, 112)}, steeplechase=True,
                   hands={"red": ["6"], "blue": ["J12"]})
    play_card(race, "J12")
    take_first_square(race)
    play_card(race, "6")
    race.apply(race.pending().options[0])
    assert race.over and race.places == ["blue"] and race.fallen == ["red"]


def test_T13_no_card_left_means_standing_still_in_a_card_round():
    race = race_at({"red": (0, 10), "blue": (1, 5)}, hands={"red": [], "blue": ["3"]})
    assert race.pending().context["horse"] == "blue"
    assert race.history[-1] == {"round": 1, "event": "no_card", "horse": "red"}
    play_card(race, "3")
    take_first_square(race)
    assert where(race, "red") == (0, 10)


def test_T13_false_start_from_an_outer_stall_is_allowed():
    race = race_at({h: (lane, 0) for lane, h in enumerate(["red", "blue", "yellow", "green"])})
    for card in ["3", "4", "6"]:
        play_card(race, card)
        take_first_square(race)
    play_card(race, "10")  # green: 10 > 8, a deliberate false start
    assert where(race, "green") == (3, 0)


def test_bad_choices_are_refused_and_change_nothing():
    race = race_at({"red": (0, 0), "blue": (1, 0)})
    before = race.to_json()
    for bad in [{"type": "card", "horse": "red", "card": "5"}, {"type": "card", "horse": "blue", "card": "3"},
                {"type": "square", "horse": "red", "lane": 0, "square": 3}, "3", {"type": "roll", "dice": [1, 1]}]:
        with pytest.raises(IllegalAction):
            race.apply(bad)
    assert race.to_json() == before


def test_setup_errors_are_clear():
    from hippodrome.core import InvalidSetup
    with pytest.raises(InvalidSetup, match="both on lane 0, square 3"):
        race_at({"red": (0, 3), "blue": (0, 3)})
    with pytest.raises(InvalidSetup, match="fence"):
        race_at({"red": (0, 10), "blue": (1, 3)}, steeplechase=True)
    with pytest.raises(InvalidSetup, match="no fences"):
        race_at({"red": (0, 10), "blue": (1, 3)}, course="triangle", steeplechase=True)
    with pytest.raises(InvalidSetup, match="unknown course"):
        Race.new({"course": "square", "horses": [{"id": "red"}]})
