"""The accounts' part of the server, put in with one call from ``create_app``: the routers
(accounts and sessions, players and ratings, replays and reviews, Play again) and the watch on tables that end."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from hippodrome.server.accounts.passkeys import passkeys_router
from hippodrome.server.accounts.player_routes import players_router
from hippodrome.server.accounts.replay_routes import replay_router
from hippodrome.server.accounts.review_routes import review_router
from hippodrome.server.accounts.routes import accounts_router
from hippodrome.server.accounts.service import Accounts, AccountSettings
from hippodrome.server.accounts.watch import TableEnds
from hippodrome.server.again import again_router
from hippodrome.server.replays import Replays
from hippodrome.server.review_settings import ReviewSettings
from hippodrome.server.reviews import Reviews


def install(app: FastAPI, hub: Any, settings: AccountSettings | None,
            review_settings: ReviewSettings = ReviewSettings()) -> Accounts:
    """Accounts on ``hub``'s storage and writer: ``app.state.accounts``; every table the hub runs
    is watched for its end (``hub.on_run``); the finished tables' reviews: ``app.state.reviews``."""
    accounts = Accounts(hub.storage, hub.writer, settings)
    app.state.accounts = accounts
    app.state.table_ends = TableEnds(accounts)
    hub.on_run.append(app.state.table_ends.watch)
    app.include_router(accounts_router(accounts))
    app.include_router(passkeys_router(accounts))
    app.include_router(players_router(accounts))
    # before the app's own /api/tables/{id}/{lookup}: a game's look-up is never called "replay"
    app.include_router(replay_router(accounts, Replays()))
    app.state.reviews = Reviews(hub.storage, hub.writer, review_settings)
    app.include_router(review_router(accounts, app.state.reviews))
    app.include_router(again_router(hub, accounts))
    return accounts
