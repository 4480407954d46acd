"""Records of finished games (``simulate --save``, ``play --save``: ``Match.record()``) stored in a
server's database as finished tables, so that the server replays and reviews them as it does the
tables played on it (the benchmarks and the tests fill a database so)."""

from __future__ import annotations

from typing import Any, Sequence

from hippodrome.server.storage import hash_token


def store_record(storage: Any, table_id: str, record: dict[str, Any], names: Sequence[str]) -> None:
    """``record`` (a finished game's) stored as the finished table ``table_id``, its seats named
    ``names`` (bots: nobody holds them), in ``storage`` (either kind)."""
    seats = [{"name": name, "kind": "bot", "level": "random", "token_hash": hash_token(f"{table_id}-{n}")}
             for n, name in enumerate(names)]
    storage.create_table(table_id, record["game"], record["setup"], record["seed"], seats, hash_token(table_id), {},
                         record.get("rulings"))
    storage.save_progress(table_id, record["log"], len(record["log"]), over=True, paused=False)
