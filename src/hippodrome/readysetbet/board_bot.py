"""The board bot: plays the whole board, knowing that a space somebody takes is gone.

At every chance to bet it prices every space it may bet on (Win/Place/Show, colour bets, the
prop cards and the exotic finish cards, R5-R7) with the live odds
(:mod:`hippodrome.readysetbet.pricing`), then plans where *all* its tokens left would go: the
assignment of tokens to open spaces with the largest total expected money
(:mod:`hippodrome.readysetbet.assignment`), so the big token goes where a big token earns most
and a bonus token that cancels losses (R8) goes where losing would cost most. The three spaces of
an exotic card count as one, as it may put only one token on each card (R6).

When to bet: the odds sharpen as the race runs, so the best spaces of the board are worth more
later (in expectation the best of many bets only grows), and a space that somebody takes is
gone. It waits while betting is sure to stay open long enough to place every token it plans to
place (one bet a roll) with a few rolls to spare, and once the simulated races say that betting
may close within that many rolls (:meth:`hippodrome.readysetbet.odds.Odds.chance_over_within`:
the third red-line crossing or a finish, R2; the finish with a Last call card, R8), it bets,
the best planned bet first. A space worth far more than the rest is taken at once.

Decisions: the VIP card to keep (R8) by its worth over the races left; the House tokens (R9)
by the same plan at the start position; in the rotating House it takes the House when the House's
expected money beats a better's.

The bot sees only its seat's view and the options; its generator is its own.
"""

from __future__ import annotations

from typing import Any


from hippodrome.core.game import Action
from hippodrome.readysetbet import vip as vipmod
from hippodrome.readysetbet.assignment import best_assignment
from hippodrome.readysetbet.description import HOUSE_DATA
from hippodrome.readysetbet.dice_race import SUM_PROBABILITY, RaceState
from hippodrome.readysetbet.pricing import LiveOdds, bet_value, board_spaces, option_token
from hippodrome.readysetbet.settlement import Token

#: simulated races behind each decision
SIMULATIONS = 1500
#: rolls to spare beyond one per planned bet before the bot starts betting
SPARE_ROLLS = 2
#: it bets once the chance that betting closes within (planned bets + spare) rolls reaches this
CLOSING_RISK = 0.15
#: a space worth this many times the next best planned bet is taken at once
GRAB_RATIO = 1.6
#: expected money per unit of token value of a late bet (the kind it places), for the VIP cards
#: and the House decision; a rough figure from simulated races (the best late spaces pay about
#: $2 per unit, the 6th to 10th best about $1.5)
LATE_EDGE_PER_UNIT = 1.5
#: a token that cancels its losses may go on long shots: this much more per race
NO_LOSS_BONUS = 1.0
#: a Bandwagon card's worth per race and unit of its token value (a taken space joined now and then)
BANDWAGON_PER_UNIT = 0.3
#: a Last call card's worth per race (bets on the sharpest odds, after "no more bets")
LAST_CALL_PER_RACE = 4.0


def _key(token: Token) -> tuple:
    """Tokens alike in value, red circle and loss rule place the same bets."""
    return (token["value"], token.get("penalty", 0), bool(token.get("cancels_loss")))


class BoardBettor:
    """Plans all its tokens over the whole board and bets the best first once betting may close."""

    name = "board"

    def __init__(self, seed: int | str = 0, simulations: int = SIMULATIONS):
        self.seed = seed   # kept for the levels' common signature: the odds of a position are the same for every bot
        self.odds = LiveOdds(simulations, timing=True)
        self._rolls_per_race: float | None = None

    # -- planning ------------------------------------------------------------------
    def plan(self, observation: dict[str, Any], options: tuple[Action, ...],
             tokens: list[Token]) -> list[tuple[float, Action]]:
        """(expected money, option) for each token in the best assignment of ``tokens`` to the
        spaces the options allow, the most valuable first."""
        spaces = board_spaces(observation)
        seat = observation["seat"]
        money = observation["money"][seat] if seat is not None else 0
        race = observation["race"]
        # the first option for each kind of token and group of spaces (an exotic card is one group)
        legal: dict[tuple, dict[str, Action]] = {}
        groups: dict[str, str] = {}
        for option in options:
            space = spaces[option["space"]]
            group = space.card or space.id
            groups.setdefault(group, space.id)
            legal.setdefault(_key(option_token(observation, option)), {}).setdefault(group, option)
        columns = list(groups)
        position = self.odds.of(race)
        values = []
        for token in tokens:
            allowed = legal.get(_key(token), {})
            values.append([bet_value(spaces[groups[g]], token, position.chance(spaces[groups[g]]), money)
                           if g in allowed else None for g in columns])
        planned = [(values[t][g], legal[_key(tokens[t])][columns[g]]) for t, g in best_assignment(values)]
        return sorted(planned, key=lambda item: -item[0])

    def tokens_left(self, observation: dict[str, Any]) -> list[Token]:
        """The seat's tokens not on the board yet."""
        return [t for t in observation["tokens"][observation["seat"]] if not t.get("used")]

    # -- bets ----------------------------------------------------------------------
    def choose_free(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action | None:
        if not options or observation["seat"] is None:
            return None
        planned = self.plan(observation, options, self.tokens_left(observation))
        if not planned:
            return None
        best_value, best = planned[0]
        if len(planned) > 1 and best_value >= GRAB_RATIO * planned[1][0] and best_value > 0:
            return best
        last_call = vipmod.has_last_call(observation["vip_cards"][observation["seat"]])
        odds = self.odds.of(observation["race"])
        if odds.chance_over_within(len(planned) + SPARE_ROLLS, last_call) >= CLOSING_RISK:
            return best
        return None

    # -- decisions -----------------------------------------------------------------
    def choose(self, observation: dict[str, Any], options: tuple[Action, ...]) -> Action:
        kind = options[0].get("type")
        if kind == "house_token":
            left = (observation.get("pending") or {}).get("context", {}).get("tokens_left") or \
                [o["value"] for o in options]
            tokens = [{"id": f"house-{v}", "value": v, "penalty": 0, "cancels_loss": False} for v in left]
            planned = self.plan(observation, options, tokens)
            return planned[0][1] if planned else options[0]
        if kind == "vip":
            return max(options, key=lambda o: self.vip_worth(o["keep"], observation))
        if kind == "house":
            return {"type": "house", "accept": self.house_worth(observation) > self.bettor_worth(observation)}
        return options[0]

    def rolls_per_race(self) -> float:
        """Rolls a race lasts on average (simulated from the start, once)."""
        if self._rolls_per_race is None:
            start = RaceState.start().to_json()
            self._rolls_per_race = float(self.odds.of(start).ends_at.mean())
        return self._rolls_per_race

    def vip_worth(self, card_id: str, observation: dict[str, Any]) -> float:
        """Expected dollars a VIP card brings over the races still to run (R8)."""
        card = vipmod.VIP_CARDS[card_id]
        races_left = observation["races"] - observation["race_no"]
        kind = card["kind"]
        if kind == "comp_chips":
            return card["amount"]
        if kind == "roll_payout":
            per_roll = card["amount"] * sum(SUM_PROBABILITY[s] for s in card["sums"])
            return per_roll * self.rolls_per_race() * races_left
        if kind == "bonus_token":
            loss = -NO_LOSS_BONUS if card["cancels_loss"] else card["penalty"] / 2  # a late bet wins about half
            return (card["token"] * LATE_EDGE_PER_UNIT - loss) * races_left
        if kind == "bandwagon":
            return BANDWAGON_PER_UNIT * card["token"] * races_left
        return LAST_CALL_PER_RACE * races_left

    def house_worth(self, observation: dict[str, Any]) -> float:
        """The House's expected money this race (R9): its tokens planned at the start odds, and its pay."""
        at_start = {**observation, "race": RaceState.start().to_json()}
        values = HOUSE_DATA["house_tokens"]
        tokens = [{"id": f"house-{v}", "value": v, "penalty": 0, "cancels_loss": False} for v in values]
        options = tuple({"type": "house_token", "value": v, "space": s}
                        for v in sorted(set(values)) for s in board_spaces(observation))
        planned = self.plan(at_start, options, tokens)
        return sum(value for value, _ in planned) + HOUSE_DATA["rotating_compensation"].get(
            str(observation["race_no"]), 0)

    def bettor_worth(self, observation: dict[str, Any]) -> float:
        """A better's expected money this race: its tokens bet late and its VIP cards at work."""
        seat = observation["seat"]
        tokens = sum(t["value"] for t in observation["tokens"][seat]) * LATE_EDGE_PER_UNIT
        cards = observation["vip_cards"][seat]
        rolls = self.rolls_per_race()
        paid = sum(vipmod.roll_payout(cards, s) * p for s, p in SUM_PROBABILITY.items()) * rolls
        return tokens + paid + (LAST_CALL_PER_RACE if vipmod.has_last_call(cards) else 0)
