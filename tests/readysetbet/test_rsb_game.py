"""The game (rulings R2, R4, R6-R9): bets as free actions, refusals, cards, VIP, variants."""

import json

import pytest

from hippodrome.core import IllegalAction, InvalidSetup, Match, replay
from hippodrome.core.game import Chance, Decision
from hippodrome.readysetbet.caller import results_message
from hippodrome.readysetbet.dice_race import RaceState
from tests.readysetbet.rsb_helpers import match_at_race, roll, run_race_with

WIN_2_3 = [3, 2, 3, 2, 3]  # 1, +4, +1, +4, +1 ... reaches 15 after a few more
FAST_2_3 = [3, 2, 4, 3, 2, 4, 3, 2]  # 2/3: 1, 5, -, 6, 10, -, 11, 15


def bet(match, seat, token, space):
    match.act(seat, {"type": "bet", "token": token, "space": space})


def snapshot(match):
    return json.dumps(match.state.to_json(), sort_keys=True)


def test_r4_placed_token_is_settled_and_rulebook_45_dollar_example():
    match = match_at_race({"players": 3, "races": 1})
    bet(match, 0, "5", "win:2/3:R")
    bet(match, 1, "5", "win:4:L")
    run_race_with(match, FAST_2_3)
    state = match.state
    assert state.race.finished and state.phase == "over"
    assert state.money == [45, 0, 0]  # seat 1 loses $1 but cannot go below $0 (R4)
    assert state.history[0]["results"][1]["amount"] == -1
    # R3: the race's Win / Place / Show in words beside the bets' results, as the caller says it
    assert state.history[0]["placings"] == results_message(state.race.positions).to_json()


def test_r4_rolls_are_timed_chance_and_bets_are_free_actions():
    match = match_at_race({"players": 2})
    pending = match.pending()
    assert isinstance(pending, Chance) and pending.timed and pending.kind == "roll"
    assert match.tick() is True and len(match.state.race_log) == 1
    bet(match, 0, "2", "win:7:R")
    assert match.log[-1] == {"by": 0, "action": {"type": "bet", "token": "2", "space": "win:7:R"}, "free": True}


@pytest.mark.parametrize("seat,token,space,reason", [
    (5, "2", "win:7:R", "no such seat"),
    (-1, "2", "win:7:R", "no such seat"),
    (0, "9", "win:7:R", "no such token"),
    (0, "3", "win:13:R", "no such space"),
    (1, "3", "win:7:R", "Win on horse 7 is taken by player 1's token"),
    (0, "2", "win:7:M", "already on the board"),
])
def test_r4_refused_bets_say_why_and_change_nothing(seat, token, space, reason):
    match = match_at_race({"players": 3})
    bet(match, 0, "2", "win:7:R")
    before, log = snapshot(match), list(match.log)
    with pytest.raises(IllegalAction, match=reason):
        bet(match, seat, token, space)
    assert snapshot(match) == before and match.log == log


def test_r4_first_come_first_served_decides_a_contested_space():
    match = match_at_race({"players": 3})
    bet(match, 2, "4", "place:8:R")
    with pytest.raises(IllegalAction, match="first come, first served"):
        bet(match, 0, "4", "place:8:R")
    assert [b["seat"] for b in match.state.bets] == [2]


def test_r2_bets_close_at_third_crossing():
    match = match_at_race({"players": 2})
    match.state.race = RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0))
    roll(match, 2)
    roll(match, 4)
    bet(match, 0, "2", "win:5:R")  # two crossings: still open
    roll(match, 5)
    assert match.state.race.bets_closed
    with pytest.raises(IllegalAction, match="No more bets"):
        bet(match, 0, "3", "win:6:R")
    assert match.state.free_options(0) == ()


def test_r2_bets_close_when_a_horse_finishes_even_with_last_call():
    match = match_at_race({"players": 2, "races": 2})
    match.state.vip_cards[0].append("last-call-1")
    match.state.race = RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0))
    run_race_with(match, [2, 4, 5])
    bet(match, 0, "3", "win:6:R")  # R8 last call: may bet after "no more bets"
    with pytest.raises(IllegalAction, match="No more bets"):
        bet(match, 1, "3", "win:8:R")
    run_race_with(match, [2, 2])  # 2/3 reaches 15
    assert match.state.history and match.state.phase == "vip"
    with pytest.raises(IllegalAction, match="closed"):
        bet(match, 0, "4", "win:8:R")


def test_r4_two_players_leftmost_column_closed():
    match = match_at_race({"players": 2})
    for space in ("win:7:L", "place:7:L", "show:7:L"):
        with pytest.raises(IllegalAction, match="closed when only 2 players bet"):
            bet(match, 0, "2", space)
    bet(match, 0, "2", "win:7:M")
    three = match_at_race({"players": 3})
    bet(three, 0, "2", "win:7:L")


def test_r6_one_token_per_player_per_exotic_card():
    match = match_at_race({"players": 3})
    card = match.state.exotics[0]
    bet(match, 0, "2", f"exotic:{card}:1")
    with pytest.raises(IllegalAction, match="one per player per card"):
        bet(match, 0, "3", f"exotic:{card}:2")
    bet(match, 1, "3", f"exotic:{card}:2")


def test_r8_bandwagon_allows_joining_a_taken_space_and_both_bets_stand():
    match = match_at_race({"players": 3, "races": 1})
    match.state.vip_cards[1].append("bandwagon-3")
    bet(match, 0, "5", "win:2/3:R")
    with pytest.raises(IllegalAction, match="taken"):
        bet(match, 1, "2", "win:2/3:R")
    bet(match, 1, "3", "win:2/3:R")
    with pytest.raises(IllegalAction, match="taken"):
        bet(match, 2, "3", "win:2/3:R")
    run_race_with(match, FAST_2_3)
    assert match.state.money[:2] == [45, 27]


def test_r7_five_prop_cards_per_race_never_reused_and_r6_exotics_accumulate():
    match = Match("readysetbet", {"players": 2}, seed=11)
    seen_props, exotic_counts = [], []
    while match.pending() is not None:
        pending = match.pending()
        if isinstance(pending, Decision):
            match.act(pending.seat, pending.options[0])
            continue
        if match.state.race_log == []:
            seen_props.append(list(match.state.props))
            exotic_counts.append(len(match.state.exotics))
        match.tick()
    assert [len(p) for p in seen_props] == [5, 5, 5, 5]
    flat = [c for props in seen_props for c in props]
    assert len(set(flat)) == 20
    assert exotic_counts == [1, 2, 3, 4]


def test_lighter_game_without_props_exotics_or_vip():
    match = Match("readysetbet", {"players": 3, "props": False, "exotics": False, "vip": False}, seed=2)
    while match.pending() is not None:
        assert not isinstance(match.pending(), Decision)
        assert match.state.props == [] and match.state.exotics == []
        match.tick()
    assert match.state.vip_cards == [[], [], []] and len(match.state.history) == 4


def test_r8_vip_draw_two_keep_one_after_races_1_to_3_with_reshuffle():
    """Under rulings 1 (a game stored before R8 was amended): one player after the other, each
    card taking effect at once (the amended draw: test_rsb_vip_together.py)."""
    match = Match("readysetbet", {"players": 8}, seed=5, rulings=1)
    vip_decisions = 0
    while match.pending() is not None:
        pending = match.pending()
        if isinstance(pending, Decision):
            assert pending.kind == "vip" and len(pending.options) == 2
            before = match.state.money[pending.seat]
            match.act(pending.seat, pending.options[1])
            card = pending.options[1]["keep"]
            if card.startswith("comp-"):
                assert match.state.money[pending.seat] == before + int(card.split("-")[1])
            if card.startswith("bonus-"):
                assert card in [t["id"] for t in match.state.tokens[pending.seat]]
            vip_decisions += 1
        else:
            match.tick()
    assert vip_decisions == 8 * 3  # 48 cards drawn from a deck of 30: the discards were reshuffled
    assert all(len(cards) == 3 for cards in match.state.vip_cards)
    assert any(e["action"].get("type") == "vip_reshuffle" for e in match.log)


def test_r8_vip_choice_is_private_until_kept_and_decks_are_hidden():
    match = Match("readysetbet", {"players": 2}, seed=3)
    while not isinstance(match.pending(), Decision):
        match.tick()
    pending = match.pending()
    mine, theirs = match.state.observation(pending.seat), match.state.observation(1 - pending.seat)
    # both choose at once (R8 as amended), each between its own two cards
    assert mine["pending"]["options"] and theirs["pending"]["options"] != mine["pending"]["options"]
    text = json.dumps(theirs)
    for card in pending.context["drawn"]:
        assert card not in text
    assert "vip_deck" not in text and "prop_deck" not in text


def test_r8_per_roll_payouts_snake_eyes_boxcars_and_lucky_number():
    match = match_at_race({"players": 2})
    match.state.vip_cards[0] += ["snake-eyes-boxcars-1", "lucky-9"]
    run_race_with(match, [2, 12, 9, 3])
    assert match.state.money == [3, 0]


def test_r9_standings_ties_share_the_win():
    match = match_at_race({"players": 3, "races": 1})
    bet(match, 0, "5", "win:2/3:R")
    bet(match, 1, "5", "win:2/3:M")  # 8 x 5 = 40
    bet(match, 1, "2", "win:4:R")  # loses nothing: no red circle
    bet(match, 2, "5", "show:2/3:R")  # 4 x 5 = 20
    run_race_with(match, FAST_2_3)
    assert match.state.money == [45, 40, 20] and match.state.winners() == [0]
    tie = match_at_race({"players": 2, "races": 1})
    run_race_with(tie, FAST_2_3)
    assert tie.state.winners() == [0, 1] and tie.state.observation(None)["winners"] == [0, 1]


def test_r9_house_bets_six_house_tokens_18_dollars_spaces_stay_free():
    match = Match("readysetbet", {"players": 2, "variant": "house_bets", "races": 1}, seed=1)
    house = 2
    assert match.state.money == [0, 0, 18]
    pending = match.pending()
    assert isinstance(pending, Decision) and pending.seat == house and pending.kind == "house_token"
    with pytest.raises(IllegalAction, match="House"):
        bet(match, house, "2", "win:7:R")
    placed = [("win:2/3:R", 5), ("show:2/3:R", 5), ("win:4:R", 4), ("win:5:R", 3), ("win:6:R", 3), ("win:7:R", 2)]
    for space, value in placed:
        match.act(house, {"type": "house_token", "value": value, "space": space})
    assert isinstance(match.pending(), Chance)
    bet(match, 0, "5", "win:2/3:R")  # a house token does not take the space
    run_race_with(match, FAST_2_3)
    # house: 9x5 + 4x5 - 1 (6 win L? no: win:6:R has no red circle) - 2 (7 win R) = 63; 4, 5 R: no circle
    assert match.state.money == [45, 0, 18 + 45 + 20 - 2]


def test_r9_house_may_not_put_two_house_tokens_on_one_space():
    match = Match("readysetbet", {"players": 3, "variant": "house_bets"}, seed=1)
    match.act(3, {"type": "house_token", "value": 5, "space": "win:7:R"})
    with pytest.raises(IllegalAction):
        match.act(3, {"type": "house_token", "value": 4, "space": "win:7:R"})


def test_r6_r9_the_house_puts_at_most_one_house_token_on_an_exotic_finish_card():
    """R6: no player puts more than one of its betting tokens on one exotic finish card; the House
    is a player, and its house tokens are its betting tokens (R9)."""
    match = Match("readysetbet", {"players": 2, "variant": "house_bets", "races": 1}, seed=1)
    first = match.pending()   # the decks shuffled: one exotic finish card face up
    house, card = first.seat, match.state.exotics[0]
    assert house == 2 and any(o["space"] == f"exotic:{card}:2" for o in first.options)
    match.act(house, {"type": "house_token", "value": 5, "space": f"exotic:{card}:1"})
    options = match.pending().options
    assert not [o for o in options if o["space"].startswith(f"exotic:{card}:")]
    assert any(o["space"] == "win:7:R" for o in options)   # every other space is still open to it
    with pytest.raises(IllegalAction):
        match.act(house, {"type": "house_token", "value": 4, "space": f"exotic:{card}:2"})
    assert len(match.state.house_bets) == 1   # the refused token changed nothing
    for value, space in [(4, "win:7:R"), (3, "win:6:R"), (3, "win:5:R"), (2, "win:4:R"), (5, "show:2/3:R")]:
        match.act(house, {"type": "house_token", "value": value, "space": space})
    # the House's token leaves the card's spaces free for the bettors (R9), each bettor one token a card (R6)
    bet(match, 0, "5", f"exotic:{card}:1")
    bet(match, 1, "5", f"exotic:{card}:2")
    with pytest.raises(IllegalAction, match="one per player per card"):
        bet(match, 0, "3", f"exotic:{card}:3")


def play_rotating(answers, seed=4, players=3):
    """Play a rotating-House game; ``answers`` gives each house decision's answer in order."""
    match = Match("readysetbet", {"players": players, "variant": "rotating_house", "vip": False}, seed=seed)
    houses, answers = [], list(answers)
    while match.pending() is not None:
        pending = match.pending()
        if isinstance(pending, Decision):
            if pending.kind in ("house_stay", "house_offer"):
                match.act(pending.seat, {"type": "house", "accept": answers.pop(0)})
            else:
                if pending.kind == "house_token" and len(match.state.house_left) == 6:
                    houses.append((match.state.race_no, pending.seat, list(match.state.money)))
                match.act(pending.seat, pending.options[0])
        else:
            match.tick()
    return match, houses


def test_r9_rotating_house_stays_passes_on_and_is_compensated():
    match, houses = play_rotating([True, False, True, False, False, False])
    first = houses[0][1]
    assert [h[1] for h in houses] == [first, first, (first + 1) % 3, (first + 2) % 3]
    # compensation $3, $6, $9 before races 2, 3, 4: visible in the house's money at token time
    for race_no, seat, money in houses[1:]:
        previous = match.state.history[race_no - 2]["money_after"][seat]
        assert money[seat] == previous + {2: 3, 3: 6, 4: 9}[race_no]
    assert [h["house"] for h in match.state.history] == [h[1] for h in houses]


def test_r9_rotating_house_cannot_bet_and_cannot_use_vip_cards():
    match = Match("readysetbet", {"players": 3, "variant": "rotating_house"}, seed=9)
    pending = match.pending()
    house = pending.seat
    match.state.vip_cards[house].append("snake-eyes-boxcars-1")
    for _ in range(6):
        match.act(house, match.pending().options[0])
    with pytest.raises(IllegalAction, match="House"):
        bet(match, house, "2", "win:9:R")
    money = match.state.money[house]
    roll(match, 2)
    assert match.state.money[house] == money


@pytest.mark.parametrize("setup,message", [
    ({"players": 1}, "players"), ({"players": 9}, "players"), ({"variant": "casino"}, "variant"),
    ({"races": 5}, "races"), ({"vip": "yes"}, "vip"), ([], "JSON object")])
def test_bad_setup_is_refused(setup, message):
    with pytest.raises(InvalidSetup, match=message):
        Match("readysetbet", setup)


def test_replay_and_json_round_trip_equal_the_live_game():
    match = Match("readysetbet", {"players": 3, "variant": "house_bets"}, seed=8)
    step = 0
    while match.pending() is not None:
        pending = match.pending()
        if isinstance(pending, Decision):
            match.act(pending.seat, pending.options[step % len(pending.options)])
        else:
            for seat in range(3):
                options = match.state.free_options(seat)
                if options and step % 4 == seat:
                    match.act(seat, options[step % len(options)])
            match.tick()
        step += 1
    record = json.loads(json.dumps(match.record()))
    assert replay(record).to_json() == match.state.to_json()
    assert type(match.state).from_json(match.state.to_json()).to_json() == match.state.to_json()


def test_views_never_reveal_deck_order_or_future_cards():
    match = Match("readysetbet", {"players": 3}, seed=12)
    match.resolve_chance()
    state = match.state
    hidden_props = [card for card in state.prop_deck]
    hidden_exotics = list(state.exotic_deck)
    for seat in (None, 0, 1, 2):
        view = state.observation(seat)
        text = json.dumps(view)
        assert all(f'"prop:{card}"' not in text and f'"{card}"' not in text for card in hidden_props)
        assert all(card not in text for card in hidden_exotics)
        assert all(card not in text for card in state.vip_deck)
        assert view["deck_sizes"] == {"props": 23, "exotics": 4, "vip": 32, "vip_discard": 0}  # R8: 32 cards
        assert "seed" not in text
