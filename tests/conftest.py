import os
import sys
from contextlib import contextmanager
from pathlib import Path

# The suite starts many Python processes (servers, bot and review workers, commands), and each test
# worker rewrites every test module's asserts: where the environment says to write no bytecode
# (PYTHONDONTWRITEBYTECODE, which some sandboxes set) each of them compiles it all again. The tests
# write their caches (ignored by git) whatever it says.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest  # noqa: E402  (after the bytecode setting: the test modules are rewritten after it)

from hippodrome.core.registry import _GAMES, register_game  # noqa: E402
from hippodrome.turfmaster.course import load_course  # noqa: E402


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


#: pytest-xdist's workers (``-n auto`` in pyproject's addopts), with or without the browser tests:
#: on two cores the tests wait for processes, clocks, sockets and chromium for part of their time,
#: which a third worker fills (docs/development.md)
WORKERS = 3


def pytest_xdist_auto_num_workers(config):
    return WORKERS


BROWSER_TESTS = Path(__file__).parent / "browser"
SERVICE_FIXTURES = {"postgres_url", "redis_url", "shared_postgres_url", "shared_redis_url"}


def leaves_out_browser(config) -> bool:
    """Whether the mark expression (``-m``) deselects every browser test, whatever other marker
    (``slow``, ``services``) it carries."""
    markexpr = config.getoption("markexpr")
    if not markexpr or "browser" not in markexpr:
        return False
    try:
        from _pytest.mark.expression import Expression   # pytest's own -m parser
        expression = Expression.compile(markexpr)
    except Exception:   # another pytest's, or an expression pytest will refuse itself
        return False
    for extra in (set(), {"slow"}, {"services"}, {"slow", "services"}):
        marks = {"browser", *extra}
        if expression.evaluate(lambda name, /, **_: name in marks):
            return False
    return True


def pytest_ignore_collect(collection_path, config):
    """tests/browser/ is not imported when ``-m`` leaves its tests out: each worker would import
    and rewrite its modules (and Playwright) only to deselect every test in them."""
    if collection_path == BROWSER_TESTS and leaves_out_browser(config):
        return True
    return None


def pytest_collection_modifyitems(items):
    """The markers that follow from where a test is and what it uses: ``browser`` for
    tests/browser/, ``services`` for a test using PostgreSQL or Redis."""
    for item in items:
        if BROWSER_TESTS in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
        if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)
