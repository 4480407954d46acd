"""Bot games for measurement: seats of bots play whole games driven by a roll clock.

Each roll, every bot may place one bet, in an order drawn at random (the order of arrival
decides contested spaces, R4); then the clock rolls. Decisions (VIP cards, House tokens)
are taken by the bots as they come.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from hippodrome.arena.summary import levels_won, summary_json
from hippodrome.table.bots import make_bot
from hippodrome.table.clock import Clock, strike_if_due
from hippodrome.table.table import Player, Table


class _StepTime:
    """A time source that moves one roll's worth each time it is read after a roll."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def let_bots_bet(table: Table, rng: random.Random) -> int:
    """Each bot seat may place one bet now, in a random order; returns the bets placed."""
    placed = 0
    order = list(range(len(table.players)))
    rng.shuffle(order)
    for seat in order:
        bot = table.players[seat].bot
        chooser = getattr(bot, "choose_free", None)
        if chooser is None:
            continue
        options = table.state.free_options(seat)
        if not options:
            continue
        action = chooser(table.state.observation(seat), options)
        if action is not None:
            table.act(seat, action)
            placed += 1
    return placed


def play_bot_game(setup: dict[str, Any], levels: list[str], seed: int | str) -> Table:
    """One whole game with a bot of ``levels[seat]`` at every seat."""
    seats = [Player(f"{level}-{n}", make_bot("readysetbet", level, f"{seed}:{n}")) for n, level in enumerate(levels)]
    table = Table("readysetbet", setup, seats, seed=seed)
    if len(seats) != table.state.seats:
        raise ValueError(f"this setup has {table.state.seats} seats, not {len(seats)}")  # i18n: programming error
    rng = random.Random(f"order:{seed}")
    time_source = _StepTime()
    clock = Clock(1.0, now=time_source)
    while not table.over:
        table.run_bots()
        time_source.t += 1.0
        strike_if_due(clock, table, between_strikes=lambda t: let_bots_bet(t, rng))
    return table


@dataclass
class Tally:
    games: int = 0
    wins: dict[str, float] = field(default_factory=dict)  # shared wins count as a fraction
    money: dict[str, int] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)
    game_wins: dict[str, int] = field(default_factory=dict)  # games a seat of the level won (shared or not)

    def win_rate(self, level: str) -> float:
        return self.wins.get(level, 0.0) / max(1, self.games)

    def seat_win_rate(self, level: str) -> float:
        """Win share per seat of this level (a fair share is 1 / seats)."""
        return self.wins.get(level, 0.0) / max(1, self.seats.get(level, 0))

    def mean_money(self, level: str) -> float:
        return self.money.get(level, 0) / max(1, self.seats.get(level, 0))

    def to_json(self, levels: list[str]) -> dict[str, Any]:
        """What ``simulate --json`` prints (hippodrome.arena.summary): money as the points."""
        return summary_json(self.games, levels, self.game_wins, self.money, self.seats)


def tournament(setup: dict[str, Any], levels: list[str], games: int, seed: int = 0,
               keep: Callable[[int, dict[str, Any]], None] | None = None) -> Tally:
    """Play ``games`` games, rotating the seats so no level keeps a seat; tally wins and money.
    ``keep(game, record)`` is given each game's record (from game 0: ``simulate --save``)."""
    tally = Tally()
    for number in range(games):
        shift = number % len(levels)
        seated = levels[shift:] + levels[:shift]
        table = play_bot_game(setup, seated, seed * 1_000_003 + number)
        if keep is not None:
            keep(number, table.record())
        winners = table.state.winners()
        tally.games += 1
        for seat, level in enumerate(seated):
            tally.seats[level] = tally.seats.get(level, 0) + 1
            tally.money[level] = tally.money.get(level, 0) + table.state.money[seat]
            if seat in winners:
                tally.wins[level] = tally.wins.get(level, 0.0) + 1 / len(winners)
        for level in levels_won(seated, winners):
            tally.game_wins[level] = tally.game_wins.get(level, 0) + 1
    return tally
