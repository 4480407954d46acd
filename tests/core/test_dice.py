"""core.dice: the one place every game draws, checks and lists dice (T1/T10 dice rounds and stall
rolls, R1 race rolls)."""

import doctest
import random
from fractions import Fraction

import pytest

from hippodrome.core import dice


def test_the_module_examples_hold():
    assert doctest.testmod(dice).failed == 0


@pytest.mark.parametrize("seed", ["0:0", "7:12", "conformance:3"])
def test_a_seed_draws_the_dice_it_always_drew_one_randint_per_die_in_order(seed):
    before = random.Random(seed)
    assert dice.roll(random.Random(seed)) == [before.randint(1, 6), before.randint(1, 6)]
    before = random.Random(seed)
    assert dice.roll(random.Random(seed), 3) == [before.randint(1, 6) for _ in range(3)]


@pytest.mark.parametrize("value", [[1, 6], [6, 6], [3, 1]])
def test_two_dice_as_logged_are_dice(value):
    assert dice.is_dice(value)


@pytest.mark.parametrize("value", [[0, 6], [1, 7], [True, 2], [1.0, 2], ["1", 2], [1], [1, 2, 3], (1, 2), None, "12"])
def test_anything_else_is_not_two_dice(value):
    assert not dice.is_dice(value)


def test_the_outcomes_of_two_dice_are_the_36_ordered_rolls_each_one_in_36():
    outcomes = dice.dice_outcomes(2)
    assert len(outcomes) == len({roll for roll, _ in outcomes}) == 36
    assert {probability for _, probability in outcomes} == {Fraction(1, 36)}
    assert sum(probability for _, probability in outcomes) == 1
    assert all(dice.is_dice(list(roll)) for roll, _ in outcomes)
    assert sum(p for roll, p in outcomes if sum(roll) == 7) == Fraction(1, 6)


def test_the_outcomes_of_one_and_three_dice():
    assert [roll for roll, _ in dice.dice_outcomes(1)] == [(face,) for face in dice.FACES]
    assert sum(p for _, p in dice.dice_outcomes(3)) == 1 and len(dice.dice_outcomes(3)) == 216


def test_the_roll_step_draws_valid_rolls_and_refuses_others():
    step = dice.roll_chance({"race": 2}, timed=True)
    assert (step.kind, step.context, step.timed) == ("roll", {"race": 2}, True)
    rng = random.Random("roll")
    for _ in range(200):
        assert step.is_valid(step.sample(rng))
    for bad in ({"type": "roll", "dice": [0, 1]}, {"type": "rolls", "dice": [1, 1]}, {"dice": [1, 1]},
                {"type": "roll"}, "roll", None, ["roll"]):
        assert not step.is_valid(bad)
