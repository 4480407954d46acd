"""Typer's own words around ours (issue 6): "Usage:", the panels, "[default: 4]", the usage errors,
in the language of the command line (--lang, HIPPODROME_LANG, the locale).

The commands run in a subprocess (``python -m hippodrome.cli.main``), as a person runs them. The
expected frame is read from the catalogs (``raw``/``translate``), so these tests hold before and
after the translations of hippodrome.cli.click_i18n's messages are merged; where a catalog already
translates a word, the English word must be gone. The last tests pin the installed Typer's English
strings: when a new Typer rewords one, they say which.
"""

from __future__ import annotations

import inspect
import os
import string
import subprocess
import sys
import types

import pytest
import typer
from rich.text import Text

from hippodrome.cli import click_i18n
from hippodrome.cli.click_i18n import (
    ERROR_TEMPLATES, GETTEXT_MESSAGES, HELP_OPTION_HELP, RICH_CONSTANTS, USAGE, find_error_template,
    translate_error,
)
from hippodrome.cli.main import app
from hippodrome.i18n import translate
from hippodrome.i18n.catalogs import load_catalog

LOCALE_VARIABLES = ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "HIPPODROME_LANG")
#: How Typer names the program run as ``python -m hippodrome.cli.main``.
PROG = "python -m hippodrome.cli.main"
INTEGER_ERROR = "Input should be a valid integer, unable to parse string as an integer"


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key not in LOCALE_VARIABLES}
    environ.update({"LANG": "C.UTF-8", "COLUMNS": "200", "NO_COLOR": "1", **env})
    return subprocess.run([sys.executable, "-m", "hippodrome.cli.main", *args], capture_output=True,
                          text=True, env=environ, timeout=120)


def raw(lang: str, msgid: str) -> str:
    """A Typer template as our catalog gives it to Typer (Typer fills its placeholders)."""
    return load_catalog(lang).singular.get(msgid, msgid)


def words(text: str) -> str:
    """Text with its line breaks and spacing made single spaces (Typer wraps long usage lines)."""
    return " ".join(text.split())


def assert_shows(output: str, lang: str, msgid: str, shown: str, english: str | None = None) -> None:
    """``shown`` (made from the catalog's text) is in the output; once the catalog translates
    ``msgid``, its English (by default the longest fixed part of the msgid) is not."""
    assert words(shown) in words(output), f"{shown!r} not in:\n{output}"
    if raw(lang, msgid) != msgid:
        english = english or max((literal for literal, *_ in string.Formatter().parse(msgid)), key=len)
        assert words(english) not in words(output), f"English {english!r} left in:\n{output}"


def panel_title(lang: str, msgid: str) -> str:
    return f"╭─ {raw(lang, msgid)} ─"


@pytest.fixture
def english_frame():
    """The installed hooks in English, for the tests that read Typer's own messages in-process."""
    before = click_i18n.current_language()
    click_i18n.install("en")
    yield
    click_i18n.install(before)


# -- the frame, in a person's language ------------------------------------------------------------

def test_help_of_turfmaster_play_with_lang_de_is_german():
    result = run("turfmaster", "play", "--lang", "de", "--help")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert_shows(out, "de", USAGE, f"{raw('de', USAGE)} {PROG} turfmaster play [OPTIONS]")
    assert_shows(out, "de", "Options", panel_title("de", "Options"))
    assert_shows(out, "de", "[default: {}]", raw("de", "[default: {}]").format(4))
    assert_shows(out, "de", "[env var: {}]", raw("de", "[env var: {}]").format("HIPPODROME_LANG"))
    assert_shows(out, "de", HELP_OPTION_HELP, raw("de", HELP_OPTION_HELP))
    assert translate("de", "players at the table, 2 to 8 (you are player 1)") in out


def test_help_of_readysetbet_odds_with_a_spanish_locale_is_spanish():
    result = run("readysetbet", "odds", "--help", LANG="es_ES.UTF-8")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert_shows(out, "es", USAGE, f"{raw('es', USAGE)} {PROG} readysetbet odds [OPTIONS]")
    assert_shows(out, "es", "Options", panel_title("es", "Options"))
    assert_shows(out, "es", "[required]", raw("es", "[required]"))
    assert_shows(out, "es", "[default: {}]", raw("es", "[default: {}]").format(20000))
    assert_shows(out, "es", HELP_OPTION_HELP, raw("es", HELP_OPTION_HELP))


@pytest.mark.parametrize("lang, command, panel", [
    ("nl", ["readysetbet", "--help"], "Commands"),
    ("fr", ["turfmaster", "destinations", "--help"], "Arguments"),
])
def test_commands_and_arguments_panels_follow_the_language(lang, command, panel):
    result = run(*command, HIPPODROME_LANG=lang)
    assert result.returncode == 0, result.stderr
    assert_shows(result.stdout, lang, panel, panel_title(lang, panel))


def test_a_usage_error_in_french_exits_2_and_is_french():
    result = run("turfmaster", "play", "--lang", "fr", "--players", "x")
    assert result.returncode == 2
    err = result.stderr
    assert_shows(err, "fr", USAGE, f"{raw('fr', USAGE)} {PROG} turfmaster play [OPTIONS]")
    try_help = raw("fr", RICH_CONSTANTS["RICH_HELP"]).format(command_path=f"{PROG} turfmaster play",
                                                               help_option="--help")
    assert_shows(err, "fr", RICH_CONSTANTS["RICH_HELP"], Text.from_markup(try_help).plain, english="for help.")
    assert_shows(err, "fr", "Error", panel_title("fr", "Error"))
    message = translate("fr", "Invalid value for {param_hint}: {message}", param_hint="'--players'",
                        message=translate("fr", INTEGER_ERROR))
    assert_shows(err, "fr", "Invalid value for {param_hint}: {message}", message)
    if raw("fr", INTEGER_ERROR) != INTEGER_ERROR:
        assert "Input should be" not in err


def test_an_unknown_command_in_german_suggests_in_german():
    result = run("turfmaster", "pla", "--lang", "de")
    assert result.returncode == 2
    unknown = raw("de", "No such command {name!r}.").format(name="pla").rstrip(".")
    expected = translate("de", "{message}. Did you mean {suggestions}?", message=unknown,
                         suggestions="'play', 'replay'")
    assert_shows(result.stderr, "de", "{message}. Did you mean {suggestions}?", expected)


def test_english_stays_typers_own_text():
    help_result = run("turfmaster", "play", "--help")
    assert f"Usage: {PROG} turfmaster play [OPTIONS]" in help_result.stdout
    for english in ("╭─ Options ─", "[default: 4]", "[env var: HIPPODROME_LANG]", "Show this message and exit."):
        assert english in help_result.stdout
    error = run("turfmaster", "play", "--players", "x")
    assert error.returncode == 2
    for english in (f"Usage: {PROG} turfmaster play [OPTIONS]",
                    f"Try '{PROG} turfmaster play --help' for help.", "╭─ Error ─",
                    f"Invalid value for '--players': {INTEGER_ERROR}"):
        assert english in error.stderr


# -- how messages are matched and filled ------------------------------------------------------------

def test_nested_pieces_are_translated_in_turn(monkeypatch):
    german = load_catalog("de").singular
    monkeypatch.setitem(german, "No such option: {name}", "Unbekannte Option: {name}")
    monkeypatch.setitem(german, "{message} (Possible options: {possibilities})",
                        "{message} (mögliche Optionen: {possibilities})")
    assert (translate_error("No such option: --pla (Possible options: --flat, --lang)", "de")
            == "Unbekannte Option: --pla (mögliche Optionen: --flat, --lang)")
    # a piece with brackets: the option ends after its "(env var: ...)", not at the first colon
    monkeypatch.setitem(german, "{param_hint} (env var: {var})", "{param_hint} (Umgebungsvariable: {var})")
    monkeypatch.setitem(german, "Invalid value for {param_hint}: {message}", "Ungültiger Wert für {param_hint}: {message}")
    assert (translate_error("Invalid value for '--lang' (env var: 'HIPPODROME_LANG'): 'pt' is not one: en, de", "de")
            == "Ungültiger Wert für '--lang' (Umgebungsvariable: 'HIPPODROME_LANG'): 'pt' is not one: en, de")
    assert translate_error("something else entirely", "de") == "something else entirely"


def test_a_translation_with_broken_placeholders_gives_typers_english(monkeypatch):
    monkeypatch.setitem(load_catalog("de").singular, "[default: {}]", "[Standard: {wert}]")
    monkeypatch.setattr(click_i18n._State, "lang", "de")
    assert click_i18n.gettext_lookup("[default: {}]") == "[default: {}]"


def test_a_typer_without_the_expected_attributes_runs_in_english(monkeypatch, english_frame):
    monkeypatch.setattr(click_i18n, "_import", lambda name: types.ModuleType(name))
    assert click_i18n.install("de") == "de"    # nothing to hook, and no error


# -- the installed Typer's strings, pinned -------------------------------------------------------------

def typer_source(*names: str) -> str:
    modules = [sys.modules.get(name) or __import__(name, fromlist=["_"]) for name in names]
    return "\n".join(inspect.getsource(module) for module in modules)


def test_every_gettext_msgid_is_still_typers():
    source = typer_source("typer.core", "typer.rich_utils")
    missing = [msgid for msgid in GETTEXT_MESSAGES if f'_("{msgid}")' not in source]
    assert not missing, f"the installed Typer no longer says: {missing}"
    rich_source = typer_source("typer.rich_utils")
    for name, msgid in RICH_CONSTANTS.items():
        assert f'{name} = _("{msgid}")' in rich_source


def test_the_literals_we_replace_are_still_typers():
    assert '"Usage: "' in typer_source("typer._click.formatting") and USAGE == "Usage:"
    assert f'help="{HELP_OPTION_HELP}"' in typer_source("typer._click.decorators")
    assert r'"(?P<usage>Usage: )"' in typer_source("typer.rich_utils")


def english_error(args: list[str]) -> str:
    """The message of the usage error ``hippodrome <args>`` makes, in English."""
    with pytest.raises(typer._click.exceptions.ClickException) as caught:
        typer.main.get_command(app).main(args, prog_name="hippodrome", standalone_mode=False)
    return caught.value.format_message()


def templates_of(message: str) -> set[str]:
    found = find_error_template(message)
    if found is None:
        return set()
    template, pieces = found
    return {template}.union(*(templates_of(piece) for piece in pieces.values()))


@pytest.mark.parametrize("args, templates", [
    (["turfmaster", "play", "--foo"], {"No such option: {name}"}),
    (["turfmaster", "play", "--pla", "3"], {"{message} (Possible options: {possibilities})", "No such option: {name}"}),
    (["turfmaster", "pla"], {"{message}. Did you mean {suggestions}?"}),
    (["turfmaster", "play", "--players", "x"], {"Invalid value for {param_hint}: {message}", INTEGER_ERROR}),
    (["readysetbet", "call", "--pace", "x"], {"Invalid value for {param_hint}: {message}",
                                              "Input should be a valid number, unable to parse string as a number"}),
    (["turfmaster", "play", "--lang", "pt"], {"Invalid value for {param_hint}: {message}", "{param_hint} (env var: {var})"}),
    (["readysetbet", "odds"], {"Missing option {param_hint}."}),
    (["turfmaster", "destinations"], {"Missing argument {param_hint}."}),
    (["turfmaster", "play", "--players"], {"Option {name} requires an argument."}),
    (["turfmaster", "play", "--flat=1"], {"Option {name} does not take a value."}),
    (["turfmaster", "play", "a", "b"], {"Got unexpected extra argument(s) ({args})"}),
])
def test_typers_usage_errors_are_the_templates_we_translate(english_frame, args, templates):
    assert templates <= set(ERROR_TEMPLATES)
    assert templates_of(english_error(args)) == templates


def test_a_bad_parameter_without_an_option_is_a_template_too(english_frame):
    assert templates_of(typer.BadParameter("no").format_message()) == {"Invalid value: {message}"}


def test_every_error_template_is_pinned_by_a_test():
    pinned = set().union(*(templates for _, templates in
                           test_typers_usage_errors_are_the_templates_we_translate.pytestmark[0].args[1]))
    assert set(ERROR_TEMPLATES) - pinned == {"Invalid value: {message}"}
