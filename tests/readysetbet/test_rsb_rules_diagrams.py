"""The rules page's diagrams (readysetbet/rules.py) are the engine's answers, checked against the
rulings they illustrate."""

from hippodrome.readysetbet.board import BOARD_DATA
from hippodrome.readysetbet.dice_race import BONUS, CROSSINGS_TO_CLOSE, FINISH, RED_LINE
from hippodrome.readysetbet.rules import ANCHORS, diagrams

D = diagrams()["diagrams"]


def test_R5_the_board_is_the_printed_board():
    board = D["board"]
    assert [row["spaces"] for row in board["rows"]] == [row["spaces"] for row in BOARD_DATA["rows"]]
    assert board["columns"] == BOARD_DATA["columns"]


def test_R1_the_second_and_fourth_roll_in_a_row_add_the_bonus_and_the_7_has_none():
    rolls = D["bonus"]["rolls"]
    assert [r["bonus"] for r in rolls] == [0, BONUS["4"], 0, BONUS["4"], 0, 0]
    assert [r["to"] - r["from"] for r in rolls] == [1, 4, 1, 4, 1, 1]
    assert rolls[5]["bonus_move"] and BONUS["7"] == 0


def test_R2_bets_close_at_the_third_crossing_of_the_red_line():
    diagram = D["red-line"]
    spaces = [h["space"] for h in diagram["track"]]
    assert sum(space >= RED_LINE for space in spaces) == CROSSINGS_TO_CLOSE and max(spaces) < FINISH
    assert [c["crossing"] for c in diagram["crossings"]] == [1, 2, 3]
    crossed = {h["horse"] for h in diagram["track"] if h["space"] >= RED_LINE}
    assert {c["horse"] for c in diagram["crossings"]} == crossed


def test_R3_R4_the_settled_race_pays_token_times_multiplier_and_charges_the_red_circle():
    diagram = D["settled"]
    ranks = {h["horse"]: h["rank"] for h in diagram["track"]}
    assert max(h["space"] for h in diagram["track"]) == FINISH
    assert sorted(ranks.values())[:4] == [1, 2, 2, 4]   # two horses tied for 2nd (R3)
    for bet in diagram["bets"]:
        rank = ranks[bet["horse"]]
        assert bet["won"] == (rank <= {"win": 1, "place": 2, "show": 3}[bet["kind"]])
        assert bet["amount"] == (bet["token"] * bet["multiplier"] if bet["won"] else -bet["penalty"])
    # the horse behind the two tied for 2nd does not Show
    assert any(bet["kind"] == "show" and ranks[bet["horse"]] == 4 and not bet["won"] for bet in diagram["bets"])
    assert diagram["money"] == max(0, sum(bet["amount"] for bet in diagram["bets"]))


def test_every_ruling_has_an_anchor():
    assert list(ANCHORS) == [f"R{n}" for n in range(1, 10)]
