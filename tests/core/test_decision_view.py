"""The pending step as each seat is shown it, built in one place (core.game.decision_view) for the
games' views and the server: who decides and the kind for everyone, the options, context and notes
for the deciding seat only."""

from __future__ import annotations

import random

import pytest

from hippodrome.core.game import Chance, Decision, decision_view

from .play import SETUPS, new_state, random_step, take

#: the JSON keys the pages and the terminal read (web/*.js, cli/turfmaster_view.py)
EVERYONE = {"seat", "kind"}
DECIDER = EVERYONE | {"options", "context", "notes", "notes_i18n", "note_rules"}


def pending_views(game: str, seed: int, setup: int = 0):
    """(state, what each seat and a spectator see as ``pending``) along a random game."""
    state = new_state(game, SETUPS[game][setup])
    rng = random.Random(seed)
    while True:
        yield state, {seat: state.observation(seat)["pending"] for seat in [None, *range(state_seats(state))]}
        step = random_step(state, rng)
        if step is None:
            return
        take(state, step)


def state_seats(state) -> int:
    return state.players if hasattr(state, "players") and not hasattr(state, "seats") else state.seats


@pytest.mark.parametrize("game, setup", [(game, setup) for game in ("turfmaster-race", "turfmaster", "readysetbet")
                                         for setup in range(len(SETUPS[game]))])
def test_every_seat_sees_who_decides_and_only_the_decider_its_options(game, setup):
    public = set(type(new_state(game, SETUPS[game][setup])).public_decision_context)
    decisions = 0
    for state, shown in pending_views(game, seed=1, setup=setup):
        pending = state.pending()
        for seat, view in shown.items():
            if pending is None:
                assert view is None
            elif isinstance(pending, Chance):
                assert view == {"chance": pending.kind, "timed": pending.timed}
            elif seat == pending.seat or state.decision_for(seat) is not None:
                # the pending decision's seat, or another one choosing at the same time (R8)
                own = state.decision_for(seat)
                decisions += 1
                assert set(view) - {"together"} == DECIDER | public
                assert view["options"] == list(own.options) and view["context"] == own.context
                assert len(view["notes"]) == len(view["notes_i18n"]) == len(view["note_rules"]) == len(view["options"])
            else:   # (and who else chooses at the same time, when several do)
                assert set(view) - {"together"} == EVERYONE | public
                assert view.get("together", [pending.seat])[0] == pending.seat
                assert (view["seat"], view["kind"]) == (pending.seat, pending.kind)
                assert all(view[key] == pending.context.get(key) for key in public)
    assert decisions > 5


def test_turfmaster_shows_everyone_the_horse_a_decision_is_about():
    for state, shown in pending_views("turfmaster", seed=2):
        pending = state.pending()
        if isinstance(pending, Decision) and pending.kind == "card":
            assert {view["horse"] for view in shown.values()} == {pending.context["horse"]}
            assert state.observation(None)["race"]["pending"] == shown[None]
            return
    raise AssertionError("no card decision in a whole meeting")


def test_the_notes_come_in_the_language_asked_and_as_messages():
    """T8: the notes on claiming the bonus cards are messages; English unless a language is asked."""
    for state, _ in pending_views("turfmaster", seed=3):
        pending = state.pending()
        if isinstance(pending, Decision) and pending.kind == "claim_bonus":
            break
    english = decision_view(pending, pending.seat)
    german = decision_view(pending, pending.seat, lang="de")
    assert english["notes"] == [str(note) for note in pending.notes]
    assert german["notes"] == [note.translate("de") for note in pending.notes] != english["notes"]
    assert german["notes_i18n"] == english["notes_i18n"] == [note.to_json() for note in pending.notes]


def test_a_decision_without_notes_shows_an_empty_note_per_option():
    decision = Decision(1, "vip", ({"type": "vip", "keep": "a"}, {"type": "vip", "keep": "b"}), {"race": 1})
    assert decision_view(decision, 1) == {"seat": 1, "kind": "vip", "options": list(decision.options),
                                          "context": {"race": 1}, "notes": ["", ""], "notes_i18n": [None, None],
                                          "note_rules": [None, None]}
    assert decision_view(decision, 0) == decision_view(decision, None) == {"seat": 1, "kind": "vip"}
    assert decision_view(None, 0) is None
