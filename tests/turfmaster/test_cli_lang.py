"""The TurfMaster commands in the player's language: ``--lang`` and the environment (issue 6).

Words the catalogs already translate are checked as they read in the language ("Bahn", "Runde");
the rest are checked against ``translate(lang, msgid)``, so the test holds before and after a
new message's translation is merged into the catalogs.
"""

import json

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.cli.turfmaster_view import (
    EVENT_SENTENCES, OPTION_SENTENCES, PROMPTS, describe_event, describe_option, event_key, option_key,
    prompt_text,
)
from hippodrome.core import Match
from hippodrome.i18n import LANGUAGES, translate
import hippodrome.turfmaster.meeting  # noqa: F401

runner = CliRunner()
#: No language from the machine: each test says which one it wants.
NEUTRAL = {"LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "HIPPODROME_LANG": None,
           "COLUMNS": "150"}


def play(*args, keys="q\n", **env):
    return runner.invoke(app, ["turfmaster", "play", "--players", "2", "--horses", "2", "--seed", "12", *args],
                         input=keys, env={**NEUTRAL, **env})


def test_play_in_german_shows_german_words_T1_T8():
    result = play("--lang", "de", keys="2\n2\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # the header, the horses (named by colour), the course rows and the points, in German
    assert "Rennen 1 von 3" in out and "Runde 1: Karten" in out and "Bahn 1, Feld" in out
    # lanes are counted from 1 (the rail) for players: lane 0 of the data never reaches the screen
    assert "Bahn 0" not in out
    assert "Pferde" in out and "Punkte" in out and "Rot" in out and "Spieler" in out
    # T8: the bonus cards question before race 1, then the card round's question
    assert translate("de", "Before race {race}: claim the 2 bonus cards of {horse}?", race=1,
                     horse=translate("de", "Red")) in out
    assert any(translate("de", "Round of cards: choose a card for {horse} (handicap: at most {limit})",
                         horse=translate("de", colour), limit=8) in out for colour in ("Red", "Blue"))   # the seat's horses
    assert translate("de", "meeting abandoned") in out
    for english in ("Race 1 of 3", "Horses", "round 1: cards", "lane 1, square"):
        assert english not in out
    # the bot's seat is named by its level in German, not by the level's id ("tactical")
    assert translate("de", "{bot} {seat}", bot=translate("de", "Tactical bot"), seat=1) in out
    assert "tactical" not in out


def test_the_LANGUAGE_variable_picks_spanish():
    result = play(keys="q\n", LANGUAGE="es")
    assert result.exit_code == 0, result.output
    assert "Carrera 1 de 3" in result.output and "Caballos" in result.output and "Propietario" in result.output
    assert translate("es", "your choice (1-{last}, q to quit): ", last=2) in result.output


def test_HIPPODROME_LANG_wins_over_the_locale_and_lang_wins_over_both():
    dutch = play(LANGUAGE="es", HIPPODROME_LANG="nl")
    assert "Race 1 van 3" in dutch.output
    french = play("--lang", "fr_CA.UTF-8", LANGUAGE="es", HIPPODROME_LANG="nl")
    assert "Course 1 sur 3" in french.output


@pytest.mark.parametrize("command", [
    ["destinations", "position.json", "--horse", "red", "--points", "3"],
    ["play"], ["simulate", "--games", "1"], ["replay", "record.json"],
])
def test_a_language_we_lack_exits_2_and_lists_the_choices(command):
    result = runner.invoke(app, ["turfmaster", *command, "--lang", "pt"], env=NEUTRAL)
    assert result.exit_code == 2
    assert "en, es, fr, nl, de" in result.output and "'pt'" in result.output


def test_a_refused_choice_in_french_is_french():
    result = play("--lang", "fr", keys="99\nq\n")
    assert result.exit_code == 0, result.output
    assert translate("fr", "'{answer}' is not a choice: type a number from 1 to {last}", answer="99",
                     last=2) in result.output


def test_a_refused_table_or_position_is_refused_in_the_language_with_exit_2(tmp_path):
    result = play("--lang", "fr", "--course", "moon")
    assert result.exit_code == 2
    assert result.output.startswith("erreur\u00a0: ") and "'moon'" in result.output
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"course": "oval", "horses": [{"id": "a", "lane": 8, "square": 0}]}))
    result = runner.invoke(app, ["turfmaster", "destinations", str(path), "--horse", "a", "--points", "3"],
                           env={**NEUTRAL, "LANGUAGE": "de"})
    assert result.exit_code == 2 and result.stderr.startswith("Fehler: ")
    assert result.stdout == ""  # nothing printed, nothing changed


def test_destinations_json_keeps_english_keys_in_any_language(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"course": "oval", "horses": [{"id": "red", "lane": 0, "square": 0}]}))
    result = runner.invoke(app, ["turfmaster", "destinations", str(path), "--horse", "red", "--points", "3",
                                 "--lang", "de"], env=NEUTRAL)
    assert json.loads(result.stdout) == {"steps": 3, "destinations": [{"lane": 0, "square": 3},
                                                                      {"lane": 1, "square": 3}]}


@pytest.mark.slow
def test_simulate_and_replay_speak_the_language(tmp_path):
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "2", "--bots", "random,random",
                                 "--workers", "1", "--lang", "nl"], env=NEUTRAL)
    assert result.exit_code == 0, result.output
    assert translate("nl", "win rate") in result.output and translate("nl", "meetings") in result.output
    # the first moves of a meeting: every screen of the replay is drawn (Rich's board), and the
    # words of a whole meeting's replay are those of its first moves (its final table is checked in
    # English by test_terminal_play.py)
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed="lang")
    while len(match.log) < 30:
        pending = match.pending()
        match.act(pending.seat, pending.options[0])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["turfmaster", "replay", str(path), "--lang", "es"], env=NEUTRAL)
    assert result.exit_code == 0, result.output
    assert "Carrera 1 de 3" in result.output and "Puntos" in result.output
    assert translate("es", "the record stops before the end of the meeting (race {race})", race=1) in result.output
    assert translate("es", "Final table (points, then best single places)") in result.output
    result = runner.invoke(app, ["turfmaster", "replay", str(path), "--seat", "5", "--lang", "de"], env=NEUTRAL)
    assert result.exit_code == 2 and translate("de", "--seat must be from 1 to {last}", last=2) in result.output


def _everything_a_meeting_shows(seed):
    """Every option offered, every prompt and every race event of a whole meeting (steeplechase,
    so that falls happen: T11)."""
    match = Match("turfmaster", {"players": 3, "horses_per_player": 2, "steeplechase": True}, seed=seed)
    options, views, events = [], [], {}
    while (pending := match.pending()) is not None:
        view = match.state.observation(pending.seat)
        views.append(view)
        options.extend(view["pending"]["options"])
        match.act(pending.seat, pending.options[(len(options) * 7) % len(pending.options)])
        if match.state.race is not None:   # each event once (the race's history so far, at every step)
            events.update((json.dumps(event, sort_keys=True, default=str), event) for event in match.state.race.history)
    return options, views, list(events.values()) + list(match.state.events)


def test_every_event_option_and_prompt_of_a_meeting_is_a_whole_translated_sentence():
    options, views, events = _everything_a_meeting_shows("sentences")
    assert {option_key(o) for o in options} <= set(OPTION_SENTENCES)
    assert {event_key(e) for e in events} <= set(EVENT_SENTENCES)
    assert {v["pending"]["kind"] for v in views} <= set(PROMPTS)
    names = ["Ana", "Bot 1", "Bot 2"]
    for lang in LANGUAGES:
        for option in options:
            assert not describe_option(option, lang, names).startswith("{")
        for event in events:
            assert not describe_event(event, names, lang).startswith("{")
        for view in views[:40]:
            assert prompt_text(view, lang) != view["pending"]["kind"]


def test_an_event_sentence_names_the_horse_in_the_language():
    event = {"round": 3, "event": "move", "horse": "green", "points": 7, "steps": 5, "fell": True,
             "from": {"lane": 1, "square": 4}, "to": {"lane": 1, "square": 9}}
    # lane 1 in the data is the second lane from the rail: players read lane 2
    assert describe_event(event, [], "en") == ("Green moves 5 (only 5 of 7 possible) to lane 2, square 9 and "
                                               "falls at the fence")
    assert describe_event({"event": "finish", "horse": "green", "place": 1}, [], "de") == "Grün wird 1."
    assert describe_option({"type": "card", "horse": "purple", "card": "J12"}, "fr") == translate(
        "fr", "Play {card} for {horse}", card="J12", horse=translate("fr", "Purple"))
