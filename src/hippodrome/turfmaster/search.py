"""The search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
Powley and Whitehouse 2012) over the race in progress.

Each iteration draws a determinisation of the race from the bot's view alone
(:mod:`hippodrome.turfmaster.determinize`: the other hands sampled from the cards not seen), made a
lean :class:`~hippodrome.turfmaster.search_state.SearchRace`, walks
one tree of action sequences shared by all determinisations (UCB1 over the actions legal in this
determinisation, counted by availability), adds one node, plays the race to its end with a fast
policy and backs up, for every node, the points its mover's horses scored in the race (T9),
each player maximising its own. Dice are drawn as they come (the tree is open-loop over chance).

The bot thinks for ``think`` seconds per decision (or ``iterations`` iterations, whichever ends
first) and plays the most visited action (then the best mean; then the tactical bot's choice);
with fewer than three iterations per option it plays the tactical bot's choice. Decisions outside the race (keeping cards between
races, claiming the bonus cards) and decisions with one option are the tactical bot's.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from hippodrome.core.game import Action
from hippodrome.turfmaster.bots import TacticalBot
from hippodrome.turfmaster.determinize import RACE_DECISIONS, search_draws
from hippodrome.turfmaster.scoring import points_for_place
from hippodrome.turfmaster.search_state import CARD, DIE, KIND_JOKER, KIND_VALUE, ROLL, SQUARE, SearchRace

#: seconds of thought per decision when none is given (`--think`)
DEFAULT_THINK = 1.0
#: UCB1's exploration constant, for rewards in [0, 1]
EXPLORATION = 0.7
#: the most points a player's horses can score in one race (1st and 2nd: 50 + 30), for rewards in [0, 1]
MAX_RACE_POINTS = 80.0
#: iterations per option below which the search defers to the tactical bot's choice
MIN_VISITS = 3
#: decisions a playout may make before it stops (a race ends long before; a guard only)
PLAYOUT_LIMIT = 2000
CLAIMS = ("claim_bonus", "decline_bonus")


class _Node:
    __slots__ = ("seat", "visits", "total", "available", "children")

    def __init__(self, seat: int | None = None):
        self.seat = seat        # who made the move into this node
        self.visits = 0
        self.total = 0.0
        self.available = 0      # iterations in which this move was legal (ISMCTS availability)
        self.children: dict[int, _Node] = {}   # by the search state's lean action


class SearchBot:
    """ISMCTS over the race in progress; the tactical bot's choices elsewhere."""

    name = "search"
    thinks_long = True   # each decision takes its budget: a thread of its own in a bot worker

    def __init__(self, seed: int | str = 0, think: float | None = None, iterations: int | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        think = DEFAULT_THINK if think is None else think
        if think <= 0 and iterations is None:
            raise ValueError("a search bot needs a thinking time above 0 or a number of iterations")  # i18n: programming error
        self.rng = random.Random(seed)
        self.think = think
        self.iterations = iterations
        self.clock = clock
        self.tactical = TacticalBot(seed)
        self.last_iterations = 0

    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        pending = observation.get("pending") or {}
        plain = [o for o in options if o["type"] not in CLAIMS]
        if pending.get("kind") not in RACE_DECISIONS or len(plain) <= 1:
            return self.tactical.choose(observation, options)
        if len(plain) < len(options):  # the bonus cards are offered beside the race decision (T8)
            tactical = self.tactical.choose(observation, options)
            if tactical["type"] == "claim_bonus":
                return tactical
        return self.search(observation, pending["seat"], plain)

    # -- the search -------------------------------------------------------------------
    def search(self, observation: dict[str, Any], seat: int, options: list[Action]) -> Action:
        root = _Node()
        draw = search_draws(observation, seat)
        first = draw(self.rng)
        by_key = {first.lean_action(o): o for o in options}
        deadline = self.clock() + self.think if self.think > 0 else math.inf
        done = 0
        state = first
        while (self.iterations is None or done < self.iterations) and (done == 0 or self.clock() < deadline):
            if done:
                state = draw(self.rng)
            self._iterate(root, state)
            done += 1
        self.last_iterations = done
        fallback = self.tactical.choose(observation, tuple(options))
        if done < MIN_VISITS * len(options):  # too little thought to tell the options apart
            return fallback
        preferred = next(key for key, option in by_key.items() if option == fallback)

        def rank(key: int) -> tuple:
            child = root.children[key]
            return child.visits, child.total / max(child.visits, 1), key == preferred
        return by_key[max((key for key in root.children if key in by_key), key=rank)]

    def _iterate(self, root: _Node, race: SearchRace) -> None:
        rng = self.rng
        node, path = root, []
        while True:
            kind = race.pending_kind()
            if kind is None:
                break
            if kind == ROLL:
                race.apply(rng.randrange(36))
                continue
            legal = race.legal()
            seat = race.seat()
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(seat)
                child.available = 1
                race.apply(action)
                path.append(child)
                break
            action = max(legal, key=lambda a: _ucb(children[a]))
            race.apply(action)
            node = children[action]
            path.append(node)
        playout(race, rng)
        reward = seat_rewards(race)
        for child in path:
            child.visits += 1
            child.total += reward.get(child.seat, 0.0)


def _ucb(child: _Node) -> float:
    return child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)


def seat_rewards(race: SearchRace) -> dict[int, float]:
    """Each seat's points in the race so far (T9), scaled to [0, 1]."""
    points: dict[int, float] = {}
    for place, horse in enumerate(race.places, start=1):
        seat = race.owner[horse]
        points[seat] = points.get(seat, 0.0) + points_for_place(place) / MAX_RACE_POINTS
    return points


def playout(race: SearchRace, rng: random.Random) -> None:
    """Play ``race`` to its end with the fast policy: a random card of those that move the horse,
    the furthest square that does not fall (inner lane first), the higher die, a random use of
    the dice; a horse out of cards stands still."""
    order = race.course.move_order_key.__getitem__   # farthest first, the inner lane first on a line
    for _ in range(PLAYOUT_LIMIT):
        kind = race.kind   # pending_kind(), read as the field it returns (a call a step saved)
        if kind is None:
            return
        if kind == ROLL:
            race.apply(rng.randrange(36))
            continue
        legal = race.legal()
        if kind == CARD:
            limit = race.limits[race.order[race.turn]]
            pool = legal
            if limit:
                pool = [k for k in legal if KIND_JOKER[k] or KIND_VALUE[k] <= limit] or legal
            action = pool[rng.randrange(len(pool))]
        elif kind == SQUARE:
            moves, points = race.moves, race.points
            # T11 (an empty blocked_by_fence, the common case, skips the call)
            if race.card_round and moves.blocked_by_fence and moves.some_end_falls(points):
                action = max(legal, key=lambda end: (not moves.falls_at(end, points), -order(end)))
            else:
                action = min(legal, key=order)
        elif kind == DIE:
            action = max(legal)
        else:
            action = legal[rng.randrange(len(legal))]
        race.apply(action)
