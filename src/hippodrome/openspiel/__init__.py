"""Hippodrome's games in OpenSpiel (the ``research`` extra). Importing this package registers:

* ``hippodrome_turfmaster_race``: one TurfMaster race (:mod:`hippodrome.openspiel.turfmaster`);
* ``hippodrome_turfmaster``: a TurfMaster meeting of three races;
* ``hippodrome_readysetbet_race``: a Ready Set Bet game of one race, every bettor betting or
  passing on each roll in an order of arrival drawn by chance (:mod:`hippodrome.openspiel.readysetbet`).

>>> import pyspiel
>>> import hippodrome.openspiel
>>> game = pyspiel.load_game("hippodrome_turfmaster_race", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 366)
"""

from hippodrome.openspiel import readysetbet, turfmaster  # noqa: F401  (registers the games)

GAMES = (turfmaster.RACE_NAME, turfmaster.MEETING_NAME, readysetbet.NAME)
