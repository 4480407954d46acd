"""The rules pages' texts (web/rules/<page>.<lang>.json): every language has every section, diagram
and label of the English, each written in its own language, with words only (no rule codes, no
ids), and every ruling's anchor is a section of the page."""

import re

import pytest

from hippodrome.core.registry import descriptions
from hippodrome.i18n import LANGUAGES
from tests.i18n.texts import rules_content, strings

PAGES = {d.rules.name: d.rules for d in descriptions() if d.rules is not None}
RULE_CODE = re.compile(r"\b[TR]\d{1,2}\b|\(\s*[TR]\d")
#: ids a player must never see: a board space ("win:7:R"), a joker card ("J12"), a 0-based lane
IDS = re.compile(r"\b(win|place|show|colour|prop|exotic):|\bJ(9|1[0-2])\b|\blane 0\b")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def texts(page: str, lang: str) -> dict:
    return rules_content(page, lang)


def shape(content: dict) -> list:
    """What must be the same in every language: sections, their parts and diagrams, the labels'
    keys and placeholders."""
    return [[(s["id"], len(s.get("paragraphs", [])), len(s.get("items", [])),
              [d["name"] for d in s.get("diagrams", [])]) for s in content["sections"]],
            {key: sorted(PLACEHOLDER.findall(text)) for key, text in content["labels"].items()}]


def test_there_are_rules_pages():
    assert set(PAGES) == {"turfmaster", "readysetbet"}


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_section_diagram_and_label(page, lang):
    assert shape(texts(page, lang)) == shape(texts(page, "en"))
    for where, text in strings(texts(page, lang)):
        assert isinstance(text, str) and text.strip(), f"{page}.{lang} {where} is empty"


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_text_is_left_in_english(page, lang):
    english = dict(strings(texts(page, "en")))
    for where, text in strings(texts(page, lang)):
        words = re.findall(r"[^\W\d_]{2,}", PLACEHOLDER.sub("", text))
        # a text of no words ("{horse}: {rank}") is the same in every language
        assert not words or text != english[where], f"{page}.{lang} {where} is the English text: {text!r}"


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_words_only_no_rule_codes_or_ids(page, lang):
    for where, text in strings(texts(page, lang)):
        assert not RULE_CODE.search(text), f"{page}.{lang} {where} shows a rule code: {text!r}"
        assert not IDS.search(text), f"{page}.{lang} {where} shows an id: {text!r}"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_ruling_has_its_paragraph_and_every_diagram_is_drawn(page):
    rules = PAGES[page]
    content = texts(page, "en")
    ids = [section["id"] for section in content["sections"]]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][a-z-]*", i) for i in ids)
    anchors = rules.anchor_map()
    prefix = "T" if page == "turfmaster" else "R"
    # every ruling of docs/rulings.md (T1..T13, R1..R9) points at a paragraph
    assert set(anchors) == {f"{prefix}{n}" for n in range(1, 14 if prefix == "T" else 10)}
    assert set(anchors.values()) <= set(ids)
    named = [d["name"] for s in content["sections"] for d in s.get("diagrams", [])]
    assert sorted(named) == sorted(rules.data()["diagrams"])

