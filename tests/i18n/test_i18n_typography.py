"""Issue 39: typography a reader of each language expects. French puts a no-break space before
: ; ! ? and inside « », and writes one apostrophe, ’ (docs/i18n.md); each language quotes with
its own marks, and ASCII quotes are left to code (a JSON key, an example of input)."""

from __future__ import annotations

import pytest

from hippodrome.i18n import LANGUAGES
from tests.i18n.texts import NBSP, NNBSP, all_texts, french_typography_faults, quote_faults


def test_french_typography_over_the_whole_catalog_and_the_rules_pages():
    texts = all_texts("fr")
    assert len(texts) > 1000
    faults = [f"{where}: {', '.join(found)}: {text!r}" for where, _, text in texts
              for found in [french_typography_faults(text)] if found]
    assert not faults, f"{len(faults)} French texts:\n" + "\n".join(faults)


@pytest.mark.parametrize("text, faults", [
    (f"Rien ne va plus{NBSP}!", []),
    (f"Rien ne va plus{NNBSP}!", []),
    ("Rien ne va plus !", ["a plain space before '!'"]),
    ("Rien ne va plus!", ["no no-break space before '!'"]),
    (f"les paris sont clos{NBSP}: «{NBSP}Rien ne va plus{NBSP}!{NBSP}»", []),
    (f"«Rien ne va plus{NBSP}!»", ["no no-break space after «", "no no-break space before »"]),
    ("c'est la corde", ["a straight apostrophe (French writes ’)"]),
    (f"c’est la corde", []),
    # code keeps its own punctuation and quotes: URLs, host:port, JSON, quoted keys, rich markup
    (f"'course' doit être l’un de {{courses}}, pas {{value}}", []),
    (f"utilisez sqlite:///chemin ou postgresql://utilisateur@hôte/base", []),
    (f"envoyez 'seats': [] ou rien", []),
    (f"Essayez [blue]'{{command_path}} {{help_option}}'[/] pour afficher l’aide.", []),
    (f"un objet JSON comme {{{{\"races\": 4}}}}", []),
])
def test_the_french_checker_finds_what_is_wrong(text, faults):
    assert french_typography_faults(text) == faults


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_quote_style_per_language(lang):
    faults = [f"{where}: {', '.join(found)}: {text!r}" for where, english, text in all_texts(lang)
              for found in [quote_faults(lang, english, text)] if found]
    assert not faults, f"{lang}:\n" + "\n".join(faults)


def test_the_quote_checker_finds_what_is_wrong():
    english = 'you may still bet after “No more bets!”; "positions" is text such as "4=3"'
    assert quote_faults("nl", english, "je mag nog wedden na “Geen inzetten meer!”; \"positions\" is tekst zoals \"4=3\"") == []
    assert quote_faults("nl", english, "je mag nog wedden na „Geen inzetten meer!”") == [
        "'„' is not a quotation mark of nl (it writes “...”)", "unbalanced “...”"]
    assert quote_faults("es", english, 'puedes apostar tras "¡Se acabaron las apuestas!"') == [
        '"¡Se acabaron las apuestas!" in ASCII quotes is prose, not code: write «...»']
    assert quote_faults("de", english, "„Nichts geht mehr!“") == []
    # English quotes prose with “ ”; ASCII quotes only around code
    assert quote_faults("en", 'default: "Player"', 'default: "Player"') == [
        '"Player" in ASCII quotes is prose, not code: write “...”']
    assert quote_faults("en", 'cards such as "J12"', 'cards such as "J12"') == []
