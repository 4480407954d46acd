"""How the race of Ready Set Bet's guided first race (readysetbet/tutorial.py) was found: a search
over seeds for a short race, rolled as the game rolls, in which the situations the steps teach
come in order (rulings R1-R3, R7):

* one horse wins alone, and the race's first bonus move is that horse's (the Win bet, then the
  bonus move, on the same horse);
* its first red-line crossing comes after that bonus, with at least two rolls between the first
  and the second crossing, and at least one roll between the third ("No more bets!") and the
  finish;
* a prop card not about the winner wins, its first horse already ahead at the first crossing.

    PYTHONPATH=src python tools/find_tutorial_race.py [SEEDS] [MAX_ROLLS]

prints the shortest races found (rolls, seed, winner, the bonus roll, the crossings' rolls, the
props that fit). The tutorial plays seed 74037: 30 rolls, horse 2/3 first, its bonus at roll 2
(a 3 then a 2, the rulebook's own example).
"""

from __future__ import annotations

import sys

from hippodrome.readysetbet.board import PROP_CARDS, PROP_DATA
from hippodrome.readysetbet.dice_race import HORSE_INDEX, HORSES, RaceState, ranks, roll_dice
from hippodrome.readysetbet.tutorial import seeded_race


def members(names: list[str]) -> list[int]:
    return [HORSE_INDEX[h] for name in names for h in PROP_DATA["groups"].get(name, [name])]


def situations(dice: list[list[int]]):
    """(rolls, winner, bonus roll, crossing rolls, fitting props) of a race that fits, else None."""
    race, bonus_at, crossings, at_first = RaceState.start(), None, [], None
    for number, pair in enumerate(dice, start=1):
        race, events = roll_dice(race, pair)
        if bonus_at is None and events[0]["bonus_move"] and events[0]["bonus"]:
            bonus_at = (number, events[0]["horse"])
        if any(event["event"] == "red_line" for event in events):
            crossings.append(number)
            at_first = at_first or race.positions
    if not race.finished or len(crossings) < 3:
        return None
    order = ranks(race.positions)
    if order.count(1) != 1:
        return None
    winner = HORSES[order.index(1)]
    if bonus_at is None or bonus_at[1] != winner or crossings[0] <= bonus_at[0]:
        return None
    if crossings[1] - crossings[0] < 2 or crossings[2] >= len(dice):
        return None
    props = [card for card, spec in PROP_CARDS.items()
             if spec["horse"] != winner and HORSE_INDEX[winner] not in members(spec["ahead_of"])
             and all(positions[HORSE_INDEX[spec["horse"]]] > positions[other]
                     for positions in (race.positions, at_first) for other in members(spec["ahead_of"]))]
    return (len(dice), winner, bonus_at[0], crossings, props) if props else None


def main(seeds: int = 100_000, max_rolls: int = 40) -> None:
    found = []
    for seed in range(seeds):
        fits = situations(seeded_race(f"readysetbet-tutorial-{seed}", max_rolls))
        if fits:
            found.append((fits[0], seed, *fits[1:]))
    for row in sorted(found)[:10]:
        print(*row)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
