"""Spaces and tokens of Ready Set Bet in words, for what a person reads (refusals, results).

A person never reads a space id ("win:7:R") or a token id ("bonus-4-black"): a space is "Win on
horse 7", a token "your 3 token" or "your black bonus 4 token". The pages say the same with their
own t() strings (web/readysetbet.js), from the same ids.
"""

from __future__ import annotations

from typing import Any, Iterable

from hippodrome.i18n import Listing, Message, Money
from hippodrome.i18n.vocabulary import READYSETBET_COLOUR_BETS, READYSETBET_EXOTIC, term
from hippodrome.readysetbet.vip import VIP_CARDS

#: board.json's colour bet ids -> the vocabulary's keys
_COLOUR_KEYS = {"blue": "blue", "orange": "orange", "red": "red", "7-fifth-or-worse": "seven_fifth_or_worse"}
#: the group names of props.json ("8>blues": 8 beats every blue horse)
_GROUPS = {
    # NOTE: Ready Set Bet prop bet "8 beats the blues": every blue horse.
    "blues": Message("the blues"),
}


def space_words(space_id: str) -> Message | str:
    """A space of the board in words: "Win on horse 7", "Blue wins", "By a Nose (space 2)"."""
    kind, _, rest = space_id.partition(":")
    if kind in ("win", "place", "show"):
        horse = rest.rsplit(":", 1)[0]
        return {
            # NOTE: Ready Set Bet: the bet that horse {horse} finishes 1st ("Ganador").
            "win": Message("Win on horse {horse}", horse=horse),
            # NOTE: Ready Set Bet: the bet that horse {horse} finishes 1st or 2nd ("Posición").
            "place": Message("Place on horse {horse}", horse=horse),
            # NOTE: Ready Set Bet: the bet that horse {horse} finishes in the top 3 ("Trío").
            "show": Message("Show on horse {horse}", horse=horse),
        }[kind]
    if kind == "colour" and rest in _COLOUR_KEYS:
        return term(READYSETBET_COLOUR_BETS, _COLOUR_KEYS[rest])
    if kind == "prop" and ">" in rest:
        horse, others = rest.split(">", 1)
        beaten = _GROUPS.get(others) or Listing(others.split(","), conjunction=True)
        # NOTE: Ready Set Bet prop bet: horse {horse} finishes ahead of {others} (horses or "the blues").
        return Message("{horse} beats {others}", horse=horse, others=beaten)
    if kind == "exotic":
        card, _, n = rest.partition(":")
        if card in READYSETBET_EXOTIC:
            # NOTE: one of the three spaces of an exotic finish card: "By a Nose (space 2)".
            return Message("{card} (space {n})", card=term(READYSETBET_EXOTIC, card), n=n)
    return space_id  # not a space of the game: shown as it was sent


def space_on_board(space_id: str, multiplier: int, penalty: int) -> Message:
    """A space with what the board prints on it, to tell a horse's spaces apart: "Win on horse 7
    (×3, -$2)" (it pays 3 times the token; a loss costs $2 more), "Show on horse 4 (×3)"."""
    if penalty:
        # NOTE: a space of the betting board, then what it pays (×{multiplier}: times the token) and
        # the red circle a loss costs ({penalty}, such as -$2), as printed on the board.
        return Message("{space} (×{multiplier}, {penalty})", space=space_words(space_id), multiplier=multiplier,
                       penalty=Money(-penalty))
    # NOTE: a space of the betting board, then what it pays (×{multiplier}: times the token), as printed on the board.
    return Message("{space} (×{multiplier})", space=space_words(space_id), multiplier=multiplier)


def token_words(token: dict[str, Any]) -> Message:
    """One of the reader's own tokens: "your 3 token", "your black bonus 4 token"."""
    colour = bonus_colour(token["id"])
    if colour == "black":
        # NOTE: a Ready Set Bet bonus betting token from a VIP card; {value} is its number.
        return Message("your black bonus {value} token", value=token["value"])
    if colour == "white":
        # NOTE: a Ready Set Bet bonus betting token from a VIP card; {value} is its number.
        return Message("your white bonus {value} token", value=token["value"])
    # NOTE: one of the player's own Ready Set Bet betting tokens; {value} is its number (2 to 5).
    return Message("your {value} token", value=token["value"])


def bonus_colour(token_id: str) -> str | None:
    """"black" or "white" for a bonus token (its id is its VIP card's: "bonus-4-black"), else None."""
    if token_id.startswith("bonus-"):
        return token_id.rsplit("-", 1)[1]
    return None


def token_values(tokens: Iterable[dict[str, Any]]) -> Listing | Message:
    """Tokens by their numbers ("2, 3, 3, 4"), or the word for none."""
    values = [token["value"] for token in tokens]
    # NOTE: a player has no betting token left to show.
    return Listing(values) if values else Message("none")


def bet_words(action: dict[str, Any]) -> Message:
    """A bet or a House token as a review tells it (of any player): "the 3 token on Win on horse 7",
    "the black bonus 4 token on Blue wins", "a House 5 token on Show on horse 4"."""
    space = space_words(action["space"])
    if action.get("type") == "house_token":
        # NOTE: Ready Set Bet, rule R9: the House places one of its tokens ({value}: its number) on a space.
        return Message("a House {value} token on {space}", value=action["value"], space=space)
    token_id = str(action["token"])
    colour = bonus_colour(token_id)
    if colour is not None:
        value = VIP_CARDS[token_id]["token"]
        if colour == "black":
            # NOTE: a bet in a game's review: a bonus token from a VIP card ({value}: its number) on a space.
            return Message("the black bonus {value} token on {space}", value=value, space=space)
        # NOTE: a bet in a game's review: a bonus token from a VIP card ({value}: its number) on a space.
        return Message("the white bonus {value} token on {space}", value=value, space=space)
    # NOTE: a bet in a game's review: a betting token ({value}: its number, 2 to 5) on a space.
    return Message("the {value} token on {space}", value=int(token_id.rstrip("abcdefg")), space=space)
