"""Ready Set Bet in the players' languages: refusals (R4, R6, R8), setup errors and the commands'
output go through the catalogs and carry the Spanish rulebook's words."""

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.core import IllegalAction, InvalidSetup
from hippodrome.i18n import Message, localize_error, translate
from hippodrome.i18n.vocabulary import READYSETBET_EXOTIC
from hippodrome.readysetbet.dice_race import RaceState, parse_race_state
from tests.readysetbet.rsb_helpers import match_at_race

ENGLISH_ENV = {"HIPPODROME_LANG": "", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def refusal(match, seat, token, space):
    with pytest.raises(IllegalAction) as caught:
        match.act(seat, {"type": "bet", "token": token, "space": space})
    message = caught.value.args[0]
    assert isinstance(getattr(message, "text", message), Message), "a catalog message (maybe tied to its ruling)"
    return caught.value


def test_r6_a_french_refusal_names_the_exotic_finish_card_in_french():
    match = match_at_race({"players": 3})
    card = match.state.exotics[0]
    match.act(0, {"type": "bet", "token": "2", "space": f"exotic:{card}:1"})
    error = refusal(match, 0, "3", f"exotic:{card}:2")
    french = localize_error(error, "fr")
    assert translate("fr", READYSETBET_EXOTIC[card]) in french
    assert french == error.args[0].translate("fr") and "R6" not in french  # words, never rule codes


def test_r8_a_german_refusal_names_the_bandwagon_card_in_german():
    match = match_at_race({"players": 3})
    match.act(0, {"type": "bet", "token": "5", "space": "win:7:R"})
    german = localize_error(refusal(match, 1, "2", "win:7:R"), "de")
    assert "Aufspringen" in german and "R4" not in german


@pytest.mark.skipif(translate("fr", "betting is closed: the game is over") == "betting is closed: the game is over",
                    reason="the sweep's French translations are not merged into the catalog yet")
def test_r2_a_french_player_is_told_that_bets_are_closed_in_french():
    match = match_at_race({"players": 2})
    match.state.race = RaceState((10, 10, 10, 0, 0, 0, 0, 0, 0), crossings=3)
    text = localize_error(refusal(match, 0, "2", "win:7:R"), "fr")
    assert "Rien ne va plus" in text and "R2" not in text


def test_setup_errors_carry_messages():
    with pytest.raises(InvalidSetup) as caught:
        parse_race_state("7=99")
    assert caught.value.args[0] == Message("horse {horse}: space {space} is outside 0-{finish}", horse="7",
                                           space=99, finish=15)


def odds(*args, env=None):
    return CliRunner().invoke(app, ["readysetbet", "odds", "--positions", "7=3,8=2", "--simulations", "2000",
                                    "--seed", "1", *args], env=env)


def test_odds_in_spanish_head_the_columns_with_the_rulebooks_bets():
    result = odds("--lang", "es")
    assert result.exit_code == 0, result.output
    heading = result.stdout.splitlines()[0].split()
    assert heading[1:4] == ["Ganador", "Posición", "Trío"]
    assert "2.000" in result.stdout and "\u00a0%" in result.stdout  # 2000 and 39,4 % as Spanish writes them


def test_odds_in_english_by_default():
    result = odds(env=ENGLISH_ENV)
    assert result.stdout.split()[1:4] == ["Win", "Place", "Show"] and "2,000" in result.stdout


def test_a_refused_input_is_shown_in_the_language_asked_for():
    result = CliRunner().invoke(app, ["readysetbet", "odds", "--positions", "7=99", "--lang", "de"])
    assert result.exit_code == 2 and result.stderr.startswith("Fehler: ")


def test_simulate_prints_money_and_shares_for_the_language():
    result = CliRunner().invoke(app, ["readysetbet", "simulate", "--bots", "value,random", "--games", "2",
                                      "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "\u00a0%" in result.stdout and "\u00a0$" in result.stdout
