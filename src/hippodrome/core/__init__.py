"""Game-agnostic foundation shared by every game: decisions, chance steps, logs, replay."""

from hippodrome.core.errors import HippodromeError, IllegalAction, InvalidSetup
from hippodrome.core.game import Chance, Decision, Game
from hippodrome.core.registry import game_class, register_game
from hippodrome.core.match import Match, replay

__all__ = [
    "Chance",
    "Decision",
    "Game",
    "HippodromeError",
    "IllegalAction",
    "InvalidSetup",
    "Match",
    "game_class",
    "register_game",
    "replay",
]
