"""Engine details: Race.add_cards for bonus cards claimed mid-race (T8), the squares where
a horse falls as data in the decision (T11), a tactical bot that reads data rather than the notes'
words (so it plays the same in every language), and plays the single race too."""

import copy
import random

import orjson
import pytest

from hippodrome.core import InvalidSetup
from hippodrome.core.game import Chance
from hippodrome.i18n import Message, Plural
from hippodrome.table.table import Player, Table
from hippodrome.table.bots import make_bot
from hippodrome.turfmaster.bots import RandomBot, TacticalBot
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race
from tests.turfmaster.helpers import race_at
from tests.turfmaster.test_meeting_rules import to_race_start


# --- T8: bonus cards claimed during a race --------------------------------------------------------

def rebuilt_with(race, horse, cards):
    """What the meeting used to do: rebuild the race from its JSON with a longer hand."""
    data = copy.deepcopy(race.to_json())
    data["state"]["hands"][horse].extend(cards)
    data["state"]["bonus_unclaimed"] = [h for h in data["state"]["bonus_unclaimed"] if h != horse]  # T8: claimed
    return Race.from_json(data)


def test_T8_add_cards_gives_the_same_race_as_rebuilding_it():
    meeting = to_race_start()
    race = meeting.race
    horse = meeting.pending().context["horse"]
    expected = rebuilt_with(race, horse, ["J12", "6"])
    before = race.pending()
    race.add_cards(horse, ["J12", "6"])
    assert race.to_json() == expected.to_json()
    assert race.pending() == expected.pending() != before
    assert {"type": "card", "horse": horse, "card": "J12"} in race.pending().options


def test_T8_a_claim_mid_race_keeps_the_meeting_replayable():
    meeting = to_race_start()
    horse = meeting.pending().context["horse"]
    copy_before = Meeting.from_json(meeting.to_json())
    meeting.apply({"type": "claim_bonus", "horse": horse})
    copy_before.apply({"type": "claim_bonus", "horse": horse})
    assert meeting.to_json() == copy_before.to_json()
    assert meeting.race.hands[horse][-2:] == meeting.decks[horse][10:12]


def test_add_cards_refuses_a_horse_that_no_longer_runs():
    race = race_at({"red": (0, 108), "blue": (1, 3)}, hands={"red": ["7"], "blue": ["3"]})
    race.apply({"type": "card", "horse": "red", "card": "7"})
    while race.stage["red"] == "racing":
        race.apply(race.pending().options[0])
    with pytest.raises(ValueError):
        race.add_cards("red", ["6"])


# --- T11: where a horse falls, as data --------------------------------------------------------------

def test_T11_the_square_decision_lists_the_squares_where_the_horse_falls():
    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True, hands={"red": ["6"], "blue": ["3"]})
    race.apply({"type": "card", "horse": "red", "card": "6"})
    pending = race.pending()
    ends = [{"lane": o["lane"], "square": o["square"]} for o in pending.options]
    assert pending.context["falls"] == ends and all(pending.notes)
    assert race.observation(pending.seat)["pending"]["context"]["falls"] == ends
    calm = race_at({"red": (2, 20), "blue": (4, 3)}, hands={"red": ["6"], "blue": ["3"]})
    calm.apply({"type": "card", "horse": "red", "card": "6"})
    assert calm.pending().kind == "square" and calm.pending().context["falls"] == []
    assert not any(calm.pending().notes)


# --- the tactical bot in every language ---------------------------------------------------------------

def message_of(note):
    """The message of a ``notes_i18n`` entry, as a page rebuilds it."""
    if "plural" in note:
        return Plural(note["msgid"], note["plural"], note["n"], **note["params"])
    return Message(note["msgid"], **note["params"])


def in_language(view, lang):
    """The view as a front end in ``lang`` would show the notes (the bot must not care)."""
    view = orjson.loads(orjson.dumps(view))   # (a copy as a page receives it)
    pending = view.get("pending") or {}
    if "notes_i18n" in pending:
        pending["notes"] = ["" if note is None else message_of(note).translate(lang) for note in pending["notes_i18n"]]
    return view


@pytest.mark.slow
def test_T6_T11_the_tactical_bot_plays_the_same_with_german_notes_or_none():
    translated = 0
    for seed in range(3):
        meeting = Meeting.new({"players": 4, "horses_per_player": 2, "steeplechase": True})
        rng = random.Random(seed)
        bot = TacticalBot(seed)
        while meeting.pending() is not None:
            pending = meeting.pending()
            if isinstance(pending, Chance):
                meeting.apply(pending.sample(rng))
                continue
            view = meeting.observation(pending.seat)
            german = in_language(view, "de")
            silent = orjson.loads(orjson.dumps(view))
            silent["pending"].pop("notes", None)
            silent["pending"].pop("notes_i18n", None)
            choice = bot.choose(view, pending.options)
            assert bot.choose(german, pending.options) == choice == bot.choose(silent, pending.options)
            if german["pending"].get("notes") != view["pending"].get("notes"):
                translated += 1
            squares = [o for o in pending.options if o["type"] == "square"]   # (a bonus claim may be offered too)
            if choice["type"] == "square" and len(pending.context["falls"]) < len(squares):
                assert {"lane": choice["lane"], "square": choice["square"]} not in pending.context["falls"]
            meeting.apply(choice)
    assert translated > 10  # the German notes really differed from the English ones


@pytest.mark.parametrize("steeplechase", [False, True])
def test_the_tactical_bot_finishes_a_single_race_against_random_bots(steeplechase):
    setup = {"course": "oval", "steeplechase": steeplechase,
             "horses": [{"id": h, "owner": s} for s, h in enumerate(["red", "blue", "yellow", "green"])]}
    seats = [Player("tactical", TacticalBot(0))] + [Player(f"random {s}", RandomBot(s)) for s in range(1, 4)]
    table = Table("turfmaster-race", setup, seats, seed=f"race{steeplechase}")
    table.run_bots()
    assert table.over
    assert len(table.state.places) + len(table.state.fallen) == 4


def test_the_tactical_bot_reads_a_single_race_view():
    race = race_at({"red": (0, 0), "blue": (1, 0)}, hands={"red": ["7", "9", "J12"], "blue": ["6"]})
    pending = race.pending()
    choice = TacticalBot(0).choose(race.observation(pending.seat), pending.options)
    assert choice == {"type": "card", "horse": "red", "card": "7"}  # not the joker, not above the limit (T6)


def test_an_unknown_bot_is_refused_with_a_message():
    with pytest.raises(InvalidSetup) as refused:
        make_bot("turfmaster", "clever")
    assert str(refused.value) == "unknown bot level 'clever' for turfmaster; levels: random, tactical, search"
    assert isinstance(refused.value.args[0], Message)
