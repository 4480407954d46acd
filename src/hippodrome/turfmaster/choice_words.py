"""TurfMaster's choices in words, as the terminal's screens and a game's review name them: one
whole sentence per kind of option ("Play 9 for Red"), its placeholders from the option's fields
(shared with the race's events, cli/turfmaster_view.py)."""

from __future__ import annotations

from typing import Any, Mapping

from hippodrome.i18n import Message, N_, Ordinal
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.square_words import square_params


def sentence_params(item: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """The placeholders an event or an option may use, from its fields: {horse} a horse's name,
    {card}, {steps}, {points}, {lane}/{square} (the square it ends on, its lane counted from 1),
    {limit} (a handicap), {n} (a die's or the dice's value, or a number of cards), {a}/{b} (the
    two dice), {place} (an ordinal), {name} (the dice roller's name)."""
    params: dict[str, Any] = {key: value for key, value in item.items() if isinstance(value, (int, str))}
    if "horse" in item:
        params["horse"] = horse_name(item["horse"])
    end = item.get("to") or item
    if "lane" in end:
        params.update(square_params(end))
    if "handicapped" in item:
        params["limit"] = item["handicapped"]
    for key in ("value", "cards"):
        if isinstance(item.get(key), int):
            params["n"] = item[key]
    if item.get("dice"):
        params["a"], params["b"] = item["dice"]
    if "place" in item:
        params["place"] = Ordinal(item["place"])
    if "roller" in item:
        params["name"] = names[item["roller"]]
    return params


def option_key(option: Mapping[str, Any]) -> str:
    """Which sentence of OPTION_SENTENCES offers ``option`` (a decision's action)."""
    kind = str(option.get("type"))
    return f"dice_use_{option.get('use')}" if kind == "dice_use" else kind


#: The choices a player is offered, one whole sentence per kind of option.
OPTION_SENTENCES: Mapping[str, str] = {
    # NOTE: TurfMaster, a choice: play the card {card} ("7", "J12" a joker 12) for the horse {horse}.
    "card": N_("Play {card} for {horse}"),
    # NOTE: TurfMaster, a choice: the square where the horse's move ends (rule T5).
    "square": N_("{horse} ends on lane {lane}, square {square}"),
    # NOTE: TurfMaster, a choice of the dice roller (rule T1).
    "dice_use_sum": N_("Use the sum of both dice"),
    "dice_use_die": N_("Use one die: {n}"),
    "die": N_("Move {horse} by {n}"),
    "claim_bonus": N_("Claim the 2 bonus cards of {horse}"),
    "decline_bonus": N_("Keep the bonus cards of {horse} for later"),
    "discard": N_("Give up the {card}"),
    # NOTE: TurfMaster, rules T8 and T13: a horse with no card left does not move this round.
    "stand_still": N_("Let {horse} stand still this round"),
}


def card_words(card: str) -> Message | str:
    """A card as the pages name it: "7", a joker "joker 12" (its id is "J12")."""
    # NOTE: a joker card of TurfMaster, e.g. "joker 9"
    return Message("joker {value}", value=card[1:]) if card.startswith("J") else card


def choice_words(option: Mapping[str, Any]) -> Message | str:
    """``option`` (a decision's action) in words, as a review names the choice made and the
    better one on a page ("Play joker 12 for Red"); an option of a kind not known here is shown
    as its data."""
    try:
        params = sentence_params(option, [])
        if isinstance(option.get("card"), str):
            params["card"] = card_words(option["card"])
        return Message(OPTION_SENTENCES[option_key(option)], **params)
    except KeyError:
        return str(dict(option))
