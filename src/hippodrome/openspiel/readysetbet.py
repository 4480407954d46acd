"""Ready Set Bet as an OpenSpiel game: ``hippodrome_readysetbet_race``, the engine's "readysetbet"
game of one race (``races: 1``), sequential, with explicit chance and imperfect information.

Parameters: ``players`` (2-8), ``variant`` ("standard", "app", "house_bets", "rotating_house"),
``props``, ``exotics``, ``vip`` (the game's own options). Actions are
:mod:`hippodrome.envs.readysetbet_encoding`'s ids.

Betting as at the table, made turn-based: before each roll every seat that may bet acts once, a
bet or a pass, in an order of arrival drawn by chance (one chance node per place in the order,
uniform over the seats not placed yet), so that a space two seats want goes to the first to
arrive (R4); then the roll (a chance node of 36 outcomes). OpenSpiel's simultaneous-move games
were the other way; they were left aside because OpenSpiel's MCTS and ISMCTS search sequential
games only, and because simultaneous bets on one space would still need an order of arrival
to settle who gets it. Other chance nodes: the shuffle of the prop, exotic-finish and VIP decks
(one node per card) and the race caller's seed (four bytes), and in the rotating-House variant
the first House (each seat alike).

The returns are each seat's money at the end (R4, R9: players start with $0, the House of the
House-bets variant with $18), 0 before (the reward model is terminal). The information state of a
seat is its view (the race, the board with every token on it, every seat's tokens and money,
its VIP cards, the decision in front of it) and the order of arrival of the roll being bet on;
the race caller's commentary is left out (it tells nothing of the game). Its tensor has perfect
recall (:mod:`hippodrome.openspiel.recall`: the observation vector and every step as the seat saw
it); the observation tensor is the observation vector.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pyspiel

from hippodrome.core.chance import Draws, Pool
from hippodrome.core.dice import dice_outcomes
from hippodrome.core.game import Decision
from hippodrome.envs.actions import legal_text
from hippodrome.envs.readysetbet_encoding import (
    ACTIONS,
    OBSERVATION_SIZE,
    PASS,
    betting_open,
    bettors,
    describe,
    legal_actions,
    observe,
)
from hippodrome.openspiel.chance import Node, distinct_items
from hippodrome.openspiel.infostate import text
from hippodrome.openspiel.recall import CHANCE_ACTOR, HIDDEN, PUBLIC, Recall, RecallLayout
from hippodrome.openspiel.shell import CHANCE, EngineGame
from hippodrome.readysetbet.board import FIXED_SPACES, all_exotic_ids, all_prop_ids, exotic_spaces, prop_space
from hippodrome.readysetbet.dice_race import FINISH, HORSES, RACE_DATA
from hippodrome.readysetbet.game import HOUSE_DATA, HOUSE_TOKEN_VALUES, ReadySetBet

NAME = "hippodrome_readysetbet_race"
#: the most rolls a race lasts: every roll moves a horse, and the first at 15 ends it (R1, R2)
MOST_ROLLS = len(HORSES) * (FINISH - 1) + 1
#: the chance steps no seat sees: the decks' order and the race caller's seed (every card a board
#: shows is in the view once dealt)
HIDDEN_CHANCE = frozenset({"shuffle", "vip_reshuffle"})


class ReadySetBetCore:
    """A game of one race in play, with its betting round, for :mod:`hippodrome.openspiel.shell`."""

    def __init__(self, engine: ReadySetBet, recall: Recall | None = None, drawn: tuple = (), arriving: tuple | None = None,
                 order: tuple | None = None, turn: int = 0):
        self.engine = engine
        self.seats = engine.seats
        #: the steps so far as each seat saw them (None: a core made from an engine mid-game,
        #: which has no information-state tensor)
        self.recall = recall
        self.drawn = tuple(drawn)
        #: the seats that may bet on the coming roll, while their order of arrival is being drawn
        self.arriving = arriving
        #: the order of arrival of this roll's bettors, and how many of them have acted
        self.order = order
        self.turn = turn
        self._legal: dict[int, Any] | None = None
        self._ahead: tuple[Node | None, int | None] | None = None
        if order is None and arriving is None:
            self._open_betting()

    def clone(self) -> "ReadySetBetCore":
        return ReadySetBetCore(self.engine.clone(), self.recall and self.recall.copy(), self.drawn, self.arriving,
                               self.order, self.turn)

    def __deepcopy__(self, memo: dict) -> "ReadySetBetCore":
        return self.clone()

    def __reduce__(self):
        return (_rebuild, (json.dumps(self.engine.to_json()), self.recall.layout, self.recall.state(), self.drawn,
                           self.arriving, self.order, self.turn))

    # -- what comes next ---------------------------------------------------------------------------
    def _open_betting(self) -> None:
        """Before a roll: the seats that may bet; their order is drawn when there are two or more."""
        if not betting_open(self.engine):
            return
        seats = tuple(bettors(self.engine))
        if len(seats) > 1:
            self.arriving = seats
        else:
            self.order, self.turn = seats, 0

    def _next(self) -> tuple[Node | None, int | None]:
        """The chance node in front of the game, or the seat to act (None, None: the end)."""
        if self._ahead is None:
            self._ahead = self._find_next()
        return self._ahead

    def _find_next(self) -> tuple[Node | None, int | None]:
        pending = self.engine.pending()
        if pending is None:
            return None, None
        if isinstance(pending, Decision):
            return None, pending.seat
        if not pending.timed:
            return Node.of(pending, self.drawn), None
        if self.arriving is not None:
            arrival = Draws((Pool(self.arriving, len(self.arriving)),), lambda drawn: drawn[0], lambda order: [order])
            return Node.of(arrival, self.drawn), None
        if self.turn < len(self.order):
            return None, self.order[self.turn]
        return Node.of(pending), None

    def player(self) -> int | None:
        node, seat = self._next()
        return CHANCE if node is not None else seat

    def legal_actions(self) -> list[int]:
        return list(self.options())

    def options(self) -> dict[int, Any]:
        """The legal actions of the seat to act: id -> the engine's option (a pass: ``{"type": "pass"}``)."""
        if self._legal is None:
            node, seat = self._next()
            self._legal = {}
            if node is None and seat is not None:
                self._legal = dict(sorted(legal_actions(self.engine, seat).items())) or {PASS: {"type": "pass"}}
        return self._legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._next()[0].outcomes()

    # -- play ----------------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        (node, seat), options = self._next(), self.options()
        self._legal, self._ahead = None, None
        if node is not None:
            self.drawn, complete = node.take(action)
            hidden = node.chance is not None and node.chance.kind in HIDDEN_CHANCE
            self._recall(CHANCE_ACTOR, action, HIDDEN if hidden else PUBLIC)
            if complete is None:
                return
            if node.chance is None:
                self.order, self.turn, self.arriving = tuple(complete), 0, None
                return
            self.engine.apply(complete)
            if node.chance.timed:
                self.order = None
            self._open_betting()
            return
        option = options.get(action)
        if option is None:
            raise ValueError(f"{action} is not a legal action now; legal: {legal_text(options)}")  # i18n: programming error
        self._recall(seat, action, PUBLIC)
        if isinstance(self.engine.pending(), Decision):
            self.engine.apply(option)
            self._open_betting()
            return
        if action != PASS:
            self.engine.apply_free(seat, option)
        self.turn += 1

    def _recall(self, actor: int, action: int, seen_by: int) -> None:
        if self.recall is not None:
            self.recall.add(actor, action, seen_by)

    def returns(self) -> list[float]:
        """Each seat's money at the end (0 before: the reward model is terminal)."""
        if self.engine.pending() is not None:
            return [0.0] * self.seats
        return [float(money) for money in self.engine.money]

    # -- what a seat knows ---------------------------------------------------------------------------
    def tensor(self, seat: int):
        return observe(self.engine, seat)

    def info_tensor(self, seat: int):
        return self.recall.tensor(seat, observe(self.engine, seat))

    def info_string(self, seat: int) -> str:
        return text(self.engine.observation(seat), frozenset({"caller"}), arrival=self.order, acted=self.turn,
                    drawing=len(self.drawn))

    def observation_string(self, seat: int) -> str:
        return text(self.engine.observation(seat), frozenset({"caller", "race_log", "history"}), arrival=self.order,
                    acted=self.turn)

    def action_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return describe(action)
        node = self._next()[0]
        if node is None:
            return f"chance {action}"
        kind = "arrival" if node.chance is None else node.chance.kind
        return f"{kind} {json.dumps(node.item(action))}"

    def text(self) -> str:
        """The state in short, for people debugging: the race, the bets, the money, the arrivals."""
        engine = self.engine
        return json.dumps({"phase": engine.phase, "race": engine.race.to_json(), "props": engine.props,
                           "exotics": engine.exotics, "bets": engine.house_bets + engine.bets, "money": engine.money,
                           "arrival": self.order, "acted": self.turn, "drawing": len(self.drawn)}, sort_keys=True)

    # -- ISMCTS ----------------------------------------------------------------------------------------
    def resampled(self, history: list[int], seat: int, rng: random.Random, world: Any = None) -> list[int]:
        """``history`` with the decks shuffled again where nobody has seen them: the prop and
        exotic-finish cards not dealt, and the VIP deck (R6-R8)."""
        pools = ReadySetBet.new(self.engine.setup).pending().draws.pools
        seen = {0: len(self.engine.props), 1: len(self.engine.exotics), 2: 0}
        shuffled, start = [], 0
        for number, pool in enumerate(pools):
            ids = list(history[start:start + pool.count])
            if number in seen and len(ids) == pool.count:
                hidden = ids[seen[number]:]
                rng.shuffle(hidden)
                ids = ids[:seen[number]] + hidden
            shuffled += ids
            start += pool.count
        return shuffled + list(history[start:])


def _rebuild(engine: str, layout: RecallLayout, recalled: tuple, drawn: tuple, arriving: tuple | None,
             order: tuple | None, turn: int) -> ReadySetBetCore:
    recall = Recall(layout)
    recall.restore(recalled)
    return ReadySetBetCore(ReadySetBet.from_json(json.loads(engine)), recall, drawn, arriving, order, turn)


# -- the game ----------------------------------------------------------------------------------------
GAME_TYPE = pyspiel.GameType(
    short_name=NAME, long_name="Hippodrome Ready Set Bet: a game of one race",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=RACE_DATA["max_players"] + 1, min_num_players=RACE_DATA["min_players"],
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification={"players": 2, "variant": "standard", "props": True, "exotics": True, "vip": True})


def _most_money() -> int:
    """The most money a seat can hold after one race: every token it may bet winning the best
    multiplier of the board, on top of what it started with (R4, R5-R7, R9)."""
    multipliers = [space.multiplier for space in FIXED_SPACES]
    multipliers += [prop_space(card).multiplier for card in all_prop_ids()]
    multipliers += [space.multiplier for card in all_exotic_ids() for space in exotic_spaces(card)]
    tokens = max(sum(RACE_DATA["bet_tokens"]), sum(HOUSE_TOKEN_VALUES))
    return HOUSE_DATA["house_bets_starting_money"] + max(multipliers) * tokens


class ReadySetBetRaceGame(EngineGame):
    def __init__(self, params: dict[str, Any] | None = None):
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        setup = {"players": int(params["players"]), "variant": str(params["variant"]), "races": 1,
                 "props": bool(params["props"]), "exotics": bool(params["exotics"]), "vip": bool(params["vip"])}
        engine = ReadySetBet.new(setup)
        pools = engine.pending().draws.pools
        shuffle = sum(pool.count for pool in pools)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=max([len(distinct_items(pool)) for pool in pools] + [len(dice_outcomes()), engine.seats]),
            num_players=engine.seats, min_utility=0.0, max_utility=float(_most_money()), utility_sum=None,
            max_game_length=MOST_ROLLS * engine.seats + len(HOUSE_TOKEN_VALUES) + engine.seats)
        chance = shuffle + 1 + MOST_ROLLS * (engine.seats + 1)
        # no private part: in a game of one race every card a seat holds is face up (R5-R8)
        layout = RecallLayout(OBSERVATION_SIZE, engine.seats, max(ACTIONS, info.max_chance_outcomes),
                              info.max_game_length + chance, 0, 0)
        super().__init__(GAME_TYPE, info, params, lambda: ReadySetBetCore(ReadySetBet.new(setup), Recall(layout)),
                         OBSERVATION_SIZE, chance, layout)


pyspiel.register_game(GAME_TYPE, ReadySetBetRaceGame)
