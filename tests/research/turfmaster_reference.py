"""The TurfMaster observation written the plain way, for the tests: every entry of the vector
computed afresh from the state, field by field, with nothing kept between calls and none of the
encoding's caches. :func:`hippodrome.envs.turfmaster_observation.observe` (which keeps what it
wrote and brings it up to date) must give exactly this vector."""

from __future__ import annotations

from collections import Counter

import numpy as np

from hippodrome.core.game import Decision, Game
from hippodrome.envs import turfmaster_encoding as encoding
from hippodrome.envs import turfmaster_observation as E
from hippodrome.envs.turfmaster_points import points_so_far
from hippodrome.turfmaster.course import COURSE_NAMES
from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import CARD_ROUND, FINISHED, RACING


def observation_afresh(state: Game, seat: int) -> np.ndarray:
    """What ``seat`` knows of ``state`` (a race or a meeting), computed from nothing."""
    meeting = state if isinstance(state, Meeting) else None
    race = state if meeting is None else state.race if state.phase == "race" else None
    seats = meeting.players if meeting is not None else state.seats
    vector = np.zeros(E.OBSERVATION_SIZE, np.float32)
    mine = [horse for horse in state.ids if state.owner[horse] == seat]
    rows = mine + [horse for horse in state.ids if state.owner[horse] != seat]
    start = {horse: E.HORSE_ROWS + number * E.ROW for number, horse in enumerate(rows)}
    course_name = meeting.course_name if meeting is not None else state.course.name
    if course_name in COURSE_NAMES:
        vector[E.G_COURSE + COURSE_NAMES.index(course_name)] = 1
    vector[E.G_STEEPLECHASE] = state.steeplechase
    vector[E.G_SEATS] = seats / encoding.SLOTS
    for horse in rows:
        row = start[horse]
        vector[row + E.R_PRESENT] = 1
        vector[row + E.R_MINE] = horse in mine
        vector[row + E.R_OWNER + (state.owner[horse] - seat) % seats] = 1
    hands = race.hands if race is not None else meeting.hands
    for horse in rows if hands is not None else ():
        row, hand = start[horse], hands[horse]
        vector[row + E.R_CARDS] = min(len(hand), E.MOST_CARDS) / E.MOST_CARDS
        if horse in mine:
            for card in set(hand):
                vector[row + E.R_HAND + encoding.KIND[card]] = hand.count(card) / E.MOST_OF_A_KIND
    if race is not None:
        _race(vector, race, seat, seats, start)
    if meeting is not None:
        vector[E.G_RACE + max(0, meeting.race_no - 1)] = 1
        vector[E.G_PHASE + E.PHASE_INDEX[meeting.phase]] = 1
        for horse in rows:
            vector[start[horse] + E.R_BONUS] = meeting.claimed[horse] is not None
            vector[start[horse] + E.R_DECK] = (E.DECK_SIZE - meeting.drawn[horse]) / E.DECK_SIZE
    decision = state.pending()
    if isinstance(decision, Decision) and decision.seat == seat:
        vector[E.G_DECISION + E.DECISION_INDEX[decision.kind]] = 1
        if decision.kind == "square":
            vector[E.G_POINTS_IN_MOVE] = min(1.0, decision.context["points"] / E.MOST_POINTS_IN_A_MOVE)
            vector[E.G_POINTS_IN_MOVE + 1] = min(1.0, decision.context["steps"] / E.MOST_POINTS_IN_A_MOVE)
        elif decision.kind == "keep":
            vector[E.G_TO_DISCARD] = min(1.0, decision.context["to_discard"] / 4)
    for other, points in enumerate(points_so_far(state)):
        vector[E.G_SCORES + (other - seat) % seats] = points / E.MOST_POINTS
    return vector


def _race(vector: np.ndarray, race, seat: int, seats: int, start: dict[str, int]) -> None:
    """The race's entries: each horse's pose, cards played and place in the move order; the round,
    the dice and the roller."""
    course = race.course
    finish = course.line_of[course.square(0, course.finish_index[0])]
    for horse, row in start.items():
        stage, square = race.stage[horse], race.square[horse]
        vector[row + E.R_STAGE + E.STAGES.index(stage)] = 1
        if stage == FINISHED:
            vector[row + E.R_PLACE] = (race.places.index(horse) + 1) / encoding.SLOTS
        else:
            vector[row + E.R_LANE + course.lane_of[square]] = 1
            vector[row + E.R_PROGRESS] = min(1.0, course.line_of[square] / finish)
        if stage == RACING:
            vector[row + E.R_LIMIT + E.LIMITS.index(race.limits.get(horse))] = 1
    played = Counter((event["horse"], event["card"]) for event in race.history if event["event"] == "card")
    for (horse, card), count in played.items():
        vector[start[horse] + E.R_PLAYED + encoding.KIND[card]] = count / E.MOST_OF_A_KIND
    for place, horse in enumerate(race.order):
        if race.stage[horse] == RACING:
            row = start[horse]
            vector[row + E.R_TO_MOVE] = place >= race.turn
            vector[row + E.R_CURRENT] = place == race.turn and race.hands is not None
            vector[row + E.R_ORDER] = (place + 1) / encoding.SLOTS
    vector[E.G_ROUND_KIND + (0 if race.round_kind == CARD_ROUND else 1)] = 1
    vector[E.G_ROUND] = min(1.0, race.round_no / E.MOST_ROUNDS)
    if race.dice:
        vector[E.G_DICE + race.dice[0] - 1] = 1
        vector[E.G_DICE + encoding.DIE_FACES + race.dice[1] - 1] = 1
    if race.dice_use:
        vector[E.G_DICE_USE + (0 if race.dice_use["use"] == "sum" else race.dice_use["value"])] = 1
    vector[E.G_ROLLER + (race.roller - seat) % seats] = 1
