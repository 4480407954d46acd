"""Every text a person reads, with its English, for the tests that check words and typography:
the catalogs' translations (catalog_texts) and the rules pages' texts (rules_texts, strings).

A text is (where, english, text): where names it for a failure, english is its English source
(the msgid and, if any, its context in brackets; the rules page's English text at the same place).
"""

from __future__ import annotations

import json
import re
from typing import Iterator

from babel.messages.pofile import read_po

from hippodrome.i18n.catalogs import DOMAIN, catalog_path
from hippodrome.server.localize import WEB_DIR

RULES_PAGES = ("turfmaster", "readysetbet")


def catalog_entries(lang: str):
    with catalog_path(lang).open("rb") as file:
        catalog = read_po(file, locale=lang, domain=DOMAIN)
    return [entry for entry in catalog if entry.id]


def catalog_texts(lang: str) -> Iterator[tuple[str, str, str]]:
    """Each translation of ``lang``'s catalog (each plural form apart)."""
    for entry in catalog_entries(lang):
        ids = [entry.id] if isinstance(entry.id, str) else list(entry.id)
        forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        english = " / ".join(ids) + (f" [{entry.context}]" if entry.context else "")
        for form in forms:
            yield f"{lang} catalog: {english!r}", english, form


def rules_content(page: str, lang: str) -> dict:
    return json.loads((WEB_DIR / "rules" / f"{page}.{lang}.json").read_text(encoding="utf-8"))


def strings(content: dict) -> Iterator[tuple[str, str]]:
    """(where, text) for every text a reader sees on a rules page."""
    yield "title", content["title"]
    yield "intro", content["intro"]
    for section in content["sections"]:
        yield f"{section['id']}.title", section["title"]
        for n, text in enumerate(section.get("paragraphs", [])):
            yield f"{section['id']}.paragraph {n + 1}", text
        for n, text in enumerate(section.get("items", [])):
            yield f"{section['id']}.item {n + 1}", text
        for diagram in section.get("diagrams", []):
            yield f"{section['id']}.{diagram['name']}.caption", diagram["caption"]
    for key, text in content["labels"].items():
        yield f"label {key}", text


def rules_texts(lang: str) -> Iterator[tuple[str, str, str]]:
    """Each text of the rules pages in ``lang``, with the English text at the same place."""
    for page in RULES_PAGES:
        english = dict(strings(rules_content(page, "en")))
        for where, text in strings(rules_content(page, lang)):
            yield f"{page}.{lang}.json {where}", english[where], text


def all_texts(lang: str) -> list[tuple[str, str, str]]:
    return list(catalog_texts(lang)) + list(rules_texts(lang))


# -- typography ------------------------------------------------------------------------------------

NBSP, NNBSP = "\u00a0", "\u202f"
_LETTER = r"[^\W\d_]"
#: stretches of code in a text, not prose: URLs, host:port and SEED:i, JSON examples ({{...}}),
#: ASCII-quoted code ("4=3", 'course': a quote that is no apostrophe; with a colon right after it,
#: a JSON key), rich markup ([blue]...[/]), command-line options
_CODE = re.compile(r"\S+://\S*|\w+:\w[\w/]*|\{\{.*?\}\}|\"[^\"]*\":?|(?<!" + _LETTER + r")'[^'\s][^']*'(?!" + _LETTER
                   + r"):?|\[/?\w*\]|--[\w-]+")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def prose(text: str) -> str:
    """``text`` without its code stretches, each left as the word CODE."""
    return _CODE.sub(" CODE ", text)


_FRENCH_SPACES = NBSP + NNBSP


def french_typography_faults(text: str) -> list[str]:
    """What breaks French typography in ``text``: a plain space or no space before : ; ! ?, « »
    without a no-break space inside, a straight apostrophe between letters (French writes ’)."""
    faults = []
    words = _PLACEHOLDER.sub("X", prose(text))
    for match in re.finditer("[:;!?]+", words):
        before = words[match.start() - 1] if match.start() else ""
        if before == " ":
            faults.append(f"a plain space before {match.group(0)!r}")
        elif before and not before.isspace():
            faults.append(f"no no-break space before {match.group(0)!r}")
    for match in re.finditer("«", text):
        if text[match.end():match.end() + 1] not in _FRENCH_SPACES:
            faults.append("no no-break space after «")
    for match in re.finditer("»", text):
        if match.start() == 0 or text[match.start() - 1] not in _FRENCH_SPACES:
            faults.append("no no-break space before »")
    if re.search(_LETTER + r"'(?:" + _LETTER + r"|\{)", prose(text)):
        faults.append("a straight apostrophe (French writes ’)")
    return faults


#: the quotation marks each language writes in prose (ASCII quotes are kept for code only)
QUOTES = {"en": ("“", "”"), "es": ("«", "»"), "fr": ("«", "»"), "nl": ("“", "”"), "de": ("„", "“")}
_ALL_QUOTES = "«»“”„‘‚‹›"


def quote_faults(lang: str, english: str, text: str) -> list[str]:
    """Quotation marks in ``text`` that are not ``lang``'s own, and ASCII-quoted stretches that
    are not code kept from the English ("4=3" in an error about a setup's syntax is code; in
    English, words with a space or a capitalised word in ASCII quotes are prose)."""
    opening, closing = QUOTES[lang]
    faults = [f"{mark!r} is not a quotation mark of {lang} (it writes {opening}...{closing})"
              for mark in sorted(set(text) & set(_ALL_QUOTES) - {opening, closing})]
    if text.count(opening) != text.count(closing) and opening != closing:
        faults.append(f"unbalanced {opening}...{closing}")
    for quoted in re.findall(r'"([^"]*)"', re.sub(r"\{\{.*?\}\}", "", text)):
        prose_in_english = lang == "en" and (re.search(r"\s", quoted) or re.fullmatch(r"[A-Z][a-z]+", quoted))
        if prose_in_english or f'"{quoted}"' not in english:
            faults.append(f'"{quoted}" in ASCII quotes is prose, not code: write {opening}...{closing}')
    return faults
