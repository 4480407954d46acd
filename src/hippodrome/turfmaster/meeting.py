"""A TurfMaster meeting: the full game of the rulebooks, three races (rulings T7-T10, T13).

Setup (JSON)::

    {"players": 3, "horses_per_player": 2, "course": "oval", "steeplechase": false,
     "names": ["Ana", "Bo", "Cy"],            # optional
     "horses": [["red", "blue"], ...]}         # optional: each seat's colours

Seats 0 .. players-1 sit in clockwise order. Horse allocation follows the texts'
"Preparación": 2 players 2, 3 or 4 horses each; 3 players 2 each; 4 players 1 or 2 each;
5 to 8 players 1 each (never fewer than 4 horses). Without ``horses`` the colours are handed
out in the deck file's order, seat by seat.

Order of play, every chance step explicit (so a record replays exactly):

1. ``stall_roll`` chance steps: every horse's owner rolls two dice for it, highest total takes
   the inner stall; horses level roll again among themselves (T10).
2. ``shuffle`` chance steps: each horse's deck of 32 (T7) is shuffled once, for the whole game.
3. ``first_roller_roll`` chance steps: every seat rolls, the highest rolls the first dice round;
   seats level roll again (T10).
4. Before each race: the two random discards of a horse that took its bonus cards in the
   race before (``bonus_discard`` chance step), then 10 new cards from the top of its deck
   (T8); before race 3 a horse whose bonus cards are still unclaimed gets them too (12 cards).
   Before races 1 and 2 the owner of each horse with unclaimed bonus cards decides
   ``claim_bonus`` (claim or decline; a claim makes the hand limit 12 for that race). Then a
   ``keep`` decision cuts a hand over its limit, one card given up at a time.
5. The race itself (:class:`~hippodrome.turfmaster.race.Race`). At every decision of a seat
   that owns a horse still running with unclaimed bonus cards, "claim the bonus cards of that
   horse" is one more option (T8).
6. After race 3, the final table (T9).

Where the rules leave a choice:

* The right to roll passes clockwise every dice round (T10) and keeps passing across races:
  race 2's first dice round is rolled by the seat after the one that rolled last in race 1.
* Races 2 and 3 start in the finishing order of the race before; horses that fell line up
  behind the finishers, in the order of their stalls in that race.
* A horse that took its bonus cards during a race (or before it) loses two of its remaining
  cards at random after that race (all of them if it has fewer than two).
* Bonus cards can be claimed only for a horse still running in the current race.

The deck order is in the state (and so in ``to_json``) but never in ``view(seat)``: a seat sees
its own hands, and counts of every other hand and deck.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hippodrome.core.errors import IllegalAction, InvalidSetup
from hippodrome.core.game import Action, Chance, Decision, Game, register_game
from hippodrome.turfmaster.cards import BONUS_CARDS, HAND_SIZE, HORSE_COLOURS, HORSE_IDS, card_value, full_deck
from hippodrome.turfmaster.position import course_and_fences
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.scoring import final_table, race_points

RACES = 3
BONUS_HAND_LIMIT = HAND_SIZE + BONUS_CARDS
#: players -> the numbers of horses each player may run (the texts' "Preparación")
HORSES_PER_PLAYER: dict[int, tuple[int, ...]] = {2: (2, 3, 4), 3: (2,), 4: (1, 2), 5: (1,), 6: (1,),
                                                 7: (1,), 8: (1,)}

SETUP_PHASE, PREPARE, RACING, OVER = "setup", "prepare", "race", "over"


def allowed_horses(players: int) -> tuple[int, ...]:
    """How many horses each of ``players`` players may run; InvalidSetup outside 2 to 8."""
    if players not in HORSES_PER_PLAYER:
        raise InvalidSetup(f"TurfMaster is played by 2 to 8 players, not {players}")
    return HORSES_PER_PLAYER[players]


def _roll_pair(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def _is_pair(dice: Any) -> bool:
    return (isinstance(dice, list) and len(dice) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice))


def _split_by_rolls(group: list, totals: dict) -> list[list]:
    """Order a tied group by their new totals, highest first; still-level members stay grouped."""
    by_total: dict[int, list] = {}
    for member in group:
        by_total.setdefault(totals[member], []).append(member)
    return [by_total[total] for total in sorted(by_total, reverse=True)]


def _sorted_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (card_value(c), c.startswith("J")))


@register_game
class Meeting(Game):
    """Three TurfMaster races with cards carried over, bonus cards and scoring."""

    name = "turfmaster"

    # -- construction -------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Meeting":
        if not isinstance(setup, dict):
            raise InvalidSetup("a meeting setup must be a JSON object")
        players = setup.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidSetup("'players' must be a number of players from 2 to 8")
        allowed = allowed_horses(players)
        per_player = setup.get("horses_per_player", allowed[0])
        if isinstance(per_player, bool) or per_player not in allowed:
            raise InvalidSetup(
                f"with {players} players each runs {' or '.join(map(str, allowed))} horse(s), not {per_player!r} "
                "(at least 4 horses race)")
        course, steeplechase = course_and_fences(setup.get("course", "oval"), setup.get("steeplechase", False))
        names = setup.get("names")
        if names is not None and (not isinstance(names, list) or len(names) != players
                                  or not all(isinstance(n, str) and n for n in names)):
            raise InvalidSetup(f"'names' must list {players} non-empty names, one per seat")
        colours = setup.get("horses")
        if colours is None:
            colours = [list(HORSE_IDS[seat * per_player:(seat + 1) * per_player]) for seat in range(players)]
        if (not isinstance(colours, list) or len(colours) != players
                or not all(isinstance(c, list) and len(c) == per_player for c in colours)):
            raise InvalidSetup(f"'horses' must give each of the {players} seats a list of {per_player} colours")
        flat = [h for seat_horses in colours for h in seat_horses]
        unknown = [h for h in flat if h not in HORSE_COLOURS]
        if unknown:
            raise InvalidSetup(f"unknown horse colour(s) {', '.join(map(str, unknown))}; colours: {', '.join(HORSE_IDS)}")
        if len(set(flat)) != len(flat):
            raise InvalidSetup("a horse colour is given to more than one seat")

        meeting = cls.__new__(cls)
        meeting.setup = setup
        meeting.players = players
        meeting.course_name = course.name
        meeting.steeplechase = steeplechase
        meeting.names = list(names) if names else [f"seat {s}" for s in range(players)]
        meeting.ids = flat  # seat order, then each seat's own order
        meeting.owner = {h: seat for seat, seat_horses in enumerate(colours) for h in seat_horses}
        meeting.decks = {h: None for h in flat}
        meeting.drawn = {h: 0 for h in flat}
        meeting.stall_groups = [list(flat)]  # resolved or still-level groups, inner stall first
        meeting.stall_rolls = []  # the public dice of the stall draw
        meeting.roller_groups = [list(range(players))]
        meeting.roller_rolls = []
        meeting.roller = None
        meeting.phase = SETUP_PHASE
        meeting.race_no = 0
        meeting.stalls = []
        meeting.hands = {h: [] for h in flat}
        meeting.limit = {h: HAND_SIZE for h in flat}
        meeting.claimed = {h: None for h in flat}  # race number in which the bonus was taken
        meeting.dealt = False
        meeting.discard_queue = []
        meeting.claim_queue = []
        meeting.race = None
        meeting.results = []
        meeting.events = []
        meeting._pending_cache = None
        meeting._advance()
        return meeting

    # -- queries ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def horses_of(self, seat: int) -> list[str]:
        return [h for h in self.ids if self.owner[h] == seat]

    def hand(self, horse: str) -> list[str]:
        """The cards a horse holds now (in a race: the race's hand)."""
        if self.phase == RACING:
            return self.race.hands[horse]
        return self.hands[horse]

    def bonus_cards_left(self, horse: str) -> list[str]:
        start = self.drawn[horse]
        return self.decks[horse][start:start + BONUS_CARDS]

    def standings(self) -> list[dict[str, Any]]:
        """The table of points so far (the final table once the meeting is over)."""
        return final_table(self.owner, self.players, self.results, self.names)

    def _claimable(self, seat: int) -> list[str]:
        """Horses of ``seat`` whose bonus cards may be claimed now, during a race (T8)."""
        if self.phase != RACING:
            return []
        return [h for h in self.horses_of(seat) if self.claimed[h] is None and self.race.status[h] == "racing"]

    def _keep_horse(self) -> str | None:
        for horse in self.ids:
            if len(self.hands[horse]) > self.limit[horse]:
                return horse
        return None

    # -- pending --------------------------------------------------------------------
    def pending(self) -> Decision | Chance | None:
        if self._pending_cache is None:
            self._pending_cache = (self._compute_pending(),)
        return self._pending_cache[0]

    def _compute_pending(self) -> Decision | Chance | None:
        if self.phase == OVER:
            return None
        if self.phase == SETUP_PHASE:
            group = next((g for g in self.stall_groups if len(g) > 1), None)
            if group is not None:
                return Chance("stall_roll", lambda rng, g=tuple(group): {
                    "type": "stall_roll", "rolls": [{"horse": h, "dice": _roll_pair(rng)} for h in g]},
                    lambda a, g=tuple(group): self._is_rolls(a, "stall_roll", "horse", g),
                    {"horses": list(group)})
            horse = next((h for h in self.ids if self.decks[h] is None), None)
            if horse is not None:
                return Chance("shuffle", lambda rng, h=horse: {"type": "shuffle", "horse": h,
                                                              "deck": rng.sample(full_deck(), len(full_deck()))},
                              lambda a, h=horse: self._is_shuffle(a, h), {"horse": horse})
            group = next((g for g in self.roller_groups if len(g) > 1), None)
            return Chance("first_roller_roll", lambda rng, g=tuple(group): {
                "type": "first_roller_roll", "rolls": [{"seat": s, "dice": _roll_pair(rng)} for s in g]},
                lambda a, g=tuple(group): self._is_rolls(a, "first_roller_roll", "seat", g),
                {"seats": list(group)})
        if self.phase == PREPARE:
            if self.discard_queue:
                horse = self.discard_queue[0]
                count = min(2, len(self.hands[horse]))
                return Chance("bonus_discard", lambda rng, h=horse, n=count: {
                    "type": "bonus_discard", "horse": h, "cards": rng.sample(self.hands[h], n)},
                    lambda a, h=horse, n=count: self._is_discard(a, h, n), {"horse": horse})
            if self.claim_queue:
                horse = self.claim_queue[0]
                options = ({"type": "claim_bonus", "horse": horse}, {"type": "decline_bonus", "horse": horse})
                notes = (f"take {horse}'s 2 bonus cards now: its hand limit is 12 for race {self.race_no}, "
                         "and after the race 2 of its remaining cards are discarded at random (T8)",
                         "keep them for later (once per game; unclaimed before race 3, they are dealt then)")
                return Decision(self.owner[horse], "claim_bonus", options,
                                {"horse": horse, "race": self.race_no, "hand": _sorted_hand(self.hands[horse]),
                                 "limit": self.limit[horse]}, notes)
            horse = self._keep_horse()
            hand = self.hands[horse]
            cards = _sorted_hand(set(hand))
            options = tuple({"type": "discard", "horse": horse, "card": c} for c in cards)
            over = len(hand) - self.limit[horse]
            return Decision(self.owner[horse], "keep", options,
                            {"horse": horse, "race": self.race_no, "hand": _sorted_hand(hand),
                             "limit": self.limit[horse], "to_discard": over},
                            tuple(f"give up a {c}; {over - 1} more to give up after this" for c in cards))
        pending = self.race.pending()
        if isinstance(pending, Decision):
            extra = self._claimable(pending.seat)
            if extra:
                notes = pending.notes or ("",) * len(pending.options)
                claims = tuple({"type": "claim_bonus", "horse": h} for h in extra)
                claim_notes = tuple(f"take {h}'s 2 bonus cards now (once per game, T8); after this race 2 of "
                                    "its remaining cards are discarded at random" for h in extra)
                return Decision(pending.seat, pending.kind, pending.options + claims, pending.context,
                                notes + claim_notes)
        return pending

    # chance validity checks --------------------------------------------------------
    @staticmethod
    def _is_rolls(action: Action, kind: str, key: str, group: tuple) -> bool:
        rolls = action.get("rolls")
        return (action.get("type") == kind and isinstance(rolls, list)
                and [r.get(key) if isinstance(r, dict) else None for r in rolls] == list(group)
                and all(_is_pair(r.get("dice")) for r in rolls))

    @staticmethod
    def _is_shuffle(action: Action, horse: str) -> bool:
        deck = action.get("deck")
        return (action.get("type") == "shuffle" and action.get("horse") == horse and isinstance(deck, list)
                and all(isinstance(c, str) for c in deck) and Counter(deck) == Counter(full_deck()))

    def _is_discard(self, action: Action, horse: str, count: int) -> bool:
        cards = action.get("cards")
        return (action.get("type") == "bonus_discard" and action.get("horse") == horse
                and isinstance(cards, list) and len(cards) == count and all(isinstance(c, str) for c in cards)
                and not Counter(cards) - Counter(self.hands[horse]))

    # -- apply --------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        pending = self.pending()
        if pending is None:
            raise IllegalAction("the meeting is over: three races have been run")
        if not isinstance(action, dict):
            raise IllegalAction(f"an action must be a JSON object, not {action!r}")
        if isinstance(pending, Chance):
            if not pending.is_valid(action):
                raise IllegalAction(f"expected a chance outcome of kind {pending.kind!r}, got {action!r}")
            self._pending_cache = None
            self._apply_chance(pending.kind, action)
            self._advance()
            return
        if action not in pending.options:
            raise IllegalAction(self._refusal(pending, action), pending.options)
        self._pending_cache = None
        kind = action["type"]
        if kind == "claim_bonus":
            self._claim(action["horse"])
        elif kind == "decline_bonus":
            self.claim_queue.pop(0)
        elif kind == "discard":
            self.hands[action["horse"]].remove(action["card"])
            self.events.append({"race": self.race_no, "event": "keep_discard", "horse": action["horse"],
                                "card": action["card"]})
        else:
            self.race.apply(action)
        self._advance()

    def _refusal(self, pending: Decision, action: Action) -> str:
        kind, horse = action.get("type"), action.get("horse")
        if kind == "claim_bonus":
            if horse not in self.owner:
                return f"there is no horse {horse!r}; horses: {', '.join(self.ids)}"
            if self.owner[horse] != pending.seat:
                return f"{horse} belongs to seat {self.owner[horse]}, not to seat {pending.seat}, who decides now"
            if self.claimed[horse] is not None:
                return f"{horse}'s bonus cards were already taken in race {self.claimed[horse]}: once per game (T8)"
            if self.phase == RACING and self.race.status.get(horse) != "racing":
                return f"{horse} is no longer running in this race; claim its bonus cards before the next race"
        if pending.kind in ("claim_bonus", "keep"):
            allowed = ", ".join(
                (f"{o['type']} {o.get('card', '')}".strip()) for o in pending.options)
            what = ("claim or decline the bonus cards of " if pending.kind == "claim_bonus"
                    else f"give up one card of ") + str(pending.context["horse"])
            extra = ""
            if pending.kind == "keep":
                extra = (f" (hand of {len(pending.context['hand'])}, limit {pending.context['limit']}: "
                         f"{pending.context['to_discard']} to give up; allowed: {allowed})")
            return f"seat {pending.seat} must {what} now{extra}"
        try:
            self.race.clone().apply(action)
        except IllegalAction as error:
            return str(error)
        return f"{action!r} is not allowed now"  # pragma: no cover

    def _apply_chance(self, kind: str, action: Action) -> None:
        if kind == "stall_roll":
            totals = {r["horse"]: sum(r["dice"]) for r in action["rolls"]}
            self.stall_rolls.append(action["rolls"])
            index = next(i for i, g in enumerate(self.stall_groups) if len(g) > 1)
            self.stall_groups[index:index + 1] = _split_by_rolls(self.stall_groups[index], totals)
        elif kind == "shuffle":
            self.decks[action["horse"]] = list(action["deck"])
        elif kind == "first_roller_roll":
            totals = {r["seat"]: sum(r["dice"]) for r in action["rolls"]}
            self.roller_rolls.append(action["rolls"])
            index = next(i for i, g in enumerate(self.roller_groups) if len(g) > 1)
            self.roller_groups[index:index + 1] = _split_by_rolls(self.roller_groups[index], totals)
        elif kind == "bonus_discard":
            horse = action["horse"]
            for card in action["cards"]:
                self.hands[horse].remove(card)
            self.discard_queue.pop(0)
            self.events.append({"race": self.race_no, "event": "bonus_discard", "horse": horse,
                                "cards": len(action["cards"])})
        else:  # a race's own chance (the dice)
            self.race.apply(action)

    def _draw(self, horse: str, count: int) -> list[str]:
        start = self.drawn[horse]
        cards = self.decks[horse][start:start + count]
        self.drawn[horse] = start + len(cards)
        return cards

    def _claim(self, horse: str) -> None:
        bonus = self._draw(horse, BONUS_CARDS)
        self.claimed[horse] = self.race_no
        self.events.append({"race": self.race_no, "event": "claim_bonus", "horse": horse,
                            "during_race": self.phase == RACING})
        if self.phase == RACING:
            # Race keeps no public way to add cards: rebuild it from its JSON with the new hand
            data = self.race.to_json()
            state = dict(data["state"])
            state["hands"] = {h: list(c) for h, c in state["hands"].items()}
            state["hands"][horse].extend(bonus)
            self.race = Race.from_json({"game": data["game"], "state": state})
        else:
            self.claim_queue.pop(0)
            self.hands[horse].extend(bonus)
            self.limit[horse] = BONUS_HAND_LIMIT

    # -- automatic steps ------------------------------------------------------------
    def _advance(self) -> None:
        while True:
            if self.phase == SETUP_PHASE:
                if any(len(g) > 1 for g in self.stall_groups) or any(d is None for d in self.decks.values()) \
                        or any(len(g) > 1 for g in self.roller_groups):
                    return
                self.stalls = [g[0] for g in self.stall_groups]
                self.roller = self.roller_groups[0][0]
                self._prepare(1)
                continue
            if self.phase == PREPARE:
                if self.discard_queue:
                    return
                if not self.dealt:
                    self._deal()
                    continue
                if self.claim_queue or self._keep_horse() is not None:
                    return
                self._start_race()
                return
            if self.phase == RACING:
                if self.race.pending() is not None:
                    return
                self._end_race()
                continue
            return

    def _prepare(self, race_no: int) -> None:
        previous = [h for h in self.ids if self.claimed[h] == self.race_no] if self.race_no else []
        self.race_no = race_no
        self.phase = PREPARE
        self.dealt = False
        self.limit = {h: HAND_SIZE for h in self.ids}
        self.discard_queue = [h for h in previous if self.hands[h]]

    def _deal(self) -> None:
        self.dealt = True
        for horse in self.ids:
            self.hands[horse].extend(self._draw(horse, HAND_SIZE))
            if self.race_no == RACES and self.claimed[horse] is None:
                self.hands[horse].extend(self._draw(horse, BONUS_CARDS))
                self.claimed[horse] = RACES
                self.limit[horse] = BONUS_HAND_LIMIT
                self.events.append({"race": self.race_no, "event": "bonus_dealt", "horse": horse})
        self.claim_queue = [h for h in self.ids if self.claimed[h] is None] if self.race_no < RACES else []

    def _start_race(self) -> None:
        setup = {"course": self.course_name, "steeplechase": self.steeplechase,
                 "horses": [{"id": h, "owner": self.owner[h]} for h in self.stalls],
                 "seats": self.players, "first_roller": self.roller,
                 "hands": {h: list(self.hands[h]) for h in self.stalls}}
        self.race = Race.new(setup)
        self.hands = {h: [] for h in self.ids}
        self.phase = RACING

    def _end_race(self) -> None:
        race = self.race
        self.results.append({"race": self.race_no, "stalls": list(self.stalls), "places": list(race.places),
                             "fallen": list(race.fallen), "points": race_points(race.places)})
        self.hands = {h: list(race.hands[h]) for h in self.ids}
        self.roller = race.roller
        fallen = [h for h in self.stalls if h in race.fallen]
        self.stalls = list(race.places) + fallen
        if self.race_no == RACES:
            self.phase = OVER
            return
        self._prepare(self.race_no + 1)

    # -- views, (de)serialisation, cloning ---------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        pending = self.pending()
        decision = None
        if isinstance(pending, Decision):
            decision = {"seat": pending.seat, "kind": pending.kind, "horse": pending.context.get("horse")}
            if seat == pending.seat:
                decision["options"] = list(pending.options)
                decision["notes"] = list(pending.notes)
                decision["context"] = pending.context
        race_view = None
        if self.race is not None:
            race_view = self.race.view(seat)
            race_view["pending"] = decision if self.phase == RACING else None
        horses = []
        for horse in self.ids:
            horses.append({"id": horse, "owner": self.owner[horse], "colour": HORSE_COLOURS[horse],
                           "cards": len(self.hand(horse)), "deck_left": len(full_deck()) - self.drawn[horse],
                           "bonus_taken_in": self.claimed[horse], "limit": self.limit[horse]})
        return {
            "game": self.name,
            "course": self.course_name,
            "steeplechase": self.steeplechase,
            "players": self.players,
            "names": list(self.names),
            "seat": seat,
            "phase": self.phase,
            "race_no": self.race_no,
            "stalls": list(self.stalls),
            "stall_rolls": [list(r) for r in self.stall_rolls],
            "roller_rolls": [list(r) for r in self.roller_rolls],
            "roller": self.roller,
            "horses": horses,
            "hands": {h: _sorted_hand(self.hand(h)) for h in self.ids if self.owner[h] == seat},
            "results": [dict(r) for r in self.results],
            "standings": self.standings(),
            "race": race_view,
            "pending": decision,
            "events": [self._event_for(event, seat) for event in self.events],
            "over": self.over,
        }

    def _event_for(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it: a card given up between races is face down to others."""
        if event["event"] == "keep_discard" and self.owner[event["horse"]] != seat:
            return {key: value for key, value in event.items() if key != "card"}
        return dict(event)

    _FIELDS = ("setup", "players", "course_name", "steeplechase", "names", "ids", "owner", "decks", "drawn",
               "stall_groups", "stall_rolls", "roller_groups", "roller_rolls", "roller", "phase", "race_no",
               "stalls", "hands", "limit", "claimed", "dealt", "discard_queue", "claim_queue", "results",
               "events")

    def to_json(self) -> dict[str, Any]:
        import copy

        data = {field: copy.deepcopy(getattr(self, field)) for field in self._FIELDS}
        data["race"] = None if self.race is None else copy.deepcopy(self.race.to_json())
        return {"game": self.name, "state": data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Meeting":
        import copy

        state = copy.deepcopy(data["state"])
        meeting = cls.__new__(cls)
        for field in cls._FIELDS:
            setattr(meeting, field, state[field])
        # JSON turns int keys into strings; a meeting's dicts are keyed by horse ids only
        meeting.race = None if state["race"] is None else Race.from_json(state["race"])
        meeting._pending_cache = None
        return meeting

    def clone(self) -> "Meeting":
        meeting = Meeting.__new__(Meeting)
        for field in self._FIELDS:
            value = getattr(self, field)
            if isinstance(value, dict):
                value = {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
            elif isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(meeting, field, value)
        meeting.setup = self.setup
        meeting.results = [dict(r) for r in self.results]
        meeting.events = list(self.events)
        meeting.race = None if self.race is None else self.race.clone()
        meeting._pending_cache = None
        return meeting
