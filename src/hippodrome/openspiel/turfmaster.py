"""TurfMaster as OpenSpiel games: ``hippodrome_turfmaster_race`` (one race) and
``hippodrome_turfmaster`` (a meeting of three races), sequential, with explicit chance and
imperfect information (the other horses' hands, the decks' order).

Parameters: ``players``, ``horses_per_player``, ``course`` ("oval", "triangle"), ``steeplechase``.
Actions are :mod:`hippodrome.envs.turfmaster_encoding`'s ids. Chance nodes: the deal (a race
dealt from full shuffled decks: one node per card), the dice of each dice round (36 rolls), and
in a meeting the stall and first-roller rolls (one node per die), each deck's shuffle (one node
per card) and the random discards after a bonus (T8). The returns are T9's points (50, 30, 20,
10 per race and horse, added over the meeting), the final table's totals, given at the end: the
reward model is terminal, as OpenSpiel's MCTS requires (the PettingZoo environment gives each
horse's points when it is ranked).

The information state of a seat is its view (positions, every card played so far, its own
hands, the decision in front of it), plus in a meeting the history of the races run before
(public, and no longer in the view) and the seat's own hands each time they changed (dealt,
bonus cards taken, cards given up, discarded at random). Its tensor has perfect recall
(:mod:`hippodrome.openspiel.recall`): the observation vector, every step as the seat saw it, and
its hands each time they changed; the observation tensor is the observation vector.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any, Iterable

import pyspiel

from hippodrome.core.dice import dice_outcomes
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import game_class
from hippodrome.envs.actions import legal_text
from hippodrome.envs.turfmaster_encoding import ACTIONS, CARD_KINDS, KIND, describe, legal_actions
from hippodrome.envs.turfmaster_observation import MOST_OF_A_KIND, OBSERVATION_SIZE, observe
from hippodrome.envs.turfmaster_points import points_so_far
from hippodrome.openspiel.chance import Node, distinct_items
from hippodrome.openspiel.infostate import text
from hippodrome.openspiel.meeting_worlds import plan
from hippodrome.openspiel.recall import CHANCE_ACTOR, HIDDEN, PUBLIC, Recall, RecallLayout
from hippodrome.openspiel.shell import CHANCE, EngineGame
from hippodrome.turfmaster.cards import DECK_SIZE, HAND_SIZE, full_deck
from hippodrome.turfmaster.meeting import RACES, Meeting
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.scoring import PLACE_POINTS

RACE_NAME, MEETING_NAME = "hippodrome_turfmaster_race", "hippodrome_turfmaster"
#: rounds a race may last, for OpenSpiel's bounds (a race of 8 horses on the triangle takes about 30)
MOST_ROUNDS = 100
MOST_ROLLS_TO_BREAK_TIES = 20
#: the chance steps no seat sees as they come: the cards dealt, the decks shuffled, the cards lost
#: at random after a bonus (T7, T8; a seat learns its own cards from its hands)
HIDDEN_CHANCE = frozenset({"deal", "shuffle", "bonus_discard"})


class TurfMasterCore:
    """A race or a meeting in play, for :mod:`hippodrome.openspiel.shell`."""

    def __init__(self, engine: Game, recall: Recall | None = None, drawn: tuple = (), races_run: list | None = None,
                 hands_seen: list | None = None):
        self.engine = engine
        self.meeting = isinstance(engine, Meeting)
        self.seats = engine.players if self.meeting else engine.seats
        #: the steps so far as each seat saw them (None: a core made from an engine mid-game,
        #: which has no information-state tensor)
        self.recall = recall
        self.drawn = tuple(drawn)
        #: a meeting's races run before the current one: their public histories
        self.races_run = races_run if races_run is not None else []
        #: the seats' own hands, each time they changed (a meeting's information state holds them)
        self.hands_seen = hands_seen if hands_seen is not None else [[] for _ in range(self.seats)]
        self._legal: dict[int, Any] | None = None
        #: a meeting's resampling plans by seat, kept for the next resample (never copied: a clone plans anew)
        self._planners: dict[int, Any] = {}
        #: each seat's horses, in slot order
        self._own = [tuple(horse for horse in engine.ids if engine.owner[horse] == seat) for seat in range(self.seats)]
        self._hand = engine.hand if self.meeting else lambda horse: (engine.hands or {}).get(horse, ())
        #: each seat's hands as held at the last look
        self._held: list[tuple | None] = [None] * self.seats

    # -- copies ------------------------------------------------------------------------------------
    def clone(self) -> "TurfMasterCore":
        return TurfMasterCore(self.engine.clone(), self.recall and self.recall.copy(), self.drawn,
                              list(self.races_run), [list(seen) for seen in self.hands_seen])

    def __deepcopy__(self, memo: dict) -> "TurfMasterCore":
        return self.clone()

    def __reduce__(self):
        return (_rebuild, (json.dumps(self.engine.to_json()), self.recall.layout, self.recall.state(), self.drawn,
                           self.races_run, self.hands_seen))

    # -- play ----------------------------------------------------------------------------------------
    def player(self) -> int | None:
        pending = self.engine.pending()
        if pending is None:
            return None
        return CHANCE if isinstance(pending, Chance) else pending.seat

    def legal_actions(self) -> list[int]:
        return list(self.options())

    def options(self) -> dict[int, Any]:
        """The legal actions of the seat to act: id -> the engine's option (a pass: ``{"type": "pass"}``)."""
        if self._legal is None:
            pending = self.engine.pending()
            self._legal = dict(sorted(legal_actions(self.engine, pending).items())) if isinstance(pending, Decision) else {}
        return self._legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return Node.of(self.engine.pending(), self.drawn).outcomes()

    def apply(self, action: int) -> None:
        pending = self.engine.pending()
        if isinstance(pending, Chance):
            self.drawn, complete = Node.of(pending, self.drawn).take(action)
            if complete is not None:
                self._apply(complete, range(self.seats))
            # (a draw that completes nothing changes no hand)
            self._recall(CHANCE_ACTOR, action, HIDDEN if pending.kind in HIDDEN_CHANCE else PUBLIC, complete is not None)
            return
        option = self.options().get(action)
        if option is None:
            raise ValueError(f"{action} is not a legal action now; legal: {legal_text(self.options())}")  # i18n: programming error
        hidden = self.meeting and self.engine.action_hidden_from(option, None)
        self._apply(option, (pending.seat,))
        self._recall(pending.seat, action, pending.seat if hidden else PUBLIC, True)

    def _recall(self, actor: int, action: int, seen_by: int, applied: bool) -> None:
        if self.recall is not None:
            self.recall.add(actor, action, seen_by, self._private if applied else None)

    def _private(self, seat: int) -> tuple:
        """The seat's own hands as last seen, by slot and card kind: (entry, value) pairs."""
        seen = self.hands_seen[seat]
        return _hand_entries(tuple(tuple(cards) for _, cards in seen[-1])) if seen else ()

    def _apply(self, action: dict[str, Any], seats: Iterable[int]) -> None:
        """Apply an engine action; ``seats``: those whose hands it may change (a decision, the
        decider's only)."""
        race = self.engine.race if self.meeting else None
        self.engine.apply(action)
        self._legal = None
        if self.meeting and race is not None and self.engine.race is not race:
            self.races_run.append(list(race.history))
        self._remember_hands(seats)

    def _remember_hands(self, seats: Iterable[int]) -> None:
        """The seats' hands, sorted, when one of them changed (compared as held: cheap, and a hand
        held in another order is sorted the same)."""
        hand, held = self._hand, self._held
        for seat in seats:
            now = tuple([tuple(hand(horse)) for horse in self._own[seat]])
            if now != held[seat]:
                held[seat] = now
                hands = [[horse, sorted(cards)] for horse, cards in zip(self._own[seat], now)]
                seen = self.hands_seen[seat]
                if not seen or seen[-1] != hands:
                    seen.append(hands)

    def returns(self) -> list[float]:
        """The points of the final table at the end (0 before: the reward model is terminal)."""
        if self.engine.pending() is not None:
            return [0.0] * self.seats
        return [float(points) for points in points_so_far(self.engine)]

    # -- what a seat knows ---------------------------------------------------------------------------
    def tensor(self, seat: int):
        return observe(self.engine, seat)

    def info_tensor(self, seat: int):
        return self.recall.tensor(seat, observe(self.engine, seat))

    def info_string(self, seat: int) -> str:
        more = {"drawing": len(self.drawn)}
        if self.meeting:
            more.update(races_run=self.races_run, own_hands=self.hands_seen[seat])
        return text(self.engine.observation(seat), **more)

    def observation_string(self, seat: int) -> str:
        return text(self.engine.observation(seat), frozenset({"history", "events", "stall_rolls", "roller_rolls"}))

    def action_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return describe(action)
        pending = self.engine.pending()
        if isinstance(pending, Chance):
            return f"{pending.kind} {json.dumps(Node.of(pending, self.drawn).item(action))}"
        return f"chance {action}"

    def text(self) -> str:
        return json.dumps(self.engine.observation(None), sort_keys=True)

    # -- ISMCTS ----------------------------------------------------------------------------------------
    def resampled(self, history: list[int], seat: int, rng: random.Random, world: Any = None) -> Iterable[int]:
        """``history`` with what ``seat`` has not seen dealt again. A race: the other seats' hands,
        each horse keeping the cards it has played, the rest of its hand drawn afresh from what is
        left of its deck. A meeting: every deck beyond the seat's own draws, the other hands and
        the cards they lost face down (:mod:`hippodrome.openspiel.meeting_worlds`; ``world`` is
        the state being rebuilt, the game's first state to begin with)."""
        if self.meeting:
            self._planners[seat] = plan(world.core, history, seat, rng, self._planners.get(seat))
            return self._planners[seat].plan.ids(history, world, rng)
        race = self.engine
        dealt = HAND_SIZE * len(race.ids)
        if race.hands is None or len(history) < dealt or "hands" in race.setup:
            return list(history)
        ids = distinct_items(Race.new(race.setup).pending().draws.pools[0])
        played: dict[str, list[str]] = {horse: [] for horse in race.ids}
        for event in race.history:
            if event["event"] == "card":
                played[event["horse"]].append(event["card"])
        deal: list[int] = []
        for number, horse in enumerate(race.ids):
            if race.owner[horse] == seat:
                deal += history[number * HAND_SIZE:(number + 1) * HAND_SIZE]
                continue
            rest = full_deck()
            for card in played[horse]:
                rest.remove(card)
            hand = played[horse] + rng.sample(rest, len(race.hands[horse]))
            rng.shuffle(hand)
            deal += [ids.index(card) for card in hand]
        return deal + list(history[dealt:])


def _rebuild(engine: str, layout: RecallLayout, recalled: tuple, drawn: tuple, races_run: list,
             hands_seen: list) -> TurfMasterCore:
    data = json.loads(engine)
    recall = Recall(layout)
    recall.restore(recalled)
    return TurfMasterCore(game_class(data["game"]).from_json(data), recall, drawn, races_run, hands_seen)


@lru_cache(maxsize=1 << 14)
def _hand_entries(hands: tuple[tuple[str, ...], ...]) -> tuple[tuple[int, float], ...]:
    """A seat's hands (by slot) as entries of its private part: slot x card kind, the count over
    the most of a kind."""
    entries = []
    for slot, hand in enumerate(hands):
        counts: dict[int, int] = {}
        for card in hand:
            counts[KIND[card]] = counts.get(KIND[card], 0) + 1
        entries += [(slot * len(CARD_KINDS) + kind, count / MOST_OF_A_KIND) for kind, count in sorted(counts.items())]
    return tuple(entries)


# -- the games ---------------------------------------------------------------------------------------
def _setup(params: dict[str, Any]) -> dict[str, Any]:
    return {"players": int(params["players"]), "horses_per_player": int(params["horses_per_player"]),
            "course": str(params["course"]), "steeplechase": bool(params["steeplechase"])}


def _game_type(name: str, title: str, players: tuple[int, int], defaults: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=name, long_name=title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1], min_num_players=players[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=defaults)


RACE_TYPE = _game_type(RACE_NAME, "Hippodrome TurfMaster: a single race", (1, 8),
                       {"players": 2, "horses_per_player": 1, "course": "oval", "steeplechase": False})
MEETING_TYPE = _game_type(MEETING_NAME, "Hippodrome TurfMaster: a meeting of three races", (2, 8),
                          {"players": 2, "horses_per_player": 2, "course": "oval", "steeplechase": False})


def _info(engine: Game, seats: int, races: int) -> tuple[pyspiel.GameInfo, int]:
    """The game's bounds, and the most chance nodes a history holds."""
    horses = len(engine.ids)
    most_horses_of_a_seat = max(sum(1 for h in engine.ids if engine.owner[h] == seat) for seat in range(seats))
    per_race = MOST_ROUNDS * (2 * horses + 1) + horses
    between_races = horses * (2 + HAND_SIZE + 2)
    rolls = MOST_ROUNDS // 2
    chance = races * (HAND_SIZE * horses + rolls + 2 * horses)
    if races > 1:
        chance += len(full_deck()) * horses + 2 * (horses + seats) * MOST_ROLLS_TO_BREAK_TIES
    info = pyspiel.GameInfo(
        num_distinct_actions=ACTIONS, max_chance_outcomes=len(dice_outcomes()), num_players=seats, min_utility=0.0,
        max_utility=float(races * sum(PLACE_POINTS[:most_horses_of_a_seat])), utility_sum=None,
        max_game_length=races * (per_race + between_races))
    return info, chance


def recall_layout(engine: Game, seats: int, races: int, info: pyspiel.GameInfo, chance: int) -> RecallLayout:
    """The information-state tensor of a race or meeting: its steps, and each seat's hands each
    time they changed (cards come into a horse's hand from its deck of 32 only, T7, T8: each
    change adds or takes away cards, so a horse's hand changes at most once per race dealt, once
    for its bonus cards and once per card of its deck)."""
    own = max(sum(1 for horse in engine.ids if engine.owner[horse] == seat) for seat in range(seats))
    return RecallLayout(OBSERVATION_SIZE, seats, max(ACTIONS, info.max_chance_outcomes),
                        info.max_game_length + chance, own * len(CARD_KINDS), races + own * (races + 1 + DECK_SIZE))


class TurfMasterRaceGame(EngineGame):
    def __init__(self, params: dict[str, Any] | None = None):
        params = {**RACE_TYPE.parameter_specification, **(params or {})}
        setup = _setup(params)
        engine = Race.new(setup)
        info, chance = _info(engine, engine.seats, 1)
        layout = recall_layout(engine, engine.seats, 1, info, chance)
        super().__init__(RACE_TYPE, info, params, lambda: TurfMasterCore(Race.new(setup), Recall(layout)),
                         OBSERVATION_SIZE, chance, layout)


class TurfMasterMeetingGame(EngineGame):
    def __init__(self, params: dict[str, Any] | None = None):
        params = {**MEETING_TYPE.parameter_specification, **(params or {})}
        setup = _setup(params)
        engine = Meeting.new(setup)
        info, chance = _info(engine, engine.players, RACES)
        layout = recall_layout(engine, engine.players, RACES, info, chance)
        super().__init__(MEETING_TYPE, info, params, lambda: TurfMasterCore(Meeting.new(setup), Recall(layout)),
                         OBSERVATION_SIZE, chance, layout)


pyspiel.register_game(RACE_TYPE, TurfMasterRaceGame)
pyspiel.register_game(MEETING_TYPE, TurfMasterMeetingGame)
