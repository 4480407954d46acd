"""Refused bets read in words (issue 11, point 4): no space id, token id, 0-based seat number or rule
code reaches a person, in any of the five languages; the page gets the seat as {"seat": n} to show
the player's name, and the results carry the working of each bet (R4, R8)."""

import re

import pytest

from hippodrome.core import IllegalAction
from hippodrome.i18n import LANGUAGES, Seat, message_from_json
from hippodrome.readysetbet.dice_race import RaceState
from tests.readysetbet.rsb_helpers import match_at_race, run_race_with

#: what must never reach a person: space ids, token ids, house token ids, rule codes, "seat 0"
FORBIDDEN = re.compile(r"(win|place|show|colour|prop|exotic):\S|bonus-\d|house-\d|\(R\d+\)|\b[Ss]eat \d"
                       r"|\b\d[a-g]\b|[a-z]+-[a-z]+-\w")


def bet(match, seat, token, space):
    match.act(seat, {"type": "bet", "token": token, "space": space})


def refusals():
    """One refusal of every kind a person can meet, with the message each raised."""
    found = []

    def refused(match, seat, token, space):
        with pytest.raises(IllegalAction) as caught:
            bet(match, seat, token, space)
        found.append(caught.value.args[0])

    match = match_at_race({"players": 3})
    bet(match, 0, "2", "win:7:R")
    card = match.state.exotics[0]
    bet(match, 0, "3", f"exotic:{card}:1")
    refused(match, 1, "3", "win:7:R")                  # taken by another player (R4)
    refused(match, 0, "4", "win:7:R")                  # one token per space
    refused(match, 0, "2", "win:8:R")                  # the token is on the board already
    refused(match, 0, "4", f"exotic:{card}:2")         # one per player per exotic card (R6)
    refused(match, 0, "9", "win:8:R")                  # no such token
    refused(match, 0, "4", "win:13:R")                 # no such space
    refused(match, 7, "4", "win:8:R")                  # no such seat
    two = match_at_race({"players": 2})
    refused(two, 0, "2", "win:7:L")                    # the leftmost column with two players (R4)
    two.state.race = RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0))
    run_race_with(two, [2, 4, 5])
    refused(two, 0, "3", "win:6:R")                    # no more bets (R2)
    house = match_at_race({"players": 2, "variant": "house_bets"})
    refused(house, 2, "2", "win:7:R")                  # the House bets with house tokens only (R9)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusals_read_in_words_in_every_language(lang):
    messages = refusals()
    assert len(messages) == 10
    for message in messages:
        # the page renders the JSON form with the seat's name: here the server's own rendering
        text = message_from_json(message.to_json()).translate(lang)
        assert not FORBIDDEN.search(text), (lang, text)
        assert text == message.translate(lang)


def test_the_space_and_the_holder_are_words_and_a_seat_the_page_names():
    taken = refusals()[0]
    assert str(taken).startswith("Win on horse 7 is taken by player 1's token")
    assert taken.params["holder"] == Seat(0)
    assert taken.to_json()["params"]["holder"] == {"seat": 0}, "the page shows the seat's name"


def test_results_carry_the_working_of_each_bet():
    """R4/R8: a winning line is value x multiplier; a losing one the space's and the token's red circles."""
    match = match_at_race({"players": 3, "races": 1})
    match.state.tokens[0].append({"id": "bonus-4-black", "value": 4, "penalty": 1, "cancels_loss": False})
    bet(match, 0, "5", "win:2/3:R")
    bet(match, 0, "bonus-4-black", "win:7:R")
    run_race_with(match, [3, 2, 4, 3, 2, 4, 3, 2])   # 2/3 wins
    won, lost = match.state.history[0]["results"]
    assert won["won"] and won["amount"] == won["value"] * won["multiplier"] == 5 * won["multiplier"]
    assert not lost["won"] and lost["token_penalty"] == 1 and not lost["cancels_loss"]
    assert lost["amount"] == -(lost["penalty"] + lost["token_penalty"])
    winning = match.state.history[0]["winning"]
    assert "win:2/3:R" in winning and "win:2/3:L" in winning and "win:7:R" not in winning
    assert "place:2/3:R" in winning and "show:2/3:L" in winning


@pytest.mark.parametrize(("lang", "said"), [("en", "8 beats 5 and 9"), ("es", " 5 y 9"), ("fr", " 5 et 9"),
                                            ("nl", " 5 en 9"), ("de", " 5 und 9")])
def test_a_prop_bet_against_two_horses_says_and_in_the_reader_s_language(lang, said):
    """R7: "8 > 5, 9" wins when 8 finishes ahead of 5 and of 9; its words join the two horses with
    the language's "and", never a "&", on the server and (from the same JSON) on the page."""
    from hippodrome.readysetbet.words import space_words
    words = space_words("prop:8>5,9")
    assert said in words.translate(lang) and "&" not in words.translate(lang)
    assert message_from_json(words.to_json()).translate(lang) == words.translate(lang)
    assert space_words("prop:8>blues").translate("en") == "8 beats the blues"
