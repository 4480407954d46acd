"""Issue 6: the engines' errors and decision notes reach a person in their language.

The engines raise errors carrying a Message and explain options with notes that translate; the
English text (str()) stays what it always was, which the rule tests and logs read. The terminal
prints a refused input in the language of --lang or of the environment (T4, T6, T11).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Decision, Note
from hippodrome.core.match import Match, replay
from hippodrome.i18n import Message, localize_error
from hippodrome.turfmaster.position import parse_position
from tests.turfmaster.helpers import race_at

TWO_ON_ONE_SQUARE = {"course": "oval", "steeplechase": False,
                     "horses": [{"id": "red", "lane": 0, "square": 4}, {"id": "blue", "lane": 0, "square": 4}]}
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "HIPPODROME_LANG")


def start_of_race():
    return race_at({h: (lane, 0) for lane, h in enumerate(["red", "blue", "yellow", "green"])})


def note_of(pending: Decision, **option):
    return next(note for o, note in zip(pending.options, pending.notes) if all(o[k] == v for k, v in option.items()))


# --- errors --------------------------------------------------------------------------------------

def test_T4_two_horses_on_one_square_in_spanish_and_german():
    with pytest.raises(InvalidSetup) as refused:
        parse_position(TWO_ON_ONE_SQUARE)
    error = refused.value
    assert str(error) == ("horses 'red' and 'blue' are both on lane 0, square 4: "
                          "only one horse may stand on a square")
    assert localize_error(error, "es") == ("los caballos 'red' y 'blue' están ambos en el carril 0, casilla 4: "
                                           "solo un caballo puede estar en una casilla")
    assert localize_error(error, "de") == ("die Pferde 'red' und 'blue' stehen beide auf Bahn 0, Feld 4: "
                                           "auf einem Feld darf nur ein Pferd stehen")
    assert error.translate("es_ES") == localize_error(error, "es")
    assert localize_error(error, "en") == str(error)


def test_T5_a_refused_square_lists_the_legal_ends_in_the_players_language():
    race = start_of_race()
    race.apply({"type": "card", "horse": "red", "card": "7"})
    with pytest.raises(IllegalAction) as refused:
        race.apply({"type": "square", "horse": "red", "lane": 5, "square": 5})
    error = refused.value
    # the ends are the rail (lane 0 in the data) and the lane beside it: players read lanes 1 and 2
    assert {(o["lane"], o["square"]) for o in error.allowed} == {(0, 7), (1, 7)}
    assert str(error) == "Red moves 7 of 7 points and may end on: lane 1 square 7; lane 2 square 7"
    assert localize_error(error, "es") == ("Rojo avanza 7 de 7 puntos y puede terminar en: "
                                           "carril 1 casilla 7; carril 2 casilla 7")
    assert localize_error(error, "de") == "Rot zieht 7 von 7 Punkten und darf enden auf: Bahn 1 Feld 7; Bahn 2 Feld 7"
    assert error.allowed and all(o["type"] == "square" for o in error.allowed)


def test_a_replay_error_translates_the_refusal_inside_it():
    match = Match("turfmaster-race", {"horses": [{"id": "red"}, {"id": "blue"}]}, seed=1)
    match.pending()
    record = match.record()
    record["log"] = [record["log"][0], {"by": 0, "action": {"type": "nonsense"}}]
    with pytest.raises(IllegalAction) as refused:
        replay(record)
    assert str(refused.value) == "log entry 2 cannot be replayed: Red's owner must play a card now"
    assert localize_error(refused.value, "es") == ("la entrada 2 del registro no se puede reproducir: "
                                                   "el propietario de Rojo debe jugar una carta ahora")


# --- decision notes ------------------------------------------------------------------------------

def test_T6_the_handicap_note_in_spanish_and_german():
    pending = start_of_race().pending()
    note = note_of(pending, card="9")
    assert isinstance(note, Note) and isinstance(note, str)
    assert note == ("above this horse's limit of 8: the card is spent and the horse does not move; "
                    "play a joker or a card of 8 or less to move")
    # the limit, 8, is said as the limit: handicap 8 does not exist (the books' handicap 9 allows 8 squares)
    assert note.translate("es") == ("supera el límite de este caballo, 8: la carta se gasta y el caballo no se "
                                    "mueve; juega un joker o una carta de 8 o menos para moverlo")
    assert note.translate("de") == ("über der Grenze dieses Pferdes von 8: die Karte ist verbraucht und das Pferd "
                                    "zieht nicht; spiele einen Joker oder eine Karte bis 8, um zu ziehen")
    assert note_of(pending, card="J12") == "" and note_of(pending, card="8") == ""
    assert note.to_json() == {"msgid": "above this horse's limit of {limit}: the card is spent and the "
                                       "horse does not move; play a joker or a card of {limit} or less to move",
                              "params": {"limit": 8}}


def test_T11_the_fall_note_translates_and_the_view_stays_json():
    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True, hands={"red": ["6"], "blue": ["3"]})
    race.apply({"type": "card", "horse": "red", "card": "6"})
    pending = race.pending()
    assert all(note == "the horse cannot complete the jump and falls" for note in pending.notes)
    assert {note.translate("es") for note in pending.notes} == {"el caballo no puede completar el salto y se cae"}
    assert {note.translate("de") for note in pending.notes} == {
        "das Pferd kann den Sprung nicht vollenden und stürzt"}
    view = json.loads(json.dumps(race.observation(pending.seat)))
    decision = view["pending"]
    assert decision["notes"] == [str(note) for note in pending.notes]
    assert decision["notes_i18n"] == [{"msgid": "the horse cannot complete the jump and falls", "params": {}}
                                      ] * len(pending.options)
    assert "notes" not in json.loads(json.dumps(race.observation(None)))["pending"]


def test_T6_the_dice_use_note_names_the_slowed_horses():
    race = race_at({"red": (0, 20), "blue": (1, 18), "yellow": (2, 16), "green": (3, 10)}, first_round="dice")
    race.apply({"type": "roll", "dice": [6, 4]})
    pending = race.pending()
    note = note_of(pending, use="sum")
    assert note == "handicapped horses move one die of their owner's choice instead: Red, Blue"
    assert note.translate("fr") == ("les chevaux handicapés avancent plutôt d’un dé au choix de leur "
                                    "propriétaire\u00a0: Rouge, Bleu")
    view = race.observation(pending.seat)
    json.dumps(view)
    assert view["pending"]["notes_i18n"][1:] == [None, None]


def test_notes_keep_translating_through_copies_and_pickles():
    note = Note(Message("the horse cannot complete the jump and falls"))
    for copied in (copy.deepcopy(note), pickle.loads(pickle.dumps(note))):
        assert copied == note and copied.translate("nl") == "het paard kan de sprong niet voltooien en valt"
    decision = Decision(0, "square", ({"type": "square"}, {"type": "square", "x": 1}),
                        notes=(Message("the race is over"), ""))
    assert decision.notes == ("the race is over", "") and decision.notes[0].translate("de") == "das Rennen ist vorbei"
    assert decision.note_for({"type": "square"}).translate("es") == "la carrera ha terminado"
    assert Decision(0, "x", ({},), notes=("plain",)).notes_i18n() == [{"msgid": "plain", "params": {}}]


# --- the terminal ----------------------------------------------------------------------------------

SPANISH_ERROR = ("error: los caballos 'red' y 'blue' están ambos en el carril 0, casilla 4: "
                 "solo un caballo puede estar en una casilla")


def destinations(tmp_path, *args, env=None):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(TWO_ON_ONE_SQUARE))
    environ = {name: None for name in LANGUAGE_VARIABLES}
    environ.update(env or {})
    return CliRunner().invoke(app, ["turfmaster", "destinations", str(path), "--horse", "red", "--points", "5",
                                    *args], env=environ)


def test_destinations_prints_the_error_in_the_language_of_lang(tmp_path):
    result = destinations(tmp_path, "--lang", "es")
    assert result.exit_code == 2
    assert SPANISH_ERROR in result.stderr
    german = destinations(tmp_path, "--lang", "de_DE.UTF-8", env={"LANG": "es_ES.UTF-8"})
    assert german.exit_code == 2 and "Fehler: die Pferde 'red' und 'blue' stehen beide auf Bahn 0" in german.stderr


def test_destinations_prints_the_error_in_the_environments_language(tmp_path):
    spanish = destinations(tmp_path, env={"LANG": "es_ES.UTF-8"})
    assert spanish.exit_code == 2 and SPANISH_ERROR in spanish.stderr
    english = destinations(tmp_path, env={"LANG": "C.UTF-8"})
    assert english.exit_code == 2
    assert "error: horses 'red' and 'blue' are both on lane 0, square 4" in english.stderr


def test_destinations_in_a_real_process_with_lang_es(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(TWO_ON_ONE_SQUARE))
    environ = {name: value for name, value in os.environ.items() if name not in LANGUAGE_VARIABLES}
    environ["LANG"] = "es_ES.UTF-8"
    done = subprocess.run([sys.executable, "-m", "hippodrome", "turfmaster", "destinations", str(path),
                           "--horse", "red", "--points", "5"], capture_output=True, text=True, env=environ)
    assert done.returncode == 2
    assert SPANISH_ERROR in done.stderr
