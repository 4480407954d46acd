"""Issue 6: every catalog has every message, translated, with the same placeholders; the template
is the source's messages, no more and no less."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from babel.messages.pofile import read_po, write_po

from hippodrome.i18n.catalogs import DOMAIN, TEMPLATE_PATH, catalog_path
from hippodrome.i18n.extract import extract_template, extract_html, placeholders
from hippodrome.i18n.languages import LANGUAGES


def read(path, lang=None):
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain=DOMAIN)


def ids(catalog):
    """Each message's msgid (a tuple for a plural), with its context when it has one: "Start" on the
    money table and "Start" on the course are two messages."""
    return {key if entry.context is None else (entry.context, key)
            for entry in catalog if entry.id
            for key in [entry.id if isinstance(entry.id, str) else tuple(entry.id)]}


TEMPLATE = read(TEMPLATE_PATH)


def test_the_template_has_messages():
    assert len(ids(TEMPLATE)) >= 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_exactly_the_template_messages(lang):
    catalog = read(catalog_path(lang), lang)
    template_ids, catalog_ids = ids(TEMPLATE), ids(catalog)
    assert not template_ids - catalog_ids, (
        f"{lang}: messages missing from {catalog_path(lang).name}; run "
        f"`.venv/bin/python -m hippodrome.i18n update`, then translate them")
    assert not catalog_ids - template_ids, f"{lang}: messages no longer in the template; run the update"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    catalog = read(catalog_path(lang), lang)
    problems = []
    for entry in catalog:
        if not entry.id:
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy (review it, then remove the fuzzy flag): {entry.id!r}")
            continue
        if isinstance(entry.id, str):
            pairs = [(entry.id, entry.string)]
        else:
            forms = tuple(entry.string)
            if len(forms) != catalog.num_plurals:
                problems.append(f"{len(forms)} plural forms instead of {catalog.num_plurals}: {entry.id!r}")
            pairs = [(entry.id[1], form) for form in forms]
        for english, text in pairs:
            if not text:
                problems.append(f"untranslated: {english!r}")
                continue
            try:
                found, wanted = placeholders(text), placeholders(english)
            except ValueError as error:
                problems.append(f"broken braces ({error}): {text!r}")
                continue
            if found != wanted:
                problems.append(f"placeholders {sorted(found)} instead of {sorted(wanted)}: {text!r}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


def test_english_catalog_is_the_msgids():
    catalog = read(catalog_path("en"), "en")
    for entry in catalog:
        if entry.id:
            expected = entry.id if isinstance(entry.id, str) else tuple(entry.id)
            got = entry.string if isinstance(entry.string, str) else tuple(entry.string)
            assert got == expected


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_catalog_declares_its_language_and_plural_rule(lang):
    catalog = read(catalog_path(lang), lang)
    header = dict(catalog.mime_headers)
    assert header.get("Language") == lang
    assert "nplurals=2" in header.get("Plural-Forms", "")


def test_template_is_up_to_date_with_the_source():
    extracted = ids(extract_template())
    template = ids(TEMPLATE)
    assert not extracted - template, (
        "messages in the code but not in the template; run `.venv/bin/python -m hippodrome.i18n update`: "
        + repr(sorted(map(str, extracted - template))))
    assert not template - extracted, (
        "messages in the template that the code no longer has; run the update: "
        + repr(sorted(map(str, template - extracted))))


def test_extraction_finds_every_marker(tmp_path):
    (tmp_path / "web").mkdir()
    (tmp_path / "game.py").write_text(
        "from hippodrome.i18n import _, C_, N_, Message, Plural, translate, help_text\n"
        "A = N_('marked constant')\n"
        "B = C_('a column', 'Start')\n"
        "def f(lang, n):\n"
        "    # NOTE: for the translator\n"
        "    _('marked inline {x}', x=1)\n"
        "    Message('a message')\n"
        "    Plural('{n} horse', '{n} horses', n)\n"
        "    translate(lang, 'translated now')\n"
        "    help_text('help of an option')\n"
        "    print('not marked')\n")
    (tmp_path / "web" / "page.js").write_text("el.textContent = t('from the script {who}', {who});\n"
                                              "el.title = tc('a post', 'Start');\n")
    (tmp_path / "web" / "page.html").write_text(
        '<button data-i18n="Place a bet" data-i18n-title="Bets close at the red line">x</button>\n'
        '<button data-i18n-context="a button" data-i18n="Start" data-i18n-title="Start the race">y</button>\n')
    catalog = extract_template(package_dir=tmp_path)
    assert ids(catalog) == {"marked constant", "marked inline {x}", "a message", ("{n} horse", "{n} horses"),
                            "translated now", "help of an option", "from the script {who}", "Place a bet",
                            "Bets close at the red line", ("a column", "Start"), ("a post", "Start"),
                            ("a button", "Start"), ("a button", "Start the race")}
    assert catalog.get("marked inline {x}").auto_comments == ["for the translator"]


def test_html_extractor_reports_lines_and_unescapes():
    import io
    found = list(extract_html(io.BytesIO(b'<p>\n<span data-i18n="Horses &amp; riders"></span>'), {}, [], {}))
    assert found == [(2, None, "Horses & riders", [])]
    # a context on the element applies to its messages, wherever the attribute stands in the tag
    found = list(extract_html(io.BytesIO(b'<button data-i18n="Start"\n data-i18n-context="a button">'), {}, [], {}))
    assert found == [(1, "tc", ["a button", "Start"], [])]


def test_placeholder_parser_sees_conversion_and_spec():
    assert placeholders("{a!r} and {b:>3} and {{literal}}") == {("a", "r", ""), ("b", None, ">3")}
    with pytest.raises(ValueError):
        placeholders("broken {brace")


def test_import_fills_only_empty_entries_and_refuses_broken_placeholders(tmp_path, monkeypatch):
    from hippodrome.i18n import extract
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        shutil.copy(catalog_path(lang), tmp_path / lang / "hippodrome.po")
    monkeypatch.setattr(extract, "catalog_path", lambda lang: tmp_path / lang / "hippodrome.po")
    singular = next(e for e in TEMPLATE if isinstance(e.id, str) and placeholders(e.id)
                    and all(not conversion and not spec for _, conversion, spec in placeholders(e.id)))
    catalog = read(tmp_path / "de" / "hippodrome.po", "de")
    catalog.get(singular.id).string = ""
    with (tmp_path / "de" / "hippodrome.po").open("wb") as file:
        write_po(file, catalog)
    fields = " ".join("{%s}" % name for name, _, _ in sorted(placeholders(singular.id)))
    incoming = tmp_path / "incoming.json"
    incoming.write_text(json.dumps([
        {"msgid": singular.id, "de": f"NEU {fields}", "fr": f"NOUVEAU {fields}", "es": "sin campos"},
        {"msgid": "no such message in the template", "nl": "geen"}]))
    report = extract.import_translations(incoming)
    assert read(tmp_path / "de" / "hippodrome.po", "de").get(singular.id).string == f"NEU {fields}"
    fr = read(tmp_path / "fr" / "hippodrome.po", "fr").get(singular.id).string
    assert fr != f"NOUVEAU {fields}" and any(line.startswith("fr: kept the existing") for line in report)
    assert any(line.startswith("es: placeholders") for line in report)
    assert any(line.startswith("nl: not in the template") for line in report)


def test_import_refuses_what_is_not_a_file_of_translations(tmp_path, capsys):
    """`python -m hippodrome.i18n import` given an option, a missing file or a file that is not a
    list of translations says so and exits 2, changing nothing."""
    from hippodrome.i18n.__main__ import main
    before = {lang: catalog_path(lang).read_bytes() for lang in LANGUAGES}
    broken, odd = tmp_path / "broken.json", tmp_path / "odd.json"
    broken.write_text("{")
    odd.write_text(json.dumps([{"es": "sin msgid"}]))
    assert main(["import", "--help"]) == 2 and "usage:" in capsys.readouterr().err
    for path, words in ((tmp_path / "missing.json", "No such file"), (broken, "Expecting"), (odd, "JSON list")):
        assert main(["import", str(path)]) == 2
        error = capsys.readouterr().err
        assert f"cannot import {path}" in error and words in error, error
    assert {lang: catalog_path(lang).read_bytes() for lang in LANGUAGES} == before


RULE_CODE = re.compile(r"\b[TR]\d{1,2}\b")
#: internal ids a person never reads: a betting space ("win:7:R"), a 0-based seat ("seat 0")
INTERNAL_ID = re.compile(r"\b(?:win|place|show|colour|prop|exotic):[\w/-]+(?::[LMR])?|\bseat 0\b")


def test_players_read_words_never_rule_codes():
    """Messages a person reads carry no rule codes such as "(T6)" or "(R4)": they name the rule in
    words (the codes belong in tests and docs)."""
    with_codes = [str(message.id) for message in TEMPLATE if message.id and RULE_CODE.search(str(message.id))]
    assert not with_codes, with_codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_carry_no_rule_codes_or_internal_ids(lang):
    """No translation brings in a rule code ("(T6)") or an internal id ("win:7:R") the English does
    not have: a person reads words in every language."""
    from tests.i18n.texts import catalog_texts
    found = [f"{where}: {text!r}" for where, english, text in catalog_texts(lang)
             for pattern in (RULE_CODE, INTERNAL_ID) for match in pattern.finditer(text)
             if match.group(0) not in english]
    assert not found, "\n".join(found)


def test_the_rule_code_and_id_checks_can_fail():
    assert RULE_CODE.search("Handicap (T6): at most 8") and INTERNAL_ID.search("Apuesta en win:7:R")
    assert not RULE_CODE.search("Tour 2 : cartes") and not INTERNAL_ID.search("Ganador al caballo 7")
