"""Issue 6 in the meeting engine: its errors and decision notes are translatable messages, the
view carries the notes both as English text and as ``notes_i18n``, and the meeting's events are
plain data (T7 setup, T8 bonus cards and hand limits, T6/T11 notes of the race inside).

Messages whose translations already are in the catalogs are checked in German and Spanish; the
meeting's new messages are checked to be Messages with the right English text (their
translations arrive with the catalog update)."""

import json
import random

import pytest

from hippodrome.core import IllegalAction, InvalidSetup
from hippodrome.core.game import Chance, Decision, Note
from hippodrome.i18n import Message, localize_error, translate
from hippodrome.i18n.vocabulary import TURFMASTER_HORSES
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race
from tests.turfmaster.test_meeting_rules import fast

FOUR = {"players": 4, "horses_per_player": 1, "course": "oval"}


def refusal(call):
    """The error ``call`` raises, which must carry a translatable message."""
    with pytest.raises((IllegalAction, InvalidSetup)) as raised:
        call()
    error = raised.value
    message = error.args[0]
    assert not isinstance(message, str) and callable(message.translate), f"plain text: {error}"
    return error


def decide_until(meeting, wanted, seed=0, choose=None):
    """Play ``meeting`` (chance by a fixed generator) until ``wanted(pending)`` holds."""
    rng = random.Random(seed)
    while not wanted(meeting.pending()):
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
        else:
            meeting.apply(choose(pending) if choose else pending.options[0])
    return meeting


def decline(pending):
    return next(o for o in pending.options if o["type"] in ("decline_bonus", "discard"))


# --- setup errors (T7) -----------------------------------------------------------------------------

@pytest.mark.parametrize("setup,says", [
    ("four players", "a turfmaster setup must be a JSON object, such as {\"players\": 4"),
    ({"players": "4"}, "'players' must be a number of players from 2 to 8, not '4'"),
    ({"players": 9}, "TurfMaster is played by 2 to 8 players, not 9"),
    ({"players": 2, "horses_per_player": 1}, "with 2 players, 'horses_per_player' must be from 2 to 4"),
    ({"players": 3, "horses_per_player": 3}, "with 3 players, 'horses_per_player' must be 2 (at least 4 horses"),
    ({"players": 4, "names": ["Ana"]}, "'names' must list 4 non-empty names, one per seat"),
    ({"players": 4, "horses": [["red"], ["blue"]]}, "'horses' must give each of the 4 seats a list of 1 horse"),
    ({"players": 2, "horses": [["red"], ["blue"]]}, "'horses' must give each of the 2 seats a list of 2 horses"),
    ({"players": 4, "horses": [["pink"], ["red"], ["blue"], ["green"]]},
     "there is no horse 'pink'; the horses are: red, blue, yellow, green, black, white, brown, purple"),
    ({"players": 4, "horses": [["red"], ["blue"], ["red"], ["green"]]},
     "horse 'red' is listed twice; each horse runs once"),
])
def test_T7_meeting_setup_errors_are_messages_that_say_what_is_right(setup, says):
    error = refusal(lambda: Meeting.new(setup))
    assert says in str(error)
    assert localize_error(error, "de") == error.args[0].translate("de")


def test_T11_a_steeplechase_meeting_on_a_course_without_fences_is_refused_in_german():
    error = refusal(lambda: Meeting.new({"players": 4, "course": "triangle", "steeplechase": True}))
    assert localize_error(error, "de") == "die Rennbahn triangle hat keine Hindernisse; Hindernisrennen gibt es auf: oval"


@pytest.mark.parametrize("horses,says", [
    ([{"id": "red"}, {"id": "red"}], "horse 'red' is listed twice; each horse runs once"),
    ([{"id": "pink"}], "there is no horse 'pink'; the horses are: red,"),
    ([], "'horses' must list 1 to 8 horses, inner stall first"),
])
def test_a_race_and_a_meeting_share_their_horse_checks(horses, says):
    assert says in str(refusal(lambda: Race.new({"horses": horses})))


def test_a_race_setup_that_is_no_object_shows_an_example():
    assert str(refusal(lambda: Race.new([]))) == (
        'a turfmaster-race setup must be a JSON object, such as '
        '{"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}')


# --- refused actions ------------------------------------------------------------------------------

def test_refused_actions_reuse_the_translated_messages_in_german():
    meeting = Meeting.new(FOUR)
    error = refusal(lambda: meeting.apply("claim"))
    assert localize_error(error, "de") == "eine Aktion muss ein JSON-Objekt sein, nicht 'claim'"
    error = refusal(lambda: meeting.apply({"type": "roll"}))
    assert localize_error(error, "de").startswith("erwartet wurde ein Zufallsergebnis der Art 'stall_roll'")


def test_a_refused_race_action_inside_a_meeting_keeps_the_race_message_in_spanish():
    meeting = decide_until(Meeting.new(FOUR), lambda p: isinstance(p, Decision) and p.kind == "card",
                           choose=decline)
    horse = meeting.pending().context["horse"]
    error = refusal(lambda: meeting.apply({"type": "nonsense"}))
    name = TURFMASTER_HORSES[horse]          # the horse is named by its colour in the reader's language
    assert str(error) == f"{name}'s owner must play a card now"
    assert localize_error(error, "es") == f"el propietario de {translate('es', name)} debe jugar una carta ahora"
    assert translate("es", name) != name
    assert error.allowed == meeting.pending().options


def test_T8_bonus_refusals_say_why():
    meeting = decide_until(Meeting.new(FOUR), lambda p: isinstance(p, Decision) and p.kind == "claim_bonus")
    pending = meeting.pending()
    horse = pending.context["horse"]
    other = next(h for h in meeting.ids if meeting.owner[h] != pending.seat)
    assert str(refusal(lambda: meeting.apply({"type": "claim_bonus", "horse": "pink"}))).startswith(
        "there is no horse 'pink'; the horses are: ")
    assert str(refusal(lambda: meeting.apply({"type": "claim_bonus", "horse": other}))) == (
        f"{TURFMASTER_HORSES[other]} belongs to player {meeting.owner[other] + 1}, not to player {pending.seat + 1}, who decides now")
    assert str(refusal(lambda: meeting.apply({"type": "discard", "horse": horse, "card": "7"}))) == (
        f"player {pending.seat + 1} must claim or decline the bonus cards of {TURFMASTER_HORSES[horse]} now")
    meeting.apply({"type": "claim_bonus", "horse": horse})
    meeting = decide_until(meeting, lambda p: isinstance(p, Decision) and p.kind == "card"
                           and p.seat == meeting.owner[horse], choose=fast)
    error = refusal(lambda: meeting.apply({"type": "claim_bonus", "horse": horse}))
    assert str(error) == f"the bonus cards of {TURFMASTER_HORSES[horse]} were already taken in race 1: once per game"


def keep_decision(seed=0):
    """A meeting at its first ``keep`` decision (race 2: cards left over from race 1)."""
    return decide_until(Meeting.new(FOUR), lambda p: isinstance(p, Decision) and p.kind == "keep", seed, fast)


def test_T8_a_refused_discard_lists_the_cards_that_may_be_given_up():
    meeting = keep_decision()
    keep = meeting.pending()
    horse, hand = keep.context["horse"], keep.context["hand"]
    over = len(hand) - 10
    error = refusal(lambda: meeting.apply({"type": "discard", "horse": horse, "card": "nothing"}))
    cards = ", ".join(o["card"] for o in keep.options)
    assert str(error) == (f"player {keep.seat + 1} must give up one card of {TURFMASTER_HORSES[horse]} now: it holds {len(hand)} cards, "
                          f"10 at most, so {over} card{'s' if over > 1 else ''} to give up; it may give up: {cards}")


# --- notes and the view ---------------------------------------------------------------------------

def test_T8_the_claim_notes_are_messages_and_the_view_carries_notes_i18n():
    meeting = decide_until(Meeting.new(FOUR), lambda p: isinstance(p, Decision) and p.kind == "claim_bonus")
    pending = meeting.pending()
    horse = pending.context["horse"]
    assert all(isinstance(note, Note) for note in pending.notes)
    assert pending.notes[0] == (f"take the 2 bonus cards of {TURFMASTER_HORSES[horse]} now: its hand limit is 12 for race 1, and after "
                                "the race 2 of its remaining cards are discarded at random")
    view = json.loads(json.dumps(meeting.observation(pending.seat)))
    decision = view["pending"]
    assert decision["notes"] == [str(note) for note in pending.notes]
    assert decision["notes_i18n"][0] == {
        "msgid": "take the 2 bonus cards of {horse} now: its hand limit is 12 for race {race}, and after the race "
                 "2 of its remaining cards are discarded at random", "params": {"horse": {"msgid": TURFMASTER_HORSES[horse], "params": {}}, "race": 1}}
    assert decision["notes_i18n"][1]["msgid"].startswith("keep them for later")
    spectator = meeting.observation(None)["pending"]
    assert "notes" not in spectator and "notes_i18n" not in spectator


def test_T8_the_keep_notes_count_what_is_left_to_give_up():
    meeting = keep_decision()
    horse = meeting.pending().context["horse"]
    while meeting.pending().context["to_discard"] > 1:
        meeting.apply(meeting.pending().options[0])
    pending = meeting.pending()
    assert pending.kind == "keep" and pending.context["horse"] == horse
    assert pending.notes[0] == f"give up the {pending.options[0]['card']}; 0 more cards to give up after this"
    assert meeting.observation(pending.seat)["pending"]["notes_i18n"][0] == {
        "msgid": "give up the {card}; {n} more card to give up after this",
        "params": {"card": pending.options[0]["card"]},
        "plural": "give up the {card}; {n} more cards to give up after this", "n": 0}


def test_T6_T8_race_notes_and_claim_notes_together_in_a_race_decision():
    meeting = decide_until(Meeting.new(FOUR), lambda p: isinstance(p, Decision) and p.kind == "card",
                           choose=decline)
    pending = meeting.pending()
    claims = [i for i, o in enumerate(pending.options) if o["type"] == "claim_bonus"]
    assert claims and len(pending.notes) == len(pending.options)
    decision = meeting.observation(pending.seat)["pending"]
    assert meeting.observation(pending.seat)["race"]["pending"] == decision
    for index in claims:
        assert decision["notes_i18n"][index]["msgid"].startswith("take the 2 bonus cards of {horse} now (once")
    spent = [i for i, o in enumerate(pending.options) if o["type"] == "card" and pending.notes[i]]
    for index in spent:  # a card above the handicap (T6): the race's note, translated in German
        assert pending.notes[index].translate("de").startswith("über der Grenze dieses Pferdes")


def test_every_note_of_a_whole_meeting_translates():
    meeting = Meeting.new({"players": 2, "horses_per_player": 2, "steeplechase": True})
    rng = random.Random(5)
    notes = 0
    while meeting.pending() is not None:
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
            continue
        for note in pending.notes:
            assert note == "" or isinstance(note, Note)
            notes += bool(note)
        json.dumps(meeting.observation(pending.seat))
        meeting.apply(rng.choice(pending.options))
    assert notes > 20


def test_T8_meeting_events_are_plain_data():
    claim_first = lambda p: p.options[0] if p.kind == "claim_bonus" else fast(p)  # noqa: E731
    meeting = decide_until(Meeting.new({"players": 2, "horses_per_player": 2}), lambda p: p is None, 3, claim_first)
    events = meeting.observation(0)["events"]
    assert {e["event"] for e in events} == {"claim_bonus", "bonus_discard", "keep_discard"}
    for event in events:
        assert set(event) <= {"race", "event", "horse", "during_race", "at", "cards", "card"}
        assert all(isinstance(v, (str, int, bool)) for v in event.values())
    hidden = [e for e in meeting.observation(0)["events"] if e["event"] == "keep_discard" and meeting.owner[e["horse"]] != 0]
    assert hidden and all("card" not in e for e in hidden)


def test_the_new_messages_are_looked_up_in_the_catalogs():
    error = refusal(lambda: Meeting.new({"players": 9}))
    message = error.args[0]
    assert isinstance(message, Message)
    assert localize_error(error, "nl") == translate("nl", message.msgid, **message.params)
