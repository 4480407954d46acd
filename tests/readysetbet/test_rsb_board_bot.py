"""The board bot (level "board"): legal bets only, the best spaces first with the right token,
props, exotic finishes and colours when they are priced best (R5-R7), spaces taken by others
left alone (R4), VIP cards kept by their worth (R8), House decisions (R9), the view alone."""

import itertools
import random

import pytest

from hippodrome.arena.readysetbet import play_bot_game
from hippodrome.readysetbet.assignment import best_assignment
from hippodrome.readysetbet.board_bot import BoardBettor
from hippodrome.readysetbet.dice_race import RaceState, crossings_of
from hippodrome.readysetbet.pricing import price_options
from hippodrome.table.table import Player, Table
from tests.readysetbet.rsb_helpers import match_at_race, positions


class Checked:
    """A board bot whose every answer is checked against the options it was given."""

    name = "checked"

    def __init__(self, seed):
        self.bot = BoardBettor(seed, simulations=300)
        self.answers = 0

    def choose(self, observation, options):
        choice = self.bot.choose(observation, options)
        assert choice in options
        self.answers += 1
        return choice

    def choose_free(self, observation, options):
        choice = self.bot.choose_free(observation, options)
        assert choice is None or choice in options
        self.answers += choice is not None
        return choice


def at_position(match, pos, exotics=(), props=()):
    """Put the race of ``match`` at ``pos`` (the last roll: none) with these cards face up."""
    state = match.state
    state.race = RaceState(pos, None, False, crossings_of(pos))
    state.exotics, state.props = list(exotics), list(props)
    state._empty_caches()
    return match


def bet(match, seat, token, space):
    match.act(seat, {"type": "bet", "token": token, "space": space})


def test_board_bots_place_only_legal_bets_and_take_legal_decisions_in_house_variants():
    for variant, players, races in (("house_bets", 2, 1), ("rotating_house", 2, 2)):
        seats = players + 1 if variant == "house_bets" else players
        bots = [Checked(f"legal:{n}") for n in range(seats)]
        table = Table("readysetbet", {"players": players, "variant": variant, "races": races},
                      [Player(f"b{n}", bot) for n, bot in enumerate(bots)], seed=11)
        _run(table)
        assert table.over
        assert sum(bot.answers for bot in bots) > 5  # bets and decisions were made, all legal


def _run(table):
    """The arena's loop (a roll clock; each bot may bet once between rolls) on a ready table."""
    from hippodrome.arena.readysetbet import _StepTime, let_bots_bet
    from hippodrome.table.clock import Clock, strike_if_due

    rng, now = random.Random(0), _StepTime()
    clock = Clock(1.0, now=now)
    while not table.over:
        table.run_bots()
        now.t += 1.0
        strike_if_due(clock, table, between_strikes=lambda t: let_bots_bet(t, rng))


def test_r5_the_higher_value_space_is_taken_when_two_are_open():
    # horse 7 at 14, the rest far behind, bets about to close: Win 7 Right pays 3x, Win 2/3 Right 9x a long shot
    match = at_position(match_at_race({"players": 2, "props": False, "exotics": False}, seed=1),
                        positions(h7=14, h6=9, h8=9, h5=10))
    options = ({"type": "bet", "token": "5", "space": "win:2/3:R"}, {"type": "bet", "token": "5", "space": "win:7:R"})
    assert BoardBettor(1).choose_free(match.state.observation(0), options) == options[1]
    assert BoardBettor(1).choose_free(match.state.observation(0), options[::-1]) == options[1]


def test_r6_an_exotic_card_is_taken_with_the_big_token_when_it_is_priced_best():
    # horse 7 at 14 with most horses still at the gate: Late Start (at least 2 horses moved 3 or fewer) is
    # all but sure and pays 4x; the best Win bet on 7 pays 3x
    match = at_position(match_at_race({"players": 2}, seed=2), positions(h7=14, h6=10, h8=9, h5=9),
                        exotics=["late-start"])
    view, options = match.state.observation(0), match.state.free_options(0)
    assert BoardBettor(2).choose_free(view, options) == {"type": "bet", "token": "5", "space": "exotic:late-start:1"}


def test_r4_r5_r7_taken_spaces_are_gone_so_colour_and_prop_bets_take_the_right_tokens():
    # 11/12 at 14 and sure to win; seat 1 already holds every Win, Place and Show space of 11/12 left open
    match = at_position(match_at_race({"players": 3, "exotics": False}, seed=3),
                        positions(h11_12=14, h6=10, h8=9, h7=9), props=["11/12>8"])
    for token, space in zip(("2", "3", "3b", "4", "5"), ("win:11/12:L", "win:11/12:M", "win:11/12:R",
                                                        "place:11/12:L", "place:11/12:R")):
        bet(match, 1, token, space)
    for token, space in zip(("2", "3"), ("show:11/12:L", "show:11/12:R")):
        bet(match, 2, token, space)
    view, options = match.state.observation(0), match.state.free_options(0)
    bot = BoardBettor(3)
    plan = {option["space"]: option["token"] for _, option in bot.plan(view, options, bot.tokens_left(view))}
    assert plan["colour:blue"] == "5" and plan["prop:11/12>8"] == "4"  # 5 x 5 + 4 x 4 beats 5 x 4 + 4 x 5
    assert not any(space.startswith(("win:11/12", "place:11/12", "show:11/12")) for space in plan)
    assert bot.choose_free(view, options) == {"type": "bet", "token": "5", "space": "colour:blue"}


def test_it_waits_at_the_start_while_betting_is_sure_to_stay_open():
    match = match_at_race({"players": 2}, seed=4)
    view, options = match.state.observation(0), match.state.free_options(0)
    assert BoardBettor(4).choose_free(view, options) is None
    assert BoardBettor(4).odds.of(view["race"]).chance_over_within(7) == 0.0  # three horses cannot cross in 7 rolls


def test_r8_a_vip_card_is_kept_by_its_worth_over_the_races_left():
    bot = BoardBettor(5)
    early = {"races": 4, "race_no": 1}
    last = {"races": 4, "race_no": 3}
    assert bot.vip_worth("comp-6", early) > bot.vip_worth("comp-3", early)
    # a Lucky number 5 or 9 ($1 for each of about 4 rolls in 36, three races) beats $6 now; one race later it does not
    assert bot.vip_worth("lucky-5", early) > bot.vip_worth("comp-6", early)
    assert bot.vip_worth("lucky-3", last) < bot.vip_worth("comp-6", last)
    # a bigger bonus token is worth more; one that cancels its losses more than one of the same value that does not
    assert bot.vip_worth("bonus-7-white", early) > bot.vip_worth("bonus-4-white", early)
    options = ({"type": "vip", "keep": "comp-3"}, {"type": "vip", "keep": "lucky-9"})
    assert bot.choose({**early, "seat": 0}, options) == options[1]


def test_r9_house_tokens_go_on_the_best_spaces_and_the_rotating_house_is_weighed():
    match = match_at_race({"players": 2, "variant": "house_bets"}, seed=6)
    match.resolve_chance()
    pending = match.pending()
    bot = BoardBettor(6)
    view = match.state.observation(pending.seat)
    choice = bot.choose(view, pending.options)
    assert choice in pending.options and choice["value"] == 5  # the biggest house token first, on its best space
    fives = tuple(option for option in pending.options if option["value"] == 5)
    worth = {option["space"]: value for value, option in price_options(view, fives, bot.odds)}
    assert worth[choice["space"]] == max(worth.values()) > 0
    rotating = match_at_race({"players": 3, "variant": "rotating_house", "races": 2}, seed=7)
    view = rotating.state.observation(0)
    assert bot.house_worth({**view, "race_no": 2}) > 0 and bot.bettor_worth(view) > 0


def test_its_choices_come_from_the_view_alone():
    """Two games that differ only in hidden card orders (decks, R7 R8) show the same view and get the same bets."""
    one = at_position(match_at_race({"players": 2}, seed=8), positions(h7=13, h6=10, h8=9, h5=9))
    two = at_position(match_at_race({"players": 2}, seed=8), positions(h7=13, h6=10, h8=9, h5=9))
    for deck in ("prop_deck", "vip_deck", "exotic_deck"):
        getattr(two.state, deck).reverse()
    assert two.state.secrets(0) != one.state.secrets(0)
    view = one.state.observation(0)
    assert view == two.state.observation(0)
    assert not any(str(secret) in str(view) for secret in one.state.secrets(0) if isinstance(secret, list))
    choices = [BoardBettor(8).choose_free(m.state.observation(0), m.state.free_options(0)) for m in (one, two)]
    assert choices[0] is not None and choices[0] == choices[1]


def test_board_bot_plays_whole_games_against_the_value_bettor():
    table = play_bot_game({"players": 2, "races": 2}, ["board", "value"], seed=9)
    assert table.over and all(money >= 0 for money in table.state.money)
    assert any(bet["seat"] == 0 for race in table.state.history for bet in race["results"])


@pytest.mark.parametrize("seed", range(6))
def test_the_assignment_is_the_best_of_all_assignments(seed):
    rng = random.Random(seed)
    tokens, spaces = rng.randint(1, 4), rng.randint(1, 6)
    values = [[None if rng.random() < 0.2 else round(rng.uniform(-3, 10), 2) for _ in range(spaces)]
              for _ in range(tokens)]
    chosen = best_assignment(values)
    assert len({s for _, s in chosen}) == len(chosen) and len({t for t, _ in chosen}) == len(chosen)
    total = sum(values[t][s] for t, s in chosen)
    best = 0.0
    for targets in itertools.product([None, *range(spaces)], repeat=tokens):
        used = [s for s in targets if s is not None]
        if len(used) != len(set(used)) or any(s is not None and values[t][s] is None for t, s in enumerate(targets)):
            continue
        best = max(best, sum(values[t][s] for t, s in enumerate(targets) if s is not None and values[t][s] > 0))
    assert total == pytest.approx(best)

