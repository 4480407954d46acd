"""Why can my horse not end its move on that square? The "why" look-up of both TurfMaster games'
descriptions: private, for the seat deciding a move, asked when the player taps a square the move
cannot end on.

:func:`obstacle` finds the reason with the movement rules themselves (``movement.destinations`` and
``movement.reach``), in this order: the horse's own square, a fence square (T11), a square another
horse stands on or blocks (T4), a square the move passes but may not stop on because the horse must
use every point it can (T5), a square other horses cut off (T4, naming the one whose removal opens
the way), a square beyond the points (T5; T11 when a fence jump is on the way), one that would take
more lane changes than a move allows (T3), one that is not ahead (T3). :func:`why` answers the page
with the reason in words (a Message) and the ruling it comes from, so that the page links the rules
page's paragraph; it never reads hidden information (squares and handicaps are public, the
card or die is the seat's own option).
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Decision
from hippodrome.i18n import Message, Plural
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.cards import card_value
from hippodrome.turfmaster.course import Course
from hippodrome.turfmaster.movement import blocked_squares, destinations, reach
from hippodrome.turfmaster.race import spent_without_moving

#: the options whose move can be explained before it is made
MOVES = ("card", "die")
#: how many points beyond the move a square may lie and still be measured ("12 points away")
FAR = 12


class Obstacle(NamedTuple):
    """Why a move cannot end on a square: ``reason`` (a code, "" when it can), the ruling, the other
    horse concerned, the points the square lies away (``needed``), the handicap limit (``limit``)."""

    reason: str
    rule: str | None = None
    other: str | None = None
    needed: int | None = None
    limit: int | None = None


REACHABLE = Obstacle("")


def obstacle(course: Course, start: int, points: int, others: Mapping[str, int], fences: frozenset[int],
             target: int) -> Obstacle:
    """Why a horse on ``start`` moving ``points`` cannot end on ``target``, among the horses
    ``others`` (id -> square; the ones still running) on a course with ``fences``."""
    blocked = blocked_squares(course, others.values())
    moves = destinations(course, start, points, blocked, fences)
    if target in moves.ends:
        return REACHABLE
    if target == start:
        return Obstacle("here", "T3")
    if target in fences:
        return Obstacle("fence", "T11")
    for other, square in others.items():
        if square == target:
            return Obstacle("occupied", "T4", other)
        if course.next[square] == target:
            return Obstacle("ahead_of", "T4", other)
        if course.prev[square] == target:
            return Obstacle("behind", "T4", other)
    passed = reach(course, start, points, blocked, fences)
    if target in passed:
        return Obstacle("full_move", "T5", needed=passed[target])
    if target in reach(course, start, points, frozenset(), fences):
        return _in_the_way(course, start, points, others, fences, target)
    far = reach(course, start, points + FAR, frozenset(), fences)
    if target in far:
        flat = reach(course, start, points + FAR, frozenset()).get(target, far[target])
        return Obstacle("too_far_fence" if far[target] > flat else "too_far", "T11" if far[target] > flat else "T5",
                        needed=far[target])
    if target in reach(course, start, points + FAR, frozenset(), fences, any_lane_change=True):
        return Obstacle("lane_changes", "T3")
    if course.line_of[target] <= course.line_of[start]:
        return Obstacle("not_ahead", "T3")
    return Obstacle("out_of_reach", "T5")


def _in_the_way(course: Course, start: int, points: int, others: Mapping[str, int], fences: frozenset[int],
                target: int) -> Obstacle:
    """The horse whose blocked squares cut every way to ``target`` (T4): the first whose absence opens one."""
    for other in others:
        rest = blocked_squares(course, [s for h, s in others.items() if h != other])
        if target in reach(course, start, points, rest, fences):
            return Obstacle("blocked", "T4", other)
    return Obstacle("blocked_by_many", "T4")


def explain(found: Obstacle, horse: str, points: int) -> Message | None:
    """The obstacle in one plain sentence (None: the square can be reached)."""
    name = horse_name(horse)
    other = horse_name(found.other) if found.other else ""
    reason = found.reason
    if not reason:
        return None
    if reason == "here":
        # NOTE: TurfMaster: the player tapped the square its own horse stands on.
        return Message("{horse} stands here: a move always goes forward.", horse=name)
    if reason == "fence":
        # NOTE: TurfMaster, rule T11: the player tapped a square on which a fence stands.
        return Message("No horse stops on a fence: it jumps from the square before it to the square after it.")
    if reason == "occupied":
        # NOTE: TurfMaster, rule T4: {other} is a horse's name.
        return Message("{other} stands on this square.", other=other)
    if reason == "ahead_of":
        # NOTE: TurfMaster, rule T4: {other} is a horse's name.
        return Message("This square is right in front of {other}: no other horse may stop on it or pass through it.",
                       other=other)
    if reason == "behind":
        # NOTE: TurfMaster, rule T4: {other} is a horse's name.
        return Message("This square is right behind {other}: no other horse may stop on it or pass through it.",
                       other=other)
    if reason == "full_move":
        # NOTE: TurfMaster, rule T5: {horse} is a horse's name; {n} the points to the square tapped, fewer
        # than the move.
        return Plural("{horse} must use every point it can, and this square is only {n} point away.",
                      "{horse} must use every point it can, and this square is only {n} points away.",
                      found.needed, horse=name)
    if reason == "blocked":
        # NOTE: TurfMaster, rule T4: {other} is a horse's name.
        return Message("{other} is in the way: no horse may pass another horse or the squares right in front of "
                       "and behind it.", other=other)
    if reason == "blocked_by_many":
        # NOTE: TurfMaster, rule T4.
        return Message("Other horses block every way to this square.")
    if reason in ("too_far", "too_far_fence"):
        if reason == "too_far":
            # NOTE: TurfMaster, rule T5: {needed} points from the horse to the square tapped; {horse} is a
            # horse's name; {n} the points of its move.
            return Plural("This square is {needed} points away, and {horse} has only {n} point.",
                          "This square is {needed} points away, and {horse} has only {n} points.",
                          points, needed=found.needed, horse=name)
        # NOTE: TurfMaster, rule T11: as "This square is {needed} points away...", a fence jump on the way.
        return Plural("This square is {needed} points away (a fence jump costs 4), and {horse} has only {n} point.",
                      "This square is {needed} points away (a fence jump costs 4), and {horse} has only {n} points.",
                      points, needed=found.needed, horse=name)
    if reason == "lane_changes":
        # NOTE: TurfMaster, rule T3: the square tapped needs more lane changes than one move allows.
        return Message("Getting there takes more lane changes than a move allows: one on its first point, and one "
                       "more from its 7th point on.")
    if reason == "not_ahead":
        # NOTE: TurfMaster, rule T3: {horse} is a horse's name.
        return Message("{horse} only moves forward: this square is not ahead of it.", horse=name)
    if reason == "spent":
        # NOTE: TurfMaster, rule T6: {horse} is a horse's name; {limit} the most squares its handicap allows
        # (8, 9 or 10: the limit, not the handicap's number).
        return Message("This card is above {horse}'s limit of {limit}: it is spent and {horse} does not move.",
                       horse=name, limit=found.limit)
    # NOTE: TurfMaster, rule T5: the square tapped is far beyond the move.
    return Message("This square is out of reach of this move.")


def _race_of(game: Any) -> Any:
    """The race a TurfMaster game is running: a meeting's race in progress, or the race itself."""
    race = getattr(game, "race", None)
    return race if race is not None and hasattr(race, "square") else game


def _asked_square(course: Course, asked: Any) -> int:
    if isinstance(asked, dict) and all(isinstance(asked.get(k), int) and not isinstance(asked.get(k), bool)
                                       for k in ("lane", "square")):
        try:
            return course.square(asked["lane"], asked["square"])
        except InvalidSetup as error:
            raise IllegalAction(error.args[0]) from None
    raise IllegalAction(Message("'why' needs 'square': a square such as {example}",
                                example='{"lane": 0, "square": 12}'))


def why(game: Any, seat: int | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"reachable", "reason", "rule", "message", "points"}``: whether the horse that ``seat`` moves
    now can end on ``params["square"]`` (``{"lane", "square"}``) and, if not, why. During a card or
    die decision ``params["action"]`` is the card or die option the question is about; during a
    square decision the move's points are known. IllegalAction for anybody else, or anything else."""
    pending = game.pending()
    if not isinstance(pending, Decision) or pending.seat != seat or pending.kind not in ("card", "die", "square"):
        # NOTE: the "why" look-up was asked by a seat that is not choosing a move now.
        raise IllegalAction(Message("you are not moving a horse now: there is no move to explain"))
    horse = pending.context["horse"]
    limit = pending.context.get("limit")
    if pending.kind == "square":
        points = pending.context["points"]
    else:
        action = params.get("action")
        if not isinstance(action, dict) or action.get("type") not in MOVES or not pending.allows(action):
            moves = tuple(o for o in pending.options if o.get("type") in MOVES)
            raise IllegalAction(Message("'why' needs 'action': the card or die of your options it is about"), moves)
        points = card_value(action["card"]) if action["type"] == "card" else action["value"]
        if action["type"] == "card" and spent_without_moving(action["card"], limit):
            return _answer(Obstacle("spent", "T6", limit=limit), horse, points)
    race = _race_of(game)
    course = race.course
    target = _asked_square(course, params.get("square"))
    others = {h: race.square[h] for h in race.racing() if h != horse}
    found = obstacle(course, race.square[horse], points, others, race.fences, target)
    return _answer(found, horse, points)


def _answer(found: Obstacle, horse: str, points: int) -> dict[str, Any]:
    return {"reachable": not found.reason, "reason": found.reason or None, "rule": found.rule,
            "message": explain(found, horse, points), "points": points}

