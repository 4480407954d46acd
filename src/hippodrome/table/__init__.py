"""A game in progress with its seats (people, bots) and clock: the one driver that the
terminal commands, the web server and the tournament runner all use."""

from hippodrome.table.table import Player, StaleState, Table

__all__ = ["Player", "StaleState", "Table"]
