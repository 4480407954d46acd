"""The web server: lobby, tables over websockets, SQLite storage (see docs/protocol.md).

``create_app`` is imported on first use: the command line's other commands (a replay, a move
checked at the table) start without loading the web framework."""

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from hippodrome.server.app import create_app
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")  # i18n: programming error
