"""The glossary: the games' words in each language, and the words each language must not use.

One record, docs/glossary/terms.toml (see its header for the fields), read here for two uses:

- ``python -m hippodrome.i18n glossary`` writes docs/glossary/<lang>.md from it;
- ``forbidden_uses(glossary, lang, texts)`` finds the texts (a catalog's translations, a rules
  page's paragraphs) that use a forbidden word for a thing: the Spanish rail as "valla" (the
  book's steeplechase fence), a Dutch course as "baan" (the book's lane), a limit as a handicap's
  number. tests/i18n/test_i18n_glossary.py runs it over every catalog and rules page.

A developer's tool like ``extract``: it reads the repository's docs/, not the installed package.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from hippodrome.i18n.languages import LANGUAGES, NATIVE_NAMES

REPO_DIR = Path(__file__).resolve().parents[3]
GLOSSARY_DIR = REPO_DIR / "docs" / "glossary"
TERMS_FILE = GLOSSARY_DIR / "terms.toml"
GAMES = {"turfmaster": "TurfMaster", "readysetbet": "Ready Set Bet", "both": "Both games and the site"}
SCOPES = ("everywhere", "term")


@dataclass(frozen=True)
class Forbidden:
    """A word ``lang`` must not use for ``term`` (``lang`` "all": no language may)."""

    term: str
    lang: str
    pattern: re.Pattern
    scope: str
    unless: re.Pattern | None
    why: str

    def applies_to(self, lang: str) -> bool:
        return self.lang in (lang, "all")


@dataclass(frozen=True)
class Term:
    id: str
    game: str
    meaning: str
    en_match: re.Pattern
    words: dict          # lang -> {"word", "book", "quote"} or {"word", "why"}
    forbidden: tuple[Forbidden, ...]

    def speaks_of(self, english: str) -> bool:
        return bool(self.en_match.search(english))


@dataclass(frozen=True)
class Glossary:
    books: dict[str, str]
    terms: tuple[Term, ...]

    def term(self, term_id: str) -> Term:
        return next(term for term in self.terms if term.id == term_id)

    def forbidden(self, lang: str) -> Iterator[tuple[Term, Forbidden]]:
        for term in self.terms:
            for rule in term.forbidden:
                if rule.applies_to(lang):
                    yield term, rule


@dataclass(frozen=True)
class Use:
    """A text that uses a forbidden word: where it is, the word found and the rule it breaks."""

    where: str
    text: str
    found: str
    term: str
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.found!r} ({self.term}: {self.why}) in {self.text!r}"


def _pattern(text: str) -> re.Pattern:
    return re.compile(text, re.IGNORECASE)


def load_glossary(path: Path = TERMS_FILE) -> Glossary:
    """The glossary in ``path``; ValueError naming the term when an entry is malformed."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for entry in data["term"]:
        name = entry.get("id", "?")
        missing = [key for key in ("id", "game", "meaning", "en_match") if key not in entry]
        if missing or entry["game"] not in GAMES:
            raise ValueError(f"term {name}: needs id, game (one of {', '.join(GAMES)}), meaning and en_match")  # i18n: developer tool
        forbidden = []
        for rule in entry.get("forbid", []):
            if rule.get("scope") not in SCOPES or not {"lang", "pattern", "why"} <= set(rule):
                raise ValueError(f"term {name}: a forbid needs lang, pattern, why and a scope in {SCOPES}")  # i18n: developer tool
            forbidden.append(Forbidden(name, rule["lang"], _pattern(rule["pattern"]), rule["scope"],
                                       _pattern(rule["unless"]) if "unless" in rule else None, rule["why"]))
        terms.append(Term(name, entry["game"], entry["meaning"], _pattern(entry["en_match"]),
                          {lang: entry[lang] for lang in LANGUAGES if lang in entry}, tuple(forbidden)))
    return Glossary(dict(data.get("books", {})), tuple(terms))


_QUOTED_CODE = re.compile(r"""\S+://\S*|"[^"]*"|(?<![^\W\d_])'[^'\s][^']*'(?![^\W\d_])""")


def _without_quoted_code(text: str) -> str:
    """``text`` without its URLs and ASCII-quoted code ('steeplechase' is a JSON key, not a word)."""
    return _QUOTED_CODE.sub(" ", text)


def forbidden_uses(glossary: Glossary, lang: str, texts: Iterable[tuple[str, str, str]]) -> list[Use]:
    """Every use of a word ``lang`` must not use for its thing, in ``texts``: (where, English,
    text in ``lang``). A rule of scope "term" looks only at texts whose English speaks of the term;
    its ``unless`` spares a text whose English speaks of the other thing the word means."""
    rules = list(glossary.forbidden(lang))
    found = []
    for where, english, text in texts:
        for term, rule in rules:
            if rule.scope == "term" and not term.speaks_of(english):
                continue
            if rule.unless is not None and rule.unless.search(english):
                continue
            match = rule.pattern.search(_without_quoted_code(text))
            if match:
                found.append(Use(where, text, match.group(0), term.id, rule.why))
    return found


# -- the documents --------------------------------------------------------------------------------

def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").replace("**", "").split())


def _source(glossary: Glossary, entry: dict) -> str:
    if "book" in entry:
        return f"{entry['book']}: “{_cell(entry['quote'])}”"
    return _cell(entry["why"])


def render_markdown(glossary: Glossary, lang: str) -> str:
    """docs/glossary/<lang>.md: each thing's word in ``lang``, where it comes from, and the words
    ``lang`` must not use."""
    lines = [f"# Glossary: {NATIVE_NAMES[lang]} ({lang})", "",
             "<!-- Written by `python -m hippodrome.i18n glossary` from terms.toml: edit that file, not this one. -->",
             "",
             "One word per thing, as the rulebooks say it (../../../shared/rules: 000 Spanish, 001 English, "
             "002 French and 004 Dutch TurfMaster, 003 Spanish Ready Set Bet); where no book speaks, the "
             "word chosen and why. The catalogs and the rules pages are checked against the forbidden "
             "words below (tests/i18n/test_i18n_glossary.py).", ""]
    for game, title in GAMES.items():
        terms = [term for term in glossary.terms if term.game == game and lang in term.words]
        if not terms:
            continue
        lines += [f"## {title}", "", "| thing | word | from |", "|---|---|---|"]
        for term in terms:
            entry = term.words[lang]
            lines.append(f"| {_cell(term.meaning)} | **{_cell(entry['word'])}** | {_source(glossary, entry)} |")
        lines.append("")
    rules = list(glossary.forbidden(lang))
    if rules:
        lines += ["## Forbidden for that meaning", "",
                  "| thing | not (a regular expression) | where | why |", "|---|---|---|---|"]
        for term, rule in rules:
            where = "every text" if rule.scope == "everywhere" else f"texts about the {term.id.replace('_', ' ')}"
            if rule.unless is not None:
                where += f", unless the English matches `{_cell(rule.unless.pattern)}`"
            if rule.lang == "all":
                where += " (all languages)"
            lines.append(f"| {term.id.replace('_', ' ')} | `{_cell(rule.pattern.pattern)}` | {where} | "
                         f"{_cell(rule.why)} |")
        lines.append("")
    lines += ["## The books", ""]
    lines += [f"- {number}: {_cell(name)}" for number, name in glossary.books.items()]
    return "\n".join(lines) + "\n"


def glossary_path(lang: str) -> Path:
    return GLOSSARY_DIR / f"{lang}.md"


def write_glossaries(glossary: Glossary | None = None) -> list[str]:
    """Write docs/glossary/<lang>.md for every language; returns what was written."""
    glossary = glossary or load_glossary()
    report = []
    for lang in LANGUAGES:
        path = glossary_path(lang)
        path.write_text(render_markdown(glossary, lang), encoding="utf-8")
        report.append(f"{path.relative_to(REPO_DIR)}: {sum(lang in t.words for t in glossary.terms)} terms")
    return report
