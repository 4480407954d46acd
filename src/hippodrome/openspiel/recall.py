"""Perfect-recall information-state tensors: what a seat has seen since the game began, in a
fixed-size vector (OpenSpiel needs one shape per game), for methods that learn from information
states (Deep CFR, NFSP, ...).

The tensor of a seat has four parts (:class:`RecallLayout`; ``python -m hippodrome.envs.layout``
prints them for a game's setup):

1. ``seat``: which seat it is, one-hot (the rest is told relative to it);
2. ``observation``: the encoding's observation vector now (the same as the observation tensor);
3. ``steps``: one slot per step of the game's history (every action and chance outcome applied,
   as OpenSpiel counts them), up to the most a game can have: who acted (the seat itself, the
   seats after it in turn, or chance), and the step's *code* if the seat saw it (an action id,
   or a chance outcome id) as two one-hot digits, ``code // base`` and ``code % base``, where
   ``base`` is the smallest whole number whose square reaches the codes; a step the seat did not
   see (a card dealt, a deck shuffled, a card given up face down by another seat) has its actor
   and no code. Its last entry is set when the seat's private part changed with that step;
4. ``private``: the seat's private part (its own hands, by card kind, in TurfMaster) each time it
   changed, in order.

Each step's visibility is decided when the step is applied (:meth:`Recall.add`): ``PUBLIC``,
``HIDDEN`` or the one seat that saw it. So a tensor holds what the seat saw and nothing else (a
seat's tensor does not change when another seat's hidden cards do), and everything the seat saw,
in order: two different information states give two different tensors.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from hippodrome.envs.features import Layout

#: who saw a step: everyone, or no one (otherwise the one seat that did, by number)
PUBLIC, HIDDEN = -1, -2
CHANCE_ACTOR = -1


class RecallLayout:
    """Where each part of a game's information-state tensor lies."""

    def __init__(self, observation_size: int, seats: int, codes: int, steps: int, private_width: int,
                 privates: int):
        self.seats = seats
        self.base = max(2, math.ceil(math.sqrt(codes)))
        self.steps = steps
        self.private_width = private_width
        self.privates = privates
        step = Layout()
        self.actor = step.add("actor: me, the seats after me, chance", seats + 1)
        self.high = step.add("code // base, one-hot", self.base)
        self.low = step.add("code % base, one-hot", self.base)
        self.changed = step.add("my private part changed", 1)
        self.step_width = step.size
        self.step_fields = dict(step.fields)
        whole = Layout()
        self.seat = whole.add("seat", seats)
        self.observation = whole.add("observation", observation_size)
        self.history = whole.add("steps", steps * self.step_width)
        self.private = whole.add("private", privates * private_width)
        self.size = whole.size
        self.fields = dict(whole.fields)

    def describe(self) -> dict[str, Any]:
        return {"size": self.size, "fields": self.fields, "step_width": self.step_width,
                "step_fields": self.step_fields, "base": self.base, "steps": self.steps,
                "private_width": self.private_width, "privates": self.privates}


class Recall:
    """The steps of one game and what each seat saw of them."""

    def __init__(self, layout: RecallLayout):
        self.layout = layout
        #: (actor, code, who saw it) per step
        self.steps: list[tuple[int, int, int]] = []
        #: per seat: (step, its private part) each time the part changed
        self.changes: list[list[tuple[int, tuple]]] = [[] for _ in range(layout.seats)]
        self._last: list[tuple | None] = [None] * layout.seats
        #: per seat: the indices set to 1 so far, and how many steps and changes they cover
        self._ones: list[tuple[list[int], int, int]] = [([], 0, 0) for _ in range(layout.seats)]

    def copy(self) -> "Recall":
        twin = Recall.__new__(Recall)
        twin.layout = self.layout
        twin.steps = list(self.steps)
        twin.changes = [list(changes) for changes in self.changes]
        twin._last = list(self._last)
        twin._ones = [(list(ones), steps, changes) for ones, steps, changes in self._ones]
        return twin

    def state(self) -> tuple:
        """What a pickle keeps."""
        return self.steps, self.changes, self._last

    def restore(self, state: tuple) -> None:
        steps, changes, last = state
        self.steps = [tuple(step) for step in steps]
        self.changes = [[(step, tuple(part)) for step, part in seat] for seat in changes]
        self._last = [None if part is None else tuple(part) for part in last]
        self._ones = [([], 0, 0) for _ in range(self.layout.seats)]

    def add(self, actor: int, code: int, seen_by: int, private: Callable[[int], tuple] | None = None) -> None:
        """A step applied: its actor (a seat, or :data:`CHANCE_ACTOR`), its code, who saw it; then
        each seat's private part (``private(seat)``: (entry, value) pairs within the layout's
        ``private_width``, None for a game without one) is compared with the last one seen."""
        if len(self.steps) >= self.layout.steps:
            raise ValueError(f"the game is longer than its information-state tensor's {self.layout.steps} "  # i18n: programming error
                             "steps")
        self.steps.append((actor, code, seen_by))
        if private is None:
            return
        for seat in range(self.layout.seats):
            part = private(seat)
            if part != self._last[seat]:
                self._last[seat] = part
                self.changes[seat].append((len(self.steps) - 1, part))

    def tensor(self, seat: int, observation: np.ndarray) -> np.ndarray:
        layout = self.layout
        ones, read, changed = self._ones[seat]
        width, base, seats = layout.step_width, layout.base, layout.seats
        for number in range(read, len(self.steps)):
            actor, code, seen_by = self.steps[number]
            start = layout.history + number * width
            ones.append(start + layout.actor + (seats if actor == CHANCE_ACTOR else (actor - seat) % seats))
            if seen_by == PUBLIC or seen_by == seat:
                ones.append(start + layout.high + code // base)
                ones.append(start + layout.low + code % base)
        changes = self.changes[seat]
        if len(changes) > layout.privates:
            raise ValueError(f"seat {seat}'s private part changed more than the tensor's {layout.privates} times")  # i18n: programming error
        for step, _ in changes[changed:]:
            ones.append(layout.history + step * width + layout.changed)
        self._ones[seat] = (ones, len(self.steps), len(changes))
        vector = np.zeros(layout.size, np.float32)
        vector[layout.observation:layout.history] = observation
        vector[ones] = 1.0
        vector[layout.seat + seat] = 1.0
        for number, (_, part) in enumerate(changes):
            start = layout.private + number * layout.private_width
            for entry, value in part:
                vector[start + entry] = value
        return vector
