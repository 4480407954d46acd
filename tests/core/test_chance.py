"""core.chance: chance steps list their outcomes with probabilities, or describe them as draws
(T7 decks, T8 random discards, T10 stall rolls, R1 rolls, R8 VIP reshuffles, R9 first House)."""

import doctest
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

import hippodrome.readysetbet.game  # noqa: F401  (registers the games)
import hippodrome.turfmaster.meeting  # noqa: F401
from hippodrome.core import chance as chancemod
from hippodrome.core.chance import Draws, Pool, chance_outcomes, draw_outcomes, outcome_probability, uniform
from hippodrome.core.dice import roll_chance
from hippodrome.core.game import Chance
from hippodrome.core.registry import game_class
from hippodrome.turfmaster.cards import full_deck


def every_sequence(draws, drawn=()):
    """Every way to draw an outcome, with its probability (small draws only)."""
    if len(drawn) == draws.length:
        yield list(drawn), Fraction(1)
        return
    for item, probability in draw_outcomes(draws, list(drawn)):
        for sequence, rest in every_sequence(draws, drawn + (item,)):
            yield sequence, probability * rest


def two_of(items, replacement=False):
    return Draws((Pool(tuple(items), 2, replacement),), lambda drawn: {"cards": drawn[0]},
                 lambda action: [action["cards"]])


def test_the_module_examples_hold():
    assert doctest.testmod(chancemod).failed == 0


def test_a_repeated_item_is_as_likely_as_its_copies_and_leaves_one_copy_fewer():
    draws = two_of(["12", "12", "J12", "7"])
    assert dict(draw_outcomes(draws, [])) == {"12": Fraction(1, 2), "J12": Fraction(1, 4), "7": Fraction(1, 4)}
    assert dict(draw_outcomes(draws, ["12"])) == {"12": Fraction(1, 3), "J12": Fraction(1, 3), "7": Fraction(1, 3)}
    assert dict(draw_outcomes(draws, ["J12"])) == {"12": Fraction(2, 3), "7": Fraction(1, 3)}


@pytest.mark.parametrize("items, replacement", [(["12", "12", "J12", "7"], False), ("abc", False),
                                                ((1, 2, 2), True)])
def test_every_sequence_of_draws_adds_up_to_one_and_matches_counting(items, replacement):
    draws = two_of(items, replacement)
    sequences = list(every_sequence(draws))
    assert sum(p for _, p in sequences) == 1
    step = Chance("pick", lambda rng: {}, lambda action: True, draws=draws)
    # the probability of an ordered pair of values, counted over every ordered pair of positions
    positions = (itertools.product(range(len(items)), repeat=2) if replacement
                 else itertools.permutations(range(len(items)), 2))
    counted = Counter(tuple(items[i] for i in pair) for pair in positions)
    total = sum(counted.values())
    for sequence, probability in sequences:
        assert probability == Fraction(counted[tuple(sequence)], total)
        assert outcome_probability(step, draws.action(sequence)) == probability


def test_an_outcome_the_draws_cannot_make_has_probability_zero():
    step = Chance("pick", lambda rng: {}, lambda action: "cards" in action, draws=two_of(["12", "7"]))
    assert outcome_probability(step, {"cards": ["12", "12"]}) == 0  # one 12 only
    assert outcome_probability(step, {"cards": ["12"]}) == 0  # too few
    assert outcome_probability(step, {"cards": ["12", "7"], "extra": 1}) == 0  # not what build makes
    assert outcome_probability(step, {"hands": ["12", "7"]}) == 0  # refused by is_valid


def test_listed_outcomes_and_their_probabilities():
    step = Chance("seat", lambda rng: {"seat": rng.randrange(3)}, lambda action: True,
                  outcomes=lambda: uniform({"seat": s} for s in range(3)))
    assert chance_outcomes(step) == [({"seat": s}, Fraction(1, 3)) for s in range(3)]
    assert outcome_probability(step, {"seat": 2}) == Fraction(1, 3)
    assert outcome_probability(step, {"seat": 3}) == 0
    with pytest.raises(ValueError, match="draw_outcomes"):
        chance_outcomes(Chance("pick", lambda rng: {}, lambda action: True, draws=two_of("ab")))


def test_a_step_gives_outcomes_or_draws_not_both_and_a_pool_holds_what_is_drawn():
    with pytest.raises(ValueError, match="not both"):
        Chance("x", lambda rng: {}, lambda a: True, outcomes=lambda: [], draws=two_of("ab"))
    with pytest.raises(ValueError, match="cannot draw 3"):
        Pool(("a", "b"), 3)
    assert Pool(("a", "b"), 3, replacement=True).count == 3
    with pytest.raises(ValueError, match="all 2 items"):
        draw_outcomes(two_of("ab"), ["a", "b"])


def test_a_roll_lists_the_36_ordered_rolls_and_draws_among_them():
    step = roll_chance()
    outcomes = chance_outcomes(step)
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == 1
    assert all(step.is_valid(action) for action, _ in outcomes)
    rng = random.Random("rolls")
    counts = Counter(tuple(step.sample(rng)["dice"]) for _ in range(36_000))
    assert len(counts) == 36 and all(850 < n < 1150 for n in counts.values())  # about 1000 each


# -- the games' own steps --------------------------------------------------------------
def chance_of_kind(game, setup, kind):
    """The game's first chance step of ``kind``, the chance steps before it drawn from fixed seeds."""
    state = game_class(game).new(setup)
    for number in itertools.count():
        pending = state.pending()
        assert isinstance(pending, Chance)
        if pending.kind == kind:
            return state, pending
        state.apply(pending.sample(random.Random(number)))


def test_turfmaster_shuffle_draws_a_deck_of_32_with_its_two_12s_twice_as_likely_as_a_joker_t7():
    _, shuffle = chance_of_kind("turfmaster", {"players": 2, "horses_per_player": 2}, "shuffle")
    first = dict(draw_outcomes(shuffle.draws, []))
    assert first["12"] == Fraction(2, 32) and first["J12"] == Fraction(1, 32) and first["8"] == Fraction(5, 32)
    deck = shuffle.sample(random.Random("deck"))
    copies = Counter(full_deck()).values()
    assert outcome_probability(shuffle, deck) == Fraction(math.prod(math.factorial(n) for n in copies),
                                                          math.factorial(32))


def test_a_stall_roll_is_two_dice_per_horse_drawn_in_turn_t10():
    # four players with two horses each: the first round rolls for each player's first horse
    _, stall = chance_of_kind("turfmaster", {"players": 4, "horses_per_player": 2}, "stall_roll")
    assert stall.outcomes is None and stall.draws.length == 8
    rolled = stall.sample(random.Random(5))
    assert outcome_probability(stall, rolled) == Fraction(1, 6 ** 8)
    assert stall.draws.action(stall.draws.drawn_in(rolled)) == rolled


def test_a_bonus_discard_draws_from_the_hand_with_its_repeated_cards_t8():
    from hippodrome.turfmaster.meeting import Meeting

    state = Meeting.new({"players": 2, "horses_per_player": 2})
    horse = state.ids[0]
    state.phase, state.discard_queue = "prepare", [horse]
    state.hands[horse] = ["8", "8", "J12"]
    state._pending_cache = None
    discard = state.pending()
    assert discard.kind == "bonus_discard"
    assert dict(draw_outcomes(discard.draws, [])) == {"8": Fraction(2, 3), "J12": Fraction(1, 3)}
    pairs = dict((tuple(seq), p) for seq, p in every_sequence(discard.draws))
    assert pairs == {("8", "8"): Fraction(1, 3), ("8", "J12"): Fraction(1, 3), ("J12", "8"): Fraction(1, 3)}
    assert all(discard.is_valid(discard.draws.action(list(pair))) for pair in pairs)
    assert outcome_probability(discard, discard.sample(random.Random(2))) > 0


def test_a_race_deal_is_ten_cards_per_horse_from_its_own_deck():
    _, deal = chance_of_kind("turfmaster-race", {"horses": [{"id": "red"}, {"id": "blue"}]}, "deal")
    assert [pool.count for pool in deal.draws.pools] == [10, 10]
    dealt = deal.sample(random.Random(9))
    assert deal.draws.drawn_in(dealt) == dealt["hands"]["red"] + dealt["hands"]["blue"]
    assert outcome_probability(deal, dealt) > 0


def test_ready_set_bet_shuffles_three_decks_and_draws_the_callers_seed_as_four_bytes():
    _, shuffle = chance_of_kind("readysetbet", {"players": 3}, "shuffle")
    drawn = shuffle.sample(random.Random(4))
    assert 0 <= drawn["caller"] < 2 ** 32
    assert outcome_probability(shuffle, drawn) > 0
    assert outcome_probability(shuffle, {**drawn, "caller": 2 ** 32}) == 0  # valid, but never drawn
    assert all(p == Fraction(1, 256) for _, p in draw_outcomes(shuffle.draws, shuffle.draws.drawn_in(drawn)[:-1]))


def test_the_first_house_is_any_seat_alike_r9():
    _, house = chance_of_kind("readysetbet", {"players": 5, "variant": "rotating_house"}, "first_house")
    assert chance_outcomes(house) == [({"type": "first_house", "seat": s}, Fraction(1, 5)) for s in range(5)]
    assert house.sample(random.Random(3)) in [action for action, _ in chance_outcomes(house)]
