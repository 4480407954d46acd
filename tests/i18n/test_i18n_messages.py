"""Issue 6: lazy messages, errors in the player's language, the web catalog, the seeded vocabulary."""

from __future__ import annotations

import doctest
import json

import pytest

import hippodrome.i18n.catalogs
import hippodrome.i18n.errors
import hippodrome.i18n.formatting
import hippodrome.i18n.languages
from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.i18n import (
    LANGUAGES, Message, Money, N_, Plural, _, error_to_json, languages_for_web, load_catalog, localize_error,
    plural_rule, translate, web_catalog,
)
from hippodrome.i18n import vocabulary
from hippodrome.i18n.catalogs import _render


@pytest.mark.parametrize("module", [hippodrome.i18n.catalogs, hippodrome.i18n.errors,
                                    hippodrome.i18n.formatting, hippodrome.i18n.languages])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_message_is_english_until_translated():
    message = Message("No more bets!")
    assert str(message) == "No more bets!"
    assert message.translate("es") == "¡Se acabaron las apuestas!"
    assert message.translate("de") == "Nichts geht mehr!"
    assert message.translate("fr") == "Rien ne va plus\u00a0!"
    assert message.translate("nl") == "Geen inzetten meer!"


def test_marker_functions():
    assert _("They're off!") == Message("They're off!")
    assert _("They're off!").translate("es") == "¡Salen al galope!"
    assert N_("anything") == "anything"
    assert translate("es", "round of cards") == "ronda de cartas"
    assert translate("fr", "lane") == "couloir"


def test_unknown_language_and_region_fall_back_sensibly():
    assert translate("es_AR", "fence") == "valla"
    assert translate("pt", "fence") == "fence"
    assert translate(None, "fence") == "fence"


def test_unknown_msgid_shows_the_english_text_with_its_parameters():
    assert translate("de", "not in any catalog {x}", x=3) == "not in any catalog 3"


def test_nested_messages_are_translated_into_the_same_language():
    message = Message("{horse} crosses the finish line", horse=Message(vocabulary.TURFMASTER_HORSES["white"]))
    assert message.translate("en") == "White crosses the finish line"
    assert message.translate("de") == "Weiß überquert die Ziellinie"
    assert message.translate("nl") == "Wit komt over de aankomstlijn"


def test_plural_forms_follow_each_language():
    assert [vocabulary.points(n).translate("en") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert [vocabulary.points(n).translate("fr") for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]
    assert [vocabulary.points(n).translate("es") for n in (0, 1, 2)] == ["0 puntos", "1 punto", "2 puntos"]
    assert vocabulary.spaces(3).translate("nl") == "3 velden"
    assert plural_rule("fr") == "(n > 1)"


def test_a_missing_parameter_is_a_programming_error():
    with pytest.raises(KeyError):
        Message("{horse} falls at the fence").translate("fr")


def test_a_broken_translation_shows_the_english_message():
    assert _render("de", "{hors} stürzt", "{horse} falls", {"horse": "Rot"}) == "Rot falls"


def test_message_json_form():
    message = Message("Horse {horse} wins!", horse="7", prize=Money(45), what=Plural("{n} point", "{n} points", 2))
    assert json.loads(json.dumps(message.to_json())) == {
        "msgid": "Horse {horse} wins!",
        "params": {"horse": "7", "prize": {"money": 45},
                   "what": {"msgid": "{n} point", "params": {}, "plural": "{n} points", "n": 2}}}


def test_errors_carry_messages_and_are_shown_in_the_players_language():
    error = IllegalAction(Message("No more bets!"), allowed=({"type": "pass"},))
    assert str(error) == "No more bets!"                    # logs and tracebacks: English
    assert localize_error(error, "es") == "¡Se acabaron las apuestas!"
    assert localize_error(InvalidSetup("plain English text"), "de") == "plain English text"
    assert localize_error(ValueError(), "fr") == ""
    assert error_to_json(error, "de") == {"error": "IllegalAction", "message": "Nichts geht mehr!",
                                         "allowed": [{"type": "pass"}]}


def test_web_catalog_has_every_message_of_the_language():
    for lang in LANGUAGES:
        catalog = web_catalog(lang)
        assert json.loads(json.dumps(catalog)) == catalog
        assert catalog["Win"] == {"en": "Win", "es": "Ganador", "fr": "Gagnant", "nl": "Winnaar", "de": "Sieg"}[lang]
        loaded = load_catalog(lang)
        assert len(catalog) == len(loaded.singular) + len(loaded.plural)
    assert web_catalog("es")["{n} point"] == ["{n} punto", "{n} puntos"]
    assert web_catalog("pt") == web_catalog("en")


def test_language_selector_entries():
    assert [entry["name"] for entry in languages_for_web()] == ["English", "Español", "Français", "Nederlands",
                                                                "Deutsch"]
    assert {entry["speech"][:2] for entry in languages_for_web()} == set(LANGUAGES)


@pytest.mark.parametrize("lang, expected", [
    ("es", {"card_round": "ronda de cartas", "dice_round": "ronda de dados", "lane": "carril",
            "handicap": "hándicap", "fence": "valla", "finish_line": "línea de meta"}),
    ("fr", {"card_round": "tour de cartes", "dice_round": "tour de dés", "lane": "couloir", "fence": "haie",
            "steeplechase": "steeple-chase", "stall": "stalle"}),
    ("nl", {"card_round": "kaartenronde", "dice_round": "dobbelsteenronde", "lane": "spoor",
            "lane_change": "spoorwissel", "bonus_cards": "bonuskaarten", "finish_line": "aankomstlijn"}),
    ("de", {"card_round": "Kartenrunde", "dice_round": "Würfelrunde", "lane": "Bahn", "fence": "Hindernis"}),
])
def test_turfmaster_words_are_the_rulebooks(lang, expected):
    assert {key: vocabulary.term(vocabulary.TURFMASTER_TERMS, key).translate(lang) for key in expected} == expected


def test_ready_set_bet_words_are_the_spanish_rulebooks():
    spanish = {key: vocabulary.term(vocabulary.READYSETBET_BETS, key).translate("es") for key in ("win", "place", "show")}
    assert spanish == {"win": "Ganador", "place": "Posición", "show": "Trío"}
    calls = {key: vocabulary.term(vocabulary.READYSETBET_CALLS, key).translate("es") for key in vocabulary.READYSETBET_CALLS}
    assert calls == {"start": "¡Salen al galope!", "no_more_bets": "¡Se acabaron las apuestas!",
                     "snake_eyes": "¡Ojos de serpiente!", "boxcars": "¡Doble seis!"}
    assert translate("es", "prop bets") == "apuestas paralelas"
    assert translate("es", "exotic finish") == "llegada insólita"
    assert translate("es", "House") == "Casa"
    assert translate("es", "Ready Set Bet") == "Un día en las carreras"


def test_vocabulary_covers_the_data_files_ids():
    from pathlib import Path
    data = Path(vocabulary.__file__).parent.parent
    deck = json.loads((data / "turfmaster" / "data" / "deck.json").read_text())
    assert {horse["id"] for horse in deck["horses"]} == set(vocabulary.TURFMASTER_HORSES)
    exotic = json.loads((data / "readysetbet" / "data" / "exotic.json").read_text())
    assert {card["id"] for card in exotic["cards"]} == set(vocabulary.READYSETBET_EXOTIC)
    vip = json.loads((data / "readysetbet" / "data" / "vip.json").read_text())
    names = {card["id"]: vocabulary.vip_card_name(card["id"]).translate("en") for card in vip["cards"]}
    assert set(names.values()) == {"Comp Chips", "Bandwagon", "Bonus Token", "Snake Eyes", "Boxcars",
                                   "Snake Eyes & Boxcars", "Lucky Number", "Last Call"}  # the last: retired (R8)
    assert names["bonus-5-black"] == "Bonus Token" and names["lucky-11"] == "Lucky Number"
    board = json.loads((data / "readysetbet" / "data" / "board.json").read_text())
    assert {column.split(":")[0] for column in board["columns"]} == set(vocabulary.READYSETBET_BETS)


def test_listing_translates_each_item_and_round_trips_through_json():
    from hippodrome.i18n import Listing, Money, Ordinal, Percent, message_from_json
    from hippodrome.i18n.vocabulary import horse_name
    message = Message("handicapped horses move one die of their owner's choice instead: {horses}",
                      horses=Listing([horse_name("red"), horse_name("blue"), horse_name("pink")]))
    assert str(message) == "handicapped horses move one die of their owner's choice instead: Red, Blue, pink"
    assert message.translate("de").endswith(": Rot, Blau, pink")
    again = message_from_json(json.loads(json.dumps(message.to_json())))
    assert again == message and again.translate("fr") == message.translate("fr")
    values = [Plural("{n} point", "{n} points", 3), Money(45), Ordinal(2), Percent(0.253, 1)]
    for value in values:
        assert message_from_json(json.loads(json.dumps(value.to_json()))).translate("de") == value.translate("de")
    assert message_from_json("2/3") == "2/3" and message_from_json(7) == 7


def test_a_listing_s_separator_is_written_as_the_language_writes_it():
    """French puts a no-break space before ";" (issue 39's typography): "lane 1 square 3 ; lane 2
    square 4", the prop bets that won, a race's places; the other languages and "," as English."""
    from hippodrome.i18n import Listing
    from hippodrome.readysetbet.settled_words import settlement_lines
    from tests.i18n.texts import french_typography_faults
    ends = Listing([Message("lane {lane} square {square}", lane=1, square=3),
                    Message("lane {lane} square {square}", lane=2, square=4)], "; ")
    assert "\u00a0; " in ends.translate("fr")
    assert not french_typography_faults(ends.translate("fr")), ends.translate("fr")
    assert [ends.translate(lang).count("; ") for lang in ("en", "es", "nl", "de")] == [1, 1, 1, 1]
    assert "\u00a0" not in ends.translate("de") and str(ends).count("; ") == 1
    assert Listing(["Rouge", "Bleu"]).translate("fr") == "Rouge, Bleu"
    # R7: the prop bets that won, as the caller says them after a race (several, "; " between)
    said = [line.translate("fr") for line in settlement_lines((3, 5, 15, 9, 13, 6, 6, 5, 4))]
    props = [line for line in said if "; " in line]
    assert props and not [fault for line in props for fault in french_typography_faults(line)], props


def test_a_listing_joined_by_and_says_and_in_each_language():
    from hippodrome.i18n import Listing, message_from_json
    both = Listing(["5", "9"], conjunction=True)
    assert str(both) == "5 and 9"
    assert {lang: both.translate(lang) for lang in ("es", "fr", "nl", "de")} == {
        "es": "5 y 9", "fr": "5 et 9", "nl": "5 en 9", "de": "5 und 9"}
    assert Listing(["2/3", "4", "10"], conjunction=True).translate("de") == "2/3, 4 und 10"
    assert Listing(["Ana"], conjunction=True).translate("fr") == "Ana" and Listing([], conjunction=True).translate("en") == ""
    assert both.to_json() == {"list": ["5", "9"], "conjunction": True}
    again = message_from_json(json.loads(json.dumps(both.to_json())))
    assert again == both and again != Listing(["5", "9"]) and again.translate("nl") == "5 en 9"


# --- message contexts: one English word, two meanings (issue 39) ----------------------------------

def test_a_word_with_two_meanings_has_one_message_per_meaning():
    from hippodrome.i18n import C_, catalog_key, message_from_json, translate_in_context
    money = C_("money before the first race", "Start")
    post = C_("the start line's post on the course", "Start")
    button = C_("race caller button: start the race", "Start")
    assert str(money) == str(post) == "Start"                      # English: the same word
    assert (money.translate("es"), post.translate("es"), button.translate("es")) == ("Inicio", "Salida", "Empezar")
    assert (money.translate("fr"), post.translate("fr")) == ("Début", "Départ")
    assert money != post and money == C_("money before the first race", "Start")
    assert translate_in_context("de", "money before the first race", "Start") == "Beginn"
    # the page gets the context with the message, and keys its catalog the way gettext joins them
    assert money.to_json() == {"msgid": "Start", "params": {}, "context": "money before the first race"}
    assert message_from_json(json.loads(json.dumps(money.to_json()))) == money
    assert Message("Start").to_json() == {"msgid": "Start", "params": {}}
    assert web_catalog("es")[catalog_key("Start", "money before the first race")] == "Inicio"
    assert catalog_key("Start", "a context") == "a context\x04Start" and catalog_key("Start") == "Start"
    assert repr(money) == "C_('money before the first race', 'Start')"


def test_check_and_import_name_a_message_by_its_context(tmp_path, monkeypatch):
    from babel.messages.pofile import read_po, write_po
    from hippodrome.i18n import extract
    from hippodrome.i18n.catalogs import catalog_path
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "hippodrome.po").write_bytes(catalog_path(lang).read_bytes())
    monkeypatch.setattr(extract, "catalog_path", lambda lang: tmp_path / lang / "hippodrome.po")
    path = tmp_path / "nl" / "hippodrome.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale="nl")
    catalog.get("Start", context="money before the first race").string = ""
    with path.open("wb") as file:
        write_po(file, catalog)
    assert extract.missing_translations("nl") == ["Start (context: money before the first race)"]
    incoming = tmp_path / "incoming.json"
    incoming.write_text(json.dumps([{"msgid": "Start", "context": "money before the first race", "nl": "Begin"}]))
    extract.import_translations(incoming)
    with path.open("rb") as file:
        catalog = read_po(file, locale="nl")
    assert catalog.get("Start", context="money before the first race").string == "Begin"
    assert catalog.get("Start", context="the start line's post on the course").string == "Start"
    assert extract.missing_translations("nl") == []
