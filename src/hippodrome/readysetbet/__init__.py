"""Ready Set Bet ("Un día en las carreras"): the dice race, the betting board, VIP cards,
the House variants, live odds, bots and a race caller (rulings R1-R9).

Importing the package registers its games: ``"readysetbet"`` (four races with the betting board),
``"readysetbet-box"`` (the races called for people playing with the physical box) and
``"readysetbet-race"`` (one race, for the terminal race caller)."""

from hippodrome.readysetbet.box import BoxMeeting
from hippodrome.readysetbet.game import ReadySetBet
from hippodrome.readysetbet.race_game import RaceGame
from hippodrome.readysetbet.tutorial import ReadySetBetTutorial

__all__ = ["BoxMeeting", "RaceGame", "ReadySetBet", "ReadySetBetTutorial"]
