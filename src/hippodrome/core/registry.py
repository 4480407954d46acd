"""Which games exist: every package that declares an entry point in the ``hippodrome.games`` group.

A game package registers its game classes (``@register_game``) when imported; its entry point
names the package (``turfmaster = "hippodrome.turfmaster"`` in pyproject.toml). The server,
the lobby and the command line find the games here and read each one's
:class:`~hippodrome.core.description.GameDescription`: a new game is a new package and one line
of packaging metadata.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from hippodrome.core.description import GameDescription
from hippodrome.core.game import Game, registered_games

ENTRY_POINT_GROUP = "hippodrome.games"
COMMANDS_GROUP = "hippodrome.commands"

_loaded = False


def load_games() -> dict[str, type[Game]]:
    """Import every game package of the entry points (once) and return the registered games by name."""
    global _loaded
    if not _loaded:
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            entry.load()
        _loaded = True
    return registered_games()


def descriptions() -> list[GameDescription]:
    """The description of every game, in the order lists show them."""
    games = load_games().values()
    return sorted((cls.description for cls in games), key=lambda d: (d.order, d.name))


def description_of(name: str) -> GameDescription:
    """The description of game ``name`` (InvalidSetup naming the known games if there is none)."""
    from hippodrome.core.game import game_class

    return game_class(name).description

