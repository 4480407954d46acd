"""Refusals and notes carry the ruling they come from (core.rulings), and every ruling an engine
names has its paragraph on the game's rules page (the description's anchors)."""

import ast
import random
from pathlib import Path

import pytest

from hippodrome.core import Match
from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision, decision_view
from hippodrome.core.rulings import Ruled, rule_of
from hippodrome.i18n import Message
from hippodrome.readysetbet.rules import ANCHORS as RSB_ANCHORS
from hippodrome.turfmaster.rules import ANCHORS as TM_ANCHORS

SRC = Path(__file__).resolve().parents[2] / "src" / "hippodrome"
PACKAGES = {"turfmaster": ("T", TM_ANCHORS), "readysetbet": ("R", RSB_ANCHORS)}


def test_a_ruled_message_reads_as_its_message():
    message = Message("No more bets!")
    ruled = Ruled(message, "R2")
    assert str(ruled) == "No more bets!" and ruled.translate("es") == message.translate("es")
    assert ruled.to_json() == message.to_json() and ruled.msgid == "No more bets!"
    assert rule_of(ruled) == "R2" and rule_of(message) is None and rule_of("text") is None


def test_an_error_takes_its_ruling_from_its_message_or_as_given():
    assert IllegalAction(Ruled(Message("No more bets!"), "R2")).rule == "R2"
    assert IllegalAction(Message("No more bets!"), rule="R2").rule == "R2"
    assert IllegalAction(Message("No more bets!")).rule is None


def test_a_note_keeps_its_ruling_and_the_view_shows_it_beside_the_notes():
    decision = Decision(0, "card", ({"type": "card", "card": "10"}, {"type": "card", "card": "7"}), {},
                        (Ruled(Message("No more bets!"), "T6"), ""))
    assert decision.notes[0].rule == "T6"
    shown = decision_view(decision, 0)
    assert shown["note_rules"] == ["T6", None]
    assert shown["notes_i18n"][0] == {"msgid": "No more bets!", "params": {}}


def rule_ids_in(package):
    """Every ruling id written in the package's modules (its rules page's own module aside)."""
    prefix, _ = PACKAGES[package]
    found = set()
    for path in (SRC / package).glob("*.py"):
        if path.name == "rules.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Ruled", "Obstacle"):
                found.update(arg.value for arg in node.args if isinstance(arg, ast.Constant)
                             and isinstance(arg.value, str) and arg.value[:1] == prefix and arg.value[1:].isdigit())
    return found


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_ruling_an_engine_names_has_a_paragraph(package):
    used = rule_ids_in(package)
    assert len(used) >= 4, used
    assert used <= set(PACKAGES[package][1]), used - set(PACKAGES[package][1])


@pytest.mark.parametrize("game, setup", [
    ("turfmaster", {"players": 2, "horses_per_player": 2, "steeplechase": True}),
    ("turfmaster-race", {"course": "oval", "steeplechase": True,
                         "horses": [{"id": c, "owner": n % 2} for n, c in enumerate(["red", "blue", "green", "black"])]}),
])
def test_rulings_of_notes_and_refusals_in_play_are_on_the_rules_page(game, setup):
    """(Ready Set Bet's refusals: tests/readysetbet/test_rsb_properties.py.)"""
    rng = random.Random(5)
    match = Match(game, setup, seed=5)
    named = set()
    pending = match.pending()
    while pending is not None:
        named.update(r for r in decision_view(pending, pending.seat)["note_rules"] if r)
        wrong = {**pending.options[0], "card": "nothing", "value": 99, "lane": -1}
        try:
            match.state.clone().apply(wrong)
        except IllegalAction as error:
            if error.rule:
                named.add(error.rule)
        match.act(pending.seat, rng.choice(pending.options))
        pending = match.pending()
    assert {"T6", "T5"} <= named <= set(TM_ANCHORS), named


def test_the_rulings_a_page_names_itself_have_a_paragraph():
    """The pages' own refusals (web/readysetbet.js: no token left, R4) link a ruling too."""
    import re

    pages = {"readysetbet.js": RSB_ANCHORS, "turfmaster.js": TM_ANCHORS}
    for name, anchors in pages.items():
        named = set(re.findall(r'showMessage\(.*"([TR]\d+)"\);', (SRC / "web" / name).read_text(encoding="utf-8")))
        assert named <= set(anchors), (name, named - set(anchors))
    assert re.findall(r'"(R\d+)"\);', (SRC / "web" / "readysetbet.js").read_text(encoding="utf-8"))
