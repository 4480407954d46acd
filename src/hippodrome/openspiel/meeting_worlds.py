"""Worlds a seat of a TurfMaster meeting cannot tell from the one it plays in, for ISMCTS
(``resample_from_infostate`` of ``hippodrome_turfmaster``).

What a seat knows of the cards (T7, T8): its own horses' hands each time they changed (dealt,
bonus cards taken, given up, discarded at random), every card played (face up), and the counts
of every other hand and deck. What it does not know: the order of every deck beyond the cards
it has drawn itself, the other horses' hands, the two cards each of them lost at random after a
bonus race, and the cards other owners gave up face down before a race.

A world is drawn in two passes over the game's history:

1. :func:`plan` (a :class:`Planner`, kept for the next resample) walks the history and keeps, for each horse of another seat, its deck as the
   seat knows it: positions drawn (the deck counts of the view), which of them were played face
   up and as what card (the races' public histories), and which left the hand face down (a
   random discard, a card given up: positions drawn at random among those held, since the seat
   cannot tell them apart). It reads nothing else of the game it replays: no hand, no deck of
   another seat. Its own horses' decks are what it drew, then the cards it has not drawn.
2. :meth:`Plan.decks` deals every deck again: the cards played stay where they were played, the
   other positions take the cards left, in a random order (the seat's own undrawn cards too);
   :meth:`Plan.ids` then gives the action ids of the history in that world, read off the world
   as it is rebuilt: each shuffle draws the new deck, each face-down discard the card now at its
   position; every other action (dice, decisions, cards played) is the history's own.

The world is uniform over the deals that agree with what the seat saw, given where each card
was played (it does not weigh deals by how likely the other seats were to play as they did:
that would need a model of their play).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterator

from hippodrome.core.game import Chance, Decision
from hippodrome.envs.turfmaster_encoding import encode, frame_of
from hippodrome.openspiel.chance import Node
from hippodrome.turfmaster.cards import full_deck
from hippodrome.turfmaster.meeting import Meeting


class HiddenDeck:
    """One horse's deck as another seat knows it: its positions drawn and held, the cards played
    face up from it (by position)."""

    def __init__(self) -> None:
        self.drawn = 0
        self.held: list[int] = []
        self.played: dict[int, str] = {}

    def draw(self, count: int) -> None:
        self.held += range(self.drawn, self.drawn + count)
        self.drawn += count

    def play(self, card: str, rng: random.Random) -> None:
        self.played[self.held.pop(rng.randrange(len(self.held)))] = card

    def lose(self, rng: random.Random) -> int:
        """A card leaves the hand face down: the position it was dealt at, drawn among those held."""
        return self.held.pop(rng.randrange(len(self.held)))

    def deal(self, rng: random.Random) -> list[str]:
        """A deck in which every played card is where it was played, the rest shuffled."""
        rest = list((Counter(full_deck()) - Counter(self.played.values())).elements())
        rng.shuffle(rest)
        cards = iter(rest)
        return [self.played.get(position) or next(cards) for position in range(len(full_deck()))]


class Plan:
    """What :func:`plan` found: per step of the history, what it is (``None``: the history's own
    action; ``("shuffle", horse, position)``; ``("lose", horse, position)``), and each deck."""

    def __init__(self, meeting: Meeting, seat: int):
        self.seat = seat
        self.steps: list[tuple[Any, ...] | None] = []
        self.hidden = {horse: HiddenDeck() for horse in meeting.ids if meeting.owner[horse] != seat}
        #: the seat's own horses: the cards it drew, in the order drawn
        self.own: dict[str, list[str]] = {horse: [] for horse in meeting.ids if meeting.owner[horse] == seat}

    def decks(self, rng: random.Random) -> dict[str, list[str]]:
        decks = {horse: deck.deal(rng) for horse, deck in self.hidden.items()}
        for horse, drawn in self.own.items():
            rest = list((Counter(full_deck()) - Counter(drawn)).elements())
            rng.shuffle(rest)
            decks[horse] = drawn + rest
        return decks

    def ids(self, history: list[int], world: Any, rng: random.Random) -> Iterator[int]:
        """The history's action ids in a world dealt anew; ``world`` is the OpenSpiel state being
        rebuilt (each id is applied to it before the next is asked)."""
        decks = self.decks(rng)
        for action, step in zip(history, self.steps):
            if step is None:
                yield action
                continue
            _, horse, position = step
            core = world.core
            pending = core.engine.pending()
            card = decks[horse][position]
            if isinstance(pending, Chance):  # a shuffle's draw, a random discard's
                yield _outcome(Node.of(pending, core.drawn), card)
            else:  # a card given up
                yield encode({"type": "discard", "horse": horse, "card": card}, frame_of(core.engine, pending))


def _outcome(node: Node, item: Any) -> int:
    return next(outcome for outcome, _ in node.outcomes() if node.item(outcome) == item)


class Planner:
    """:func:`plan` kept from one resample to the next: the history replayed so far and what the
    seat knew then; a longer history of the same game (ISMCTS asks at each of its decisions)
    replays only what is new."""

    def __init__(self, first: Any, seat: int):
        self.core = first.clone()
        self.plan = Plan(self.core.engine, seat)
        self.history: list[int] = []
        self._race: Any = None
        self._events = 0

    def extend(self, history: list[int], rng: random.Random) -> bool:
        """Replay what ``history`` adds to the history planned; False if it is not its continuation."""
        if len(history) < len(self.history) or history[:len(self.history)] != self.history:
            return False
        for action in history[len(self.history):]:
            self._step(action, rng)
        return True

    def _step(self, action: int, rng: random.Random) -> None:
        meeting: Meeting = self.core.engine
        found = self.plan
        pending = meeting.pending()
        step = None
        horse = (getattr(pending, "context", None) or {}).get("horse")
        if isinstance(pending, Chance) and pending.kind == "shuffle":
            step = ("shuffle", horse, len(self.core.drawn))
        elif horse in found.hidden and (isinstance(pending, Chance) and pending.kind == "bonus_discard"
                                         or isinstance(pending, Decision) and pending.kind == "keep"):
            step = ("lose", horse, found.hidden[horse].lose(rng))
        found.steps.append(step)
        drawn = dict(meeting.drawn)
        self.core.apply(action)
        self.history.append(action)
        for horse, count in meeting.drawn.items():
            if count > drawn[horse]:
                if horse in found.hidden:
                    found.hidden[horse].draw(count - drawn[horse])
                else:
                    found.own[horse] += meeting.decks[horse][drawn[horse]:count]
        self._read_plays(rng)

    def _read_plays(self, rng: random.Random) -> None:
        """The cards played face up since the last look, by the other seats' horses."""
        race = self.core.engine.race
        if race is None:
            return
        if race is not self._race:
            self._race, self._events = race, 0
        for event in race.history[self._events:]:
            if event["event"] == "card" and event["horse"] in self.plan.hidden:
                self.plan.hidden[event["horse"]].play(event["card"], rng)
        self._events = len(race.history)


def plan(first: Any, history: list[int], seat: int, rng: random.Random, planner: Planner | None = None) -> Planner:
    """What ``seat`` knows of every deck after ``history`` (see the module's notes), replayed from
    ``first`` (the game's first core; a clone is played), or from ``planner`` when ``history``
    continues what it planned."""
    if planner is None or planner.plan.seat != seat or not planner.extend(history, rng):
        planner = Planner(first, seat)
        planner.extend(history, rng)
    return planner
