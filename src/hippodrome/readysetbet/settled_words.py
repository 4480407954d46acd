"""What the box's caller announces once a race is over, besides Win / Place / Show (issue 34,
point 4): the colour bets, the exotic finishes and the prop bets that win (R5-R7).

People playing with the physical box settle their own board; the caller tells them which bets of
every kind won, by the same test the game's settlement and the odds use (:func:`board.wins`), and
in the board's own words (:func:`words.space_words`). Every colour bet and exotic finish card is
named (the box deals its cards on the real table, so the program cannot know which are out), the
prop bets that win likewise.
"""

from __future__ import annotations

import numpy as np

from hippodrome.i18n import Listing, Message, N_
from hippodrome.readysetbet.board import (
    FIXED_SPACES, Finish, all_exotic_ids, all_prop_ids, exotic_spaces, prop_space, wins,
)
from hippodrome.i18n.vocabulary import READYSETBET_EXOTIC, term
from hippodrome.readysetbet.words import space_words

# NOTE: the box's race caller after a race: {bets} lists the colour bets that won ("Blue wins, 7 finishes 5th or worse").
COLOURS_WON = N_("Winning colour bets: {bets}.")
# NOTE: the box's race caller after a race: no colour bet won.
NO_COLOUR = N_("No colour bet wins.")
# NOTE: the box's race caller after a race: {cards} lists the exotic finish cards that won ("By a Nose, Photo Finish").
EXOTICS_WON = N_("Winning exotic finishes: {cards}.")
# NOTE: the box's race caller after a race: no exotic finish card won.
NO_EXOTIC = N_("No exotic finish wins.")
# NOTE: the box's race caller after a race: {bets} lists the prop bet cards that won ("8 beats 5 & 9; 4 beats 9").
PROPS_WON = N_("Winning prop bets: {bets}.")
# NOTE: the box's race caller after a race: no prop bet card won.
NO_PROP = N_("No prop bet wins.")

#: the msgids of these lines (the paced voice says them, first: readysetbet/pacing.py)
SETTLEMENT_LINES: tuple[str, ...] = (COLOURS_WON, NO_COLOUR, EXOTICS_WON, NO_EXOTIC, PROPS_WON, NO_PROP)


def settlement_lines(positions: tuple[int, ...]) -> list[Message]:
    """The colour bets, exotic finishes and prop bets that win with these final positions."""
    finish = Finish(np.array(positions))

    def won(space) -> bool:
        return bool(wins(space, finish)[0])

    colours = [space_words(space.id) for space in FIXED_SPACES if space.kind == "colour" and won(space)]
    exotics = [term(READYSETBET_EXOTIC, card) for card in all_exotic_ids() if won(exotic_spaces(card)[0])]
    props = [space_words(f"prop:{card}") for card in all_prop_ids() if won(prop_space(card))]
    return [
        Message(COLOURS_WON, bets=Listing(colours)) if colours else Message(NO_COLOUR),
        Message(EXOTICS_WON, cards=Listing(exotics)) if exotics else Message(NO_EXOTIC),
        Message(PROPS_WON, bets=Listing(props, "; ")) if props else Message(NO_PROP),
    ]
