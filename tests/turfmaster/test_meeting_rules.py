"""Meeting rules: allocation and decks (T7), cards and bonus cards (T8), scoring (T9), stalls and
the dice roller (T10), steeplechase meetings (T11, T12), false starts (T13), views and records."""

import json
import random
from collections import Counter

import pytest

from hippodrome.core import IllegalAction, InvalidSetup, Match, replay
from hippodrome.core.game import Chance, Decision
from hippodrome.turfmaster.cards import full_deck
from hippodrome.turfmaster.meeting import Meeting, allowed_horses
from hippodrome.turfmaster.scoring import final_table, points_for_place

FOUR = {"players": 4, "horses_per_player": 1, "course": "oval"}


def chance_outcome(state, seed):
    pending = state.pending()
    assert isinstance(pending, Chance)
    return pending.sample(random.Random(seed))


def run_chance(state, seed=0):
    """Draw every pending chance step of a bare state (no Match) with a fixed generator."""
    rng = random.Random(seed)
    while isinstance(state.pending(), Chance):
        state.apply(state.pending().sample(rng))


def to_race_start(setup=FOUR, seed=0, decide=None):
    """A meeting whose first race is about to start; ``decide`` answers pre-race decisions."""
    meeting = Meeting.new(setup)
    rng = random.Random(seed)
    while meeting.phase != "race":
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
        else:
            meeting.apply(decide(pending) if decide else _decline(pending))
    return meeting


def _decline(pending):
    return next(o for o in pending.options if o["type"] in ("decline_bonus", "discard"))


def play_out(meeting, chooser, seed=0, until=None):
    rng = random.Random(seed)
    while meeting.pending() is not None and not (until and until(meeting)):
        pending = meeting.pending()
        if isinstance(pending, Chance):
            meeting.apply(pending.sample(rng))
        else:
            meeting.apply(chooser(pending))


def last_non_claim(pending):
    """The last option that is not about bonus cards (the highest card: races end with cards left)."""
    plain = [o for o in pending.options if o["type"] not in ("claim_bonus", "decline_bonus")]
    return plain[-1] if plain else _decline(pending)


def fast(pending):
    """Plays the highest card that moves the horse (races then end with cards left over)."""
    plain = [o for o in pending.options if o["type"] not in ("claim_bonus", "decline_bonus")]
    if pending.kind == "card":
        moving = [o for o in plain if not pending.note_for(o)]
        return (moving or plain)[-1]
    return plain[0] if plain else _decline(pending)


def first_non_claim(pending):
    return next(o for o in pending.options if o["type"] not in ("claim_bonus",) and o["type"] != "decline_bonus") \
        if any(o["type"] not in ("claim_bonus", "decline_bonus") for o in pending.options) else _decline(pending)


# -- T7: players, horses, decks ------------------------------------------------------------

@pytest.mark.parametrize("players,allowed", [(2, (2, 3, 4)), (3, (2,)), (4, (1, 2)), (5, (1,)), (8, (1,))])
def test_T7_horse_allocation_of_the_texts(players, allowed):
    assert allowed_horses(players) == allowed
    for per_player in allowed:
        meeting = Meeting.new({"players": players, "horses_per_player": per_player})
        assert len(meeting.ids) == players * per_player >= 4
        assert len(set(meeting.ids)) == len(meeting.ids)
        assert all(len(meeting.horses_of(s)) == per_player for s in range(players))


@pytest.mark.parametrize("setup", [{"players": 1}, {"players": 9}, {"players": 3, "horses_per_player": 1},
                                   {"players": 2, "horses_per_player": 1}, {"players": 5, "horses_per_player": 2},
                                   {"players": 2, "horses": [["red", "red"], ["blue", "green"]]},
                                   {"players": 4, "horses": [["pink"], ["red"], ["blue"], ["green"]]},
                                   {"players": 4, "course": "triangle", "steeplechase": True}])
def test_T7_bad_tables_are_refused_with_a_reason(setup):
    with pytest.raises(InvalidSetup) as error:
        Meeting.new(setup)
    assert str(error.value)


def test_T7_each_deck_is_shuffled_once_from_its_32_cards():
    match = Match("turfmaster", FOUR, seed=11)
    play_out_match(match, random.Random(0))
    shuffles = [e["action"] for e in match.log if e["action"]["type"] == "shuffle"]
    assert sorted(s["horse"] for s in shuffles) == sorted(match.state.ids)  # once per horse, never again
    for shuffle in shuffles:
        assert Counter(shuffle["deck"]) == Counter(full_deck())
    meeting = Meeting.new(FOUR)
    while meeting.pending().kind != "shuffle":
        run_one_chance(meeting)
    bad = {"type": "shuffle", "horse": meeting.pending().context["horse"], "deck": full_deck()[:-1] + ["5"]}
    with pytest.raises(IllegalAction):
        meeting.apply(bad)


def run_one_chance(meeting, seed=0):
    meeting.apply(meeting.pending().sample(random.Random(seed)))


def play_out_match(match, rng):
    while (pending := match.pending()) is not None:
        match.act(pending.seat, rng.choice(pending.options))


# -- T10: stalls and the dice roller ----------------------------------------------------------

def test_T10_stalls_by_dice_highest_inner_ties_rolled_again():
    meeting = Meeting.new(FOUR)
    assert meeting.pending().kind == "stall_roll"
    meeting.apply({"type": "stall_roll", "rolls": [{"horse": "red", "dice": [6, 6]}, {"horse": "blue", "dice": [2, 1]},
                                                   {"horse": "yellow", "dice": [5, 5]}, {"horse": "green", "dice": [6, 6]}]})
    pending = meeting.pending()
    assert pending.kind == "stall_roll" and pending.context["horses"] == ["red", "green"]  # only the tied ones
    with pytest.raises(IllegalAction):  # a re-roll must be for exactly the tied horses
        meeting.apply({"type": "stall_roll", "rolls": [{"horse": "red", "dice": [1, 1]}]})
    meeting.apply({"type": "stall_roll", "rolls": [{"horse": "red", "dice": [1, 2]}, {"horse": "green", "dice": [4, 4]}]})
    while meeting.pending().kind == "shuffle":
        run_one_chance(meeting)
    assert meeting.pending().kind == "first_roller_roll"
    meeting.apply({"type": "first_roller_roll", "rolls": [{"seat": s, "dice": d} for s, d in
                                                          enumerate([[3, 3], [6, 5], [1, 1], [5, 6]])]})
    assert meeting.pending().context["seats"] == [1, 3]
    meeting.apply({"type": "first_roller_roll", "rolls": [{"seat": 1, "dice": [1, 1]}, {"seat": 3, "dice": [2, 1]}]})
    play_out(meeting, _decline, until=lambda m: m.phase == "race")
    assert meeting.stalls == ["green", "red", "yellow", "blue"]
    assert meeting.race.ids == ["green", "red", "yellow", "blue"]
    assert meeting.race.roller == 3


def test_T10_with_several_horses_each_a_first_round_for_each_players_first_horse_then_the_others():
    """The Dutch text: "Indien de spelers over meer dan één paard beschikken, bepaalt een tweede
    ronde de posities voor deze overige paarden" (the French: the dice are rolled as many times as
    there are horses). Two players with three horses each (red, blue, yellow; green, black, white)."""
    meeting = Meeting.new({"players": 2, "horses_per_player": 3, "course": "oval"})
    pending = meeting.pending()
    assert pending.kind == "stall_roll" and pending.context["horses"] == ["red", "green"]   # the first round
    meeting.apply({"type": "stall_roll", "rolls": [{"horse": "red", "dice": [1, 1]}, {"horse": "green", "dice": [3, 2]}]})
    # the second round: the other four horses, for the stalls behind (12 beats the first round's 5)
    assert meeting.pending().context["horses"] == ["blue", "yellow", "black", "white"]
    meeting.apply({"type": "stall_roll", "rolls": [{"horse": "blue", "dice": [6, 6]}, {"horse": "yellow", "dice": [2, 1]},
                                                   {"horse": "black", "dice": [4, 4]}, {"horse": "white", "dice": [5, 1]}]})
    while meeting.pending().kind == "shuffle":
        run_one_chance(meeting)
    assert meeting.pending().kind == "first_roller_roll"
    assert [g[0] for g in meeting.stall_groups] == ["green", "red", "blue", "black", "white", "yellow"]
    for seed in range(6):   # whatever the dice, the two inner stalls hold one horse of each player
        match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed)
        while match.state.phase == "setup":
            match.resolve_chance()
        assert sorted(match.state.owner[h] for h in match.state.stalls[:2]) == [0, 1]


@pytest.mark.parametrize("players,per_player", [(3, 2), (5, 1)])
def test_T10_roller_passes_clockwise_every_dice_round_and_across_races(players, per_player):
    match = Match("turfmaster", {"players": players, "horses_per_player": per_player}, seed=5)
    rng = random.Random(2)
    rollers = []
    races_seen = []
    while (pending := match.pending()) is not None:
        state = match.state
        if state.phase == "race":
            rolls = [e["roller"] for e in state.race.history if e["event"] == "roll"]
            if state.race_no not in races_seen:
                races_seen.append(state.race_no)
                rollers.append([])
            rollers[-1] = rolls
        match.act(pending.seat, rng.choice(pending.options))
    # the last race's final rolls happen inside the last act: read them from the state
    rollers[-1] = [e["roller"] for e in match.state.race.history if e["event"] == "roll"]
    assert len(rollers) == 3
    sequence = [r for race in rollers for r in race]
    assert sequence[0] == match.state.roller_groups[0][0]
    assert all(b == (a + 1) % players for a, b in zip(sequence, sequence[1:]))


def test_T10_races_2_and_3_start_in_the_finishing_order_fallen_horses_behind():
    for seed in range(6):
        match = Match("turfmaster", {"players": 4, "horses_per_player": 2, "steeplechase": True}, seed=seed)
        play_out_match(match, random.Random(seed))
        results = match.state.results
        for before, after in zip(results, results[1:]):
            fallen = [h for h in before["stalls"] if h in before["fallen"]]
            assert after["stalls"] == before["places"] + fallen
            assert sorted(after["stalls"]) == sorted(match.state.ids)


# -- T8: cards, bonus cards, keep ---------------------------------------------------------------

def test_T8_ten_cards_per_horse_from_the_top_of_its_own_deck():
    meeting = to_race_start()
    for horse in meeting.ids:
        assert meeting.race.hands[horse] == meeting.decks[horse][:10]
        assert meeting.drawn[horse] == 10
    assert all(len(cards) == 10 for cards in meeting.race.hands.values())


def test_T8_claim_before_a_race_gives_the_next_two_cards_and_a_limit_of_12():
    def claim_red(pending):
        if pending.kind == "claim_bonus" and pending.context["horse"] == "red":
            return {"type": "claim_bonus", "horse": "red"}
        return _decline(pending)

    meeting = to_race_start(decide=claim_red)
    deck = meeting.decks["red"]
    assert meeting.race.hands["red"] == deck[:12]
    assert meeting.claimed == {"red": 1, "blue": None, "yellow": None, "green": None}
    # once per game: no claim for red is offered any more in this race
    play_out(meeting, first_non_claim, until=lambda m: m.phase != "race")
    assert meeting.phase == "prepare" and meeting.race_no == 2
    # after the race in which it took its bonus, two random cards of red's rest leave the game
    left = list(meeting.hands["red"])
    pending = meeting.pending()
    assert isinstance(pending, Chance) and pending.kind == "bonus_discard" and pending.context["horse"] == "red"
    outcome = pending.sample(random.Random(1))
    assert len(outcome["cards"]) == min(2, len(left))
    meeting.apply(outcome)
    # then the 10 new cards of race 2 come from the deck after the bonus pair
    assert Counter(meeting.hands["red"]) == Counter(left) - Counter(outcome["cards"]) + Counter(deck[12:22])
    assert isinstance(meeting.pending(), Decision)  # red's owner now chooses among old + new cards
    # others keep their race-1 leftovers plus 10 new: a keep decision cuts back to 10
    play_out(meeting, _decline, until=lambda m: m.phase == "race")
    assert all(len(c) <= 10 for c in meeting.race.hands.values())
    assert meeting.race.hands["red"] and len(meeting.race.hands["red"]) == 10


def test_T8_bonus_claimable_at_any_decision_of_the_owner_during_a_race():
    meeting = to_race_start()
    pending = meeting.pending()
    assert pending.kind == "card"
    owner_horses = meeting.horses_of(pending.seat)
    claims = [o for o in pending.options if o["type"] == "claim_bonus"]
    assert [c["horse"] for c in claims] == owner_horses
    horse = pending.context["horse"]
    before = list(meeting.race.hands[horse])
    moves_so_far = len(meeting.race.history)
    meeting.apply({"type": "claim_bonus", "horse": horse})
    assert meeting.race.hands[horse] == before + meeting.decks[horse][10:12]
    # the event says where in the race it happened, so a move log can place it after a reload
    assert meeting.events[-1] == {"race": 1, "event": "claim_bonus", "horse": horse, "during_race": True,
                                  "at": moves_so_far}
    pending = meeting.pending()
    assert pending.kind == "card" and pending.context["horse"] == horse  # still its turn, with 12 cards
    assert {"type": "claim_bonus", "horse": horse} not in pending.options
    assert len({o["card"] for o in pending.options if o["type"] == "card"}) == len(set(meeting.race.hands[horse]))
    snapshot = meeting.to_json()
    with pytest.raises(IllegalAction, match="already taken in race 1"):
        meeting.apply({"type": "claim_bonus", "horse": horse})
    assert meeting.to_json() == snapshot
    # the dice roller is offered the claim too (any decision of the owner)
    play_out(meeting, first_non_claim, until=lambda m: m.pending() and getattr(m.pending(), "kind", "") == "dice_use")
    pending = meeting.pending()
    unclaimed = [h for h in meeting.horses_of(pending.seat) if meeting.claimed[h] is None
                 and meeting.race.stage[h] == "racing"]
    assert [o["horse"] for o in pending.options if o["type"] == "claim_bonus"] == unclaimed


def test_T8_race_3_with_12_cards_when_the_bonus_was_never_claimed():
    meeting = Meeting.new(FOUR)
    play_out(meeting, first_non_claim, until=lambda m: m.race_no == 3 and m.phase == "race")
    assert all(claimed == 3 for claimed in meeting.claimed.values())
    for horse in meeting.ids:
        assert len(meeting.race.hands[horse]) == 12
        assert meeting.drawn[horse] == 32
    # no claim is ever offered in race 3: every bonus has been dealt
    play_out(meeting, lambda p: (_ for _ in ()).throw(AssertionError("claim offered"))
             if any(o["type"] == "claim_bonus" for o in p.options) else p.options[0])
    assert meeting.over


def test_T8_keep_between_races_chooses_which_cards_stay_and_refuses_others():
    meeting = Meeting.new(FOUR)
    play_out(meeting, fast, until=lambda m: m.race_no == 2 and isinstance(m.pending(), Decision)
             and m.pending().kind == "keep")
    pending = meeting.pending()
    horse = pending.context["horse"]
    hand = list(meeting.hands[horse])
    assert len(hand) > 10 and pending.context["to_discard"] == len(hand) - 10
    assert {o["card"] for o in pending.options} == set(hand)
    snapshot = meeting.to_json()
    missing = next(c for c in set(full_deck()) if c not in hand)
    with pytest.raises(IllegalAction, match="give up one card") as error:
        meeting.apply({"type": "discard", "horse": horse, "card": missing})
    assert error.value.allowed == pending.options
    assert meeting.to_json() == snapshot
    keep_order = sorted(hand, key=lambda c: -int(c.removeprefix("J")))  # give up the lowest cards
    expected = Counter(keep_order[:10])
    while meeting.pending().kind == "keep" and meeting.pending().context["horse"] == horse:
        lowest = min((o for o in meeting.pending().options), key=lambda o: int(o["card"].removeprefix("J")))
        meeting.apply(lowest)
    assert Counter(meeting.hands[horse]) == expected
    # the cards given up are out of the game face down: only their owner's view names them
    owner = meeting.owner[horse]
    mine = [e for e in meeting.observation(owner)["events"] if e["event"] == "keep_discard" and e["horse"] == horse]
    theirs = [e for e in meeting.observation((owner + 1) % 4)["events"] if e["event"] == "keep_discard"
              and e["horse"] == horse]
    assert len(mine) == len(theirs) == len(hand) - 10
    assert all("card" in e for e in mine) and not any("card" in e for e in theirs)


# -- T9: scoring -----------------------------------------------------------------------------

def test_T9_points_50_30_20_10_then_nothing():
    assert [points_for_place(p) for p in (1, 2, 3, 4, 5, 8, None)] == [50, 30, 20, 10, 0, 0, 0]


def test_T9_totals_over_a_players_horses_and_the_tie_break_by_best_place():
    owner = {"red": 0, "blue": 0, "yellow": 1, "green": 1, "black": 2, "white": 2}
    results = [
        {"places": ["red", "yellow", "black", "green", "white", "blue"], "fallen": []},   # 0: 50, 1: 40, 2: 20
        {"places": ["yellow", "black", "blue", "red", "green"], "fallen": ["white"]},     # 0: 30, 1: 50, 2: 30
    ]
    table = final_table(owner, 3, results)
    by_seat = {row["seat"]: row for row in table}
    assert by_seat[0]["races"] == [50, 30] and by_seat[0]["total"] == 80
    assert by_seat[1]["races"] == [40, 50] and by_seat[1]["total"] == 90
    assert by_seat[2]["races"] == [20, 30] and by_seat[2]["total"] == 50
    assert [row["seat"] for row in table] == [1, 0, 2]
    # level on points: the better single place wins (seat 0 won a race, seat 1 did not)
    owner = {"red": 0, "blue": 1, "yellow": 2, "green": 3}
    results = [{"places": ["red", "blue", "yellow", "green"], "fallen": []},
               {"places": ["blue", "yellow", "red", "green"], "fallen": []},
               {"places": ["yellow", "blue", "green", "red"], "fallen": []}]
    # red 50+20+10 = 80, blue 30+50+30 = 110, yellow 20+30+50 = 100, green 10+10+20 = 40
    table = final_table(owner, 4, results)
    assert [(r["seat"], r["total"], r["rank"]) for r in table] == [(1, 110, 1), (2, 100, 2), (0, 80, 3), (3, 40, 4)]
    results = [{"places": ["red", "blue"], "fallen": []}, {"places": ["blue", "red"], "fallen": []},
               {"places": ["yellow", "green", "blue"], "fallen": ["red"]}]
    # red 50+30 = 80 (places 1, 2, fell), blue 30+50+20 = 100; yellow 50, green 30
    table = final_table(owner, 4, results)
    assert [r["seat"] for r in table] == [1, 0, 2, 3]
    # exact tie on points and on every place: shared rank
    results = [{"places": ["red", "blue", "yellow", "green"], "fallen": []},
               {"places": ["blue", "red", "green", "yellow"], "fallen": []}]
    table = final_table(owner, 4, results)
    assert [(r["total"], r["rank"]) for r in table] == [(80, 1), (80, 1), (30, 3), (30, 3)]
    # level on points, separated by the next best place
    owner2 = {"red": 0, "blue": 1, "yellow": 2, "green": 2, "black": 3, "white": 3}
    results = [{"places": ["red", "yellow", "black", "blue", "green", "white"], "fallen": []}]
    # seat 0: 50 (1st); seat 2: 30 + 0 = 30 (2nd, 5th); seat 3: 20 + 0 (3rd, 6th); seat 1: 10
    assert [r["seat"] for r in final_table(owner2, 4, results)] == [0, 2, 3, 1]


def test_T9_T11_a_fallen_horse_scores_nothing_in_that_race():
    for seed in range(20):
        match = Match("turfmaster", {"players": 4, "horses_per_player": 2, "steeplechase": True}, seed=seed)
        play_out_match(match, random.Random(seed))
        state = match.state
        if any(r["fallen"] for r in state.results):
            break
    else:
        pytest.fail("no horse fell in 20 random steeplechase meetings")
    for result in state.results:
        assert not set(result["fallen"]) & set(result["points"])
        assert sorted(result["places"] + result["fallen"]) == sorted(state.ids)
    table = state.standings()
    for row in table:
        expected = sum(result["points"].get(h, 0) for result in state.results for h in row["horses"])
        assert row["total"] == expected


# -- T11, T12: steeplechase meetings --------------------------------------------------------------

def test_T11_T12_steeplechase_meeting_runs_on_the_oval_with_its_fences():
    meeting = to_race_start({"players": 2, "horses_per_player": 2, "course": "oval", "steeplechase": True})
    assert meeting.race.steeplechase and meeting.race.fences
    with pytest.raises(InvalidSetup, match="no fences"):
        Meeting.new({"players": 2, "course": "triangle", "steeplechase": True})


# -- T13 and T6: a card that will not move the horse is legal and announced -------------------------

def test_T13_T6_false_start_is_allowed_and_announced_before_it_is_played():
    meeting = to_race_start()
    pending = meeting.pending()
    horse = pending.context["horse"]
    hand = meeting.race.hands[horse]
    above = [o for o in pending.options if o["type"] == "card" and not o["card"].startswith("J")
             and int(o["card"]) > 8]
    for option in pending.options:
        note = pending.note_for(option)
        if option in above:
            assert "does not move" in note
        elif option["type"] == "card":
            assert note == ""
    if not above:
        pytest.skip("this deal holds no plain card above 8")  # pragma: no cover
    start = meeting.race.square[horse]
    meeting.apply(above[0])
    assert meeting.race.square[horse] == start
    assert len(meeting.race.hands[horse]) == len(hand)  # the same list, one card fewer
    assert above[0]["card"] not in meeting.race.hands[horse] or hand.count(above[0]["card"]) >= 1


# -- views, refusals, records -----------------------------------------------------------------------

def test_view_shows_a_seat_its_own_hands_only_and_never_a_deck_order():
    meeting = to_race_start({"players": 2, "horses_per_player": 2})
    for seat in (0, 1, None):
        view = meeting.observation(seat)
        text = json.dumps(view)
        assert set(view["hands"]) == set(meeting.horses_of(seat) if seat is not None else [])
        assert set(view["race"]["hands"]) == set(view["hands"])
        assert "deck" not in text.replace("deck_left", "")
        for horse in meeting.ids:
            if seat is None or meeting.owner[horse] != seat:
                # a hidden card order would show up as the deck's 11th+ cards in sequence
                assert json.dumps(meeting.decks[horse][10:16]) not in text
        assert all(isinstance(h["cards"], int) for h in view["horses"])
    pending = meeting.pending()
    other = 1 - pending.seat
    assert "options" not in meeting.observation(other)["pending"]
    assert meeting.observation(pending.seat)["pending"]["options"] == list(pending.options)


def test_bad_choices_are_refused_without_changing_the_state():
    match = Match("turfmaster", {"players": 3, "horses_per_player": 2}, seed=4)
    rng = random.Random(9)
    checked = Counter()
    while (pending := match.pending()) is not None:
        if checked[pending.kind] < 2:
            snapshot = json.dumps(match.state.to_json(), sort_keys=True)
            bad = [{"type": "card", "horse": "purple", "card": "5"}, {"type": "square", "lane": 9, "square": 0},
                   {"type": "claim_bonus", "horse": "nobody"}, {"type": "discard", "horse": "red", "card": "J1"},
                   "sum"]
            for action in bad:
                with pytest.raises(IllegalAction) as error:
                    match.act(pending.seat, action)
                assert str(error.value)
            with pytest.raises(IllegalAction, match="turn"):
                match.act((pending.seat + 1) % 3, pending.options[0])
            assert json.dumps(match.state.to_json(), sort_keys=True) == snapshot
            checked[pending.kind] += 1
        match.act(pending.seat, fast(pending) if rng.random() < 0.9 else rng.choice(pending.options))
    assert {"card", "dice_use", "claim_bonus", "keep"} <= set(checked)


def test_a_record_replays_to_the_same_final_table_and_clone_and_json_round_trip():
    match = Match("turfmaster", {"players": 2, "horses_per_player": 3, "course": "triangle"}, seed="abc")
    play_out_match(match, random.Random(3))
    record = json.loads(json.dumps(match.record()))
    rebuilt = replay(record)
    assert rebuilt.standings() == match.state.standings()
    assert rebuilt.to_json() == match.state.to_json()
    assert Meeting.from_json(json.loads(json.dumps(match.state.to_json()))).standings() == match.state.standings()
    # clone is independent of the original
    match = Match("turfmaster", FOUR, seed=8)
    for _ in range(40):
        pending = match.pending()
        match.act(pending.seat, pending.options[0])
    copy = match.state.clone()
    before = match.state.to_json()
    play_out(copy, lambda p: p.options[-1])
    assert copy.over and match.state.to_json() == before


@pytest.mark.parametrize("players", range(2, 9))
def test_full_meetings_for_every_player_count_course_and_steeplechase(players):
    per_player = allowed_horses(players)[-1]
    for course, steeplechase in (("oval", False), ("oval", True), ("triangle", False)):
        setup = {"players": players, "horses_per_player": per_player, "course": course, "steeplechase": steeplechase}
        match = Match("turfmaster", setup, seed=players)
        play_out_match(match, random.Random(players))
        state = match.state
        assert state.over and len(state.results) == 3
        table = state.standings()
        assert sorted(r["seat"] for r in table) == list(range(players))
        for result in state.results:
            assert sorted(result["places"] + result["fallen"]) == sorted(state.ids)
        assert sum(r["total"] for r in table) == sum(sum(res["points"].values()) for res in state.results)


@pytest.mark.parametrize("seed", range(12))
def test_T7_T8_every_card_of_every_deck_is_accounted_for(seed):
    """Played + given up + discarded at random + in hand + never drawn = the horse's 32 cards."""
    rng = random.Random(seed)
    players = rng.choice(range(2, 9))
    per_player = rng.choice(allowed_horses(players))
    match = Match("turfmaster", {"players": players, "horses_per_player": per_player,
                                 "steeplechase": rng.random() < 0.3}, seed=seed)
    while (pending := match.pending()) is not None:
        match.act(pending.seat, fast(pending) if rng.random() < 0.7 else rng.choice(pending.options))
    state = match.state
    used = {h: Counter() for h in state.ids}
    claims = Counter()
    for entry in match.log:
        action = entry["action"]
        if action["type"] in ("card", "discard"):
            used[action["horse"]][action["card"]] += 1
        elif action["type"] == "bonus_discard":
            used[action["horse"]].update(action["cards"])
        elif action["type"] == "claim_bonus":
            claims[action["horse"]] += 1
    for horse in state.ids:
        assert claims[horse] <= 1  # once per game
        undrawn = state.decks[horse][state.drawn[horse]:]
        assert used[horse] + Counter(state.race.hands[horse]) + Counter(undrawn) == Counter(state.decks[horse])
        assert state.drawn[horse] == 32  # 3 x 10 dealt + the 2 bonus cards, claimed or dealt for race 3


def test_T9_views_share_the_standings_until_a_race_ends_and_always_show_the_points_so_far():
    """A view's standings (T9: 50, 30, 20, 10 a race, added up) are made once a race result is
    added and shared by every view until the next: at every step of a meeting they equal the
    final table worked out afresh. A copy (what a bot reads) shares them until it ends a race of its
    own, and then shows its own."""
    match = Match("turfmaster", {"players": 3, "horses_per_player": 2, "course": "oval"}, seed=5)
    rng, shared, races_seen, steps, copies_ended = random.Random(5), None, set(), 0, 0
    while (pending := match.pending()) is not None:
        state, steps = match.state, steps + 1
        shown = state.observation(0)["standings"]
        assert shown == final_table(state.owner, state.players, state.results, state.names)
        assert state.observation(None)["standings"] is shown
        if shared is not None and len(state.results) == shared[0]:
            assert shown is shared[1]
        shared = (len(state.results), shown)
        copy = state.clone()   # a bot's copy shares them too, until its own race ends
        assert copy.observation(0)["standings"] is shown
        while steps % 10 == 0 and copy.race is not None and len(copy.results) == len(state.results) and copy.pending() is not None:
            play = copy.pending()
            copy.apply(rng.choice(play.options) if hasattr(play, "options") else play.sample(rng))
        if len(copy.results) > len(state.results):
            assert copy.observation(0)["standings"] == final_table(copy.owner, copy.players, copy.results, copy.names)
            assert state.observation(0)["standings"] is shown
            copies_ended += 1
        races_seen.add(len(state.results))
        match.act(pending.seat, rng.choice(pending.options))
    assert races_seen == {0, 1, 2} and match.state.observation(1)["standings"][0]["total"] > 0 and copies_ended > 0


def test_T7_T8_a_view_counts_the_cards_left_in_each_horses_deck_of_32():
    match = Match("turfmaster", FOUR, seed=2)
    counts = set()
    while (pending := match.pending()) is not None:
        state = match.state
        for horse in state.observation(None)["horses"]:
            assert horse["deck_left"] == 32 - state.drawn[horse["id"]]
            counts.add(horse["deck_left"])
        match.act(pending.seat, pending.options[0])
    assert {22, 0} <= counts   # 10 dealt for the first race (T8), and by the end every card is out
