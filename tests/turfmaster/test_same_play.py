"""The engine plays as it did before its speed work (T1-T13): seeded random races and meetings give
the same logs, the same views and the same notes in every language as the recorded digests of
commit a94e544 (tests/turfmaster/fixtures/same_play.json, written by same_play.py under that tree;
the meetings with two horses a player written again when the stall draw took the Dutch text's two
rounds, T10: the first stalls for each player's first horse, then the others. Only those 48
digests changed, the races' and the one-horse meetings' stayed as recorded; then the 36
steeplechase meetings' view halves when the English note of a card given up became "give up the
8" (not "a 8"): their logs' halves stayed, and the flat meetings, whose random play never gives
up a card, stayed whole; then every view half when the notes said the limit as the limit, "above
this horse's limit of 8", and the Spanish fall "se cae": all 180 logs' halves stayed; then every
view half when a horse's ``status`` was named its ``stage`` and the digests read ``observation``,
the view with its pending step: with ``stage`` read back as ``status`` all 180 stayed whole; then
every digest when it read the JSON text orjson writes (tests/json_text.py) for json.dumps's, all
180 written by a tree that first gave every one of them as recorded in json.dumps's text).

The fixture holds 12 seeds per setup; the test replays the first few of each (all of them take
half a minute: ``python tests/turfmaster/same_play.py`` and compare the output with the fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .same_play import digest, match_setups

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "same_play.json").read_text())
SEEDS = 2


@pytest.mark.parametrize("game, setup", match_setups(), ids=lambda value: value if isinstance(value, str) else "")
def test_T1_T13_seeded_matches_play_log_and_view_as_recorded(game, setup):
    for seed in range(SEEDS):
        key = f"{game} {json.dumps(setup, sort_keys=True)} seed {seed}"
        assert digest(game, setup, seed) == FIXTURE[key], key
