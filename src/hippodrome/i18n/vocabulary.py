"""The games' own words, keyed by the ids the engines and data files use.

Each entry is an English msgid marked with ``N_`` so the extractor puts it in the template;
``term(table, key)`` turns it into a Message. The translations follow the rulebooks
(listed in docs/rulings.md: Spanish, English, French and Dutch TurfMaster; Spanish Ready Set Bet);
docs/glossary/ names each thing's word in each language, with the book's line or, where a
rulebook is silent (German always), the word chosen and why.

Comments starting with NOTE: reach the translators through the template.
"""

from __future__ import annotations

import re
from typing import Mapping

from hippodrome.i18n.catalogs import N_, Message, Plural

GAME_NAMES: Mapping[str, str] = {
    # NOTE: the game's name; keep "TurfMaster" in every language.
    "turfmaster": N_("TurfMaster"),
    # NOTE: Ready Set Bet is published in Spanish as "Un día en las carreras".
    "readysetbet": N_("Ready Set Bet"),
}

# --- TurfMaster ------------------------------------------------------------------------------

#: The eight horses are named by their colour (deck.json ids). Names, used on their own or as a
#: {horse} parameter, so no sentence has to agree an adjective with "horse".
TURFMASTER_HORSES: Mapping[str, str] = {
    # NOTE: a TurfMaster horse's name, which is its colour.
    "red": N_("Red"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "blue": N_("Blue"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "yellow": N_("Yellow"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "green": N_("Green"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "black": N_("Black"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "white": N_("White"),
    # NOTE: a TurfMaster horse's name, which is its colour.
    "brown": N_("Brown"),
    # NOTE: a TurfMaster horse's name, which is its colour (the French rulebook says "mauve").
    "purple": N_("Purple"),
}

TURFMASTER_COURSES: Mapping[str, str] = {
    # NOTE: the oval racecourse.
    "oval": N_("Oval"),
    # NOTE: the triangular racecourse.
    "triangle": N_("Triangle"),
}

TURFMASTER_TERMS: Mapping[str, str] = {
    # NOTE: TurfMaster: one round in which every owner plays one card per horse (rule T1).
    "card_round": N_("round of cards"),
    # NOTE: TurfMaster: one round in which a single roll moves every horse (rule T1).
    "dice_round": N_("round of dice"),
    # NOTE: one of the eight lanes of the racecourse.
    "lane": N_("lane"),
    # NOTE: moving diagonally into the neighbouring lane (rule T3).
    "lane_change": N_("lane change"),
    # NOTE: the brake on the first three horses (rule T6); the rulebooks number it one above the most
    # squares it allows: handicap 9 = at most 8 squares.
    "handicap": N_("handicap"),
    # NOTE: a card that ignores the handicap (values 9, 10, 11, 12).
    "joker": N_("joker"),
    # NOTE: an obstacle in the steeplechase (rule T11).
    "fence": N_("fence"),
    # NOTE: the race with fences (rule T11).
    "steeplechase": N_("steeplechase"),
    # NOTE: the two extra cards an owner may claim once per meeting (rule T8).
    "bonus_cards": N_("bonus cards"),
    "finish_line": N_("finish line"),
    # NOTE: the starting box a horse leaves from (rule T10).
    "stall": N_("starting stall"),
    "race": N_("race"),
    # NOTE: a TurfMaster game: three races ("A meeting consists of three races").
    "meeting": N_("meeting"),
    "card": N_("card"),
    "dice": N_("dice"),
    # NOTE: the owner of a horse: a player.
    "owner": N_("owner"),
    "square": N_("square"),
    # NOTE: the dice roller chose the sum of both dice.
    "sum": N_("sum of both dice"),
    # NOTE: the dice roller chose the value of one die.
    "one_die": N_("one die"),
}

#: Places that score in TurfMaster (rule T9: 50, 30, 20, 10 points).
TURFMASTER_PLACES: Mapping[int, str] = {
    1: N_("1st place"),
    2: N_("2nd place"),
    3: N_("3rd place"),
    4: N_("4th place"),
}

# --- Ready Set Bet ---------------------------------------------------------------------------

#: The three sections of the betting board (board.json's "win", "place", "show").
READYSETBET_BETS: Mapping[str, str] = {
    # NOTE: Ready Set Bet: a bet that the horse finishes 1st (Spanish rulebook: "Ganador").
    "win": N_("Win"),
    # NOTE: Ready Set Bet: a bet that the horse finishes 1st or 2nd (Spanish rulebook: "Posición").
    "place": N_("Place"),
    # NOTE: Ready Set Bet: a bet that the horse finishes in the top 3 (Spanish rulebook: "Trío").
    "show": N_("Show"),
}

#: The House's calls during a race (rule R2 and the Spanish rulebook's "La Casa").
READYSETBET_CALLS: Mapping[str, str] = {
    # NOTE: the House's call that starts the race (Spanish rulebook: "¡Salen al galope!").
    "start": N_("They're off!"),
    # NOTE: the House's call when bets close (Spanish rulebook: "¡Se acabaron las apuestas!").
    "no_more_bets": N_("No more bets!"),
    # NOTE: called when the dice show 1 and 1 (Spanish rulebook: "¡Ojos de serpiente!").
    "snake_eyes": N_("Snake eyes!"),
    # NOTE: called when the dice show 6 and 6 (Spanish rulebook: "¡Doble seis!").
    "boxcars": N_("Boxcars!"),
}

READYSETBET_TERMS: Mapping[str, str] = {
    # NOTE: the line between spaces 9 and 10 of the racetrack; the third horse across closes bets.
    "red_line": N_("red line"),
    # NOTE: Ready Set Bet's prop bet cards (Spanish rulebook: "apuestas paralelas").
    "prop_bets": N_("prop bets"),
    # NOTE: Ready Set Bet's exotic finish cards (Spanish rulebook: "llegada insólita").
    "exotic_finish": N_("exotic finish"),
    "vip_cards": N_("VIP cards"),
    # NOTE: the player's own betting tokens 2, 3, 3, 4, 5.
    "betting_tokens": N_("betting tokens"),
    # NOTE: the extra black and white betting tokens some VIP cards give.
    "bonus_tokens": N_("bonus betting tokens"),
    # NOTE: the player who runs the race and calls it (Spanish rulebook: "la Casa").
    "house": N_("House"),
    # NOTE: where money is paid from and to (Spanish rulebook: "la banca").
    "bank": N_("bank"),
    "money": N_("money"),
    # NOTE: the extra spaces a horse moves on a repeated roll (Spanish: "bonificador de movimiento").
    "movement_bonus": N_("movement bonus"),
    # NOTE: the red circle on a betting space: what a losing bet costs.
    "red_circle": N_("red circle"),
    "betting_board": N_("betting board"),
    "racetrack": N_("racetrack"),
}

#: Colour bets (board.json): any horse of that colour wins, or horse 7 finishes 5th or worse.
READYSETBET_COLOUR_BETS: Mapping[str, str] = {
    "blue": N_("Blue wins"),
    "orange": N_("Orange wins"),
    "red": N_("Red wins"),
    # NOTE: wins when 4 or more horses finish strictly ahead of horse 7.
    "seven_fifth_or_worse": N_("7 finishes 5th or worse"),
}

#: Exotic finish cards (exotic.json ids).
READYSETBET_EXOTIC: Mapping[str, str] = {
    # NOTE: exotic finish: the 2nd horse loses by exactly 1 space.
    "by-a-nose": N_("By a Nose"),
    # NOTE: exotic finish: the 2nd horse loses by more than 5 spaces.
    "blow-out": N_("Blow Out"),
    # NOTE: exotic finish: every horse moved 6 or more spaces.
    "tight-race": N_("Tight Race"),
    # NOTE: exotic finish: at least 2 horses moved 3 spaces or fewer.
    "late-start": N_("Late Start"),
    # NOTE: exotic finish: the 3rd horse loses by 3 spaces or fewer.
    "photo-finish": N_("Photo Finish"),
}

#: VIP card names, keyed by the vip.json id without its number or colour ("lucky-9" -> "lucky").
READYSETBET_VIP: Mapping[str, str] = {
    # NOTE: VIP card paid once when taken (Spanish rulebook: "Fichas de cortesía").
    "comp": N_("Comp Chips"),
    # NOTE: VIP card: that token may go on a space that already holds a token (Spanish: "Subirse al carro").
    "bandwagon": N_("Bandwagon"),
    # NOTE: VIP card giving an extra black or white betting token.
    "bonus": N_("Bonus Token"),
    # NOTE: VIP card: $1 each time a 2 is rolled.
    "snake-eyes": N_("Snake Eyes"),
    # NOTE: VIP card: $1 each time a 12 is rolled.
    "boxcars": N_("Boxcars"),
    # NOTE: VIP card of games stored before the 32-card deck: $1 each time a 2 or a 12 is rolled.
    "snake-eyes-boxcars": N_("Snake Eyes & Boxcars"),
    # NOTE: VIP card: $1 each time its number is rolled.
    "lucky": N_("Lucky Number"),
    # NOTE: VIP card: may bet after "No more bets!" until a horse finishes.
    "last-call": N_("Last Call"),
}


def vip_card_name(card_id: str) -> Message:
    """A VIP card's name from its vip.json id: ``vip_card_name("bonus-5-black")`` is "Bonus Token"."""
    return Message(READYSETBET_VIP[re.sub(r"(-(\d+|black|white))+$", "", card_id)])


def term(table: Mapping, key: object) -> Message:
    """The word for ``key`` in one of the tables above, as a Message: ``term(TURFMASTER_HORSES, "red")``."""
    return Message(table[key])


def horse_name(horse: str) -> Message | str:
    """A TurfMaster horse as messages name it: its colour in the reader's language ("Rot"); an id
    that is no colour (a position file may name its horses freely) is shown as it is."""
    return Message(TURFMASTER_HORSES[horse]) if horse in TURFMASTER_HORSES else horse


# --- Sentences the callers and screens share ---------------------------------------------------

def points(n: int) -> Plural:
    """"50 points": a TurfMaster score."""
    return Plural("{n} point", "{n} points", n)


def spaces(n: int) -> Plural:
    """"3 spaces": a Ready Set Bet move (or squares of a TurfMaster move)."""
    return Plural("{n} space", "{n} spaces", n)


ANNOUNCEMENTS: tuple[str, ...] = (
    # NOTE: TurfMaster caller; {horse} is a horse's name (its colour).
    N_("{horse} falls at the fence"),
    # NOTE: TurfMaster caller; {horse} is a horse's name (its colour).
    N_("{horse} crosses the finish line"),
    # NOTE: TurfMaster: {limit} is 8, 9 or 10.
    N_("Handicap: at most {limit}"),
    # NOTE: Ready Set Bet caller: the total of the two dice.
    N_("Rolled {total}"),
    # NOTE: Ready Set Bet caller; {horse} is a horse's number, e.g. "7" or "2/3".
    N_("Horse {horse} crosses the red line!"),
    # NOTE: Ready Set Bet caller; {horse} is a horse's number, e.g. "7" or "2/3".
    N_("Horse {horse} wins!"),
    # NOTE: language selector label.
    N_("Language"),
)
