"""Ready Set Bet for learning programs: one fixed integer action space and one observation vector,
shared by the PettingZoo and Gymnasium environments and the OpenSpiel game.

Actions (:data:`ACTIONS` ids):

* ``0``: pass (bet nothing on this roll);
* ``bet``: a token kind on a space, ``BET + kind * SPACES + space``: the kinds are the distinct
  tokens a seat can hold (the player tokens 2, 3, 4, 5 and the VIP bonus tokens, R4, R8; two
  tokens alike are one kind: the engine offers the first one unused), the spaces every space a
  board can show (the fixed Win/Place/Show and colour spaces, then one per prop card, then three
  per exotic-finish card, R5-R7), in :data:`SPACE_IDS` order. The House's ``house_token``
  decision uses the same ids (a token of that value on that space, R9);
* ``vip``: keep one VIP card (R8), by card;
* ``house``: accept or refuse the rotating House (R9).

The observation (:func:`observe`, floats in [0, 1]) holds only what ``view(seat)`` shows: the
race (positions, the last roll and whether it was a bonus move, red-line crossings, whether
bets are closed), every space of the board with the tokens on it, the seat's unused tokens, every
seat's money (rotated so the seat itself comes first), its VIP cards, the House, and the
decision in front of it (the two VIP cards it chooses between are its own to see).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from hippodrome.core.game import Action, Chance, Decision
from hippodrome.envs.actions import mask_of
from hippodrome.envs.features import Layout, Vector
from hippodrome.readysetbet.board import (
    FIXED_SPACES, all_exotic_ids, all_prop_ids, exotic_spaces, prop_space, race_spaces,
)
from hippodrome.readysetbet.dice_race import CROSSINGS_TO_CLOSE, FINISH, HORSES, RACE_DATA
from hippodrome.readysetbet.game import HOUSE_TOKEN_VALUES, PLACE_HOUSE_TOKENS, ReadySetBet
from hippodrome.readysetbet.description import VARIANTS
from hippodrome.readysetbet.vip import VIP_CARDS, deck_ids

#: every space a board may show, in a fixed order
SPACE_IDS: tuple[str, ...] = (tuple(space.id for space in FIXED_SPACES)
                              + tuple(prop_space(card).id for card in all_prop_ids())
                              + tuple(space.id for card in all_exotic_ids() for space in exotic_spaces(card)))
SPACE: dict[str, int] = {space: number for number, space in enumerate(SPACE_IDS)}
SPACES = len(SPACE_IDS)


def token_kind_of(token: dict[str, Any]) -> tuple[int, int, bool]:
    """What makes two tokens alike: value, own red circle, whether it cancels a loss (R4, R8)."""
    return (token["value"], token.get("penalty", 0), bool(token.get("cancels_loss", False)))


#: the kinds of token, player tokens first (R4), then the VIP bonus tokens unlike them (R8)
TOKEN_KINDS: tuple[tuple[int, int, bool], ...] = tuple(dict.fromkeys(
    [(value, 0, False) for value in sorted(set(RACE_DATA["bet_tokens"]) | set(HOUSE_TOKEN_VALUES))]
    + sorted(token_kind_of({"value": card["token"], "penalty": card["penalty"], "cancels_loss": card["cancels_loss"]})
             for card in VIP_CARDS.values() if card["kind"] == "bonus_token")))
TOKEN_KIND: dict[tuple[int, int, bool], int] = {kind: number for number, kind in enumerate(TOKEN_KINDS)}
VIP_IDS: tuple[str, ...] = tuple(deck_ids())
VIP_INDEX: dict[str, int] = {card: number for number, card in enumerate(VIP_IDS)}

_blocks = Layout()
PASS = _blocks.add("pass", 1)
BET = _blocks.add("bet", len(TOKEN_KINDS) * SPACES)
VIP = _blocks.add("vip", len(VIP_IDS))
HOUSE = _blocks.add("house", 2)
#: the number of action ids, and where each block of them starts
ACTIONS = _blocks.size
ACTION_BLOCKS = dict(_blocks.fields)
PASS_ACTION: Action = {"type": "pass"}


# -- who acts now ---------------------------------------------------------------------------------
def betting_open(game: ReadySetBet) -> bool:
    """Whether the game waits for the next roll of a race (bets are taken between rolls)."""
    pending = game.pending()
    return isinstance(pending, Chance) and pending.timed


def bettors(game: ReadySetBet) -> list[int]:
    """The seats that may bet before the next roll (some token left, betting not closed to them)."""
    if not betting_open(game):
        return []
    return [seat for seat in range(game.seats) if game.free_options(seat)]


# -- options <-> ids ------------------------------------------------------------------------------
def encode(option: Action) -> int:
    """The id of a bet, a House token, a VIP card kept, a House answer, or a pass."""
    kind = option["type"]
    if kind == "pass":
        return PASS
    if kind == "house_token":
        return BET + TOKEN_KIND[(option["value"], 0, False)] * SPACES + SPACE[option["space"]]
    if kind == "vip":
        return VIP + VIP_INDEX[option["keep"]]
    if kind == "house":
        return HOUSE + (0 if option["accept"] else 1)
    raise ValueError(f"no Ready Set Bet action id for {option!r} without its seat's tokens")  # i18n: programming error


def encode_bet(game: ReadySetBet, seat: int, option: Action) -> int:
    """The id of one of ``seat``'s bets (its token named by id, counted by kind)."""
    token = game.token(seat, option["token"])
    return BET + TOKEN_KIND[token_kind_of(token)] * SPACES + SPACE[option["space"]]


def decode(game: ReadySetBet, seat: int, action_id: int) -> Action:
    """The option ``action_id`` stands for, for ``seat`` now: a bet names the seat's first unused
    token of that kind (the one the engine offers), a House token its value, when the House is
    placing them."""
    action_id = int(action_id)
    if action_id == PASS:
        return dict(PASS_ACTION)
    if BET <= action_id < BET + len(TOKEN_KINDS) * SPACES:
        kind, space = divmod(action_id - BET, SPACES)
        if game.phase == PLACE_HOUSE_TOKENS:
            return {"type": "house_token", "value": TOKEN_KINDS[kind][0], "space": SPACE_IDS[space]}
        token = next((t["id"] for t in game.tokens[seat] if t["id"] not in game.used[seat]
                      and token_kind_of(t) == TOKEN_KINDS[kind]), None)
        return {"type": "bet", "token": token, "space": SPACE_IDS[space]}
    if VIP <= action_id < VIP + len(VIP_IDS):
        return {"type": "vip", "keep": VIP_IDS[action_id - VIP]}
    if HOUSE <= action_id < HOUSE + 2:
        return {"type": "house", "accept": action_id == HOUSE}
    raise ValueError(f"{action_id} is not a Ready Set Bet action id (0 to {ACTIONS - 1})")  # i18n: programming error


def describe(action_id: int) -> str:
    """An id in words a program's log can carry ("pass", "bet 5 on win:7:L", "vip comp-3")."""
    if action_id == PASS:
        return "pass"
    if BET <= action_id < BET + len(TOKEN_KINDS) * SPACES:
        kind, space = divmod(action_id - BET, SPACES)
        value, penalty, cancels = TOKEN_KINDS[kind]
        token = f"{value}" + (f"(-{penalty})" if penalty else "") + ("(no loss)" if cancels else "")
        return f"bet {token} on {SPACE_IDS[space]}"
    if VIP <= action_id < VIP + len(VIP_IDS):
        return f"vip {VIP_IDS[action_id - VIP]}"
    if HOUSE <= action_id < HOUSE + 2:
        return "house accept" if action_id == HOUSE else "house refuse"
    return f"invalid {action_id}"


def legal_actions(game: ReadySetBet, seat: int) -> dict[int, Action]:
    """What ``seat`` may do now, by id: the options of its decision, or between rolls a pass and
    each of its bets, in the engine's order (``sorted()`` for ids ascending); nothing when it has
    nothing to do."""
    pending = game.pending()
    if isinstance(pending, Decision):
        if pending.seat != seat:
            return {}
        return {encode(option): option for option in pending.options}
    if not betting_open(game):
        return {}
    options = game.free_options(seat)
    if not options:
        return {}
    kinds = {token["id"]: BET + TOKEN_KIND[token_kind_of(token)] * SPACES for token in game.tokens[seat]}
    legal = {PASS: dict(PASS_ACTION)}
    for option in options:
        legal[kinds[option["token"]] + SPACE[option["space"]]] = option
    return legal


def action_mask(legal: dict[int, Action] | None) -> np.ndarray:
    """1 for each legal id (none when the seat has nothing to decide)."""
    return mask_of(legal, ACTIONS)


# -- the observation ------------------------------------------------------------------------------
MOST_SEATS = RACE_DATA["max_players"] + 1
#: money is scaled by this (more is shown as 1)
MOST_MONEY = 300
MOST_TOKEN_VALUE = max(kind[0] for kind in TOKEN_KINDS)
DECISIONS = ("house_token", "vip", "house_offer", "house_stay")
SUMS = tuple(range(2, 13))

_layout = Layout()
O_POSITIONS = _layout.add("positions / 15", len(HORSES))
O_LAST_SUM = _layout.add("last roll's sum", len(SUMS))
O_LAST_BONUS = _layout.add("last roll was a bonus move", 1)
O_CROSSINGS = _layout.add("red-line crossings / 3", 1)
O_CLOSED = _layout.add("bets closed", 1)
O_FINISHED = _layout.add("race finished", 1)
O_ON_BOARD = _layout.add("space on the board this race", SPACES)
O_COLUMN_CLOSED = _layout.add("space closed (2 bettors, R4)", SPACES)
O_MINE = _layout.add("my token's value on the space / 7", SPACES)
O_OTHERS = _layout.add("other seats' tokens on the space / 8", SPACES)
O_HOUSE = _layout.add("house token's value on the space / 7", SPACES)
O_TOKENS = _layout.add("my unused tokens per kind / 3", len(TOKEN_KINDS))
O_MONEY = _layout.add("money / 300, seats after me", MOST_SEATS)
O_VIP = _layout.add("my VIP cards", len(VIP_IDS))
O_HOUSE_SEAT = _layout.add("the House, seats after me", MOST_SEATS)
O_DECISION = _layout.add("my decision", len(DECISIONS))
O_VIP_DRAWN = _layout.add("VIP cards I choose between", len(VIP_IDS))
O_HOUSE_LEFT = _layout.add("house tokens left to place, per value / 2", len(TOKEN_KINDS))
O_RACE = _layout.add("race / races", 1)
O_VARIANT = _layout.add("variant", len(VARIANTS))
O_SEATS = _layout.add("seats / 9", 1)
#: the length of the observation vector
OBSERVATION_SIZE = _layout.size
OBSERVATION_FIELDS = dict(_layout.fields)


def observe(game: ReadySetBet, seat: int) -> np.ndarray:
    """What ``seat`` knows of ``game``, as :data:`OBSERVATION_SIZE` floats."""
    vector = Vector(OBSERVATION_SIZE)
    race = game.race
    for horse, position in enumerate(race.positions):
        vector.scaled(O_POSITIONS + horse, position, FINISH)
    if race.last_sum is not None:
        vector.one_hot(O_LAST_SUM, race.last_sum - SUMS[0])
    vector.set(O_LAST_BONUS, float(race.last_was_bonus))
    vector.scaled(O_CROSSINGS, race.crossings, CROSSINGS_TO_CLOSE)
    vector.set(O_CLOSED, float(race.bets_closed))
    vector.set(O_FINISHED, float(race.finished))
    for number in _board(tuple(game.props), tuple(game.exotics), game.closed_columns()):
        vector.set(number)
    others = [0] * SPACES
    for bet in game.bets:
        number = SPACE[bet["space"]]
        if bet["seat"] == seat:
            vector.scaled(O_MINE + number, bet["token"]["value"], MOST_TOKEN_VALUE)
        else:
            others[number] += 1
    for number, count in enumerate(others):
        vector.scaled(O_OTHERS + number, count, MOST_SEATS - 1)
    for bet in game.house_bets:
        vector.scaled(O_HOUSE + SPACE[bet["space"]], bet["token"]["value"], MOST_TOKEN_VALUE)
    unused = [token_kind_of(token) for token in game.tokens[seat] if token["id"] not in game.used[seat]]
    vector.counts(O_TOKENS, unused, TOKEN_KIND, 3)
    seats = game.seats
    for other, money in enumerate(game.money):
        vector.scaled(O_MONEY + (other - seat) % seats, money, MOST_MONEY)
    for card in game.vip_cards[seat]:
        vector.set(O_VIP + VIP_INDEX[card])
    if game.house_seat is not None:
        vector.one_hot(O_HOUSE_SEAT, (game.house_seat - seat) % seats)
    pending = game.pending()
    if isinstance(pending, Decision) and pending.seat == seat:
        vector.one_hot(O_DECISION, DECISIONS.index(pending.kind))
        if pending.kind == "vip":
            for card in pending.context["drawn"]:
                vector.set(O_VIP_DRAWN + VIP_INDEX[card])
    if game.phase == "house_tokens":
        vector.counts(O_HOUSE_LEFT, [(value, 0, False) for value in game.house_left], TOKEN_KIND, 2)
    vector.scaled(O_RACE, game.race_no, game.races)
    vector.one_hot(O_VARIANT, VARIANTS.index(game.variant))
    vector.scaled(O_SEATS, seats, MOST_SEATS)
    return vector.array()


@lru_cache(maxsize=1024)
def _board(props: tuple[str, ...], exotics: tuple[str, ...], closed: frozenset[str]) -> tuple[int, ...]:
    """The entries of a board with these cards face up: its spaces, and those closed (R4-R7)."""
    entries = []
    for space in race_spaces(list(props), list(exotics)):
        entries.append(O_ON_BOARD + SPACE[space.id])
        if space.column in closed:
            entries.append(O_COLUMN_CLOSED + SPACE[space.id])
    return tuple(entries)


def observation_fields() -> dict[str, Any]:
    """The layout of the vector: field -> (start, width)."""
    return {"size": OBSERVATION_SIZE, "fields": OBSERVATION_FIELDS}
