"""TurfMaster bots: observation (a seat's ``view``) in, one of the legal options out.

Both bots implement :class:`hippodrome.core.bot.Bot` and play a meeting ("turfmaster") as well
as a single race ("turfmaster-race"). They read nothing but the view and the options: the view
holds the public positions, the seat's own hands and the decision's context, never a deck order
or another seat's cards. They read the context (handicap limits, the squares where a horse falls),
never the words of the notes, so they play the same in every language.

* :class:`RandomBot` picks uniformly among the options (bonus claims included).
* :class:`TacticalBot` follows the Spanish rulebook's "Algunos consejos tácticos":
  keep the jokers for the finish, spend 3s and 4s early, avoid taking the lead (and its
  handicaps) far from the finish, end level with a horse of the next dice roller, move inward
  (the inner lane is shorter in every curve), never waste a card above its handicap unless
  nothing else moves, never fall at a fence; it rolls for its own horses' benefit, keeps its
  highest cards between races, and claims the bonus cards only when a hand runs out.
"""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.bot import RandomBot as _CoreRandomBot
from hippodrome.core.game import Action
from hippodrome.turfmaster.cards import card_value, is_joker
from hippodrome.turfmaster.course import Course, load_course
from hippodrome.turfmaster.movement import blocked_squares, destinations
from hippodrome.turfmaster.race import race_view, spent_without_moving

#: distances to the finish line (in lines) below which a horse is "at the finish"
FINISH_STRETCH = 30
#: weights of the tactical evaluation, in lines of progress
JOKER_EARLY_COST = 7.0
LOW_CARD_EARLY_BONUS = 1.5
LOW_CARD_LATE_COST = 2.0
LEAD_PENALTY = 1.0
LEVEL_WITH_ROLLER_BONUS = 1.5
INNER_LANE_BONUS = 0.35
FALL_PENALTY = 1000.0
WASTED_CARD_COST = 20.0


class RandomBot(_CoreRandomBot):
    """Uniform choice among the legal options."""

    name = "random"


class TacticalBot:
    """Plays by the rulebook's tactical advice (see the module docstring)."""

    name = "tactical"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    # -- entry point ----------------------------------------------------------------
    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        pending = observation.get("pending") or {}
        kind = pending.get("kind")
        # a meeting's view names the seat; a single race's view names it in its pending decision
        seat = observation.get("seat", pending.get("seat"))
        context = pending.get("context") or {}
        plain = [o for o in options if o["type"] not in ("claim_bonus", "decline_bonus")]
        if kind == "claim_bonus":
            return next(o for o in options if o["type"] == "decline_bonus")
        if kind == "keep":
            # give up the lowest plain card; jokers and high cards carry the finish
            return min(plain, key=lambda o: (card_value(o["card"]) + (20 if is_joker(o["card"]) else 0)))
        board = _Board(observation, race_view(observation), seat)
        claim = self._claim_if_out_of_cards(observation, options, board)
        if claim is not None:
            return claim
        if kind == "card":
            return self._card(board, context, plain)
        if kind == "square":
            return self._square(board, context, plain)
        if kind == "dice_use":
            return self._dice_use(board, seat, context, plain)
        if kind == "die":
            return max(plain, key=lambda o: o["value"])
        return plain[0] if plain else options[0]

    # -- bonus cards ------------------------------------------------------------------
    @staticmethod
    def _claim_if_out_of_cards(observation, options, board) -> Action | None:
        for option in options:
            if option["type"] != "claim_bonus":
                continue
            horse = option["horse"]
            left = len(observation["hands"].get(horse, []))
            if left <= 1 and board.distance(horse) > 12:
                return option
        return None

    # -- card rounds --------------------------------------------------------------------
    def _card(self, board: "_Board", context, plain) -> Action:
        horse = context["horse"]
        limit = context.get("limit")
        moving = [o for o in plain if not spent_without_moving(o["card"], limit)]
        # a card above the handicap stands the horse still: the least useful one is the fallback
        # (a false start beats a fall at a fence, T11)
        still = [o for o in plain if o not in moving]
        best, best_score = None, float("-inf")
        if still:
            best = min(still, key=lambda o: (is_joker(o["card"]), card_value(o["card"])))
            best_score = -WASTED_CARD_COST - card_value(best["card"])
        if not moving:
            return best
        distance = board.distance(horse)
        for option in moving:
            card = option["card"]
            value = card_value(card)
            end_score, _ = board.best_end(horse, value, card_round=True)
            score = end_score
            if is_joker(card):
                if distance > FINISH_STRETCH and not (limit is not None and value > limit and len(moving) == 1):
                    score -= JOKER_EARLY_COST
            elif value <= 4:
                score += LOW_CARD_EARLY_BONUS if distance > FINISH_STRETCH else -LOW_CARD_LATE_COST
            if score > best_score:
                best, best_score = option, score
        return best

    def _square(self, board: "_Board", context, plain) -> Action:
        horse = context["horse"]
        falls = {(end["lane"], end["square"]) for end in context.get("falls", ())}
        scored = []
        for option in plain:
            square = board.course.square(option["lane"], option["square"])
            score = board.end_score(horse, square)
            if (option["lane"], option["square"]) in falls:
                score -= FALL_PENALTY
            scored.append((score, option))
        return max(scored, key=lambda pair: pair[0])[1]

    # -- dice rounds ----------------------------------------------------------------------
    def _dice_use(self, board: "_Board", seat: int, context, plain) -> Action:
        dice = context.get("dice") or [0, 0]
        best, best_score = None, float("-inf")
        for option in plain:
            total = sum(dice) if option["use"] == "sum" else option["value"]
            mine, theirs = [], []
            for horse in board.racing:
                points = total
                limit = board.limit.get(horse)
                if option["use"] == "sum" and limit is not None and total > limit:
                    points = max(dice)
                (mine if board.owner[horse] == seat else theirs).append(points)
            if not mine:
                score = -sum(theirs)
            else:
                score = sum(mine) / len(mine) - (sum(theirs) / len(theirs) if theirs else 0)
            if score > best_score:
                best, best_score = option, score
        return best


class _Board:
    """The public positions of a race, read from a view, with the tactical evaluation."""

    def __init__(self, observation: dict[str, Any], race: dict[str, Any], seat: int | None):
        self.course: Course = load_course(race.get("course") or observation["course"])
        course = self.course
        self.fences = course.fence_squares if race.get("steeplechase") else frozenset()
        self.square: dict[str, int] = {}
        self.owner: dict[str, int] = {}
        self.limit: dict[str, int] = {}
        for entry in race.get("horses", []):
            self.owner[entry["id"]] = entry["owner"]
            if entry["stage"] == "racing":
                self.square[entry["id"]] = course.square(entry["lane"], entry["square"])
                if entry.get("limit") is not None:
                    self.limit[entry["id"]] = entry["limit"]
        self.racing = list(self.square)
        self.seat = seat
        self.next_roller = race.get("roller")
        finish = course.square(0, course.finish_index[0])
        self.finish_line = course.line_of[finish]

    def distance(self, horse: str) -> int:
        return self.finish_line - self.course.line_of[self.square[horse]]

    def best_end(self, horse: str, points: int, card_round: bool) -> tuple[float, int]:
        others = [s for h, s in self.square.items() if h != horse]
        moves = destinations(self.course, self.square[horse], points, blocked_squares(self.course, others),
                             self.fences)
        best = (float("-inf"), self.square[horse])
        for end in moves.ends:
            score = self.end_score(horse, end)
            if card_round and moves.falls_at(end, points):
                score -= FALL_PENALTY
            if score > best[0]:
                best = (score, end)
        return best

    def end_score(self, horse: str, end: int) -> float:
        course = self.course
        line = course.line_of[end]
        score = float(line - course.line_of[self.square[horse]])
        score -= INNER_LANE_BONUS * course.lane_of[end]
        other_lines = [course.line_of[s] for h, s in self.square.items() if h != horse]
        distance = self.finish_line - line
        if distance > FINISH_STRETCH and other_lines and line > max(other_lines):
            score -= LEAD_PENALTY
        if self.next_roller is not None and self.next_roller != self.seat:
            roller_lines = {course.line_of[s] for h, s in self.square.items()
                            if h != horse and self.owner.get(h) == self.next_roller}
            if line in roller_lines:
                score += LEVEL_WITH_ROLLER_BONUS
        return score
