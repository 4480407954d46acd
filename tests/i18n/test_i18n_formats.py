"""Issue 6: numbers and money written the way each language writes them."""

from __future__ import annotations

import pytest

from hippodrome.i18n import (
    LANGUAGES, Message, Money, Ordinal, Percent, format_money, format_number, format_ordinal, format_percent,
)

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.mark.parametrize("lang, text", [
    ("en", "$45"), ("es", f"45{NBSP}$"), ("fr", f"45{NBSP}$"), ("nl", f"${NBSP}45"), ("de", f"45{NBSP}$"),
])
def test_money_whole_dollars(lang, text):
    assert format_money(45, lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "$1,250"), ("es", f"1.250{NBSP}$"), ("fr", f"1{NNBSP}250{NBSP}$"), ("nl", f"${NBSP}1.250"),
    ("de", f"1.250{NBSP}$"),
])
def test_money_grouping(lang, text):
    assert format_money(1250, lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "$2.50"), ("es", f"2,50{NBSP}$"), ("fr", f"2,50{NBSP}$"), ("nl", f"${NBSP}2,50"), ("de", f"2,50{NBSP}$"),
])
def test_money_with_cents(lang, text):
    assert format_money(2.5, lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "-$3"), ("es", f"-3{NBSP}$"), ("nl", f"${NBSP}-3"), ("de", f"-3{NBSP}$"),
])
def test_money_losses(lang, text):
    assert format_money(-3, lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "12,345.5"), ("es", "12.345,5"), ("fr", f"12{NNBSP}345,5"), ("nl", "12.345,5"), ("de", "12.345,5"),
])
def test_numbers(lang, text):
    assert format_number(12345.5, lang) == text


@pytest.mark.parametrize("lang, whole, one_decimal", [
    ("en", "25%", "25.3%"), ("es", f"25{NBSP}%", f"25,3{NBSP}%"), ("fr", f"25{NBSP}%", f"25,3{NBSP}%"),
    ("nl", "25%", "25,3%"), ("de", f"25{NBSP}%", f"25,3{NBSP}%"),
])
def test_percent(lang, whole, one_decimal):
    assert format_percent(0.253, lang) == whole
    assert format_percent(0.253, lang, decimals=1) == one_decimal


@pytest.mark.parametrize("lang, places", [
    ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"]),
    ("es", ["1.º", "2.º", "3.º", "4.º", "11.º", "12.º", "13.º", "21.º", "22.º", "111.º"]),
    ("fr", ["1er", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "111e"]),
    ("nl", ["1e", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "111e"]),
    ("de", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "111."]),
])
def test_ordinals(lang, places):
    assert [format_ordinal(n, lang) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == places


def test_every_language_has_every_format():
    for lang in LANGUAGES:
        assert format_money(7, lang) and format_number(7, lang) and format_percent(0.5, lang)
        assert format_ordinal(1, lang)


def test_lazy_values_in_messages_follow_the_message_language():
    message = Message("Rolled {total}", total=Money(1250))
    assert message.translate("en") == "Rolled $1,250"
    assert message.translate("de") == f"1.250{NBSP}$ gewürfelt"
    assert Message("Rolled {total}", total=Percent(0.5)).translate("fr") == f"Les dés font 50{NBSP}%"
    assert Message("Rolled {total}", total=Ordinal(2)).translate("es") == "Sale un 2.º"


def test_plain_numbers_in_messages_are_localized():
    assert Message("Rolled {total}", total=12345).translate("de") == "12.345 gewürfelt"
    assert Message("Rolled {total}", total=2.5).translate("fr") == "Les dés font 2,5"
    assert Message("Rolled {total}", total="12345").translate("de") == "12345 gewürfelt"   # ids stay as they are
