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
   the inner stall; horses level roll again among themselves (T10). Where the players have more
   than one horse each, a first round draws the stalls of each player's first horse (its own
   order) and a second round the stalls behind them for the other horses (the Dutch text:
   "Indien de spelers over meer dan één paard beschikken, bepaalt een tweede ronde de posities
   voor deze overige paarden").
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

Decisions of the meeting itself (the race's own are described in
:mod:`hippodrome.turfmaster.race`); notes are translatable, programs read the context:

* ``claim_bonus`` (before races 1 and 2): options ``claim_bonus`` / ``decline_bonus`` for one
  horse, context ``{"horse", "race", "hand", "limit"}``;
* ``keep`` (a hand over its limit before a race): one ``discard`` option per distinct card,
  context ``{"horse", "race", "hand", "limit", "to_discard"}``;
* during a race, a race decision of a seat with claimable horses gets one more option
  ``{"type": "claim_bonus", "horse"}`` per such horse, appended after the race's options.

Events (``view(seat)["events"]``, in order; the race's own moves are in ``race["history"]``),
plain data for a front end to describe in its language:

* ``{"race", "event": "claim_bonus", "horse", "during_race": bool[, "at"]}``: the owner took the
  horse's bonus cards (T8), before the race or during it; during it, ``at`` is the length of the
  race's history then (the claim came after that many of the race's events);
* ``{"race", "event": "bonus_dealt", "horse"}``: unclaimed bonus cards dealt before race 3 (T8);
* ``{"race", "event": "bonus_discard", "horse", "cards": n}``: after a race in which it took its
  bonus cards, the horse lost ``n`` (2, or fewer if it held fewer) cards at random; ``race`` is the
  race about to start;
* ``{"race", "event": "keep_discard", "horse", "card"}``: the owner gave up a card to fit the
  hand limit; ``card`` is shown to the horse's owner only (face down to the others).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from hippodrome.core.chance import Draws, Pool
from hippodrome.core.dice import dice_pool, is_dice, roll
from hippodrome.core.errors import IllegalAction, given
from hippodrome.core.game import Action, Chance, Decision, Game, merged_view, same_json
from hippodrome.core.registry import register_game
from hippodrome.core.rulings import Ruled
from hippodrome.core.state import KEEP, RESET, DeclaredState, StateFields, nested, shallow, shared, substate
from hippodrome.i18n import Message, Plural, Seat
from hippodrome.i18n.vocabulary import horse_name
from hippodrome.turfmaster.cards import BONUS_CARDS, DECK_SIZE, HAND_SIZE, HORSE_COLOURS, card_value, full_deck
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.scoring import final_table, race_points
from hippodrome.turfmaster.setup import (
    allowed_horses,
    horses_per_player,
    seat_horses,
    seat_names,
    setup_course,
    setup_object,
)
from hippodrome.turfmaster.description import MEETING
from hippodrome.turfmaster.movement import warm_up_courses

RACES = 3
BONUS_HAND_LIMIT = HAND_SIZE + BONUS_CARDS

SETUP_PHASE, PREPARE, RACING, OVER = "setup", "prepare", "race", "over"


def stall_rounds(colours: list[list[str]]) -> list[list[str]]:
    """The stall draw's rounds (T10), inner stalls first: each seat's first horse, then the others
    (one round when every seat has one horse)."""
    rounds = [[horses[0] for horses in colours], [h for horses in colours for h in horses[1:]]]
    return [group for group in rounds if group]


def _split_by_rolls(group: list, totals: dict) -> list[list]:
    """Order a tied group by their new totals, highest first; still-level members stay grouped."""
    by_total: dict[int, list] = {}
    for member in group:
        by_total.setdefault(totals[member], []).append(member)
    return [by_total[total] for total in sorted(by_total, reverse=True)]


def _sorted_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (card_value(c), c.startswith("J")))


@register_game
class Meeting(DeclaredState, Game):
    """Three TurfMaster races with cards carried over, bonus cards and scoring."""

    name = "turfmaster"
    description = MEETING
    #: 2: the stall draw in two rounds with several horses a player (T10, changed 2026-11-27)
    rulings_version = 2
    public_decision_context = Race.public_decision_context

    state_fields = StateFields(
        shared("setup"),
        shared("players"),
        shared("course_name"),
        shared("steeplechase"),
        shared("names"),
        shared("ids"),
        shared("owner"),
        shallow("decks"),  # a horse's deck is set once (shuffle), then only read
        shallow("drawn"),
        shallow("stall_groups"),  # groups are replaced when split, never changed
        shallow("stall_rolls"),
        shallow("roller_groups"),
        shallow("roller_rolls"),
        shared("roller"),
        shared("phase"),
        shared("race_no"),
        shallow("stalls"),
        nested("hands"),
        shallow("limit"),
        shallow("claimed"),
        shared("dealt"),
        shallow("discard_queue"),
        shallow("claim_queue"),
        shallow("results"),
        # each finished race's public history (its events as the race kept them), for the move log
        shallow("histories", default=[]),
        shallow("events"),  # events are complete when appended, never changed after
        substate("race", Race),
        # chance steps read the state that made them (the cards a discard draws from); the
        # standings are only read by views, and keyed so that a clone's own race result makes its own
        caches={"_pending_cache": RESET, "_standings": KEEP},
    )

    # -- construction -------------------------------------------------------------

    @classmethod
    def warm_up(cls) -> None:
        warm_up_courses()

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "Meeting":
        return cls._new(setup, stall_rounds)

    @classmethod
    def new_under(cls, setup: dict[str, Any], rulings: int) -> "Meeting":
        """Version 1 of the rulings draws every horse's stall in one round (T10 before its change of
        2026-11-27: the meetings stored before it replay as they were played)."""
        if rulings == 1:
            return cls._new(setup, lambda colours: [[h for horses in colours for h in horses]])
        return super().new_under(setup, rulings)

    @classmethod
    def _new(cls, setup: dict[str, Any], stall_draw: Callable[[list[list[str]]], list[list[str]]]) -> "Meeting":
        setup = setup_object(setup, cls.name)
        players = setup.get("players")
        per_player = horses_per_player(players, setup.get("horses_per_player", allowed_horses(players)[0]))
        course, steeplechase = setup_course(setup)
        names = seat_names(setup, players)
        colours = seat_horses(setup, players, per_player, course)
        flat = [h for horses in colours for h in horses]

        meeting = cls.create(
            setup=setup, players=players, course_name=course.name, steeplechase=steeplechase,
            names=list(names) if names else [f"seat {s}" for s in range(players)],
            ids=flat,  # seat order, then each seat's own order
            owner={h: seat for seat, seat_horses in enumerate(colours) for h in seat_horses},
            decks={h: None for h in flat}, drawn={h: 0 for h in flat},
            stall_groups=stall_draw(colours),  # resolved or still-level groups, inner stall first
            stall_rolls=[],  # the public dice of the stall draw
            roller_groups=[list(range(players))], roller_rolls=[], roller=None,
            phase=SETUP_PHASE, race_no=0, stalls=[], hands={h: [] for h in flat},
            limit={h: HAND_SIZE for h in flat},
            claimed={h: None for h in flat},  # race number in which the bonus was taken
            dealt=False, discard_queue=[], claim_queue=[], race=None, results=[], histories=[], events=[])
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

    def standings(self) -> list[dict[str, Any]]:
        """The table of points so far (the final table once the meeting is over)."""
        return final_table(self.owner, self.players, self.results, self.names)

    def final_places(self) -> list[int] | None:
        """T9: each seat's rank in the final table (points, then the better finishing places)."""
        if self.phase != OVER:
            return None
        ranks = {row["seat"]: row["rank"] for row in self.standings()}
        return [ranks[seat] for seat in range(self.players)]

    def _shown_standings(self) -> list[dict[str, Any]]:
        """:meth:`standings` for views, made again only when a race's result is added (the
        results are appended to, never changed, and a clone shares them: state_fields): every view
        until then shares it, the views of clones (a bot's copy) too. Keyed by the number of
        results and the last one itself, so a clone that ends a race its own way makes its own."""
        results = self.results
        last = results[-1] if results else None
        cached = self._standings
        if cached is None or cached[0] is not last or cached[1] != len(results):
            cached = self._standings = (last, len(results), self.standings())
        return cached[2]

    def _claimable(self, seat: int) -> list[str]:
        """Horses of ``seat`` whose bonus cards may be claimed now, during a race (T8)."""
        if self.phase != RACING:
            return []
        return [h for h in self.horses_of(seat) if self.claimed[h] is None and self.race.stage[h] == "racing"]

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
                return self._rolls_chance("stall_roll", "horse", group)
            horse = next((h for h in self.ids if self.decks[h] is None), None)
            if horse is not None:
                return self._shuffle_chance(horse)
            return self._rolls_chance("first_roller_roll", "seat", next(g for g in self.roller_groups if len(g) > 1))
        if self.phase == PREPARE:
            if self.discard_queue:
                return self._discard_chance(self.discard_queue[0])
            if self.claim_queue:
                return self._claim_decision(self.claim_queue[0])
            return self._keep_decision(self._keep_horse())
        pending = self.race.pending()
        if isinstance(pending, Decision):
            extra = self._claimable(pending.seat)
            if extra:
                notes = pending.note_messages or ("",) * len(pending.options)
                claims = tuple({"type": "claim_bonus", "horse": h} for h in extra)
                # NOTE: TurfMaster, rule T8, during a race; {horse} is a horse's name.
                claim_notes = tuple(Ruled(Message("take the 2 bonus cards of {horse} now (once per game); after "
                                                  "this race 2 of its remaining cards are discarded at random",
                                                  horse=horse_name(h)), "T8")
                                    for h in extra)
                return Decision(pending.seat, pending.kind, pending.options + claims, pending.context,
                                notes + claim_notes)
        return pending

    def believed(self, hands: dict[str, list[str]], decks_left: dict[str, list[str]]) -> "Meeting":
        """A copy of this meeting in which the horses named hold ``hands`` and have ``decks_left``
        (in that order) as what is left of their decks: a search's guess at what its seat cannot see."""
        meeting = self.clone()
        for horse, cards in decks_left.items():
            drawn = self.drawn[horse]
            if len(cards) != len(self.decks[horse]) - drawn:
                raise ValueError(f"{horse!r} has {len(self.decks[horse]) - drawn} cards left in its deck")  # i18n: programming error
            meeting.decks[horse] = self.decks[horse][:drawn] + list(cards)
        if self.phase == RACING:
            meeting.race = self.race.with_hands(hands)
        else:
            for horse, cards in hands.items():
                meeting.hands[horse] = list(cards)
        meeting._pending_cache = None
        return meeting

    def run_race_as(self, race: Race) -> None:
        """Go on from ``race``, the race in progress carried to its end elsewhere (a search's
        playout, :meth:`Race.finished_as`), as from the race's own end."""
        if self.phase != RACING or race.pending() is not None:
            raise ValueError("only a finished race stands in for the race in progress")  # i18n: programming error
        self.race = race
        self._pending_cache = None
        self._advance()

    def between_races(self) -> bool:
        """From the end of a race to the first move of the next: the cards to give up (keep) and
        the bonus cards to claim before race 2 or 3 stand between two races."""
        if self.race_no < 2 or self.phase == OVER:
            return False
        return self.phase == PREPARE or not self.race.history

    def _claim_decision(self, horse: str) -> Decision:
        """Before race 1 or 2: claim the bonus cards of ``horse`` now, or keep them for later (T8)."""
        options = ({"type": "claim_bonus", "horse": horse}, {"type": "decline_bonus", "horse": horse})
        # NOTE: TurfMaster, rule T8, before a race; {horse} is a horse's name, {race} is 1 or 2.
        notes = (Ruled(Message("take the 2 bonus cards of {horse} now: its hand limit is 12 for race {race}, "
                               "and after the race 2 of its remaining cards are discarded at random",
                               horse=horse_name(horse), race=self.race_no), "T8"),
                 # NOTE: TurfMaster, rule T8: declining the bonus cards before a race.
                 Ruled(Message("keep them for later (once per game; unclaimed before race 3, they are dealt then)"), "T8"))
        return Decision(self.owner[horse], "claim_bonus", options,
                        {"horse": horse, "race": self.race_no, "hand": _sorted_hand(self.hands[horse]),
                         "limit": self.limit[horse]}, notes, between_races=self.race_no > 1)

    def _keep_decision(self, horse: str) -> Decision:
        """Before a race: give up one card of a hand over its limit (T8)."""
        hand = self.hands[horse]
        cards = _sorted_hand(set(hand))
        options = tuple({"type": "discard", "horse": horse, "card": c} for c in cards)
        over = len(hand) - self.limit[horse]
        # NOTE: TurfMaster, rule T8: cutting a hand down to its limit; {card} is a card such as "7" or
        # "J12" (the joker 12); {n} is how many cards are still to give up afterwards (0 or more).
        notes = tuple(Ruled(Plural("give up the {card}; {n} more card to give up after this",
                                   "give up the {card}; {n} more cards to give up after this", over - 1, card=c), "T8")
                      for c in cards)
        return Decision(self.owner[horse], "keep", options,
                        {"horse": horse, "race": self.race_no, "hand": _sorted_hand(hand),
                         "limit": self.limit[horse], "to_discard": over}, notes, between_races=True)

    # chance steps ------------------------------------------------------------------
    def _rolls_chance(self, kind: str, key: str, group: list) -> Chance:
        """Every member of a group level so far rolls two dice (``key``: "horse" for the stalls,
        "seat" for the first roller, T10); all their dice as draws, in the order rolled."""
        members = tuple(group)

        def sample(rng: random.Random) -> Action:
            return {"type": kind, "rolls": [{key: member, "dice": roll(rng)} for member in members]}

        def build(drawn: list[list[int]]) -> Action:
            dice = drawn[0]
            return {"type": kind, "rolls": [{key: member, "dice": dice[2 * i:2 * i + 2]}
                                            for i, member in enumerate(members)]}

        draws = Draws((dice_pool(2 * len(members)),), build,
                      lambda action: [[die for rolled in action["rolls"] for die in rolled["dice"]]])
        return Chance(kind, sample, lambda action: self._is_rolls(action, kind, key, members),
                      {f"{key}s": list(members)}, draws=draws)

    def _shuffle_chance(self, horse: str) -> Chance:
        """The deck of ``horse`` shuffled once for the whole game (T7, T8): its 32 cards drawn in turn."""
        draws = Draws((Pool(tuple(full_deck()), len(full_deck())),),
                      lambda drawn: {"type": "shuffle", "horse": horse, "deck": drawn[0]},
                      lambda action: [action["deck"]])
        return Chance("shuffle", lambda rng: {"type": "shuffle", "horse": horse,
                                              "deck": rng.sample(full_deck(), len(full_deck()))},
                      lambda action: self._is_shuffle(action, horse), {"horse": horse}, draws=draws)

    def _discard_chance(self, horse: str) -> Chance:
        """Two cards (or the one left) of ``horse`` discarded at random after a race in which it
        took its bonus cards (T8)."""
        count = min(2, len(self.hands[horse]))
        draws = Draws((Pool(tuple(self.hands[horse]), count),),
                      lambda drawn: {"type": "bonus_discard", "horse": horse, "cards": drawn[0]},
                      lambda action: [action["cards"]])
        return Chance("bonus_discard", lambda rng: {"type": "bonus_discard", "horse": horse,
                                                    "cards": rng.sample(self.hands[horse], count)},
                      lambda action: self._is_discard(action, horse, count), {"horse": horse}, draws=draws)

    # chance validity checks --------------------------------------------------------
    @staticmethod
    def _is_rolls(action: Action, kind: str, key: str, group: tuple) -> bool:
        rolls = action.get("rolls")
        return (action.get("type") == kind and isinstance(rolls, list)
                and same_json([r.get(key) if isinstance(r, dict) else None for r in rolls], list(group))
                and all(is_dice(r.get("dice")) for r in rolls))

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
        pending = self.step_answered_by(action, Message("the meeting is over: three races have been run"))
        if isinstance(pending, Chance):
            self._pending_cache = None
            self._apply_chance(pending.kind, action)
            self._advance()
            return
        if not pending.allows(action):
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

    def _refusal(self, pending: Decision, action: Action) -> Message:
        """Why ``action`` is refused now, and what would be right."""
        if action.get("type") == "claim_bonus":
            refusal = self._claim_refusal(pending, action.get("horse"))
            if refusal is not None:
                return refusal
        if pending.kind == "claim_bonus":
            # NOTE: TurfMaster, rule T8; {seat} is a player's name (or "player 2"), {horse} a horse's name.
            return Ruled(Message("{seat} must claim or decline the bonus cards of {horse} now",
                                 seat=Seat(pending.seat), horse=horse_name(pending.context["horse"])), "T8")
        if pending.kind == "keep":
            context = pending.context
            # NOTE: TurfMaster, rule T8: a hand over its limit before a race; {seat} is a player's name (or
            # "player 2"), {horse} a horse's name, {cards} the cards it may give up ("3, 7, J12"; J12 is the joker 12).
            return Ruled(Plural("{seat} must give up one card of {horse} now: it holds {hand} cards, {limit} at "
                                "most, so {n} card to give up; it may give up: {cards}",
                                "{seat} must give up one card of {horse} now: it holds {hand} cards, {limit} at "
                                "most, so {n} cards to give up; it may give up: {cards}",
                                context["to_discard"], seat=Seat(pending.seat), horse=horse_name(context["horse"]),
                                hand=len(context["hand"]), limit=context["limit"],
                                cards=", ".join(o["card"] for o in pending.options)), "T8")
        try:
            self.race.clone().apply(action)
        except IllegalAction as error:
            return error.args[0]
        return Message("{action} is not allowed now", action=given(action))  # pragma: no cover

    def _claim_refusal(self, pending: Decision, horse: Any) -> Ruled | Message | None:
        """Why the bonus cards of ``horse`` cannot be claimed now (T8), if a rule says so."""
        if not isinstance(horse, str) or horse not in self.owner:
            # NOTE: {horse} is what the action gave, in quotes; {ids} lists the horses' ids.
            return Message("there is no horse {horse}; the horses are: {ids}", horse=repr(horse),
                           ids=", ".join(self.ids))
        if self.owner[horse] != pending.seat:
            # NOTE: {horse} is a horse's name; {owner} and {seat} are players' names (or "player 2").
            return Message("{horse} belongs to {owner}, not to {seat}, who decides now",
                           horse=horse_name(horse), owner=Seat(self.owner[horse]), seat=Seat(pending.seat))
        if self.claimed[horse] is not None:
            # NOTE: TurfMaster, rule T8; {horse} is a horse's name, {race} a race number (1 to 3).
            return Ruled(Message("the bonus cards of {horse} were already taken in race {race}: once per game",
                                 horse=horse_name(horse), race=self.claimed[horse]), "T8")
        if self.phase == RACING and self.race.stage.get(horse) != "racing":
            # NOTE: TurfMaster, rule T8; {horse} is a horse's name.
            return Ruled(Message("{horse} is no longer running in this race; claim its bonus cards before the next "
                                 "race", horse=horse_name(horse)), "T8")
        return None

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
        event = {"race": self.race_no, "event": "claim_bonus", "horse": horse, "during_race": self.phase == RACING}
        if self.phase == RACING:
            event["at"] = len(self.race.history)
        self.events.append(event)
        if self.phase == RACING:
            self.race.add_cards(horse, bonus)
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
                 "hands": {h: list(self.hands[h]) for h in self.stalls},
                 "bonus_unclaimed": [h for h in self.stalls if self.claimed[h] is None]}
        self.race = Race.new(setup)
        self.hands = {h: [] for h in self.ids}
        self.phase = RACING

    def _end_race(self) -> None:
        race = self.race
        self.results.append({"race": self.race_no, "stalls": list(self.stalls), "places": list(race.places),
                             "fallen": list(race.fallen), "points": race_points(race.places)})
        self.histories.append(list(race.history))
        self.hands = {h: list(race.hands[h]) for h in self.ids}
        self.roller = race.roller
        fallen = [h for h in self.stalls if h in race.fallen]
        self.stalls = list(race.places) + fallen
        if self.race_no == RACES:
            self.phase = OVER
            return
        self._prepare(self.race_no + 1)

    # -- views (fields, JSON and clone: state_fields) ------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        """The view with the pending step, at the top and, while a race runs, in the race's view."""
        observed = super().observation(seat)
        if observed["race"] is not None:
            observed["race"]["pending"] = observed["pending"] if self.phase == RACING else None
        return observed

    def view(self, seat: int | None) -> dict[str, Any]:
        return merged_view(self.shared_view(), self.own_view(seat))

    def shared_view(self) -> dict[str, Any]:
        horses = []
        for horse in self.ids:
            horses.append({"id": horse, "owner": self.owner[horse], "colour": HORSE_COLOURS[horse],
                           "cards": len(self.hand(horse)), "deck_left": DECK_SIZE - self.drawn[horse],
                           "bonus_taken_in": self.claimed[horse], "limit": self.limit[horse]})
        return {
            "game": self.name,
            "course": self.course_name,
            "steeplechase": self.steeplechase,
            "players": self.players,
            "names": list(self.names),
            "phase": self.phase,
            "race_no": self.race_no,
            "stalls": list(self.stalls),
            "stall_rolls": [list(r) for r in self.stall_rolls],
            "roller_rolls": [list(r) for r in self.roller_rolls],
            "roller": self.roller,
            "horses": horses,
            "results": [dict(r) for r in self.results],
            "standings": self._shown_standings(),
            "race": self.race.shared_view() if self.race is not None else None,
            "over": self.over,
        }

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The seat's hands, its hands in the race and the events (a card given up between races is
        face down to others)."""
        own = {
            "seat": seat,
            "hands": {h: _sorted_hand(self.hand(h)) for h in self.ids if self.owner[h] == seat},
            "events": [self._event_for(event, seat) for event in self.events],
        }
        if self.race is not None:
            own["race"] = self.race.own_view(seat)
        return own

    def secrets(self, seat: int | None) -> list[Any]:
        """The hands of other seats' horses (keyed by horse: as the meeting and the race show them,
        as kept, and as a decision's context), every deck's order and what is left of it (T8),
        and the cards other owners gave up face down."""
        found: list[Any] = []
        for horse in self.ids:
            deck = self.decks[horse]
            if deck is not None:
                found += [list(deck), {horse: list(deck)}]
                if deck[self.drawn[horse]:]:
                    found.append(deck[self.drawn[horse]:])
            cards = self.hand(horse)
            if self.owner[horse] != seat and cards:
                found += [{horse: _sorted_hand(cards)}, {horse: list(cards)},
                          {"horse": horse, "hand": _sorted_hand(cards)}]
        if self.race is not None:
            found += self.race.secrets(seat)
        found += [dict(event) for event in self.events
                  if event["event"] == "keep_discard" and self._face_down(event["horse"], seat)]
        return [secret for index, secret in enumerate(found) if secret not in found[:index]]

    def past_races(self) -> list[dict[str, Any]]:
        """The races run so far, public: each one's number, stalls and history (the move log's)."""
        return [{"race": result["race"], "stalls": list(result["stalls"]), "history": list(history)}
                for result, history in zip(self.results, self.histories)]

    def _event_for(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it: a card given up between races is face down to others."""
        if event["event"] == "keep_discard" and self._face_down(event["horse"], seat):
            return {key: value for key, value in event.items() if key != "card"}
        return dict(event)

    def action_hidden_from(self, action: Action, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may not see ``action`` as it was chosen: the card
        given up to fit a hand's limit (T8) is face down to all but the horse's owner (the others
        learn only that a card was given up, as the view's events say)."""
        horse = action.get("horse") if isinstance(action, dict) and action.get("type") == "discard" else None
        return isinstance(horse, str) and self._face_down(horse, seat)

    def _face_down(self, horse: str, seat: int | None) -> bool:
        """Whether a card ``horse`` gave up to fit its hand's limit (T8) is face down to ``seat``:
        to everyone but the horse's owner."""
        return self.owner.get(horse) != seat
