"""The setup checks a meeting and a single race share (rulings T7, T10, T11).

:class:`~hippodrome.turfmaster.meeting.Meeting` and :class:`~hippodrome.turfmaster.race.Race`
both read a JSON setup with a course, the steeplechase flag and a list of horses; each refusal
here is an :class:`~hippodrome.core.errors.InvalidSetup` carrying a translatable message that says
what would be right. The texts' "Preparación" (T7) fixes how many horses each player runs.

JSON keys ('players', 'horses', ...) and the horses' ids ("red") stay in English in every
language: they are what a person types into a setup.
"""

from __future__ import annotations

from typing import Any

from hippodrome.core.errors import InvalidSetup, given
from hippodrome.i18n import Message, Plural
from hippodrome.turfmaster.cards import HORSE_COLOURS, HORSE_IDS
from hippodrome.turfmaster.course import Course
from hippodrome.turfmaster.position import course_and_fences

#: players -> the numbers of horses each player may run (the texts' "Preparación", T7)
HORSES_PER_PLAYER: dict[int, tuple[int, ...]] = {2: (2, 3, 4), 3: (2,), 4: (1, 2), 5: (1,), 6: (1,),
                                                 7: (1,), 8: (1,)}
MIN_PLAYERS, MAX_PLAYERS = min(HORSES_PER_PLAYER), max(HORSES_PER_PLAYER)

#: a small valid setup of each game, shown when a setup is not a JSON object at all
SETUP_EXAMPLES = {
    "turfmaster": '{"players": 4, "course": "oval"}',
    "turfmaster-race": '{"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}',
}


def whole_number(value: Any) -> bool:
    """An int that is not a bool (JSON's true is no count of anything)."""
    return isinstance(value, int) and not isinstance(value, bool)


def setup_object(setup: Any, game: str) -> dict[str, Any]:
    """``setup`` itself, refused unless it is a JSON object."""
    if not isinstance(setup, dict):
        # NOTE: {game} is the game's id ("turfmaster" or "turfmaster-race"); {example} is JSON: keep it.
        raise InvalidSetup(Message("a {game} setup must be a JSON object, such as {example}",
                                   game=game, example=SETUP_EXAMPLES[game]))
    return setup


def setup_course(setup: dict[str, Any]) -> tuple[Course, bool]:
    """The course and whether it is run as a steeplechase (T11); oval and flat by default."""
    return course_and_fences(setup.get("course", "oval"), setup.get("steeplechase", False))


def allowed_horses(players: Any) -> tuple[int, ...]:
    """How many horses each of ``players`` players may run (T7); InvalidSetup outside 2 to 8."""
    if not whole_number(players):
        # NOTE: 'players' is a key of the setup's JSON: keep it in English.
        raise InvalidSetup(Message("'players' must be a number of players from {low} to {high}, not {value}",
                                   low=MIN_PLAYERS, high=MAX_PLAYERS, value=given(players)))
    if players not in HORSES_PER_PLAYER:
        raise InvalidSetup(Message("TurfMaster is played by {low} to {high} players, not {players}",
                                   low=MIN_PLAYERS, high=MAX_PLAYERS, players=players))
    return HORSES_PER_PLAYER[players]


def horses_per_player(players: int, value: Any, name: str = "'horses_per_player'") -> int:
    """``value`` if ``players`` players may each run that many horses (T7); ``name``: what the
    refusal calls the value (the setup's key, or a command's option such as ``--horses``)."""
    allowed = allowed_horses(players)
    if whole_number(value) and value in allowed:
        return value
    if len(allowed) > 1:
        # NOTE: TurfMaster, rule T7 (at least 4 horses race); {name} is the setup's key 'horses_per_player' or
        # a command's option --horses: keep it as it is.
        raise InvalidSetup(Message("with {players} players, {name} must be from {low} to {high} "
                                   "(at least 4 horses race), not {value}", players=players, name=name,
                                   low=allowed[0], high=allowed[-1], value=given(value)))
    # NOTE: TurfMaster, rule T7 (at least 4 horses race); {name} is the setup's key 'horses_per_player' or a
    # command's option --horses: keep it as it is. {count} is 1 or 2.
    raise InvalidSetup(Message("with {players} players, {name} must be {count} "
                               "(at least 4 horses race), not {value}",
                               players=players, name=name, count=allowed[0], value=given(value)))


def horse_list(horses: Any, course: Course) -> list[Any]:
    """``horses`` if it is a list of 1 to ``course.lanes`` entries (one per stall, T10)."""
    if not isinstance(horses, list) or not 1 <= len(horses) <= course.lanes:
        # NOTE: 'horses' is a key of the setup's JSON: keep it in English.
        raise InvalidSetup(Message("'horses' must list 1 to {lanes} horses, inner stall first", lanes=course.lanes))
    return horses


def race_horses(setup: dict[str, Any], course: Course) -> Any:
    """A single race's ``horses``: as given, or, for ``{"players": P, "horses_per_player": H}``
    (H is 1 by default), the deck file's colours in order, H per seat (seat 0's first)."""
    if "horses" in setup or "players" not in setup:
        return setup.get("horses")
    players, per_player = setup["players"], setup.get("horses_per_player", 1)
    if not whole_number(players) or not 1 <= players <= course.lanes:
        # NOTE: 'players' is a key of the setup's JSON: keep it in English.
        raise InvalidSetup(Message("'players' must be a number of players from {low} to {high}, not {value}",
                                   low=1, high=course.lanes, value=given(players)))
    most = course.lanes // players
    if not whole_number(per_player) or not 1 <= per_player <= most:
        # NOTE: 'horses_per_player' is a key of the setup's JSON: keep it in English; one horse per lane.
        raise InvalidSetup(Message("with {players} players, 'horses_per_player' must be from 1 to {high} "
                                   "(one horse per lane), not {value}",
                                   players=players, high=most, value=given(per_player)))
    return [{"id": HORSE_IDS[seat * per_player + n], "owner": seat}
            for seat in range(players) for n in range(per_player)]


def check_horse_ids(ids: list[Any], course: Course) -> None:
    """The horses of a race or meeting: 1 to ``course.lanes`` of them, each a colour of the deck
    file, none twice (one horse per lane in the stalls, T10)."""
    horse_list(ids, course)
    for horse in ids:
        if horse not in HORSE_COLOURS:
            # NOTE: {horse} is what the setup gave, in quotes; {ids} lists the horses' ids ("red, blue, ..."),
            # which stay in English.
            raise InvalidSetup(Message("there is no horse {horse}; the horses are: {ids}",
                                       horse=given(horse), ids=", ".join(HORSE_IDS)))
    seen: set[str] = set()
    for horse in ids:
        if horse in seen:
            # NOTE: {horse} is a horse's id, in quotes.
            raise InvalidSetup(Message("horse {horse} is listed twice; each horse runs once", horse=given(horse)))
        seen.add(horse)


def seat_names(setup: dict[str, Any], players: int) -> list[str] | None:
    """A meeting's optional ``names``: one non-empty name per seat."""
    names = setup.get("names")
    if names is not None and (not isinstance(names, list) or len(names) != players
                              or not all(isinstance(n, str) and n for n in names)):
        # NOTE: 'names' is a key of the setup's JSON: keep it in English. {players} is 2 to 8.
        raise InvalidSetup(Message("'names' must list {players} non-empty names, one per seat, in seat order",
                                   players=players))
    return None if names is None else list(names)


def seat_horses(setup: dict[str, Any], players: int, per_player: int, course: Course) -> list[list[str]]:
    """A meeting's horses, seat by seat: ``horses`` if given, else the deck file's colours in order."""
    colours = setup.get("horses")
    if colours is None:
        return [list(HORSE_IDS[seat * per_player:(seat + 1) * per_player]) for seat in range(players)]
    if (not isinstance(colours, list) or len(colours) != players
            or not all(isinstance(c, list) and len(c) == per_player for c in colours)):
        # NOTE: 'horses' is a key of the setup's JSON: keep it in English. {players} is 2 to 8; each
        # list holds horses' ids such as "red".
        raise InvalidSetup(Plural("'horses' must give each of the {players} seats a list of {n} horse",
                                  "'horses' must give each of the {players} seats a list of {n} horses",
                                  per_player, players=players))
    check_horse_ids([horse for seat in colours for horse in seat], course)
    return [list(seat) for seat in colours]
