"""Keeping the catalogs in step with the code: extraction, update, and the web pages' extractor.

``python -m hippodrome.i18n update`` runs Babel's extractor over src/hippodrome with the mapping
in babel.cfg and the keywords below, rewrites locale/messages.pot, merges it into the five .po
files (new messages empty, vanished ones dropped, near matches marked fuzzy for review) and fills
the English catalog, whose text is always the msgid. ``python -m hippodrome.i18n check`` lists
what is left to translate; the test suite checks the same.
"""

from __future__ import annotations

import copy
import json
import html
import re
from pathlib import Path
from typing import IO, Any, Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from hippodrome.i18n.catalogs import DOMAIN, TEMPLATE_PATH, catalog_path, placeholders, reload_catalogs
from hippodrome.i18n.languages import LANGUAGES

PACKAGE_DIR = Path(__file__).resolve().parent.parent          # src/hippodrome
REPO_DIR = PACKAGE_DIR.parent.parent
MAPPING_FILE = REPO_DIR / "babel.cfg"

#: The marker functions, as Babel keyword specs (pybabel: -k N_ -k Message -k Plural:1,2 ...).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "Message": None,
    "Plural": (1, 2),
    "translate": (2,),
    "help_text": None,
    "C_": ((1, "c"), 2),    # C_("context", "msgid", **params): one English word, two meanings
    "t": None,              # the web pages' JavaScript: t("msgid", {params})
    "tn": (1, 2),           # the web pages' JavaScript: tn("{n} point", "{n} points", n, {params})
    "tc": ((1, "c"), 2),    # the web pages' JavaScript: tc("context", "msgid", {params})
}
COMMENT_TAGS = ("NOTE:",)
_HEADER = dict(project="hippodrome", version="0.1", copyright_holder="the hippodrome authors",
               msgid_bugs_address="the hippodrome issue tracker")


def extract_template(package_dir: Path = PACKAGE_DIR, mapping_file: Path = MAPPING_FILE) -> Catalog:
    """A fresh template catalog of every marked message under ``package_dir``."""
    with mapping_file.open() as file:
        method_map, options_map = parse_mapping_cfg(file, str(mapping_file))
    template = Catalog(domain=DOMAIN, fuzzy=False, **_HEADER)
    for filename, lineno, message, comments, context in extract_from_dir(
            package_dir, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
            strip_comment_tags=True):
        path = package_dir / filename
        path = path.relative_to(REPO_DIR).as_posix() if path.is_relative_to(REPO_DIR) else filename
        template.add(message, None, [(path, None)], auto_comments=comments, context=context)
    return template


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain=DOMAIN)


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, sort_output=True, ignore_obsolete=True, include_lineno=False)


def update_catalogs() -> list[str]:
    """Extract, rewrite the template, merge it into every language; returns what was done."""
    template = extract_template()
    _write(TEMPLATE_PATH, template)
    report = [f"{TEMPLATE_PATH.relative_to(REPO_DIR)}: {len(template)} messages"]
    for lang in LANGUAGES:
        path = catalog_path(lang)
        if path.exists():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, fuzzy=False, **_HEADER)
        catalog.update(copy.deepcopy(template))
        if lang == "en":
            for entry in catalog:
                if entry.id:
                    entry.string = tuple(entry.id) if isinstance(entry.id, (list, tuple)) else entry.id
                    entry.flags.discard("fuzzy")
        _write(path, catalog)
        report.append(f"{path.relative_to(REPO_DIR)}: {len(missing_translations(lang))} to translate")
    reload_catalogs()
    return report


def missing_translations(lang: str) -> list[str]:
    """Messages of the template that ``lang`` lacks, leaves empty, or marks fuzzy (a message with a
    context is named with it: "Start (context: ...)")."""
    template = _read(TEMPLATE_PATH)
    catalog = _read(catalog_path(lang), lang)
    missing = []
    for entry in template:
        if not entry.id:
            continue
        found = catalog.get(entry.id, context=entry.context)
        strings = found.string if found is not None else None
        if isinstance(strings, str):
            strings = (strings,)
        if found is None or found.fuzzy or not strings or not all(strings):
            msgid = entry.id[0] if isinstance(entry.id, (list, tuple)) else entry.id
            missing.append(msgid if entry.context is None else f"{msgid} (context: {entry.context})")
    return missing


_HTML_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_HTML_ATTRIBUTE = re.compile(r'data-i18n(-[a-z-]+)?\s*=\s*"([^"]*)"')
_CONTEXT_ATTRIBUTE = "-context"


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict) -> Iterator[tuple]:
    """Babel extractor for the static pages: every ``data-i18n="msgid"`` attribute (the text of the
    element) and ``data-i18n-<attribute>="msgid"`` (e.g. data-i18n-title, data-i18n-placeholder).
    An element's ``data-i18n-context="..."`` gives its messages a context (as ``tc()`` does)."""
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for tag in _HTML_TAG.finditer(text):
        found = [(match.group(1) or "", html.unescape(match.group(2)), tag.start() + match.start())
                 for match in _HTML_ATTRIBUTE.finditer(tag.group(0))]
        context = next((value for kind, value, _ in found if kind == _CONTEXT_ATTRIBUTE), None)
        for kind, msgid, start in found:
            if kind == _CONTEXT_ATTRIBUTE:
                continue
            lineno = text.count("\n", 0, start) + 1
            if context is None:
                yield lineno, None, msgid, []
            else:
                yield lineno, "tc", [context, msgid], []


def _forms(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def import_translations(path: Path) -> list[str]:
    """Fill empty or fuzzy entries of the catalogs from a JSON list of translations.

    Each item is ``{"msgid": ..., ["msgid_plural": ...,] ["context": ...,] "es": text or [forms],
    "fr": ...}``; the msgid (in its context) must already be in the template (run ``update`` first). An existing, reviewed translation
    is kept; a translation whose placeholders differ from the msgid's is refused. Returns a report,
    one line per problem, and a summary line per language.
    """
    items = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(items, list) or not all(isinstance(item, dict) and isinstance(item.get("msgid"), str)
                                              for item in items):
        raise ValueError('the file must hold a JSON list of {"msgid": ..., "es": ..., ...} objects')  # i18n: developer tool
    report: list[str] = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        catalog = _read(catalog_path(lang), lang)
        filled = 0
        for item in items:
            if lang not in item:
                continue
            msgid = item["msgid"]
            entry = catalog.get(msgid, context=item.get("context"))
            if entry is None:
                report.append(f"{lang}: not in the template (run update first): {msgid!r}")
                continue
            forms = _forms(item[lang])
            english = _forms(entry.id)
            wanted = placeholders(english[-1])
            if any(placeholders(form) != wanted for form in forms) or len(forms) != len(english):
                report.append(f"{lang}: placeholders or plural forms differ from the msgid: {forms!r}")
                continue
            current = _forms(entry.string) if entry.string else ()
            if current and all(current) and not entry.fuzzy:
                if current != forms:
                    report.append(f"{lang}: kept the existing translation of {msgid!r}: {current!r}")
                continue
            entry.string = forms if isinstance(entry.id, (list, tuple)) else forms[0]
            entry.flags.discard("fuzzy")
            filled += 1
        _write(catalog_path(lang), catalog)
        report.append(f"{lang}: {filled} filled from {path.name}")
    reload_catalogs()
    return report
