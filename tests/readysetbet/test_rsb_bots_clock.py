"""Bots, the table's roll clock driven synchronously (real time without real waiting), and the
simulate command."""

import pytest
import json

from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.core.game import Chance
from hippodrome.arena.readysetbet import let_bots_bet, play_bot_game, tournament
from hippodrome.readysetbet.bots import RandomBettor, ValueBettor
from hippodrome.table.clock import Clock, strike_if_due
from hippodrome.table.table import Player, Table


class FakeTime:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def people_table(players=3, seed=1):
    return Table("readysetbet", {"players": players}, [Player(f"p{i}") for i in range(players)], seed=seed)


def rolls(table):
    return sum(1 for event in table.state.race_log if event["event"] == "move")


def test_clock_rolls_at_its_pace_pauses_and_resumes():
    table, now = people_table(), FakeTime()
    clock = Clock(2.0, now=now)
    assert not strike_if_due(clock, table)
    now.t += 1.9
    assert not strike_if_due(clock, table)
    now.t += 0.1
    assert strike_if_due(clock, table) and rolls(table) == 1
    now.t += 0.5
    assert clock.toggle() is True and clock.paused
    now.t += 60
    assert not strike_if_due(clock, table) and clock.time_left() == 1.5
    assert clock.toggle() is False
    now.t += 1.4
    assert not strike_if_due(clock, table)
    now.t += 0.1
    assert strike_if_due(clock, table) and rolls(table) == 2
    now.t += 6  # a late poll rolls once, and the next interval starts from then
    assert strike_if_due(clock, table) and not strike_if_due(clock, table) and clock.time_left() == 2.0


def test_a_clock_of_zero_seconds_rolls_at_every_poll():
    table, now = people_table(), FakeTime()
    clock = Clock(0, now=now)
    assert strike_if_due(clock, table) and strike_if_due(clock, table) and rolls(table) == 2


def test_r4_bets_between_rolls_are_taken_in_order_of_arrival():
    table, now = people_table(), FakeTime()
    arrivals = []

    def between(t):
        if not arrivals:
            for seat in (2, 0):  # seat 2's bet arrives first
                try:
                    t.act(seat, {"type": "bet", "token": "5", "space": "win:7:R"})
                    arrivals.append(seat)
                except Exception as error:  # noqa: BLE001
                    arrivals.append(str(error))

    clock = Clock(1.0, now=now)
    now.t += 1
    strike_if_due(clock, table, between_strikes=between)
    assert arrivals[0] == 2 and "first come, first served" in arrivals[1]


def test_clock_waits_while_a_decision_is_pending():
    table = Table("readysetbet", {"players": 2, "variant": "house_bets"}, [Player("a"), Player("b"), Player("house")],
                  seed=2)
    now = FakeTime()
    clock = Clock(1.0, now=now)
    now.t += 10
    assert not strike_if_due(clock, table)  # the House places its tokens first
    for _ in range(6):
        pending = table.pending()
        table.act(pending.seat, pending.options[0])
    assert isinstance(table.pending(), Chance)
    now.t += 0.9
    assert not strike_if_due(clock, table)  # a full interval after the decision
    now.t += 0.1
    assert strike_if_due(clock, table)


def test_bots_play_whole_games_in_every_variant():
    for variant, levels in (("standard", ["value", "random"]), ("house_bets", ["random", "value", "value"]),
                            ("rotating_house", ["value", "random", "random"]), ("app", ["random"] * 8)):
        players = len(levels) - 1 if variant == "house_bets" else len(levels)
        table = play_bot_game({"players": players, "variant": variant}, levels, seed=3)
        assert table.over and len(table.state.history) == 4


@pytest.mark.slow
def test_value_bettor_only_takes_bets_it_values_and_beats_random_bettors():
    tally = tournament({"players": 3}, ["value", "random", "random"], games=12, seed=5)
    assert tally.seat_win_rate("value") > tally.seat_win_rate("random")
    assert tally.mean_money("value") > tally.mean_money("random")


def test_value_bettor_waits_early_for_a_clear_edge():
    table = people_table(players=2)
    view = table.state.observation(0)
    options = table.state.free_options(0)
    choice = ValueBettor(seed=1).choose_free(view, options)
    if choice is not None:  # at the start only a bet worth more than $2 on average is taken
        bot = ValueBettor(seed=1)
        value = dict((tuple(sorted(o.items())), v) for v, o in bot._values(view, options))
        assert value[tuple(sorted(choice.items()))] > 2.0


def test_let_bots_bet_places_at_most_one_bet_per_bot():
    import random

    table = Table("readysetbet", {"players": 3}, [Player(f"b{i}", RandomBettor(i, rate=1.0)) for i in range(3)], seed=4)
    assert let_bots_bet(table, random.Random(0)) == 3
    assert len(table.state.bets) == 3


def test_simulate_command_json():
    result = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "value,random", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and list(data["bots"]) == ["value", "random"]
    bad = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "genius"])
    assert bad.exit_code == 2 and "unknown bot level" in bad.stderr
    # one level a seat: a standard game takes 2 to 8 players; House bets one more bot, for the House
    alone = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "value"])
    assert alone.exit_code == 2 and "--bots names 1 bot level, one a seat: name 2 to 8" in alone.stderr, alone.output
    house = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "value", "--variant", "house_bets"])
    assert house.exit_code == 2 and "name 2 to 9" in house.stderr, house.output


@pytest.mark.slow
def test_simulate_lists_the_levels_in_the_order_bots_names_them():
    result = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "value,board", "--games", "1"])
    assert result.exit_code == 0, result.output
    lines = [line.split(":")[0].strip() for line in result.stdout.splitlines()[1:]]
    assert lines == ["value", "board"]
