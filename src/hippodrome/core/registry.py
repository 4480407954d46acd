"""Which games exist: every package that declares an entry point in the ``hippodrome.games`` group.

A game package registers its game classes (``@register_game``) when imported; its entry point
names the package (``turfmaster = "hippodrome.turfmaster"`` in pyproject.toml). The server,
the lobby and the command line find the games here and read each one's
:class:`~hippodrome.core.description.GameDescription`: a new game is a new package and one line
of packaging metadata.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from hippodrome.core.errors import InvalidSetup
from hippodrome.i18n import Message

if TYPE_CHECKING:
    from hippodrome.core.description import GameDescription
    from hippodrome.core.game import Game

ENTRY_POINT_GROUP = "hippodrome.games"
COMMANDS_GROUP = "hippodrome.commands"

_loaded = False

_GAMES: dict[str, type["Game"]] = {}


def register_game(cls: type["Game"]) -> type["Game"]:
    """Class decorator: make a game known to :func:`game_class` (and so to ``replay``)."""
    _GAMES[cls.name] = cls
    return cls


def registered_games() -> dict[str, type["Game"]]:
    """The games registered so far, by name (``core.registry.load_games`` imports them all)."""
    return dict(_GAMES)


def game_class(name: str) -> type["Game"]:
    """The class of game ``name``; the game packages of the entry points are imported if needed."""
    if name not in _GAMES:
        load_games()
    try:
        return _GAMES[name]
    except KeyError:
        if not _GAMES:
            raise InvalidSetup(Message("unknown game {name}; known games: none registered", name=repr(name))) from None
        raise InvalidSetup(Message("unknown game {name}; known games: {games}", name=repr(name),
                                   games=", ".join(sorted(_GAMES)))) from None



def load_games() -> dict[str, type["Game"]]:
    """Import every game package of the entry points (once) and return the registered games by name."""
    global _loaded
    if not _loaded:
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            entry.load()
        _loaded = True
    return registered_games()


def descriptions() -> list["GameDescription"]:
    """The description of every game, in the order lists show them."""
    games = load_games().values()
    return sorted((cls.description for cls in games), key=lambda d: (d.order, d.name))


def description_of(name: str) -> "GameDescription":
    """The description of game ``name`` (InvalidSetup naming the known games if there is none)."""
    return game_class(name).description

