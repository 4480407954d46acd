"""What a bet is worth to a seat, from the live odds and what the seat's view shows.

Shared by the bots (:mod:`hippodrome.readysetbet.bots`, :mod:`hippodrome.readysetbet.board_bot`):
the odds of the race position in the view, computed once per position for every bot of the
process (:func:`position_odds`), and the expected money of a token on a space, a loss costing no more than the money
the seat has (R4's $0 floor).
"""

from __future__ import annotations

import threading
import time
import zlib
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any, Callable


from hippodrome.readysetbet.board import Space, race_spaces
from hippodrome.readysetbet.dice_race import RaceState
from hippodrome.readysetbet.odds import Odds, race_odds
from hippodrome.readysetbet.settlement import Token, bet_payout


#: race positions whose odds the process keeps at most, and for how long after they were last
#: asked (the bots of a table ask within their reaction times of a roll: 0.6 to 2.5 s on a
#: server). Kept by count alone, a few dozen positions would be gone before a table's last bot asks
#: once a hundred tables roll each second, and each bot would work them out again.
SHARED_POSITIONS = 512
SHARED_SECONDS = 5.0


class SharedOdds:
    """The odds of race positions, each worked out once by whichever bot asks first and shared by
    every bot of the process (``position_odds``). A bot that asks for a position while another's
    thread is working it out waits for that answer rather than working it out too (the bots of a
    table ask at about the same time, each in a thread of the worker)."""

    def __init__(self, size: int = SHARED_POSITIONS, seconds: float = SHARED_SECONDS,
                 now: Callable[[], float] = time.monotonic):
        self.size, self.seconds, self.now = size, seconds, now
        self._kept: OrderedDict[tuple, tuple[Odds, float]] = OrderedDict()   # least recently asked first
        self._under_way: dict[tuple, Future] = {}
        self._lock = threading.Lock()
        self.computed = 0   # positions worked out so far (for tests and measurements)

    def __call__(self, state: RaceState, simulations: int, timing: bool) -> Odds:
        key = (state, simulations, timing)
        with self._lock:
            kept = self._kept.pop(key, None)
            now = self.now()
            if kept is not None and kept[1] >= now - self.seconds:
                self._kept[key] = (kept[0], now)
                return kept[0]
            under_way = self._under_way.get(key)
            mine = under_way is None
            if mine:
                under_way = self._under_way[key] = Future()
        if not mine:
            return under_way.result()
        try:
            odds = _work_out(state, simulations, timing)
        except BaseException as error:
            with self._lock:
                del self._under_way[key]
            under_way.set_exception(error)
            raise
        with self._lock:
            del self._under_way[key]
            self.computed += 1
            now = self.now()
            self._kept[key] = (odds, now)
            while self._kept and (len(self._kept) > self.size or next(iter(self._kept.values()))[1] < now - self.seconds):
                self._kept.popitem(last=False)
        under_way.set_result(odds)
        return odds

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()


def _work_out(state: RaceState, simulations: int, timing: bool) -> Odds:
    """The odds of a race position by ``simulations`` simulated finishes, from a generator seeded
    by the position itself: the same answer for every bot that asks, so the bots of a table (and
    those of every table at the same position, such as each race's start) share one computation."""
    seed = zlib.crc32(repr((state.positions, state.last_sum, state.last_was_bonus, state.crossings,
                            simulations, timing)).encode())
    return race_odds(state, simulations, seed=seed, timing=timing)


position_odds = SharedOdds()


class LiveOdds:
    """The odds of the race position a view shows (:func:`position_odds`), with each space's
    chance of winning worked out once per position."""

    def __init__(self, simulations: int, timing: bool = False):
        self.simulations = simulations
        self.timing = timing

    def of(self, race: dict[str, Any]) -> Odds:
        return position_odds(RaceState.from_json(race), self.simulations, self.timing)

    def chance(self, race: dict[str, Any], space: Space) -> float:
        """The chance that ``space`` wins, from the race position in ``race`` (a view's "race").
        Pricing many spaces, look the position up once (:meth:`of`) and ask its odds
        (:meth:`Odds.chance`): each look-up takes the lock every bot of the process shares."""
        return self.of(race).chance(space)


def board_spaces(observation: dict[str, Any]) -> dict[str, Space]:
    """The spaces of the race in the view: the fixed board, its prop cards and exotic cards."""
    return {s.id: s for s in race_spaces(observation["props"], observation["exotics"])}


def bet_value(space: Space, token: Token, p: float, money: int) -> float:
    """Expected money of ``token`` on ``space`` winning with chance ``p``, a loss capped at ``money`` (R4)."""
    gain = bet_payout(space, token, True)
    loss = min(-bet_payout(space, token, False), money)
    return p * gain - (1 - p) * loss


def option_token(observation: dict[str, Any], option: dict[str, Any]) -> Token:
    """The token an option places: the seat's own token, or a House token (its value, no red circle)."""
    seat = observation["seat"]
    if "token" in option and seat is not None:
        for token in observation["tokens"][seat]:
            if token["id"] == option["token"]:
                return token
    return {"id": f"house-{option.get('value', 0)}", "value": option.get("value", 0), "penalty": 0,
            "cancels_loss": False}


def price_options(observation: dict[str, Any], options: tuple[dict[str, Any], ...],
                  odds: LiveOdds) -> list[tuple[float, dict[str, Any]]]:
    """(expected money, option) for every bet or House-token option."""
    seat = observation["seat"]
    spaces = board_spaces(observation)
    money = observation["money"][seat] if seat is not None else 0
    position = odds.of(observation["race"])
    return [(bet_value(spaces[o["space"]], option_token(observation, o), position.chance(spaces[o["space"]]), money), o)
            for o in options]
