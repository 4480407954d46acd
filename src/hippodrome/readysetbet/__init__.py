"""Ready Set Bet ("Un día en las carreras"): the dice race, the betting board, VIP cards,
the House variants, live odds, bots and a race caller (rulings R1-R9)."""

from hippodrome.readysetbet.game import ReadySetBet

__all__ = ["ReadySetBet"]
