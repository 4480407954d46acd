"""The lobby's questions about a setup, answered from the game's description alone.

``check_setup`` says what a setup would make before a table is created: the seats (with their
roles' words), the adjustments the form needs for the values chosen so far (T7's horses per
player, a steeplechase only on a course with fences), or why the game refuses it.
``checked_setup`` refuses, before the game sees it, a setup that is not an object, holds a key
the game's description does not list (its fields and its ``extra_setup_keys``), or names a seat
with more than ``MAX_NAME`` characters. ``table_options`` reads and checks the options of the
table itself (seconds between rolls).
"""

from __future__ import annotations

from typing import Any, Mapping

from hippodrome.core.description import BOOLEAN, CHOICE, INTEGER, NUMBER, SEAT_NAMES, GameDescription, SetupField
from hippodrome.core.errors import HippodromeError, InvalidSetup
from hippodrome.core.registry import game_class
from hippodrome.i18n import Message
from hippodrome.server.localize import error_details, quoted
from hippodrome.server.seating import MAX_NAME, fit_name


def check_setup(description: GameDescription, setup: Any, lang: str) -> dict[str, Any]:
    """``{"fields": adjustments, "seats": [...] | None, "error": details | None}`` for ``setup``."""
    if not isinstance(setup, dict):
        setup = {}
    fields = description.form(setup)
    try:
        state = game_class(description.name).new(checked_setup(description, setup))
    except HippodromeError as error:
        return {"fields": fields, "seats": None, "error": error_details(error, lang)}
    return {"fields": fields, "seats": description.seats(state).to_json(), "error": None}


def checked_setup(description: GameDescription, setup: Any) -> dict[str, Any]:
    """``setup`` if it is a JSON object of the game's setup keys whose seat names are short enough
    (InvalidSetup saying what is wrong otherwise); the game itself checks the values."""
    if not isinstance(setup, dict):
        raise InvalidSetup(Message("'setup' must be a JSON object"))
    accepted = description.setup_keys()
    for key in setup:
        if key not in accepted:
            # NOTE: {key} is what the request gave; {keys} lists the setup's keys, which stay in English.
            raise InvalidSetup(Message("a {game} setup has no key {key}; its keys are: {keys}", game=description.name,
                                       key=quoted(key), keys=", ".join(accepted)))
    for entry in description.setup_fields():
        names = setup.get(entry.key)
        if entry.kind == SEAT_NAMES and names is not None and (
                not isinstance(names, list) or not all(fit_name(name) for name in names)):
            # NOTE: {key} is a key of the setup's JSON ('names'): keep it in English.
            raise InvalidSetup(Message("'{key}' must list the seats' names, each text of at most {n} characters, "
                                       "without control characters such as a line break", key=entry.key, n=MAX_NAME))
    return setup


#: the keys of a create request besides the game's table options
REQUEST_KEYS = ("game", "setup", "seats", "wait_for_host")


def table_options(description: GameDescription, request: Mapping[str, Any]) -> dict[str, Any]:
    """The table's options (the description's ``table_option`` fields) from a create request,
    each checked against its limits; the default where the request gives none. A key the request
    may not hold (a misspelt option, options nested under a key of their own) is refused, not
    left out unseen."""
    options = description.table_options()
    accepted = [*REQUEST_KEYS, *(entry.key for entry in options)]
    for key in request:
        if key not in accepted:
            # NOTE: {key} is what the request gave; {keys} lists the keys a new table's JSON may hold
            # (kept in English); {game} is the game's name.
            raise InvalidSetup(Message("a new {game} table has no key {key}; its keys are: {keys}",
                                       game=description.name, key=quoted(key), keys=", ".join(accepted)))
    return {entry.key: checked_option(entry, request.get(entry.key, entry.default)) for entry in options}


def checked_option(entry: SetupField, value: Any) -> Any:
    if entry.kind in (INTEGER, NUMBER):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if entry.kind == INTEGER:
            number = number and float(value).is_integer()
        low = entry.minimum if entry.minimum is not None else float("-inf")
        high = entry.maximum if entry.maximum is not None else float("inf")
        if not number or not low <= value <= high:
            # NOTE: {key} is a key of the table's JSON (such as 'pace'), {label} its meaning in words.
            raise InvalidSetup(Message("'{key}' ({label}) must be a number from {low} to {high}",
                                       key=entry.key, label=entry.label, low=entry.minimum, high=entry.maximum))
        return int(value) if entry.kind == INTEGER else float(value)
    if entry.kind == BOOLEAN and not isinstance(value, bool):
        # NOTE: {key} is a key of the table's JSON, {label} its meaning in words.
        raise InvalidSetup(Message("'{key}' ({label}) must be true or false", key=entry.key, label=entry.label))
    if entry.kind == CHOICE and value not in [choice.value for choice in entry.choices]:
        # NOTE: {key} is a key of the table's JSON, {label} its meaning in words; {values} the values allowed.
        raise InvalidSetup(Message("'{key}' ({label}) must be one of {values}", key=entry.key, label=entry.label,
                                   values=", ".join(repr(choice.value) for choice in entry.choices)))
    return value
