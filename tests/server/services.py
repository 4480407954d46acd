"""The PostgreSQL and Redis the scale-out tests use for real (issue 15.5).

``HIPPODROME_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``) and
``HIPPODROME_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``) name them. Absent, their tests
skip, unless ``HIPPODROME_REQUIRE_SERVICES`` is set (``.ci/run`` sets it, after starting them):
then they fail. Each test gets a PostgreSQL schema of its own (dropped afterwards); the bus's
channels are named after the database's own id, so tests in parallel never see each other's
tables or messages.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from contextlib import contextmanager
from typing import Iterator

import pytest

POSTGRES = os.environ.get("HIPPODROME_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("HIPPODROME_TEST_REDIS", "redis://127.0.0.1:6379/0")


def unavailable(what: str, error: Exception):
    if os.environ.get("HIPPODROME_REQUIRE_SERVICES"):
        pytest.fail(f"{what} is required (HIPPODROME_REQUIRE_SERVICES) but not reachable: {error}")
    pytest.skip(f"{what} not reachable: {error}")


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (libpq's ``options=-csearch_path=...``)."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query) + [("options", f"-csearch_path={schema}")]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a fresh schema, dropped afterwards."""
    try:
        import psycopg
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=5)
    except Exception as error:  # not installed, not running
        unavailable("PostgreSQL", error)
    schema = f"t_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield with_search_path(POSTGRES, schema)
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def reachable_redis() -> str:
    """The Redis URL, once Redis answered a PING."""
    try:
        import redis
        client = redis.Redis.from_url(REDIS, socket_connect_timeout=5)
        client.ping()
        client.close()
    except Exception as error:
        unavailable("Redis", error)
    return REDIS


@pytest.fixture
def postgres_url():
    """A PostgreSQL URL whose tables live in a fresh schema, dropped after the test."""
    with fresh_schema() as url:
        yield url


@pytest.fixture
def redis_url():
    """The Redis URL, once Redis answered a PING."""
    return reachable_redis()


@pytest.fixture(scope="module")
def shared_postgres_url():
    """A fresh schema's URL, as ``postgres_url``, shared by the tests of a module."""
    with fresh_schema() as url:
        yield url


@pytest.fixture(scope="module")
def shared_redis_url():
    """``redis_url`` for a module's shared fixtures."""
    return reachable_redis()
