from contextlib import contextmanager

import pytest

from hippodrome.core.game import _GAMES, register_game
from hippodrome.turfmaster.course import load_course


@contextmanager
def registered(*games):
    """Made-up games registered for a test, and forgotten after it."""
    for game in games:
        register_game(game)
    try:
        yield
    finally:
        for game in games:
            del _GAMES[game.name]


@pytest.fixture(scope="session")
def oval():
    return load_course("oval")


@pytest.fixture(scope="session")
def triangle():
    return load_course("triangle")
