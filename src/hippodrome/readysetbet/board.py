"""The betting board as data (rulings R5, R6, R7): spaces, their payouts and when they win.

Every space has an id, a multiplier (a winning token pays token x multiplier) and a red
circle (what a losing bet costs; 0 = none). Whether a space wins is computed from the final
positions by one vectorised function, :func:`wins`, used both to settle a race (one row) and
by the odds (thousands of simulated rows), so the two can never disagree.

Space ids: ``win:<horse>:L|M|R``, ``place:<horse>:L|R``, ``show:<horse>:L|R``,
``colour:blue|orange|red|7-fifth-or-worse``, ``prop:<card id>`` (e.g. ``prop:8>5,9``),
``exotic:<card id>:1|2|3`` (e.g. ``exotic:by-a-nose:2``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

import numpy as np

from hippodrome.readysetbet.dice_race import COLOUR, FINISH, HORSE_INDEX, HORSES


def _load(name: str) -> dict[str, Any]:
    return json.loads((resources.files("hippodrome.readysetbet") / "data" / name).read_text())


BOARD_DATA = _load("board.json")
EXOTIC_DATA = _load("exotic.json")
PROP_DATA = _load("props.json")

EXOTIC_CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in EXOTIC_DATA["cards"]}
PROP_CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in PROP_DATA["cards"]}
PROPS_PER_RACE: int = PROP_DATA["cards_per_race"]
EXOTIC_SPACES_PER_CARD: int = EXOTIC_DATA["spaces_per_card"]
CLOSED_WITH_TWO: frozenset[str] = frozenset(BOARD_DATA["closed_with_two_players"])


@dataclass(frozen=True)
class Space:
    id: str
    kind: str  # win, place, show, colour, prop, exotic
    multiplier: int
    penalty: int
    #: what the space is about, for the win test: horse, colour, card ...
    spec: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: the exotic card a space belongs to (one token per player per card, R6)
    card: str | None = None

    @cached_property
    def column(self) -> str | None:
        """``win:L`` etc. for the Win/Place/Show grid (the 2-player closed column, R4)."""
        if self.kind in ("win", "place", "show"):
            return f"{self.kind}:{self.id.rsplit(':', 1)[1]}"
        return None

    def to_json(self) -> dict[str, Any]:
        data = {"id": self.id, "kind": self.kind, "multiplier": self.multiplier, "penalty": self.penalty}
        if self.card:
            data["card"] = self.card
        return data


def _fixed_spaces() -> list[Space]:
    spaces = []
    for row in BOARD_DATA["rows"]:
        horse = row["horse"]
        for column, (multiplier, penalty) in zip(BOARD_DATA["columns"], row["spaces"]):
            kind, side = column.split(":")
            spaces.append(Space(f"{kind}:{horse}:{side}", kind, multiplier, penalty, {"horse": horse}))
    for bet in BOARD_DATA["colour_bets"]:
        spaces.append(Space(f"colour:{bet['id']}", "colour", bet["multiplier"], bet["penalty"], bet))
    return spaces


FIXED_SPACES: tuple[Space, ...] = tuple(_fixed_spaces())


def prop_space(card_id: str) -> Space:
    card = PROP_CARDS[card_id]
    return Space(f"prop:{card_id}", "prop", card["multiplier"], card["penalty"], card)


def exotic_spaces(card_id: str) -> list[Space]:
    card = EXOTIC_CARDS[card_id]
    return [Space(f"exotic:{card_id}:{n}", "exotic", card["multiplier"], card["penalty"], card, card_id)
            for n in range(1, EXOTIC_SPACES_PER_CARD + 1)]


def race_spaces(props: list[str], exotics: list[str]) -> list[Space]:
    """Every space of the board for a race with these prop and exotic cards face up."""
    spaces = list(FIXED_SPACES)
    spaces.extend(prop_space(card) for card in props)
    for card in exotics:
        spaces.extend(exotic_spaces(card))
    return spaces


def _group(names: list[str]) -> list[int]:
    horses = []
    for name in names:
        horses.extend(HORSE_INDEX[h] for h in PROP_DATA["groups"].get(name, [name]))
    return horses


class Finish:
    """Final positions of N races (array N x 9) and the derived rankings (R3)."""

    def __init__(self, positions: np.ndarray):
        self.positions = np.asarray(positions, dtype=np.int16).reshape(-1, len(HORSES))
        p = self.positions
        #: competition rank: 1 + number of horses strictly ahead
        self.rank = 1 + (p[:, None, :] > p[:, :, None]).sum(axis=2)
        descending = -np.sort(-p, axis=1)
        #: how far behind the finish the horse in 2nd and 3rd place stand (tied 2nd = 2nd and 3rd)
        self.second_loses_by = FINISH - descending[:, 1]
        self.third_loses_by = FINISH - descending[:, 2]


_COMPARE = {"eq": np.equal, "gt": np.greater, "le": np.less_equal}


def wins(space: Space, finish: Finish) -> np.ndarray:
    """Boolean array (N,): does ``space`` win in each of the finishes?"""
    rank, pos, spec = finish.rank, finish.positions, space.spec
    if space.kind in ("win", "place", "show"):
        limit = {"win": 1, "place": 2, "show": 3}[space.kind]
        return rank[:, HORSE_INDEX[spec["horse"]]] <= limit
    if space.kind == "colour":
        if spec["kind"] == "colour_wins":
            members = [HORSE_INDEX[h] for h in HORSES if COLOUR[h] == spec["colour"]]
            return (rank[:, members] == 1).any(axis=1)
        if spec["kind"] == "horse_at_least_behind":
            return rank[:, HORSE_INDEX[spec["horse"]]] - 1 >= spec["ahead"]
    if space.kind == "prop":
        horse = HORSE_INDEX[spec["horse"]]
        return (pos[:, [horse]] > pos[:, _group(spec["ahead_of"])]).all(axis=1)
    if space.kind == "exotic":
        kind = spec["kind"]
        if kind == "second_loses_by":
            return _COMPARE[spec["compare"]](finish.second_loses_by, spec["n"])
        if kind == "third_loses_by":
            return _COMPARE[spec["compare"]](finish.third_loses_by, spec["n"])
        if kind == "every_horse_moved_at_least":
            return (pos >= spec["n"]).all(axis=1)
        if kind == "horses_moved_at_most":
            return (pos <= spec["n"]).sum(axis=1) >= spec["count"]
    raise ValueError(f"space {space.id!r} has an unknown kind of bet")  # i18n: programming error (checked data and callers)


def all_prop_ids() -> list[str]:
    return [card["id"] for card in PROP_DATA["cards"]]


def all_exotic_ids() -> list[str]:
    return [card["id"] for card in EXOTIC_DATA["cards"]]
