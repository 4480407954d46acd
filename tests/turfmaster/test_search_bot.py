"""The search bot (issue 16): information-set Monte Carlo tree search over determinisations drawn
from the seat's view alone (T7: each horse has its own deck; T9: race points are its rewards)."""

import random
from collections import Counter
from itertools import islice

import pytest

from hippodrome.arena.turfmaster import simulate
from hippodrome.core.match import Match
from hippodrome.table.bots import make_bot
from hippodrome.turfmaster.cards import full_deck
from hippodrome.turfmaster.determinize import RACE_DECISIONS, determinize, search_draws, unseen_cards
from hippodrome.turfmaster.search import SearchBot, playout
from hippodrome.turfmaster.search_state import SearchRace


def race_decisions(game: str, setup: dict, seed: int, every: int = 1):
    """(match, pending) at the race decisions of a random game, every ``every``-th one."""
    match = Match(game, setup, seed)
    rng = random.Random(seed)
    count = 0
    while match.pending() is not None:
        pending = match.pending()
        if pending.kind in RACE_DECISIONS:
            count += 1
            if count % every == 0:
                yield match, pending
        match.act(pending.seat, rng.choice(pending.options))


def plain(options):
    return [o for o in options if o["type"] not in ("claim_bonus", "decline_bonus")]


@pytest.mark.parametrize("game, setup", [("turfmaster", {"players": 3, "steeplechase": True}),
                                         ("turfmaster", {"players": 2, "course": "triangle"}),
                                         ("turfmaster-race", {"players": 4})])
def test_a_determinisation_faces_the_same_decision_as_the_view(game, setup):
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        for match, pending in race_decisions(game, setup, seed, every=3):
            view = match.state.observation(pending.seat)
            race = determinize(view, pending.seat, rng)
            again = race.pending()
            assert again.kind == pending.kind and list(again.options) == plain(view["pending"]["options"])
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game, setup", [("turfmaster", {"players": 3}), ("turfmaster-race", {"players": 4})])
def test_a_search_draws_the_lean_states_of_the_determinisations_of_its_view(game, setup):
    """T7: the draws a search makes from one view (search_draws) are the determinisations of that
    view made lean, the same hands from the same generator, each played on apart from the others."""
    checked = 0
    for match, pending in islice(race_decisions(game, setup, 5, every=3), 8):
        view = match.state.observation(pending.seat)
        draw = search_draws(view, pending.seat)
        for sample in range(2):
            drawn = draw(random.Random(sample))
            made = SearchRace.from_race(determinize(view, pending.seat, random.Random(sample)))
            assert [getattr(drawn, name) for name in SearchRace.__slots__] == \
                [getattr(made, name) for name in SearchRace.__slots__]
            playout(drawn, random.Random(sample))   # the next draw starts from the view again
        checked += 1
    assert checked == 8


def test_a_determinisation_keeps_the_seats_hands_and_draws_the_others_from_unseen_cards():
    """T7: each horse draws from its own deck; the view shows how many cards each horse holds."""
    match, pending = next(race_decisions("turfmaster", {"players": 3}, 2, every=40))
    view = match.state.observation(pending.seat)
    race_view = view["race"]
    others_seen = set()
    for sample in range(20):
        race = determinize(view, pending.seat, random.Random(sample))
        for entry in race_view["horses"]:
            horse, hand = entry["id"], race.hands[entry["id"]]
            assert len(hand) == entry["cards_left"]
            if entry["owner"] == pending.seat:
                assert sorted(hand) == sorted(race_view["hands"][horse])
            else:
                assert not Counter(hand) - Counter(unseen_cards(race_view, horse))
                others_seen.add((horse, tuple(sorted(hand))))
    true_hands = {(h, tuple(sorted(match.state.race.hands[h]))) for h in match.state.race.ids
                  if match.state.race.owner[h] != pending.seat}
    assert len(others_seen) > len(true_hands), "other hands must vary between determinisations"


def test_unseen_cards_leave_out_what_the_horse_played_in_this_race():
    history = [{"event": "card", "horse": "red", "card": "J12"}, {"event": "card", "horse": "blue", "card": "3"}]
    left = Counter(unseen_cards({"history": history}, "red"))
    assert left["J12"] == Counter(full_deck())["J12"] - 1 and left["3"] == Counter(full_deck())["3"]


def test_the_search_bot_decides_from_the_view_alone():
    """Two states that differ only in another seat's hand give the same view, and the bot (same
    seed, same number of iterations) the same choice: it cannot read what is hidden."""
    compared = 0
    for match, pending in race_decisions("turfmaster", {"players": 2, "horses_per_player": 2}, 4, every=25):
        view = match.state.observation(pending.seat)
        twin = match.state.clone()
        others = [h for h in twin.race.ids if twin.race.owner[h] != pending.seat and twin.race.hands[h]]
        if not others:
            continue
        hand = twin.race.hands[others[0]]
        twin.race.hands[others[0]] = sorted(full_deck(), key=lambda c: (c in hand, c))[:len(hand)]
        assert twin.race.hands[others[0]] != hand
        twin_view = twin.observation(pending.seat)
        assert twin_view == view
        first = SearchBot(1, think=0, iterations=30).choose(view, pending.options)
        second = SearchBot(1, think=0, iterations=30).choose(twin_view, pending.options)
        assert first == second and pending.allows(first)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def test_the_search_bot_plays_only_legal_moves_through_a_race_and_searches():
    match = Match("turfmaster-race", {"players": 2, "horses_per_player": 2, "steeplechase": True}, 11)
    bots = [SearchBot(0, think=0, iterations=20), make_bot("turfmaster", "tactical", 1)]
    searched = 0
    while match.pending() is not None:
        pending = match.pending()
        choice = bots[pending.seat].choose(match.state.observation(pending.seat), pending.options)
        assert pending.allows(choice), (pending.kind, choice)
        searched += pending.seat == 0 and bots[0].last_iterations == 20
        bots[0].last_iterations = 0
        match.act(pending.seat, choice)
    assert match.state.over and searched > 5


def test_the_search_bot_stops_when_its_thinking_time_is_spent():
    """The budget is read from the bot's clock: a clock that moves 10 ms a reading lets a 0.1 s
    budget run about ten iterations, however fast the machine."""
    now = [0.0]

    def clock():
        now[0] += 0.01
        return now[0]

    match, pending = next(race_decisions("turfmaster", {"players": 2}, 3, every=5))
    bot = SearchBot(0, think=0.1, clock=clock)
    assert bot.choose(match.state.observation(pending.seat), pending.options) in pending.options
    assert 5 <= bot.last_iterations <= 11


def test_think_reaches_the_search_bot_through_the_arena():
    assert make_bot("turfmaster", "search", 0, 0.25).think == 0.25
    tally = simulate({"players": 2, "horses_per_player": 2}, ["search", "random"], 1, workers=1, think=0.002)
    assert tally.games == 1 and sum(tally.seats.values()) == 2
