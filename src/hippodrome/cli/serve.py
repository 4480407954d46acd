"""``hippodrome serve``: the local game server (lobby, tables, pages) with SQLite storage."""

from __future__ import annotations

import threading
import webbrowser
from typing import List, Optional

import typer

from hippodrome.i18n import Message, help_text, lang_option, localize_error
from hippodrome.server import quota
from hippodrome.server.review_settings import ReviewSettings


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help=help_text(
        "Address to listen on (0.0.0.0: the whole network).")),
    port: int = typer.Option(8765, "--port", help=help_text("Port to listen on (0: any free port).")),
    no_browser: bool = typer.Option(False, "--no-browser", help=help_text("Do not open the lobby in a browser.")),
    db: Optional[str] = typer.Option(None, "--db", help=help_text(
        "SQLite file path or sqlite:///path URL (default: $XDG_DATA_HOME/hippodrome/hippodrome.sqlite3), "
        "or postgresql://user@host/database to share the tables between several server processes.")),
    bus: Optional[str] = typer.Option(None, "--bus", metavar="URL", help=help_text(
        "redis://host:port of the bus between the server processes of one PostgreSQL database "
        "(the lobby of each lists every table; needs --db postgresql://...).")),
    advertise: Optional[str] = typer.Option(None, "--advertise", metavar="URL", help=help_text(
        "Where the other server processes reach this one, such as http://10.0.0.5:8765 "
        "(default: the address it listens on).")),
    bot_delay: float = typer.Option(0.6, "--bot-delay", help=help_text("Seconds a bot waits before it moves.")),
    allow_origin: Optional[List[str]] = typer.Option(None, "--allow-origin", metavar="URL", help=help_text(
        "Another site whose pages may create tables and play here, such as https://games.example "
        "(repeatable; the server's own pages always may).")),
    quota_tables: int = typer.Option(quota.TABLES.count, "--quota-tables", min=1, help=help_text(
        "Tables one address may create in an hour.")),
    quota_connections: int = typer.Option(quota.CONNECTIONS.count, "--quota-connections", min=1, help=help_text(
        "Connections one address may open in a minute.")),
    archive_after: float = typer.Option(600.0, "--archive-after", min=0, metavar="SECONDS", help=help_text(
        "Seconds a finished table stays in memory once nobody watches it; then it is loaded from "
        "the database when someone opens it.")),
    bot_workers: int = typer.Option(1, "--bot-workers", min=0, metavar="N", help=help_text(
        "Processes the bots think in, beside the server's own (0: threads of the server's process, "
        "where a bot's thinking slows every table).")),
    review_workers: int = typer.Option(ReviewSettings.workers, "--review-workers", min=0, metavar="N", help=help_text(
        "Processes the reviews of finished games are made in, at a lower priority than the bots "
        "(0: the server makes no reviews).")),
    review_playouts: Optional[int] = typer.Option(None, "--review-playouts", min=1, metavar="N", help=help_text(
        "Playouts a decision in a review that plays decisions out, instead of its time budget (for tests and benchmarks).")),
    review_share: float = typer.Option(ReviewSettings.share, "--review-share", min=0.01, max=1.0, metavar="FRACTION", help=help_text(
        "The share of a core each review may take while live tables keep the server busy (1: all it can get).")),
    review_idle: bool = typer.Option(ReviewSettings.idle, "--review-idle/--no-review-idle", help=help_text(
        "Make reviews only while nothing else wants the processor (--no-review-idle: at the bots' "
        "priority, for a machine that other work keeps busy).")),
    reviews_at_once: int = typer.Option(ReviewSettings.waiting, "--reviews-at-once", min=1, metavar="N", help=help_text(
        "Reviews the server makes or keeps waiting at once; past that a request is asked to come back later.")),
    think: Optional[float] = typer.Option(None, "--think", min=0.01, max=60, metavar="SECONDS", help=help_text(
        "Seconds a search bot thinks per decision (default: 1).")),
    forwarded_allow_ips: Optional[List[str]] = typer.Option(None, "--forwarded-allow-ips", metavar="ADDRESS", help=help_text(
        "A proxy in front of this server, such as 127.0.0.1 or 10.0.0.0/8, whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (repeatable; default: none, so no client can claim another address).")),
    connections_per_address: int = typer.Option(100, "--connections-per-address", min=1, metavar="N", help=help_text(
        "Connections one address may hold open at once (the proxies of --forwarded-allow-ips are not counted).")),
    quota_messages: int = typer.Option(60, "--quota-messages", min=1, metavar="N", help=help_text(
        "Messages one websocket connection may send in 10 seconds; past that it is told why and closed.")),
    log_format: str = typer.Option("text", "--log-format", metavar="text|json", help=help_text(
        "How the server's log lines are written: text, or json (one JSON object a line, naming its table).")),
    lang: str = lang_option(),
) -> None:
    import socket

    from hippodrome.server.app import create_app
    from hippodrome.server.guard import allowed_origins
    from hippodrome.server.storage import describe_db
    from hippodrome.server.collector import tune_for_server
    from hippodrome.server import logs
    from hippodrome.server.limits import Limits, trusted_networks
    from hippodrome.server.drain import DrainingServer
    from hippodrome.server.serving import uvicorn_config

    def say(message: Message, err: bool = False) -> None:
        typer.echo(message.translate(lang), err=err)

    if log_format not in logs.FORMATS:
        say(Message("--log-format is text or json, not {value}", value=repr(log_format)), err=True)
        raise typer.Exit(2)
    logs.configure(log_format)
    try:
        origins = allowed_origins(allow_origin or ())
    except ValueError as error:
        typer.echo(localize_error(error, lang), err=True)  # says which value and what an origin looks like
        raise typer.Exit(2)
    limits = Limits(per_address=connections_per_address, messages=quota.Quota(quota_messages, 10.0))
    try:
        trusted_networks(forwarded_allow_ips or ())
    except ValueError as error:
        typer.echo(localize_error(error, lang), err=True)  # says which value and what a proxy's address looks like
        raise typer.Exit(2)
    try:
        app = create_app(db, bot_delay=bot_delay, allowed_origins=origins,
                         table_quota=quota.Quota(quota_tables, quota.TABLES.seconds),
                         connection_quota=quota.Quota(quota_connections, quota.CONNECTIONS.seconds),
                         archive_after=archive_after, bus=bus, bot_workers=bot_workers, limits=limits,
                         bot_budget=think, reviews=ReviewSettings(review_workers, reviews_at_once, review_playouts, review_share,
                                                                        review_idle))
    except (ValueError, OSError) as error:
        say(Message("cannot open the database: {error}", error=localize_error(error, lang)), err=True)
        raise typer.Exit(2)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections made from now on wait for the server instead of being refused
    except OSError as error:
        say(Message("cannot listen on {address}: {reason}; choose another --port",
                    address=f"{host}:{port}", reason=error.strerror or str(error)), err=True)
        raise typer.Exit(2)
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    say(Message("hippodrome is serving at {url}  (database: {db}; Ctrl+C stops it)", url=url, db=describe_db(db)))
    if app.state.hub.cluster is not None:
        app.state.hub.cluster.address = advertise or url
    if not no_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    tune_for_server()
    server = DrainingServer(uvicorn_config(app, limits, forwarded_allow_ips or ()), app)   # SIGTERM: drain first
    server.run(sockets=[sock])


# Typer shows a command's docstring as its help: this one in the environment's language.
serve.__doc__ = help_text("Start the game server, print its address and open it in the browser.")
