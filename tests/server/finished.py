"""Finished tables written straight into a database (as a server stores them when they end), for
the tests of what a server does with finished tables: replays, reviews."""

from __future__ import annotations

from hippodrome.core.bot import RandomBot
from hippodrome.server.imported import store_record
from hippodrome.server.storage import open_storage
from hippodrome.table.table import Player, Table

#: a TurfMaster meeting of two players with two horses each on the oval (about 500 log entries)
MEETING = {"players": 2, "horses_per_player": 2, "course": "oval", "steeplechase": False}
NAMES = ("Ana", "Bo")


def finished_meeting(seed: str) -> dict:
    """The record of a meeting random bots played to its end."""
    table = Table("turfmaster", MEETING, [Player(name, RandomBot(seed=n)) for n, name in enumerate(NAMES)], seed=seed)
    table.run_bots()
    assert table.over
    return table.record()


def finished_tables(db: str, tables: dict[str, dict]) -> None:
    """Each record of ``tables`` (by table id) stored in the database ``db`` as a finished table."""
    storage = open_storage(db)
    try:
        for table_id, record in tables.items():
            store_record(storage, table_id, record, NAMES)
    finally:
        storage.close()
