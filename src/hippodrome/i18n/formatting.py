"""Numbers, money, percentages and ordinals as each language writes them (Babel / CLDR data).

Ready Set Bet's money is dollars. Every language shows the plain "$" sign where that
language puts its currency sign, and whole amounts without cents, the way the game's
money tokens and the Spanish rulebook ("45$", "18$") write them:

>>> [format_money(1250, lang) for lang in ("en", "es", "fr", "nl", "de")]
['$1,250', '1.250\\xa0$', '1\\u202f250\\xa0$', '$\\xa01.250', '1.250\\xa0$']

Babel's own symbol for
US dollars is "US$" in Spanish and Dutch and "$US" in French: right for a bank statement,
needlessly foreign at a game table where there is no other currency.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from babel import Locale
from babel.numbers import format_currency, format_decimal, get_currency_symbol
from babel.numbers import format_percent as _babel_format_percent

CURRENCY = "USD"
MONEY_SIGN = "$"


@lru_cache(maxsize=None)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=4096, typed=True)
def format_number(value: float | int, lang: str) -> str:
    """A number with the language's decimal and grouping signs: 12345.5 -> "12.345,5" (de). Kept
    for the next time (a view's notes show the same few numbers over and over)."""
    return format_decimal(value, locale=_locale(lang))


def format_money(amount: float | int, lang: str) -> str:
    """Dollars the way players of ``lang`` write them: "$45" (en), "45 $" (es, fr, de), "$ 45" (nl).

    Whole amounts have no cents; other amounts (averages, expected winnings) have two decimals.
    A negative amount (a loss) keeps the language's minus sign placement: "-$3", "-3 $", "$ -3".
    """
    locale = _locale(lang)
    pattern = locale.currency_formats["standard"].pattern
    if amount == int(amount):
        pattern = pattern.replace("0.00", "0")
    text = format_currency(amount, CURRENCY, format=pattern, locale=locale, currency_digits=False)
    return text.replace(get_currency_symbol(CURRENCY, locale), MONEY_SIGN)


def format_percent(fraction: float, lang: str, decimals: int = 0) -> str:
    """A share of 1 as a percentage: 0.253 -> "25%" (en), "25 %" (de, fr, es), "25%" (nl)."""
    locale = _locale(lang)
    pattern = locale.percent_formats[None].pattern
    if decimals:
        pattern = pattern.replace("0%", "0." + "0" * decimals + "%").replace("0\xa0%", "0." + "0" * decimals + "\xa0%")
    return _babel_format_percent(fraction, format=pattern, locale=locale)


def format_ordinal(n: int, lang: str) -> str:
    """A place as a number: 1st, 2nd (en); 1.º, 2.º (es); 1er, 2e (fr); 1e, 2e (nl); 1., 2. (de)."""
    if lang == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    if lang == "es":
        return f"{n}.º"
    if lang == "fr":
        return "1er" if n == 1 else f"{n}e"
    if lang == "nl":
        return f"{n}e"
    if lang == "de":
        return f"{n}."
    raise ValueError(f"no ordinal rule for language {lang!r}")  # i18n: programming error


@dataclass(frozen=True)
class Money:
    """A lazy amount of money for a Message parameter: ``Message("You win {amount}", amount=Money(45))``."""

    amount: float | int

    def translate(self, lang: str) -> str:
        return format_money(self.amount, lang)

    def to_json(self) -> dict:
        return {"money": self.amount}


@dataclass(frozen=True)
class Percent:
    """A lazy percentage for a Message parameter (``fraction`` is a share of 1)."""

    fraction: float
    decimals: int = 0

    def translate(self, lang: str) -> str:
        return format_percent(self.fraction, lang, self.decimals)

    def to_json(self) -> dict:
        return {"percent": self.fraction, "decimals": self.decimals}


@dataclass(frozen=True)
class Ordinal:
    """A lazy place number for a Message parameter: ``Ordinal(2)`` is "2nd", "2.º", "2e", "2."."""

    n: int

    def translate(self, lang: str) -> str:
        return format_ordinal(self.n, lang)

    def to_json(self) -> dict:
        return {"ordinal": self.n}
