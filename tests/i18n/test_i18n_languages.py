"""Issue 6: the language comes from the browser, the command line or the environment."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from hippodrome.i18n import lang_from_env, lang_option, negotiate, normalize

LOCALE_VARIABLES = ("HIPPODROME_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize("header, lang", [
    ("es-ES,es;q=0.9,en;q=0.8", "es"),
    ("en-US,en;q=0.9,fr;q=0.8", "en"),
    ("pt-BR,pt;q=0.9,nl;q=0.5,de;q=0.7", "de"),        # q-values order, not position
    ("fr-CH, fr;q=0.9, de;q=0.8", "fr"),
    ("*", "en"),
    ("", "en"),
    ("pt-BR", "en"),                                     # nothing we have: the default
    ("de;q=0, nl", "nl"),                                # q=0 refuses a language
    ("DE-at", "de"),
    ("es;q=abc, fr", "fr"),                              # a broken q-value counts as refused
])
def test_negotiate_accept_language(header, lang):
    assert negotiate(header) == lang


def test_negotiate_list_in_order_and_default():
    assert negotiate(["pt_BR", "nl_BE", "de"]) == "nl"
    assert negotiate([]) == "en"
    assert negotiate(None) == "en"
    assert negotiate(["pt"], default="es") == "es"


@pytest.mark.parametrize("tag, lang", [
    ("es_ES.UTF-8", "es"), ("de_DE@euro", "de"), ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"),
    ("nl", "nl"), ("fr-CA", "fr"), ("pt_PT.UTF-8", None), ("", None), (None, None),
])
def test_normalize(tag, lang):
    assert normalize(tag) == lang


@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LC_ALL": "es_ES.UTF-8"}, "es"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "es_ES.UTF-8", "LANGUAGE": "nl:de"}, "nl"),
    ({"LANGUAGE": "pt:de"}, "de"),                       # a priority list: first one we have
    ({"LANGUAGE": "pt", "LANG": "es_ES.UTF-8"}, "es"),   # none we have: the next variable decides
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "en"),
])
def test_lang_from_env(environ, lang):
    assert lang_from_env(environ) == lang


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def show(lang: str = lang_option()) -> None:
        typer.echo(f"lang={lang}")  # i18n: test output

    return app


def run(args, **env):
    environ = {name: None for name in LOCALE_VARIABLES}
    environ.update(env, COLUMNS="200")
    return CliRunner().invoke(make_app(), args, env=environ)


def test_lang_option_value_wins():
    result = run(["--lang", "fr"], HIPPODROME_LANG="de", LANG="es_ES.UTF-8")
    assert result.exit_code == 0 and result.output.strip() == "lang=fr"


def test_lang_option_accepts_locale_names():
    assert run(["--lang", "nl_BE.UTF-8"]).output.strip() == "lang=nl"


def test_lang_option_env_variable():
    assert run([], HIPPODROME_LANG="de", LANG="es_ES.UTF-8").output.strip() == "lang=de"


def test_lang_option_falls_back_to_locale_variables_then_english():
    assert run([], LANG="es_ES.UTF-8").output.strip() == "lang=es"
    assert run([], LANGUAGE="nl:fr", LANG="es_ES.UTF-8").output.strip() == "lang=nl"
    assert run([]).output.strip() == "lang=en"


def test_lang_option_refuses_a_language_we_lack_in_the_environment_language():
    result = run(["--lang", "pt"], LANG="es_ES.UTF-8")
    assert result.exit_code == 2
    assert "'pt' no es uno de los idiomas: en, es, fr, nl, de" in result.output


def test_lang_option_help_is_translated(monkeypatch):
    # Help texts are made when the command is defined: in a real run, from the process environment.
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    result = CliRunner().invoke(make_app(), ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Sprache der Meldungen" in result.output


@pytest.mark.parametrize("argv, environ, lang", [
    (["turfmaster", "play", "--lang", "de", "--help"], {"LANG": "fr_FR.UTF-8"}, "de"),
    (["--help", "--lang=nl"], {}, "nl"),
    (["--lang", "pt", "--help"], {"LANG": "es_ES.UTF-8"}, "es"),     # a language we lack gives way
    (["--help"], {"HIPPODROME_LANG": "fr", "LANG": "de_DE.UTF-8"}, "fr"),
    (["--help"], {"LC_ALL": "es_AR.UTF-8"}, "es"),
    (["--help"], {}, "en"),
])
def test_help_language_follows_the_command_line_then_the_environment(argv, environ, lang):
    from hippodrome.i18n.catalogs import help_language
    assert help_language(argv, environ) == lang


def test_help_of_a_real_command_follows_its_lang_option():
    import subprocess
    import sys
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "200"}
    result = subprocess.run([sys.executable, "-m", "hippodrome.cli.main", "turfmaster", "play", "--lang", "de",
                             "--help"], capture_output=True, text=True, env=env, check=True)
    assert "Sprache der Meldungen" in result.stdout
