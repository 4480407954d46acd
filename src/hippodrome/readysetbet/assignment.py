"""The best way to spread a few bet tokens over the open spaces: an exact assignment.

``values[t][s]`` is what token ``t`` is worth on space ``s`` (None where it may not go). Each
token goes on at most one space and each space takes at most one token; only pairs worth more
than nothing are used. The answer maximises the total worth.

It is exact and small: an optimal assignment puts every token on one of *its own* ``n`` best
spaces (``n`` tokens): if token t sat elsewhere, the other ``n - 1`` tokens cover at most
``n - 1`` of t's ``n`` best spaces, so one of them is free and worth at least as much to t.
So only the union of each token's ``n`` best spaces is searched, by dynamic programming over
the set of tokens already placed (at most 2^n states, n is 5 to 8 tokens).

>>> best_assignment([[5.0, 4.0], [3.0, 1.0]])   # the big token on space 1, the small on space 0
[(1, 0), (0, 1)]
"""

from __future__ import annotations

from typing import Sequence


def best_assignment(values: Sequence[Sequence[float | None]]) -> list[tuple[int, int]]:
    """(token, space) pairs of a maximum-worth assignment, in the order of the spaces."""
    tokens = len(values)
    candidates: set[int] = set()
    for row in values:
        ranked = sorted(((v, s) for s, v in enumerate(row) if v is not None and v > 0), reverse=True)
        candidates.update(s for _, s in ranked[:tokens])
    best: dict[int, tuple[float, tuple[tuple[int, int], ...]]] = {0: (0.0, ())}
    for space in sorted(candidates):
        grown = dict(best)
        for used, (total, pairs) in best.items():
            for token in range(tokens):
                worth = values[token][space]
                if used >> token & 1 or worth is None or worth <= 0:
                    continue
                key = used | 1 << token
                if key not in grown or grown[key][0] < total + worth:
                    grown[key] = (total + worth, pairs + ((token, space),))
        best = grown
    return list(max(best.values(), key=lambda entry: entry[0])[1])
