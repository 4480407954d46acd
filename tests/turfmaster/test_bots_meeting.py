"""Bots: one interface, legal choices only, the seat's view only, and the tactical advice
(T6 handicaps, T8 bonus and keep, T11 falls) of the Spanish rulebook."""

import orjson
import random

import pytest

from hippodrome.core.game import Chance, Decision
from hippodrome.table.table import Player, Table
import hippodrome.turfmaster.meeting  # noqa: F401  (registers the game)
from hippodrome.core.errors import InvalidSetup
from hippodrome.table.bots import make_bot
from hippodrome.turfmaster.bots import RandomBot, TacticalBot
from hippodrome.turfmaster.cards import card_value, is_joker
from hippodrome.turfmaster.meeting import Meeting, allowed_horses
from hippodrome.arena.turfmaster import play_meeting, seat_bots, simulate, wilson


class SpyBot:
    """Wraps a bot and checks what it is shown: a seat's view, never a deck order."""

    def __init__(self, inner, table_ref):
        self.inner, self.table_ref, self.name = inner, table_ref, inner.name
        self.calls = 0

    def choose(self, observation, options):
        self.calls += 1
        state = self.table_ref[0].state
        text = orjson.dumps(observation)
        assert "decks" not in observation
        seat = observation["seat"]
        assert set(observation["hands"]) == {h for h in state.ids if state.owner[h] == seat}
        for horse in state.ids:
            if state.drawn[horse] < 28:
                assert orjson.dumps(state.decks[horse][state.drawn[horse]:state.drawn[horse] + 4]) not in text
        choice = self.inner.choose(observation, options)
        assert choice in options
        return choice


@pytest.mark.parametrize("players", range(2, 9))
def test_full_meetings_by_bots_every_player_count_both_courses_with_and_without_steeplechase(players):
    per_player = allowed_horses(players)[0]
    for course, steeplechase in (("oval", False), ("oval", True), ("triangle", False)):
        setup = {"players": players, "horses_per_player": per_player, "course": course, "steeplechase": steeplechase}
        holder = []
        seats = [Player(f"bot {s}", SpyBot(TacticalBot(s) if s % 2 == 0 else RandomBot(s), holder))
                 for s in range(players)]
        table = Table("turfmaster", setup, seats, seed=f"{players}{course}{steeplechase}")
        holder.append(table)
        table.run_bots()
        assert table.over
        assert len(table.state.results) == 3
        assert all(seat.bot.calls > 0 for seat in seats)


def test_bots_share_the_core_interface_and_are_found_by_name():
    for name in ("random", "tactical"):
        bot = make_bot("turfmaster", name, 1)
        assert bot.name == name and callable(bot.choose)
    with pytest.raises(InvalidSetup, match="tactical"):
        make_bot("turfmaster", "clever")


def _race_start(seed, players=4):
    meeting = Meeting.new({"players": players, "horses_per_player": 1})
    rng = random.Random(seed)
    while meeting.phase != "race":
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
        else:
            meeting.apply(next(o for o in pending.options if o["type"] == "decline_bonus"))
    return meeting


def _choice(meeting, bot):
    pending = meeting.pending()
    return bot.choose(meeting.observation(pending.seat), pending.options)


def test_T6_T8_tactical_keeps_jokers_for_the_finish_and_never_wastes_a_card_at_the_start():
    checked = 0
    for seed in range(40):
        meeting = _race_start(seed)
        pending = meeting.pending()
        hand = meeting.race.hands[pending.context["horse"]]
        moving_plain = [c for c in hand if not is_joker(c) and card_value(c) <= 8]
        if not any(is_joker(c) for c in hand) or not moving_plain:
            continue
        choice = _choice(meeting, TacticalBot(0))
        assert choice["type"] == "card"
        assert not is_joker(choice["card"])  # far from the finish: keep the joker
        assert card_value(choice["card"]) <= 8  # all horses start level in 1st place: limit 8 (T6)
        checked += 1
    assert checked >= 5


def test_tactical_spends_low_cards_early_and_moves_inward():
    # a deal with a 3 or 4: early in the race the bot prefers it to a middling card when both move
    counted = 0
    for seed in range(60):
        meeting = _race_start(seed)
        pending = meeting.pending()
        horse = pending.context["horse"]
        hand = meeting.race.hands[horse]
        if not ({"3", "4"} & set(hand)):
            continue
        choice = _choice(meeting, TacticalBot(0))
        # never a joker or a wasted card; a low card or a card that takes the lead is avoided
        assert not is_joker(choice["card"]) and card_value(choice["card"]) <= 8
        counted += 1
        if counted > 5:
            break
    assert counted


def test_T8_tactical_declines_the_bonus_before_a_race_and_keeps_its_best_cards():
    meeting = Meeting.new({"players": 2, "horses_per_player": 2})
    rng = random.Random(1)
    bot = TacticalBot(0)
    saw_keep = False
    while meeting.pending() is not None and meeting.race_no < 3:
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
            continue
        choice = bot.choose(meeting.observation(pending.seat), pending.options)
        if pending.kind == "claim_bonus":
            assert choice["type"] == "decline_bonus"
        if pending.kind == "keep":
            saw_keep = True
            hand = pending.context["hand"]
            lowest = min(card_value(c) + (20 if is_joker(c) else 0) for c in hand)
            assert card_value(choice["card"]) == lowest and not is_joker(choice["card"])
        meeting.apply(choice)
    assert saw_keep


def _falls(race, horse, card, square_choice):
    """Whether playing ``card`` makes ``horse`` fall, ending where ``square_choice`` picks."""
    clone = race.clone()
    before = len(clone.fallen)
    clone.apply({"type": "card", "horse": horse, "card": card})
    while isinstance(clone.pending(), Decision) and clone.pending().kind == "square" \
            and clone.current_horse() == horse:
        clone.apply(square_choice(clone.pending().options))
    return len(clone.fallen) > before


def test_T11_tactical_never_plays_into_a_fall_it_could_avoid():
    avoided = unavoidable = 0
    for seed in range(8):
        table = Table("turfmaster", {"players": 4, "horses_per_player": 2, "steeplechase": True},
                      [Player(f"t{s}", None) for s in range(4)], seed=seed)
        bot = TacticalBot(seed)
        while not table.over:
            pending = table.pending()
            choice = bot.choose(table.state.observation(pending.seat), pending.options)
            if pending.kind == "card" and choice["type"] == "card":
                race, horse = table.state.race, choice["horse"]
                cards = [o["card"] for o in pending.options if o["type"] == "card"]
                # a card "must fall" when the first and the last legal end square both fall
                doomed = {c for c in cards if _falls(race, horse, c, lambda o: o[0])
                          and _falls(race, horse, c, lambda o: o[-1])}
                if doomed and len(doomed) < len(cards):
                    avoided += 1
                    assert choice["card"] not in doomed
                elif doomed:
                    unavoidable += 1
            table.act(pending.seat, choice)
    assert avoided >= 3


def test_the_tactical_bot_beats_the_random_bot_on_fixed_seeds():
    # a small deterministic sample (docs/benchmarks.md's figure comes from `simulate` over 500+ meetings)
    tally = simulate({"players": 2, "horses_per_player": 2}, ["tactical", "random"], 40, seed="test", workers=1)
    rows = {row["bot"]: row for row in tally.rows()}
    assert rows["tactical"]["wins"] >= 26
    assert rows["tactical"]["mean_points"] > rows["random"]["mean_points"]


def test_simulation_helpers():
    assert seat_bots(["a", "b", "c"], 4) == ["b", "c", "a"]
    low, high = wilson(80, 100)
    assert 0.71 < low < 0.72 and 0.86 < high < 0.87
    assert wilson(0, 0) == (0.0, 1.0)
    result = play_meeting({"players": 2, "horses_per_player": 2}, ["random", "tactical"], "x")
    assert result["bots"] == ["random", "tactical"] and len(result["table"]) == 2


@pytest.mark.parametrize("seed", range(3))
def test_the_tactical_bot_plays_a_single_race_its_dice_rounds_included(seed):
    """A single race's view has no "seat" of its own (a meeting's has): the bot reads the seat of
    its pending decision, so it rolls for its own horses there too."""
    from hippodrome.core import Match

    match = Match("turfmaster-race", {"players": 3, "horses_per_player": 2}, seed)
    bots = [TacticalBot(seat) for seat in range(3)]
    kinds = set()
    while (decision := match.pending()) is not None:
        kinds.add(decision.kind)
        match.act(decision.seat, bots[decision.seat].choose(match.state.observation(decision.seat), decision.options))
    assert "dice_use" in kinds and len(match.state.places) + len(match.state.fallen) == 6
