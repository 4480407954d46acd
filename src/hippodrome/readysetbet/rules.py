"""The rules page's diagrams, computed by the engine, and where each ruling is explained.

``ANCHORS`` maps each ruling of docs/rulings.md (R1 ..) to the paragraph of the
rules page (``/rules/readysetbet#red-line``) that explains it to players. ``diagrams()`` builds the
page's diagrams from the game's own data and functions: the betting board is the printed board's
data, the bonus moves and the red line are rolls run through ``dice_race.advance``, and the settled
race is that race's finish settled by ``settlement.settle``. The page (web/rules/readysetbet.js)
only draws what this returns (``GET /api/games/readysetbet/rules``).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hippodrome.core.dice import roll
from hippodrome.readysetbet.board import BOARD_DATA, FIXED_SPACES
from hippodrome.readysetbet.dice_race import (
    BONUS, COLOUR, CROSSINGS_TO_CLOSE, FINISH, HORSES, RED_LINE, RaceState, advance, ranks,
)
from hippodrome.readysetbet.settlement import player_tokens, settle

#: ruling -> the paragraph of the rules page that explains it
ANCHORS: dict[str, str] = {
    "R1": "bonus", "R2": "red-line", "R3": "results", "R4": "tokens", "R5": "board", "R6": "exotic",
    "R7": "props", "R8": "vip", "R9": "game",
}

#: the rolls of the bonus diagram: a 4 and another (bonus), a third (none), a fourth (bonus again),
#: then the 7, whose bonus is nothing
BONUS_SUMS = (4, 4, 4, 4, 7, 7)
#: the seed of the race the red-line and settlement diagrams follow (two horses tied for second: R3)
RACE_SEED = "rules-page-0"


def _board() -> dict[str, Any]:
    return {"columns": BOARD_DATA["columns"], "closed_with_two": BOARD_DATA["closed_with_two_players"],
            "rows": [{"horse": row["horse"], "colour": COLOUR[row["horse"]], "spaces": row["spaces"]}
                     for row in BOARD_DATA["rows"]],
            "colour_bets": [{key: bet[key] for key in ("id", "multiplier", "penalty")}
                            for bet in BOARD_DATA["colour_bets"]]}


def _rolls(sums: Any, state: RaceState) -> tuple[RaceState, list[dict[str, Any]]]:
    """Each roll's move (``advance``'s first event) with the events it caused, and the state after."""
    rolled = []
    for dice_sum in sums:
        state, events = advance(state, dice_sum)
        rolled.append({**events[0], "then": [e["event"] for e in events[1:]],
                       "crossing": next((e["crossing"] for e in events if e["event"] == "red_line"), None)})
    return state, rolled


def _bonus() -> dict[str, Any]:
    _, rolled = _rolls(BONUS_SUMS, RaceState.start())
    return {"rolls": rolled, "bonus": BONUS, "colours": COLOUR}


def _race() -> tuple[list[dict[str, Any]], RaceState, RaceState]:
    """The race the page follows, rolled with two dice: every roll, the state when bets closed and
    the state at the finish."""
    rng = random.Random(RACE_SEED)
    state, rolled, closed = RaceState.start(), [], None
    while not state.finished:
        state, events = _rolls([sum(roll(rng))], state)
        rolled.extend(events)
        if closed is None and state.crossings >= CROSSINGS_TO_CLOSE:
            closed = state
    return rolled, closed, state


def _track(state: RaceState) -> list[dict[str, Any]]:
    return [{"horse": horse, "colour": COLOUR[horse], "space": space, "rank": rank}
            for horse, space, rank in zip(HORSES, state.positions, ranks(state.positions))]


def _red_line(rolled: list[dict[str, Any]], closed: RaceState) -> dict[str, Any]:
    crossings = [{"horse": r["horse"], "crossing": r["crossing"]} for r in rolled if r["crossing"]]
    return {"track": _track(closed), "red_line": RED_LINE, "finish": FINISH,
            "crossings": crossings[:CROSSINGS_TO_CLOSE], "rolls": rolled.index(
                next(r for r in rolled if r["crossing"] == CROSSINGS_TO_CLOSE)) + 1}


def _example_bets(final: RaceState) -> list[dict[str, Any]]:
    """Four bets of one player: Win on the winner, Place on the horse 2nd, Show on the horse 4th
    (behind two tied for 2nd, it does not show: R3) and Show on the last horse."""
    order = sorted(range(len(HORSES)), key=lambda h: -final.positions[h])
    tokens = {token["id"]: token for token in player_tokens(2)}
    winner, second, fourth, last = (HORSES[order[n]] for n in (0, 1, 3, -1))
    return [{"seat": 0, "token": tokens["5"], "space": f"win:{winner}:M"},
            {"seat": 0, "token": tokens["3"], "space": f"place:{second}:L"},
            {"seat": 0, "token": tokens["2"], "space": f"show:{fourth}:R"},
            {"seat": 0, "token": tokens["4"], "space": f"show:{last}:L"}]


def _settled(final: RaceState) -> dict[str, Any]:
    spaces = {space.id: space for space in FIXED_SPACES}
    bets = _example_bets(final)
    money, results = settle(bets, spaces, final.positions, {0: 0})
    lines = []
    for bet, result in zip(bets, results):
        space = spaces[bet["space"]]
        lines.append({"kind": space.kind, "horse": space.spec["horse"], "colour": COLOUR[space.spec["horse"]],
                      "token": bet["token"]["value"], "multiplier": space.multiplier, "penalty": space.penalty,
                      "won": result["won"], "amount": result["amount"]})
    return {"track": _track(final), "finish": FINISH, "red_line": RED_LINE, "bets": lines, "money": money[0]}


@cache
def diagrams() -> dict[str, Any]:
    """Every diagram of the rules page (computed once)."""
    rolled, closed, final = _race()
    return {"anchors": ANCHORS,
            "diagrams": {"board": _board(), "bonus": _bonus(), "red-line": _red_line(rolled, closed),
                         "settled": _settled(final)}}

