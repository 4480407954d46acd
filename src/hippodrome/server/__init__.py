"""The web server: lobby, tables over websockets, SQLite storage (see docs/protocol.md)."""

from hippodrome.server.app import create_app

__all__ = ["create_app"]
