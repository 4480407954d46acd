"""Specific error classes: each says what was wrong and what would be right."""

from __future__ import annotations


class HippodromeError(Exception):
    """Base of every error the project raises on purpose."""


class InvalidSetup(HippodromeError):
    """A game, position or table description that cannot be played."""


class IllegalAction(HippodromeError):
    """An action that the rules do not allow now; the state is left unchanged.

    ``allowed`` lists the actions that would have been legal, so a front end can
    show them next to the message.
    """

    def __init__(self, message: str, allowed: tuple = ()):  # noqa: D107
        super().__init__(message)
        self.allowed = tuple(allowed)
