"""The search representation against the rules engine (T1-T6, T9, T11, T13): thousands of random
positions played through both, every pending step, legal option set and result compared.

Each race is played by the rules engine (:class:`Race`) with random legal choices; beside it a
:class:`SearchRace` made once after the deal takes the same actions as lean ints. At every step the
two must wait for the same thing, offer the same options in the same order, and the carried search
state must equal one made afresh from the race (so ``apply`` agrees with the race's, not only the
options). Setups vary the course, fences, field size, seats, the first round and the hands (short
hands run dry: T13, and with unclaimed bonus cards the empty-hand decision of T8).
"""

from __future__ import annotations

import random

import pytest

from hippodrome.core.game import Chance
from hippodrome.turfmaster.cards import full_deck
from hippodrome.turfmaster.course import NO_SQUARE, load_course
from hippodrome.turfmaster.movement import (
    _Asked, _flat_destinations, _free_flat_moves, _free_moves, _searched_destinations, blocked_squares, destinations,
    moves_among,
)
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.search_state import SearchRace

from .helpers import COLOURS
from .reference_movement import reference_destinations

RACES = 40


def random_setup(rng: random.Random) -> dict:
    course = rng.choice(["oval", "triangle"])
    horses = rng.randint(2, 8 if course == "oval" else 7)
    seats = rng.randint(1, horses)
    setup = {"course": course, "steeplechase": course == "oval" and rng.random() < 0.5, "seats": seats,
             "horses": [{"id": COLOURS[i], "owner": i % seats} for i in range(horses)],
             "first_round": rng.choice(["card", "dice"]), "first_roller": rng.randrange(seats)}
    if rng.random() < 0.4:  # short hands: horses run out of cards (T13), some with bonus cards unclaimed (T8)
        ids = [h["id"] for h in setup["horses"]]
        setup["hands"] = {h: rng.sample(full_deck(), rng.randint(1, 6)) for h in ids}
        setup["bonus_unclaimed"] = rng.sample(ids, rng.randint(0, len(ids)))
    return setup


def same_state(lean: SearchRace, race: Race) -> None:
    fresh = SearchRace.from_race(race)
    for name in SearchRace.__slots__:
        if name == "moves":
            assert (lean.moves is None) == (fresh.moves is None) and (
                lean.moves is None or lean.moves.ends == fresh.moves.ends), name
        else:
            assert getattr(lean, name) == getattr(fresh, name), name


def play_both(seed: int) -> int:
    """One random race through the race and the search state; returns the positions compared."""
    rng = random.Random(seed)
    race = Race.new(random_setup(rng))
    pending = race.pending()
    if isinstance(pending, Chance) and pending.kind == "deal":
        race.apply(pending.sample(rng))
    with pytest.raises(ValueError):
        SearchRace.from_race(Race.new({"horses": [{"id": "red"}]}))  # not dealt yet
    lean = SearchRace.from_race(race)
    positions = 0
    while True:
        pending = race.pending()
        kind = lean.pending_kind()
        positions += 1
        if pending is None:
            assert kind is None and lean.over and lean.legal() == ()
            break
        legal = lean.legal()
        if isinstance(pending, Chance):
            assert kind == "roll" == pending.kind and lean.seat() is None
            outcome = pending.sample(rng)
            assert lean.lean_action(outcome) in legal
            action = lean.lean_action(outcome)
            assert lean.action_of(action) == outcome
        else:
            assert (kind, lean.seat()) == (pending.kind, pending.seat)
            assert [lean.action_of(a) for a in legal] == list(pending.options)
            assert [lean.lean_action(o) for o in pending.options] == list(legal)
            outcome = rng.choice(pending.options)
            action = lean.lean_action(outcome)
        race.apply(outcome)
        lean.apply(action)
        same_state(lean, race)
        if rng.random() < 0.2:  # a clone plays on alone; the original is untouched
            twin = lean.clone()
            if twin.legal():
                twin.apply(rng.choice(twin.legal()))
            same_state(lean, race)
    assert lean.places_and_fallen() == (race.places, race.fallen)
    assert [lean.square[n] for n in range(len(race.ids))] == [race.square[h] for h in race.ids]
    return positions


def test_T1_T6_T9_T11_T13_the_search_state_plays_as_the_race_in_thousands_of_positions():
    positions = sum(play_both(seed) for seed in range(RACES))
    assert positions >= 3000


@pytest.mark.parametrize("course", ["oval", "triangle"])
def test_T3_T4_T5_flat_moves_walked_straight_agree_with_the_step_by_step_search(course):
    """The moves of a flat race (walk by walk, a straight walk at once by bisection; or the move on an
    empty course when no horse blocks its window) against the step-by-step search and the naive
    reference, over thousands of random fields."""
    board = load_course(course)
    rng = random.Random(course)
    for _ in range(3000):
        squares = rng.sample(range(len(board)), rng.randint(1, 8))
        start, others = squares[0], squares[1:]
        blocked = blocked_squares(board, others)
        points = rng.randint(1, 12)
        walked = destinations(board, start, points, blocked)
        among = moves_among(board, start, points, others)
        searched = _searched_destinations(board, start, points, blocked, frozenset())
        flat = _flat_destinations(board, start, points, blocked)
        assert (walked.steps, walked.ends) == (among.steps, among.ends) == (searched.steps, searched.ends)
        assert (flat.steps, flat.ends) == (searched.steps, searched.ends)
        if rng.random() < 0.1:
            assert (walked.steps, list(walked.ends)) == reference_destinations(board, start, points, blocked,
                                                                                  frozenset())


@pytest.mark.parametrize("fenced", [False, True])
def test_T4_T11_a_move_among_horses_is_blocked_by_those_near_it_alone(fenced):
    """``moves_among`` blocks with the horses near the move only (those whose blocked squares the move
    could ask about): against the step-by-step search with every horse's blocked squares, over
    thousands of crowded fields (horses ahead of the mover and beside its way, and some far off)."""
    board = load_course("oval")
    fences = board.fence_squares if fenced else frozenset()
    rng = random.Random(f"crowded {fenced}")
    checked = 0
    while checked < 3000:
        start = rng.randrange(len(board))
        around, square = [], start
        for _ in range(14):  # the squares ahead and beside them
            square = board.next[square]
            if square == NO_SQUARE:
                break
            around += [s for s in (square, board.inward[square], board.outward[square]) if s != NO_SQUARE]
        around = [s for s in set(around) if s not in fences and s != start]
        if start in fences or not around:
            continue
        others = rng.sample(around, min(len(around), rng.randint(1, 5)))
        others += [s for s in rng.sample(range(len(board)), 3) if s not in fences and s != start
                   and s not in others][:rng.randint(0, 2)]
        points = rng.randint(1, 12)
        searched = _searched_destinations(board, start, points, blocked_squares(board, others), fences)
        assert moves_among(board, start, points, others, fences) == searched, (start, points, others)
        checked += 1


@pytest.mark.parametrize("course", ["oval", "triangle"])
def test_T3_T4_the_empty_course_move_and_its_window_are_the_step_by_step_search_s(course):
    """A move no horse comes near is the empty course's (cached): checked on every square and every
    value, its result and the squares near its window against what the step-by-step search asks."""
    board = load_course(course)
    for start in range(len(board)):
        for points in range(1, 13):
            near, free = _free_flat_moves(board, start, points)
            asked = _Asked()
            assert free == _searched_destinations(board, start, points, asked, frozenset())
            expected = 0
            for square in asked.squares:
                for neighbour in (square, board.next[square], board.prev[square]):
                    if neighbour != NO_SQUARE:
                        expected |= 1 << neighbour
            assert near == expected, (start, points)


@pytest.mark.parametrize("course", ["oval", "triangle"])
def test_T3_T5_the_ways_kept_to_each_end_of_an_empty_course_move_are_paths_of_its_full_points(course):
    """A move among horses near it keeps the empty course's ends that some way still reaches (checked
    against the step-by-step search above): each way kept is a path of the move's points to its end,
    a first step (ahead, or a lane change on point 1), a straight walk, then at most one lane change
    on point 7 or later and a straight walk; every end of a move of at least one point has one."""
    board = load_course(course)
    for start in range(len(board)):
        firsts = {board.next[start], board.inward[start], board.outward[start]} - {NO_SQUARE}
        for points in range(1, 13):
            _near, free, ways = _free_moves(board, start, points, frozenset())
            assert len(ways) == len(free.ends)
            for end, paths in zip(free.ends, ways):
                assert paths or free.steps == 0, (start, points, end)
                for first, low, high, shift in paths:
                    assert first in firsts
                    for turn in range(low, high + 1):
                        assert first <= turn <= board.lane_last[first]
                        if shift == 0:
                            assert turn == end and end - first + 1 == free.steps
                            continue
                        side = turn + shift
                        assert side in (board.inward[turn], board.outward[turn])
                        assert side <= end <= board.lane_last[side]
                        assert turn - first + 2 >= 7  # the late lane change (T3)
                        assert (turn - first + 1) + 1 + (end - side) == free.steps
