"""Ready Set Bet ("Un día en las carreras"): the dice race, the betting board, VIP cards,
the House variants, live odds, bots and a race caller (rulings R1-R9).

Importing the package registers both games: ``"readysetbet"`` (four races with the betting board)
and ``"readysetbet-race"`` (one race run for people betting on the physical board)."""

from hippodrome.readysetbet.game import ReadySetBet
from hippodrome.readysetbet.race_game import DiceRace

__all__ = ["DiceRace", "ReadySetBet"]
