"""Issue 39: one word per thing, the rulebooks' own. docs/glossary/terms.toml names each thing's
word in each language with the rulebook line it comes from (or, where no book speaks, the word
chosen and why), and the words a language must not use for it; the catalogs and the rules pages
use none of them. docs/glossary/<lang>.md are written from the same file."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hippodrome.i18n import LANGUAGES
from hippodrome.i18n.glossary import (
    GAMES, TERMS_FILE, forbidden_uses, glossary_path, load_glossary, render_markdown,
)
from tests.i18n.texts import all_texts

GLOSSARY = load_glossary()
BOOK_LANGUAGES = {"000": "es", "001": "en", "002": "fr", "003": "es", "004": "nl"}


def rulebooks_dir() -> Path | None:
    """../shared/rules (the project's specification, beside the checkout), when it is at hand."""
    if os.environ.get("HIPPODROME_RULES_DIR"):
        return Path(os.environ["HIPPODROME_RULES_DIR"])
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "rules"
        if candidate.is_dir():
            return candidate
    return None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_pages_are_written_from_the_terms(lang):
    assert glossary_path(lang).read_text(encoding="utf-8") == render_markdown(GLOSSARY, lang), (
        f"{glossary_path(lang).name} differs from {TERMS_FILE.name}: run `python -m hippodrome.i18n glossary`")


def test_every_term_has_every_language_and_says_where_its_word_comes_from():
    assert len(GLOSSARY.terms) >= 30
    ids = [term.id for term in GLOSSARY.terms]
    assert len(ids) == len(set(ids))
    for term in GLOSSARY.terms:
        assert set(term.words) == set(LANGUAGES), term.id
        assert term.game in GAMES
        for lang, entry in term.words.items():
            assert entry.get("word"), (term.id, lang)
            if "book" in entry:
                assert BOOK_LANGUAGES[entry["book"]] == lang and entry.get("quote"), (term.id, lang, entry)
            else:
                assert len(entry.get("why", "")) > 10, (term.id, lang, "no book and no reason")
    # German has no rulebook here: every German word says why it was chosen
    assert all("book" not in term.words["de"] for term in GLOSSARY.terms)
    for term, rule in (pair for lang in LANGUAGES for pair in GLOSSARY.forbidden(lang)):
        assert rule.lang in (*LANGUAGES, "all") and rule.why, (term.id, rule)


def test_the_quotes_are_the_books_own_words():
    books = rulebooks_dir()
    if books is None:
        pytest.skip("the rulebooks (../shared/rules) are not beside this checkout")
    normal = lambda text: " ".join(text.replace("*", "").split())
    texts = {number: normal(next(books.glob(f"{number}_*.txt")).read_text(encoding="utf-8")) for number in GLOSSARY.books}
    for term in GLOSSARY.terms:
        for lang, entry in term.words.items():
            if "book" in entry:
                assert normal(entry["quote"]) in texts[entry["book"]], (term.id, lang, entry["quote"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_or_rules_page_uses_a_forbidden_word(lang):
    uses = forbidden_uses(GLOSSARY, lang, all_texts(lang))
    assert not uses, f"{len(uses)} forbidden words (docs/glossary/{lang}.md):\n" + "\n".join(map(str, uses))


def uses(lang, english, text):
    return [use.term for use in forbidden_uses(GLOSSARY, lang, [("test", english, text)])]


def test_a_forbidden_word_is_caught_and_only_for_its_meaning():
    # the rail as the steeplechase's "valla" is caught; the fence itself stays "valla"
    assert uses("es", "Hug the rail", "Pegado a la valla interior") == ["inner_lane"]
    assert uses("es", "In this step, keep Red in the inner lane.", "Mantén a Rojo junto a la valla.") == ["inner_lane"]
    assert uses("es", "{horse} falls at the fence", "{horse} se cae en la valla") == []
    assert uses("es", "Hug the rail", "Por el carril interior") == []
    # the course as the Dutch book's lane, "baan"; a German course as a bare "Bahn" (a lane is one)
    assert uses("nl", "The course", "De baan") == ["course"]
    assert uses("nl", "The course", "De renbaan") == []
    assert uses("de", "The course: arrow keys move it", "Die Bahn: Pfeiltasten") == ["course"]
    assert uses("de", "Lane {lane}, square {square}", "Bahn {lane}, Feld {square}") == []
    # the limit as a handicap number: no handicap is 8, and {limit} is no handicap's number
    assert uses("es", "Yellow may move at most 8 squares.", "Amarillo tiene hándicap 8.") == ["handicap"]
    assert uses("fr", "Brown, who may move at most 8 squares", "Brun, handicapé à 8") == ["handicap"]
    assert uses("es", "above {horse}'s limit of {limit}", "supera el hándicap de {horse}, {limit}") == ["handicap"]
    assert uses("es", "handicap {handicap}: at most {limit} squares", "hándicap {handicap}: máximo {limit} casillas") == []
    assert uses("fr", "{handicap} (at most {limit})", "{handicap} ({limit} au maximum)") == []
    assert uses("nl", "Black (limit 9)", "Zwart (handicap 9)") == []   # a real handicap number passes
    assert set(uses("en", "", "White, handicapped to 8, moves one die")) == {"handicap"}
    # one English word, three meanings: the money before the first race is no start line
    assert uses("es", "Start [money before the first race]", "Salida") == ["start"]
    assert uses("es", "Start [the start line's post on the course]", "Salida") == []
    # "nummer 2" reads as horse number 2; "off the pace" is not the rhythm
    assert uses("nl", "2nd loses by exactly 1", "nummer 2 verliest met precies 1") == ["placed_second_third"]
    assert uses("fr", "{n} space off the pace", "à {n} case du rythme") == ["off_the_pace"]
    # a meeting is the book's "partida"; a word quoted as code is not a word
    assert uses("es", "The meeting", "La jornada") == ["meeting"]
    assert uses("nl", "'steeplechase' must be true or false", "'steeplechase' moet true of false zijn") == []


def test_a_malformed_glossary_is_refused(tmp_path):
    broken = tmp_path / "terms.toml"
    broken.write_text('[[term]]\nid = "x"\ngame = "chess"\nmeaning = "m"\nen_match = "x"\n')
    with pytest.raises(ValueError, match="term x"):
        load_glossary(broken)
    broken.write_text('[[term]]\nid = "x"\ngame = "both"\nmeaning = "m"\nen_match = "x"\n'
                      '[[term.forbid]]\nlang = "es"\npattern = "y"\nwhy = "z"\nscope = "sometimes"\n')
    with pytest.raises(ValueError, match="scope"):
        load_glossary(broken)


def test_the_catalogs_say_the_glossary_s_words():
    """The games' terms in the catalogs (i18n/vocabulary.py's and the names people choose) are the
    glossary's words: "lane", "fence", "finish line", the bot levels, the variants..."""
    from hippodrome.i18n import translate
    pairs = {"lane": "lane", "fence": "fence", "finish_line": "finish line", "stall": "starting stall",
             "card_round": "round of cards", "dice_round": "round of dice", "bonus_cards": "bonus cards",
             "steeplechase": "steeplechase", "square": "square", "owner": "owner", "meeting": "meeting",
             "course": "racetrack", "betting_board": "betting board", "prop_bets": "prop bets",
             "exotic_finish": "exotic finish", "vip_cards": "VIP cards", "red_line": "red line", "house": "House",
             "bank": "bank", "movement_bonus": "movement bonus", "bonus_token": "Bonus Token",
             "bot_random": "Random bot", "bot_tactical": "Tactical bot", "bot_search": "Search bot",
             "bot_value": "Value bettor", "bot_board": "Board player", "variant_standard": "Standard",
             "variant_house_bets": "House bets", "variant_rotating_house": "Rotating House",
             "no_more_bets": "No more bets!", "theyre_off": "They're off!"}
    def says(translated: str, word: str) -> bool:
        # each word of the glossary's (its stem: "apuesta paralela" in "apuestas paralelas")
        found = re.findall(r"[\w’'-]+", translated.lower())
        return all(any(token.startswith(part if len(part) <= 3 else part[:-1]) for token in found)
                   for part in re.findall(r"[\w’'-]+", word.lower()))

    for term_id, msgid in pairs.items():
        for lang in LANGUAGES:
            words = GLOSSARY.term(term_id).words[lang]["word"].split(" / ")
            translated = translate(lang, msgid)
            assert any(says(translated, word) for word in words), (term_id, lang, translated, words)
