"""Lines the terminal wraps never break at a no-break space.

Rich (15.0) finds where to wrap a line with ``rich._wrap.re_word`` (``\\s*\\S+\\s*``), and ``\\s``
takes in the no-break spaces (U+00A0, U+202F): Rich breaks lines there (Textualize/rich#4196, open).
French puts one before ``:`` ``;`` ``!`` ``?`` and inside « », so a wrapped French line could
begin with ":" or ";" ("lettres\\n: chevaux"). :func:`keep_no_break_spaces` gives Rich a word
pattern in which a no-break space joins the words either side, as Unicode's line breaking rules
say. It runs when the ``hippodrome.cli`` package is imported; when a later Rich has no such
pattern, or another one, it changes nothing (tests/cli/test_rich_wrap.py tells).
"""

from __future__ import annotations

import re

#: the word pattern Rich 15.0 wraps by, as its source writes it
RICH_WORD = r"\s*\S+\s*"
#: the same, a no-break space (U+00A0, U+202F) counting as a letter of the word it stands in
WORD_KEEPING_NO_BREAK_SPACES = r"[^\S\u00a0\u202f]*[\S\u00a0\u202f]+[^\S\u00a0\u202f]*"


def keep_no_break_spaces() -> bool:
    """Have Rich wrap lines at breaking spaces only; True when its pattern is ours (now or already)."""
    try:
        from rich import _wrap
    except ImportError:   # a Rich without the module: its wrapping is its own
        return False
    pattern = getattr(_wrap, "re_word", None)
    if not isinstance(pattern, re.Pattern):
        return False
    if pattern.pattern == RICH_WORD:
        _wrap.re_word = re.compile(WORD_KEEPING_NO_BREAK_SPACES)
    return _wrap.re_word.pattern == WORD_KEEPING_NO_BREAK_SPACES
