"""Find TurfMaster puzzle candidates: self-played races (tactical bots, seeded), each decision of a
seat valued by the engine measure (hippodrome.turfmaster.puzzle_measure), the clear ones kept.

    PYTHONPATH=src python tools/make_puzzles.py --races 40 --out /tmp/candidates.json

Each candidate: the race's to_json, the deciding seat, the options' values, the accepted options and
theme guesses (handicap, joker, fence, finish, tie, blocking, lanes, dice). A person then picks the
clear and varied ones, writes their words in hippodrome/turfmaster/puzzles.py and their data in
hippodrome/turfmaster/data/puzzles.json (``--check`` re-measures that file with more playouts).
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from hippodrome.core.game import Decision
from hippodrome.core.match import Match
from hippodrome.turfmaster.bots import TacticalBot
from hippodrome.turfmaster.puzzle_measure import clear_solution, option_values
from hippodrome.turfmaster.puzzles import load_puzzles, position, themes_of

KINDS = ("card", "square", "die", "dice_use")


def random_setup(rng: random.Random, steeplechase_only: bool = False) -> dict[str, Any]:
    course = "oval" if steeplechase_only else rng.choice(("oval", "oval", "triangle"))
    steeplechase = course == "oval" and (steeplechase_only or rng.random() < 0.4)
    seats = rng.choice((2, 3, 4))
    per_seat = rng.choice((1, 2)) if seats <= 3 else 1
    colours = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]
    rng.shuffle(colours)
    horses = [{"id": colours[n], "owner": n % seats} for n in range(seats * per_seat)]
    return {"course": course, "steeplechase": steeplechase, "seats": seats, "horses": horses,
            "first_roller": rng.randrange(seats)}


def candidates_of_race(seed: int, playouts: int, every: float, wanted: str | None = None,
                       steeplechase_only: bool = False) -> list[dict[str, Any]]:
    """The clear decisions of one self-played race (``every``: the share measured; ``wanted``: only
    decisions touching that theme)."""
    rng = random.Random(f"puzzles:{seed}")
    match = Match("turfmaster-race", random_setup(rng, steeplechase_only), seed)
    bots = [TacticalBot(f"{seed}:{n}") for n in range(match.state.seats)]
    found = []
    while True:
        pending = match.resolve_chance()
        if pending is None:
            return found
        assert isinstance(pending, Decision)
        view = match.state.view(pending.seat)
        if pending.kind in KINDS and len(pending.options) >= 2 and rng.random() < every and (
                wanted is None or wanted in themes_of(match.state, pending, [])):
            values = option_values(view, pending.seat, playouts, seed)
            solution = clear_solution(values)
            if solution is not None:
                found.append({"seed": seed, "seat": pending.seat, "kind": pending.kind,
                              "state": match.state.to_json(), "solution": solution,
                              "themes": themes_of(match.state, pending, solution),
                              "values": [[v.action, round(v.mean, 1), round(v.error, 1)] for v in values]})
        match.act(pending.seat, bots[pending.seat].choose(view, pending.options))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--playouts", type=int, default=120)
    parser.add_argument("--every", type=float, default=0.5, help="share of the decisions measured")
    parser.add_argument("--want", help="only decisions touching this theme (blocking, fence, ...)")
    parser.add_argument("--steeplechase", action="store_true", help="only steeplechases")
    parser.add_argument("--out", default="/tmp/puzzle-candidates.json")
    parser.add_argument("--check", action="store_true", help="re-measure the collection with more playouts")
    args = parser.parse_args()
    if args.check:
        for puzzle in load_puzzles():
            race = position(puzzle)
            values = option_values(race.view(puzzle.seat), puzzle.seat, args.playouts, "check")
            solution = clear_solution(values)
            print(puzzle.number, "clear" if solution == list(puzzle.solution) else f"NOT CLEAR: {solution}",
                  [(round(v.mean, 1), round(v.error, 1)) for v in values])
        return
    found = []
    for seed in range(args.first, args.first + args.races):
        found.extend(candidates_of_race(seed, args.playouts, args.every, args.want, args.steeplechase))
        print(seed, len(found), flush=True)
        with open(args.out, "w", encoding="utf-8") as out:  # after each race: a long run can be read as it goes
            json.dump(found, out)


if __name__ == "__main__":
    main()
