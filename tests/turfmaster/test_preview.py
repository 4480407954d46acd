"""The page's look-ups: what a card or a die would do before it is played (falls T11, boxed in T5,
above the handicap T6), and the races a meeting has run (the move log's history)."""

import random
import re

import pytest

from hippodrome.core.errors import IllegalAction
from hippodrome.core.game import Decision
from hippodrome.core.match import Match
from hippodrome.turfmaster.preview import preview, races
from tests.turfmaster.helpers import race_at


def ask(race, seat, action):
    before = race.to_json()
    answer = preview(race, seat, {"action": action})
    assert race.to_json() == before, "a preview plays nothing"
    return answer


def test_T11_a_preview_marks_the_squares_where_the_horse_falls():
    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True, hands={"red": ["6"], "blue": ["3"]})
    answer = ask(race, 0, {"type": "card", "horse": "red", "card": "6"})
    assert answer["squares"] and all(s["falls"] for s in answer["squares"])
    assert answer["points"] == 6 and answer["steps"] < 6 and answer["spent"] is False
    race.apply({"type": "card", "horse": "red", "card": "6"})
    pending = race.pending()
    assert [{"lane": s["lane"], "square": s["square"]} for s in answer["squares"]] == pending.context["falls"]


def test_a_free_move_neither_falls_nor_loses_points():
    race = race_at({"red": (0, 10), "blue": (4, 3)}, hands={"red": ["7"], "blue": ["3"]})
    answer = ask(race, 0, {"type": "card", "horse": "red", "card": "7"})
    assert answer["squares"] and not any(s["falls"] for s in answer["squares"])
    assert (answer["points"], answer["steps"], answer["limit"]) == (7, 7, 8)


def test_T6_a_card_above_the_handicap_is_spent_without_moving():
    race = race_at({"red": (0, 10), "blue": (4, 3)}, hands={"red": ["10"], "blue": ["3"]})
    answer = ask(race, 0, {"type": "card", "horse": "red", "card": "10"})
    assert answer == {"squares": [], "points": 10, "steps": 0, "limit": 8, "spent": True}


def test_T5_a_boxed_in_horse_moves_fewer_steps():
    # red and yellow ahead of blue, with no card left: they stand still (T13) and box blue in
    race = race_at({"red": (0, 13), "blue": (0, 10), "yellow": (1, 12)}, hands={"red": [], "blue": ["6"],
                                                                               "yellow": []})
    answer = ask(race, 1, {"type": "card", "horse": "blue", "card": "6"})
    assert answer["steps"] < answer["points"] == 6 and not answer["spent"]


def test_only_a_seat_own_card_or_die_is_previewed():
    race = race_at({"red": (0, 10), "blue": (4, 3)}, hands={"red": ["7"], "blue": ["3"]})
    with pytest.raises(IllegalAction):
        preview(race, 1, {"action": {"type": "card", "horse": "red", "card": "7"}})
    with pytest.raises(IllegalAction):
        preview(race, 0, {"action": {"type": "square", "horse": "red", "lane": 0, "square": 17}})


def test_the_races_look_up_gives_every_race_run_with_its_history():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed=5)
    rng = random.Random(2)
    seen = []
    while True:
        match.resolve_chance()
        pending = match.state.pending()
        if pending is None:
            break
        if match.state.race is not None and (not seen or seen[-1] != match.state.race_no):
            seen.append(match.state.race_no)
        race_history = list(match.state.race.history) if match.state.race is not None else None
        number = len(match.state.results)
        match.act(pending.seat, rng.choice(pending.options) if isinstance(pending, Decision) else None)
        if len(match.state.results) > number:  # a race just ended: its history is kept whole
            kept = races(match.state, None, {})["races"][-1]
            assert kept["race"] == number + 1 and kept["history"][:len(race_history)] == race_history
    answer = races(match.state, None, {})["races"]
    assert [r["race"] for r in answer] == [1, 2, 3]
    assert all(r["history"] and r["stalls"] for r in answer)
    copy = type(match.state).from_json(match.state.to_json())
    assert races(copy, None, {}) == races(match.state, None, {})


@pytest.mark.parametrize("lang", ["en", "de"])
def test_T11_the_terminal_says_the_horse_falls_beside_each_such_square(lang):
    from hippodrome.cli.turfmaster_view import options_block
    from hippodrome.i18n import translate

    race = race_at({"red": (2, 6), "blue": (4, 3)}, steeplechase=True, hands={"red": ["6"], "blue": ["3"]})
    race.apply({"type": "card", "horse": "red", "card": "6"})
    view = race.observation(0)
    lines = [line for line in options_block(view, lang).plain.splitlines() if re.match(r"\s*\d+\)", line)]
    fall = translate(lang, "the horse cannot complete the jump and falls")
    assert lines and all(fall in line for line in lines)
    assert len(lines) == len(view["pending"]["context"]["falls"])
