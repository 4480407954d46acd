"""Seeded random matches boiled down to digests of their logs and views, to pin the engine's behaviour
(T1-T13) while its insides change for speed.

``python tests/turfmaster/same_play.py > tests/turfmaster/fixtures/same_play.json`` writes the
digests of the code on sys.path; run it with ``PYTHONPATH`` set to an older tree (``git archive``)
to record that tree's behaviour. ``test_same_play.py`` recomputes them with the code under test.

Each match plays random legal options through :class:`~hippodrome.core.match.Match`; at every
decision the deciding seat's and a spectator's ``view`` are digested, and the pending step as each
language shows it (``decision_view`` in en, es and de: the notes rendered from their messages),
each as its JSON text with sorted keys (:func:`tests.json_text.json_text`).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from hippodrome.core import Match
from hippodrome.core.game import decision_view
import hippodrome.turfmaster.meeting  # noqa: F401  (registers the games)

from tests.json_text import json_text

LANGS = (None, "es", "de")
COLOURS = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]


def match_setups() -> list[tuple[str, dict[str, Any]]]:
    """The setups played, each with several seeds: races of every size and meetings."""
    setups: list[tuple[str, dict[str, Any]]] = []
    for horses in (2, 4, 8):
        for course, steeplechase in (("oval", False), ("oval", True), ("triangle", False)):
            setups.append(("turfmaster-race", {"course": course, "steeplechase": steeplechase,
                                               "horses": [{"id": COLOURS[i], "owner": i % 3} for i in range(horses)]}))
    for players, per_player in ((2, 2), (4, 1), (3, 2)):
        for steeplechase in (False, True):
            setups.append(("turfmaster", {"players": players, "horses_per_player": per_player,
                                          "steeplechase": steeplechase}))
    return setups


def without_rule_links(view: dict[str, Any] | None) -> dict[str, Any] | None:
    """``view`` (a seat's observation, or a decision's view) without the decision's ``note_rules``
    (the rulings notes come from, added after the recording for the pages' links to the rules page:
    no part of the play). ``decision_view`` puts them in a decision's view, which an observation
    holds as its ``pending``, and a meeting's as its race's too: a ``note_rules`` anywhere else is
    digested, and fails the test."""
    if not isinstance(view, dict):
        return view
    inner = {key: without_rule_links(view[key]) for key in ("pending", "race") if isinstance(view.get(key), dict)}
    if not inner and "note_rules" not in view:
        return view
    return {key: inner.get(key, item) for key, item in view.items() if key != "note_rules"}


def digest(game: str, setup: dict[str, Any], seed: int) -> str:
    """The digest of one seeded random match: its log, and every decision's views."""
    match = Match(game, setup, seed)
    rng = random.Random(seed)
    views = hashlib.sha256()
    pending = match.pending()
    while pending is not None:
        state = match.state
        for seat in (pending.seat, None):
            views.update(json_text(without_rule_links(state.observation(seat))))
        for lang in LANGS:
            views.update(json_text(without_rule_links(decision_view(pending, pending.seat,
                                                                    state.public_decision_context, lang))))
        match.act(pending.seat, rng.choice(pending.options))
        pending = match.pending()
    views.update(json_text(without_rule_links(match.state.observation(None))))
    # the record as it was written before it named its rulings' version (issue 35: no part of the play)
    record = {key: value for key, value in match.record().items() if key != "rulings"}
    log = hashlib.sha256(json_text(record)).hexdigest()
    return f"{log[:16]}:{views.hexdigest()[:16]}"


def digests(seeds: int = 12) -> dict[str, str]:
    return {f"{game} {json.dumps(setup, sort_keys=True)} seed {seed}": digest(game, setup, seed)
            for game, setup in match_setups() for seed in range(seeds)}


if __name__ == "__main__":
    json.dump(digests(int(sys.argv[1]) if len(sys.argv) > 1 else 12), sys.stdout, indent=1, sort_keys=True)
    print()
