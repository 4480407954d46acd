"""How good each option of a meeting decision is (claiming or keeping the bonus cards, the card
given up to fit a hand's limit, T8): seeded playouts of the rest of the meeting from what the deciding
seat can see.

A race decision changes the race it is taken in, and is measured by that race's points
(:mod:`hippodrome.turfmaster.puzzle_measure`). A bonus decision or a card given up changes every race
still to run (the bonus cards claimed now are missing in race 3; two cards are lost after the race
in which they were claimed), so it is measured by the points (T9) the seat scores from the race in
progress, or the race about to start, to the end of the meeting.

Each playout starts from a meeting as the seat might believe it to be (:func:`believed_meeting`):
its own hands as they are, every other hand and every deck's order drawn at random from the cards
the seat has not seen (another horse's cards not seen played; the seat's own horses' decks hold the
cards not yet dealt to them, which their owner knows, in an order it does not). The option is played
and the meeting run to its end: each race by the search bot's fast playout policy
(:func:`~hippodrome.turfmaster.search.playout`), each card to give up the lowest, each bonus claim
before a race declined (race 3 deals them anyway), the random discards drawn.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import count
from typing import Iterator, Sequence

from hippodrome.core.game import Action, Chance
from hippodrome.turfmaster.cards import card_value, full_deck, is_joker
from hippodrome.turfmaster.meeting import RACING, Meeting
from hippodrome.turfmaster.scoring import points_for_place
from hippodrome.turfmaster.search import playout
from hippodrome.turfmaster.search_state import SearchRace

#: an option that plays nothing: the meeting goes on as the playout policy plays it (the "not now"
#: of a bonus claim offered beside a race decision)
NOTHING: Action = {}


def cards_played(meeting: Meeting, horse: str) -> Counter:
    """The cards ``horse`` has played face up in the races run and the race in progress."""
    histories = list(meeting.histories)
    if meeting.phase == RACING:
        histories.append(meeting.race.history)
    return Counter(event["card"] for history in histories for event in history
                   if event.get("event") == "card" and event.get("horse") == horse)


def believed_meeting(meeting: Meeting, seat: int, rng: random.Random) -> Meeting:
    """``meeting`` with every fact ``seat`` cannot see drawn again with ``rng`` (see the module
    docstring): the result depends on the meeting only through what the seat has seen."""
    hands: dict[str, list[str]] = {}
    decks_left: dict[str, list[str]] = {}
    for horse in meeting.ids:
        held = meeting.hand(horse)
        left = len(meeting.decks[horse]) - meeting.drawn[horse]
        if meeting.owner[horse] == seat:
            # its owner saw every card dealt to it: what is left is the deck less those, order unknown
            remaining = list((Counter(full_deck()) - Counter(meeting.decks[horse][:meeting.drawn[horse]])).elements())
            rng.shuffle(remaining)
            decks_left[horse] = remaining
            continue
        unseen = list((Counter(full_deck()) - cards_played(meeting, horse)).elements())
        rng.shuffle(unseen)
        hands[horse] = unseen[:len(held)]
        decks_left[horse] = unseen[len(held):len(held) + left]
    return meeting.believed(hands, decks_left)


def lowest_card(options: Sequence[Action]) -> Action:
    """The card a playout gives up: the lowest, a plain card before a joker of the same value."""
    return min(options, key=lambda option: (card_value(option["card"]), is_joker(option["card"])))


def play_out(meeting: Meeting, rng: random.Random) -> None:
    """Run ``meeting`` to its end with the playout policies (see the module docstring)."""
    while True:
        pending = meeting.pending()
        if pending is None:
            return
        if meeting.phase == RACING:
            search = SearchRace.from_race(meeting.race)
            playout(search, rng)
            places, fallen = search.places_and_fallen()
            meeting.run_race_as(meeting.race.finished_as(places, fallen, search.hands_left(), search.roller))
        elif isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
        elif pending.kind == "keep":
            meeting.apply(lowest_card(pending.options))
        else:   # a bonus claim before a race
            meeting.apply(next(o for o in pending.options if o["type"] == "decline_bonus"))


def points_from(meeting: Meeting, seat: int, races_before: int) -> int:
    """The points ``seat`` scored in the races after the first ``races_before`` (T9)."""
    return sum(points_for_place(place) for result in meeting.results[races_before:]
               for place, horse in enumerate(result["places"], start=1) if meeting.owner[horse] == seat)


def meeting_points(meeting: Meeting, seat: int, options: Sequence[Action], seed: int | str = 0) -> Iterator[list[int]]:
    """Playout after playout (without end): the points ``seat`` scores from now to the end of the
    meeting after each of ``options`` (:data:`NOTHING`: no option played), every option on the same
    believed meeting with the same draws."""
    races_before = len(meeting.results)
    for n in count():
        believed = believed_meeting(meeting, seat, random.Random(f"{seed}:deal:{n}"))
        points = []
        for option in options:
            played = believed.clone()
            if option:
                played.apply(dict(option))
            play_out(played, random.Random(f"{seed}:play:{n}"))
            points.append(points_from(played, seat, races_before))
        yield points
