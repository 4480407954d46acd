"""A game of Ready Set Bet: four races, the betting board, VIP cards and the House variants.

Flow (rulings R1-R9): the three decks (prop bets, exotic finishes, VIP) are shuffled by one
untimed chance step. Each race: in the rotating-House variant the House is settled (R9),
then the House places its 6 house tokens (House variants, R9), then the race runs: every
roll is a *timed* chance step (the table's clock draws it) and bets are *free actions* that
any betting seat may take between rolls, first come first served (R4). A race ends the
moment a horse reaches 15 (R2); bets are settled at once, then (after races 1-3) new prop
cards are dealt, one more exotic card turns up and every drawing player keeps 1 of 2 VIP
cards (R8). After the last race the richest players win, ties sharing (R9).

The VIP draw follows the rulings the game is played under (``rulings``, :meth:`new_under`;
``rulings_version`` for a new game): under version 2 (R8 as amended) every drawing player draws
two cards at once (a ``vip_reshuffle`` chance step first when the deck runs short) and all choose
at the same time, in any order (:meth:`decisions`, :meth:`apply_as`); the cards kept are held back
and take effect (comp chips paid, bonus tokens given) only once everyone has chosen, then the next
race begins. Under version 1 (games stored before the amendment) players draw and choose one after
the other, in seat order, each card taking effect at once.

Setup (JSON): ``{"players": 2..8, "variant": "standard" | "app" | "house_bets" |
"rotating_house", "props": true, "exotics": true, "vip": true, "races": 4}``. ``players``
counts betting players; ``house_bets`` adds the House as seat ``players``; in
``rotating_house`` the House is one of the players and changes hands. ``props``, ``exotics``
and ``vip`` false give the rulebook's lighter game. ``races`` below 4 is a shortened game.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from hippodrome.core.chance import Draws, Pool, uniform
from hippodrome.core.dice import roll_chance
from hippodrome.core.errors import IllegalAction, InvalidSetup, given
from hippodrome.core.rulings import Ruled
from hippodrome.core.game import Action, Chance, Decision, Game, competition_places, merged_view
from hippodrome.core.registry import register_game
from hippodrome.core.state import KEEP, DeclaredState, StateFields, nested, object_codec, shallow, shared
from hippodrome.i18n import Message, Plural, Seat
from hippodrome.i18n.vocabulary import READYSETBET_EXOTIC, READYSETBET_VIP, term
from hippodrome.readysetbet import vip as vipmod
from hippodrome.readysetbet.caller import SEED_DRAW, race_calls, results_message, seed_bytes, seed_from_bytes
from hippodrome.readysetbet.board import (
    CLOSED_WITH_TWO,
    PROPS_PER_RACE,
    Space,
    all_exotic_ids,
    all_prop_ids,
    race_spaces,
)
from hippodrome.readysetbet.dice_race import HORSES, RACE_DATA, RaceState, finishing_order, roll_dice, roll_sums
from hippodrome.readysetbet.settlement import Token, player_tokens, settle, winning_spaces
from hippodrome.readysetbet.description import GAME, HOUSE_DATA, VARIANTS
from hippodrome.readysetbet.words import space_words, token_values, token_words

HOUSE_TOKEN_VALUES: list[int] = HOUSE_DATA["house_tokens"]


# phases
SHUFFLE, FIRST_HOUSE, HOUSE_CHOICE, PLACE_HOUSE_TOKENS, RACE, VIP, OVER = (
    "shuffle", "first_house", "house_choice", "house_tokens", "race", "vip", "over")


def player_range(variant: str) -> tuple[int, int]:
    """How many players (bettors, the House of House bets not counted) a game of ``variant`` takes."""
    # R9 as ruled: House bets takes one to eight bettors besides the House
    low = HOUSE_DATA["house_bets_min_players"] if variant == "house_bets" else RACE_DATA["min_players"]
    return low, RACE_DATA["max_players"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_order_of(order: Any, cards: list[str]) -> bool:
    """Whether ``order`` is a list of exactly ``cards`` (card ids), in any order."""
    return isinstance(order, list) and all(isinstance(card, str) for card in order) and sorted(order) == sorted(cards)


def _tokens_of(bets: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The tokens ``bets`` put on each space, as the board shows them, in the order they were placed."""
    tokens: dict[str, list[dict[str, Any]]] = {}
    for bet in bets:
        tokens.setdefault(bet["space"], []).append(
            {"seat": bet["seat"], "token": bet["token"]["id"], "value": bet["token"]["value"]})
    return tokens


@functools.cache
def race_roll(race_no: int) -> Chance:
    """The chance step of every roll of race ``race_no`` (this game's and the box's): the same
    step at each roll, made once (a table asks what is pending many times between two rolls)."""
    return roll_chance({"race": race_no}, timed=True)


@register_game
class ReadySetBet(DeclaredState, Game):
    name = "readysetbet"
    description = GAME
    free_action_types = frozenset({"bet"})
    #: 2: the VIP cards chosen by everyone at once (R8 as amended); 1: one after the other
    rulings_version = 2

    state_fields = StateFields(
        shared("setup"),
        shared("players"),
        shared("variant"),
        shared("use_props"),
        shared("use_exotics"),
        shared("use_vip"),
        shared("races"),
        shared("seats"),
        shared("house_seat"),
        shallow("money"),
        nested("tokens"),  # a list of tokens per seat; a token is never changed
        nested("used"),
        nested("vip_cards"),
        shallow("prop_deck"),
        shallow("exotic_deck"),
        shallow("vip_deck"),
        shallow("vip_discard"),
        shallow("props"),
        shallow("exotics"),
        shared("race_no"),
        shared("phase"),
        shallow("bets"),  # bets, events and race records are complete when appended
        shallow("house_bets"),
        shallow("house_left"),
        shallow("vip_queue"),
        shallow("vip_drawn"),
        shallow("house_asked"),
        shallow("race_log"),
        shallow("history"),
        shared("shuffled"),
        shared("caller_seed", default=None),  # added after the first games were stored
        # the rulings version (R8 as amended: 2); a state stored before it was kept played under 1
        shared("rulings", default=1),
        nested("vip_hands", default=None),   # rulings 2: each seat's two cards drawn ([]: none)
        shallow("vip_kept", default=None),   # rulings 2: each seat's card kept, held back until all chose
        shared("race", codec=object_codec(RaceState)),  # a frozen RaceState
        # the board's spaces are immutable, and so are the board, the caller's lines and the
        # House's token options once made (views and callers only read them: a clone's bettor
        # reads the same; each is keyed so that a clone that bets, rolls or places a house token
        # on its own makes its own)
        caches={"_spaces": KEEP, "_calls": KEEP, "_board": KEEP, "_house_options": KEEP},
    )
    _spaces: dict[str, Space] | None
    _calls: tuple[tuple, dict[str, Any], tuple, Any] | None   # (rolls, lines, the log's counts, its last event: calls())
    _board: tuple[Any, ...] | None   # (the spaces, what else the board was made from, the board, space id -> its entry)
    _house_options: tuple[Any, ...] | None   # (the spaces, what else they were made from, the options)

    # -- construction -------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> "ReadySetBet":
        if not isinstance(setup, dict):
            raise InvalidSetup(Message('a Ready Set Bet setup must be a JSON object such as {{"players": 4}}'))
        variant = setup.get("variant", "standard")
        if variant not in VARIANTS:
            raise InvalidSetup(Message("unknown variant {variant}; choose one of {variants}", variant=given(variant),
                                      variants=", ".join(VARIANTS)))
        players = setup.get("players", 4)
        low, high = player_range(variant)
        if not _is_int(players) or not low <= players <= high:
            raise InvalidSetup(Message("'players' must be a whole number from {low} to {high}, not {value}",
                                      low=low, high=high, value=given(players)))
        races = setup.get("races", RACE_DATA["races"])
        if not _is_int(races) or not 1 <= races <= RACE_DATA["races"]:
            raise InvalidSetup(Message("'races' must be from 1 to {high}, not {value}", high=RACE_DATA["races"],
                                      value=given(races)))
        for option in ("props", "exotics", "vip"):
            if not isinstance(setup.get(option, True), bool):
                raise InvalidSetup(Message("'{option}' must be true or false", option=option))
        seats = players + 1 if variant == "house_bets" else players
        house_seat = players if variant == "house_bets" else None
        money = [RACE_DATA["starting_money"]] * seats
        non_house = players - 1 if variant == "rotating_house" else players
        tokens = [player_tokens(non_house) for _ in range(seats)]
        if variant == "house_bets":
            money[house_seat] = HOUSE_DATA["house_bets_starting_money"]
            tokens[house_seat] = []
        return cls.create(
            setup=setup, players=players, variant=variant, use_props=setup.get("props", True),
            use_exotics=setup.get("exotics", True), use_vip=setup.get("vip", True), races=races, seats=seats,
            house_seat=house_seat, money=money, tokens=tokens, used=[[] for _ in range(seats)],
            vip_cards=[[] for _ in range(seats)], prop_deck=[], exotic_deck=[], vip_deck=[], vip_discard=[],
            props=[], exotics=[], race_no=1, phase=SHUFFLE, bets=[], house_bets=[], house_left=[], vip_queue=[],
            vip_drawn=[], house_asked=[], race_log=[], history=[], shuffled=False, caller_seed=None,
            race=RaceState.start(), rulings=cls.rulings_version, vip_hands=[[] for _ in range(seats)], vip_kept=[None] * seats)

    @classmethod
    def new_under(cls, setup: dict[str, Any], rulings: int) -> "ReadySetBet":
        """Version 1: the VIP cards chosen one player after the other (games stored before R8 was
        amended); version 2, the current one: all together (R8 as amended)."""
        if rulings == 1 and _is_int(rulings):
            state = cls.new(setup)
            state.rulings = 1
            return state
        return super().new_under(setup, rulings)

    # -- reading ------------------------------------------------------------------
    @property
    def spaces(self) -> dict[str, Space]:
        if self._spaces is None:
            self._spaces = {s.id: s for s in race_spaces(self.props, self.exotics)}
        return self._spaces

    def is_house(self, seat: int) -> bool:
        return self.house_seat is not None and seat == self.house_seat

    def betting_seats(self) -> list[int]:
        """Seats that bet with player tokens in this race (not the House, R9)."""
        return [s for s in range(self.seats) if not self.is_house(s)]

    def vip_active(self, seat: int) -> list[str]:
        """VIP cards whose effects count now: a rotating House cannot use its cards (R9)."""
        if self.variant == "rotating_house" and self.is_house(seat):
            return []
        return self.vip_cards[seat]

    def closed_columns(self) -> frozenset[str]:
        """R4: with only 2 betting in the race the leftmost Win, Place and Show spaces are closed;
        the House counts when it places house tokens (R9, as ruled)."""
        betting = len(self.betting_seats()) + (1 if self.house_seat is not None else 0)
        return CLOSED_WITH_TWO if betting == 2 else frozenset()

    def token(self, seat: int, token_id: str) -> Token | None:
        for token in self.tokens[seat]:
            if token["id"] == token_id:
                return token
        return None

    # -- Game protocol: pending ---------------------------------------------------
    def pending(self) -> Decision | Chance | None:
        if self.phase == SHUFFLE:
            return Chance("shuffle", self._sample_shuffle, self._is_shuffle, draws=self._shuffle_draws())
        if self.phase == FIRST_HOUSE:
            return Chance("first_house", lambda rng: {"type": "first_house", "seat": rng.randrange(self.seats)},
                          lambda a: a.get("type") == "first_house" and _is_int(a.get("seat"))
                          and 0 <= a["seat"] < self.seats,
                          outcomes=lambda: uniform({"type": "first_house", "seat": seat} for seat in range(self.seats)))
        if self.phase == HOUSE_CHOICE:
            seat = self._house_asked_seat()
            options = ({"type": "house", "accept": True}, {"type": "house", "accept": False})
            kind = "house_stay" if seat == self.house_seat else "house_offer"
            return Decision(seat, kind, options, {"race": self.race_no, "house": self.house_seat},
                            between_races=self.race_no > 1)
        if self.phase == PLACE_HOUSE_TOKENS:
            return Decision(self.house_seat, "house_token", self._house_token_options(),
                            {"race": self.race_no, "tokens_left": list(self.house_left)}, between_races=self.race_no > 1)
        if self.phase == RACE:
            return race_roll(self.race_no)
        if self.phase == VIP:
            if self._needs_vip_reshuffle():
                return Chance("vip_reshuffle", self._sample_vip_reshuffle, self._is_vip_reshuffle,
                              draws=Draws((Pool(tuple(self.vip_discard), len(self.vip_discard)),),
                                          lambda drawn: {"type": "vip_reshuffle", "order": drawn[0]},
                                          lambda action: [action["order"]]))
            if self.rulings >= 2:
                return self._vip_decision(self.vip_choosing()[0])
            seat = self.vip_queue[0]
            options = tuple({"type": "vip", "keep": card} for card in self.vip_drawn)
            return Decision(seat, "vip", options, {"race": self.race_no, "drawn": list(self.vip_drawn)},
                            between_races=True)
        return None

    # -- the VIP cards chosen together (R8 as amended, rulings 2) ------------------------
    def vip_choosing(self) -> list[int]:
        """The seats still choosing a VIP card, in seat order (rulings 2)."""
        if self.phase != VIP or self.rulings < 2 or self.vip_hands is None:
            return []
        return [seat for seat, hand in enumerate(self.vip_hands) if hand and self.vip_kept[seat] is None]

    def _vip_decision(self, seat: int) -> Decision:
        hand = self.vip_hands[seat]
        return Decision(seat, "vip", tuple({"type": "vip", "keep": card} for card in hand),
                        {"race": self.race_no, "drawn": list(hand), "together": self.vip_choosing()},
                        between_races=True)

    def decisions(self) -> tuple[Decision, ...]:
        """Under rulings 2, every player still choosing a VIP card has a decision open (R8)."""
        if self.phase == VIP and self.rulings >= 2 and not self._needs_vip_reshuffle():
            return tuple(self._vip_decision(seat) for seat in self.vip_choosing())
        return super().decisions()

    def apply_as(self, seat: int, action: Action) -> None:
        if self.phase == VIP and self.rulings >= 2 and not self._needs_vip_reshuffle():
            if not _is_int(seat) or seat not in self.vip_choosing():
                who = Seat(seat) if _is_int(seat) and 0 <= seat < self.seats else given(seat)
                raise IllegalAction(Message("{seat} has no VIP card to choose now", seat=who), rule="R8")
            decision = self._vip_decision(seat)
            if not decision.allows(action):
                raise IllegalAction(Message("not one of the options for {kind}", kind=decision.kind), decision.options)
            self._choose_vip(seat, action["keep"])
            return
        super().apply_as(seat, action)

    def _draw_vip_together(self) -> None:
        """Every drawing player draws two cards at once; a reshuffle of the discards first when
        the deck runs short (its chance step is pending then). Nobody holding cards: next race."""
        while self.vip_queue:
            if self._needs_vip_reshuffle():
                return
            seat = self.vip_queue.pop(0)
            hand = [self.vip_deck.pop(0) for _ in range(min(vipmod.VIP_DRAW, len(self.vip_deck)))]
            self.vip_hands[seat] = hand   # empty: no card left anywhere, this player draws nothing
        if not self.vip_choosing():
            self._reveal_vip()

    def _choose_vip(self, seat: int, card: str) -> None:
        self.vip_kept[seat] = card
        if not self.vip_choosing():
            self._reveal_vip()

    def _reveal_vip(self) -> None:
        """Everybody has chosen: the cards kept are shown and take effect, the others go to the discards."""
        for seat, hand in enumerate(self.vip_hands):
            if hand:
                self._take_vip(seat, self.vip_kept[seat], hand)
        self.vip_hands, self.vip_kept = [[] for _ in range(self.seats)], [None] * self.seats
        self._next_race()

    def between_races(self) -> bool:
        """From a race's settlement to the next race's first roll: the VIP choices (R8) and the
        House's choices and tokens before race 2 and later stand between two races."""
        if self.phase == VIP:
            return True
        if self.race_no == 1 or self.phase == OVER:
            return False
        return not any(event["event"] == "move" for event in self.race_log)

    # chance samplers (the generator is the Match's; nothing here is stored)
    def _sample_shuffle(self, rng: random.Random) -> Action:
        decks = {}
        for name, ids in (("props", all_prop_ids()), ("exotics", all_exotic_ids()), ("vip", vipmod.deck_ids())):
            order = list(ids)
            rng.shuffle(order)
            decks[name] = order
        # the race caller's own generator (which lines it picks), drawn after the decks: never the dice's
        return {"type": "shuffle", **decks, "caller": rng.randrange(2 ** 32)}

    def _shuffle_draws(self) -> Draws:
        """The shuffle as draws: each deck card by card, then the caller's seed (caller.SEED_DRAW)."""
        decks = (("props", all_prop_ids()), ("exotics", all_exotic_ids()), ("vip", vipmod.deck_ids()))
        pools = tuple(Pool(tuple(ids), len(ids)) for _, ids in decks) + (SEED_DRAW,)

        def build(drawn: list[list[Any]]) -> Action:
            orders = {name: order for (name, _), order in zip(decks, drawn)}
            return {"type": "shuffle", **orders, "caller": seed_from_bytes(drawn[-1])}

        def items_of(action: Action) -> list[list[Any]]:
            return [action[name] for name, _ in decks] + [seed_bytes(action.get("caller", 0))]

        return Draws(pools, build, items_of)

    def _is_shuffle(self, action: Action) -> bool:
        return (action.get("type") == "shuffle"
                and _is_int(action.get("caller", 0))
                and _is_order_of(action.get("props"), all_prop_ids())
                and _is_order_of(action.get("exotics"), all_exotic_ids())
                and (_is_order_of(action.get("vip"), vipmod.deck_ids())
                     or _is_order_of(action.get("vip"), vipmod.previous_deck_ids())))

    def _needs_vip_reshuffle(self) -> bool:
        if self.phase == VIP and self.rulings >= 2:
            return bool(self.vip_queue) and len(self.vip_deck) < vipmod.VIP_DRAW and bool(self.vip_discard)
        return not self.vip_drawn and len(self.vip_deck) < vipmod.VIP_DRAW and bool(self.vip_discard)

    def _sample_vip_reshuffle(self, rng: random.Random) -> Action:
        order = list(self.vip_discard)
        rng.shuffle(order)
        return {"type": "vip_reshuffle", "order": order}

    def _is_vip_reshuffle(self, action: Action) -> bool:
        return action.get("type") == "vip_reshuffle" and _is_order_of(action.get("order"), self.vip_discard)

    def _house_asked_seat(self) -> int:
        """Who is asked now: the House first (stay?), then each player clockwise (R9)."""
        return (self.house_seat + len(self.house_asked)) % self.seats

    def _house_token_options(self) -> tuple[Action, ...]:
        """Each value left on each space the House may still take (R9): six different spaces, no
        closed column, and, as for every player's betting tokens, one token per exotic finish
        card (R6: the House is a player and these are its betting tokens). Made once per state:
        ``pending``, ``decisions``, ``decision_for`` and ``apply`` at one state share the tuple
        (read, never changed), made again when the spaces, the House's tokens placed or left or
        the closed columns differ (in a clone too, which keeps the cache)."""
        spaces, closed = self.spaces, self.closed_columns()
        key = (tuple(bet["space"] for bet in self.house_bets), tuple(self.house_left), closed)
        cached = self._house_options
        if cached is not None and cached[0] is spaces and cached[1] == key:
            return cached[2]
        taken = set(key[0])
        cards = {spaces[space].card for space in taken if space in spaces} - {None}
        open_spaces = [space.id for space in spaces.values()
                       if space.id not in taken and space.column not in closed and space.card not in cards]
        options = tuple([{"type": "house_token", "value": value, "space": space_id}
                         for value in sorted(set(self.house_left)) for space_id in open_spaces])
        self._house_options = (spaces, key, options)
        return options

    # -- Game protocol: apply -----------------------------------------------------
    def apply(self, action: Action) -> None:
        if self.is_free_action(action):
            raise IllegalAction(Message("a bet is a free action: send it with the seat that bets (apply_free)"))
        pending = self.step_answered_by(action, Message("the game is over; no more actions are taken"))
        if isinstance(pending, Decision) and not pending.allows(action):
            raise IllegalAction(Message("not one of the options for {kind}", kind=pending.kind), pending.options)
        kind = pending.kind
        if kind == "shuffle":
            self.prop_deck, self.exotic_deck, self.vip_deck = (list(action["props"]), list(action["exotics"]),
                                                               list(action["vip"]))
            self.shuffled = True
            self.caller_seed = action.get("caller")
            self._deal_race_cards()
            self._begin_race()
        elif kind == "first_house":
            self.house_seat = action["seat"]
            self.house_left = list(HOUSE_TOKEN_VALUES)
            self.phase = PLACE_HOUSE_TOKENS
        elif kind in ("house_stay", "house_offer"):
            self._house_answer(action["accept"])
        elif kind == "house_token":
            self.house_left.remove(action["value"])
            self.house_bets.append({"seat": self.house_seat, "space": action["space"],
                                    "token": {"id": f"house-{len(self.house_bets) + 1}",
                                              "value": action["value"], "penalty": 0, "cancels_loss": False}})
            if not self.house_left:
                self.phase = RACE
        elif kind == "roll":
            self._roll(action["dice"])
        elif kind == "vip_reshuffle":
            self.vip_deck.extend(action["order"])
            self.vip_discard = []
            self._draw_vip_together() if self.rulings >= 2 else self._draw_vip()
        elif kind == "vip" and self.rulings >= 2:
            self._choose_vip(pending.seat, action["keep"])
        elif kind == "vip":
            self._keep_vip(action["keep"])

    # race flow
    def _deal_race_cards(self) -> None:
        if self.use_props:
            self.props = [self.prop_deck.pop(0) for _ in range(min(PROPS_PER_RACE, len(self.prop_deck)))]
        if self.use_exotics and self.exotic_deck:
            self.exotics.append(self.exotic_deck.pop(0))
        self._empty_caches()  # the spaces change with the cards

    def _begin_race(self) -> None:
        """Start race ``race_no``: the House decisions first, if any, then the race itself."""
        self.race = RaceState.start()
        self.bets, self.house_bets, self.used = [], [], [[] for _ in range(self.seats)]
        self.race_log = []
        if self.variant == "rotating_house":
            if self.race_no == 1:
                self.phase = FIRST_HOUSE
            else:
                self.house_asked = []
                self.phase = HOUSE_CHOICE
        elif self.variant == "house_bets":
            self.house_left = list(HOUSE_TOKEN_VALUES)
            self.phase = PLACE_HOUSE_TOKENS
        else:
            self.phase = RACE

    def _house_answer(self, accept: bool) -> None:
        asked = self._house_asked_seat()
        if accept:
            new_house = asked
        else:
            self.house_asked.append(asked)
            if len(self.house_asked) < self.seats:
                return
            new_house = (self.house_seat + 1) % self.seats  # nobody accepted: the left neighbour must
        self.house_seat = new_house
        self.house_asked = []
        pay = HOUSE_DATA["rotating_compensation"].get(str(self.race_no), 0)
        self.money[new_house] += pay
        self.race_log.append({"event": "house", "seat": new_house, "compensation": pay})
        self.house_left = list(HOUSE_TOKEN_VALUES)
        self.phase = PLACE_HOUSE_TOKENS

    def _roll(self, dice: list[int]) -> None:
        dice_sum = dice[0] + dice[1]
        self.race, events = roll_dice(self.race, dice)
        self.race_log.extend(events)
        for seat in range(self.seats):
            paid = vipmod.roll_payout(self.vip_active(seat), dice_sum)
            if paid:
                self.money[seat] += paid
                self.race_log.append({"event": "vip_payout", "seat": seat, "amount": paid, "sum": dice_sum})
        if self.race.finished:
            self._settle_race()

    def _settle_race(self) -> None:
        all_bets = self.house_bets + self.bets
        before = list(self.money)
        new_money, results = settle(all_bets, self.spaces, self.race.positions, dict(enumerate(self.money)))
        self.money = [new_money[seat] for seat in range(self.seats)]
        order = finishing_order(self.race.positions)
        self.history.append({"race": self.race_no, "positions": dict(zip(HORSES, self.race.positions)),
                             "order": [{"rank": r, "horse": h, "space": p} for r, h, p in order],
                             "placings": results_message(self.race.positions).to_json(),
                             "results": results, "money_before": before, "money_after": list(self.money),
                             "house": self.house_seat if self.variant == "rotating_house" else None,
                             "props": list(self.props), "exotics": list(self.exotics),
                             "rolls": roll_sums(self.race_log),
                             "winning": winning_spaces(self.spaces, self.race.positions)})
        if self.race_no >= self.races:
            self.phase = OVER
            return
        if self.use_vip:
            self.vip_queue = [s for s in range(self.seats) if not (self.variant == "house_bets" and self.is_house(s))]
            self.phase = VIP
            if self.rulings >= 2:
                self.vip_hands, self.vip_kept = [[] for _ in range(self.seats)], [None] * self.seats
                self._draw_vip_together()
            else:
                self._draw_vip()
        else:
            self._next_race()

    def _draw_vip(self) -> None:
        while self.vip_queue and not self.vip_drawn:
            if self._needs_vip_reshuffle():
                return  # a chance step shuffles the discards first
            self.vip_drawn = [self.vip_deck.pop(0) for _ in range(min(vipmod.VIP_DRAW, len(self.vip_deck)))]
            if not self.vip_drawn:  # no card left anywhere: this player draws nothing
                self.vip_queue.pop(0)
        if not self.vip_queue:
            self._next_race()

    def _keep_vip(self, card: str) -> None:
        seat = self.vip_queue.pop(0)
        self._take_vip(seat, card, self.vip_drawn)
        self.vip_drawn = []
        self._draw_vip()

    def _take_vip(self, seat: int, card: str, drawn: list[str]) -> None:
        """``seat`` keeps ``card`` of the cards it ``drawn``: comp chips paid, a bonus token given
        (R8); the others go to the discards."""
        self.vip_cards[seat].append(card)
        self.money[seat] += vipmod.comp_chips(card)
        token = vipmod.bonus_token(card)
        if token is not None:
            self.tokens[seat].append(token)
        self.vip_discard.extend(c for c in drawn if c != card)

    def _next_race(self) -> None:
        self.race_no += 1
        self._deal_race_cards()
        self._begin_race()

    # -- free actions: bets -------------------------------------------------------
    def bet_refusal(self, seat: Any, token_id: Any, space_id: Any) -> Ruled | Message | None:
        """Why this bet cannot be placed now (None: it can). Reads only; changes nothing."""
        reason = self._seat_refusal(seat)
        if reason is not None:
            return reason
        return self._placement_refusal(seat, token_id, space_id)

    def _seat_refusal(self, seat: Any) -> Ruled | Message | None:
        """Why ``seat`` cannot bet at all now (said to that seat: "you")."""
        if not _is_int(seat) or not 0 <= seat < self.seats:
            return Plural("there is no such seat at this table; it has {n} seat",
                          "there is no such seat at this table; it has {n} seats", self.seats)
        if self.is_house(seat):
            return Ruled(Message("you are the House this race: the House bets only with its house tokens, "
                                 "before the race"), "R9")
        if self.phase == OVER:
            return Ruled(Message("betting is closed: the game is over"), "R9")
        if self.phase != RACE:
            return Ruled(Message("betting is closed: race {race} has not started yet", race=self.race_no), "R9")
        if self.race.finished:
            return Ruled(Message("betting is closed: a horse has reached the finish"), "R2")
        if self.race.bets_closed and not vipmod.has_last_call(self.vip_active(seat)):
            return Ruled(Message("betting is closed: “No more bets!” was called at the third red-line crossing"),
                         "R2")
        return None

    def _placement_refusal(self, seat: int, token_id: Any, space_id: Any) -> Ruled | None:
        """Why this token cannot go on this space (the seat may bet), in words (words.py)."""
        token = self.token(seat, token_id) if isinstance(token_id, str) else None
        if token is None:
            return Ruled(Message("you have no such token; your tokens are: {held}",
                                 held=token_values(self.tokens[seat])), "R4")
        if token_id in self.used[seat]:
            left = token_values(t for t in self.tokens[seat] if t["id"] not in self.used[seat])
            return Ruled(Message("{token} is already on the board and placed tokens never move; tokens left: {left}",
                                 token=token_words(token), left=left), "R4")
        space = self.spaces.get(space_id) if isinstance(space_id, str) else None
        if space is None:
            return Ruled(Message("there is no such space on the board this race (see the board in the view)"), "R5")
        if space.column in self.closed_columns():
            return Ruled(Message("{space} is in the leftmost column, closed when only 2 players bet",
                                 space=space_words(space_id)), "R4")
        holders = [bet["seat"] for bet in self.bets if bet["space"] == space_id]
        if seat in holders:
            return Ruled(Message("you already have a token on {space}: one token per space",
                                 space=space_words(space_id)), "R4")
        if space.card is not None and any(bet["seat"] == seat and self.spaces[bet["space"]].card == space.card
                                          for bet in self.bets):
            return Ruled(Message("you already have a token on the exotic finish card {card}: one per player per card",
                                 card=term(READYSETBET_EXOTIC, space.card)), "R6")
        if holders and token["value"] not in vipmod.bandwagon_values(self.vip_active(seat)):
            return Ruled(Message("{space} is taken by {holder}'s token: first come, first served; only a {bandwagon} "
                                 "card for this token's number allows joining it", space=space_words(space_id),
                                 holder=Seat(holders[0]), bandwagon=term(READYSETBET_VIP, "bandwagon")), "R4")
        return None

    def apply_free(self, seat: int, action: Action) -> None:
        if not isinstance(action, dict) or action.get("type") != "bet":
            raise IllegalAction(Message('the only simultaneous action is a bet: {{"type": "bet", "token": ..., '
                                        '"space": ...}}'))
        reason = self.bet_refusal(seat, action.get("token"), action.get("space"))
        if reason is not None:
            raise IllegalAction(reason)
        token = self.token(seat, action["token"])
        self.used[seat].append(token["id"])
        self.bets.append({"seat": seat, "token": dict(token), "space": action["space"]})
        self.race_log.append({"event": "bet", "seat": seat, "token": token["id"], "value": token["value"],
                              "space": action["space"]})

    def may_act_freely(self, seat: int) -> bool:
        """Whether ``seat`` may have a bet open now, without listing the bets: it may bet (R2, R9)
        and has a token not placed yet (R4). A bettor whose tokens are all on the board is asked
        nothing more until the next race."""
        return self._may_bet(seat) and any(token["id"] not in self.used[seat] for token in self.tokens[seat])

    def _may_bet(self, seat: Any) -> bool:
        """Whether ``seat`` may bet at all now (:meth:`_seat_refusal` has nothing to say; asked
        only in a race, where it can say yes, so that no refusal is made for nothing)."""
        return _is_int(seat) and 0 <= seat < self.seats and self.phase == RACE and self._seat_refusal(seat) is None

    def free_options(self, seat: int) -> tuple[Action, ...]:
        """Every legal bet of ``seat`` now (the same checks as :meth:`bet_refusal`, done in bulk)."""
        if not self._may_bet(seat):
            return ()
        closed = self.closed_columns()
        holders: dict[str, list[int]] = {}
        for placed in self.bets:
            holders.setdefault(placed["space"], []).append(placed["seat"])
        my_cards = {self.spaces[b["space"]].card for b in self.bets if b["seat"] == seat}
        bandwagon = vipmod.bandwagon_values(self.vip_active(seat))
        # the spaces open to this seat whatever the token, and whether another seat holds each
        spaces = [(space.id, space.id in holders) for space in self.spaces.values()
                  if not ((closed and space.column in closed) or seat in holders.get(space.id, ())
                          or (space.card is not None and space.card in my_cards))]
        options = []
        seen_tokens = set()
        for token in self.tokens[seat]:
            if token["id"] in self.used[seat]:
                continue
            # identical unused tokens (the two 3s) give identical bets: offer the first one only
            key = (token["value"], token["penalty"], token["cancels_loss"])
            if key in seen_tokens:
                continue
            seen_tokens.add(key)
            anywhere = token["value"] in bandwagon   # a bandwagon token joins a held space (VIP)
            token_id = token["id"]
            options.extend({"type": "bet", "token": token_id, "space": space_id}
                           for space_id, held in spaces if anywhere or not held)
        return tuple(options)

    # -- results ------------------------------------------------------------------
    def final_places(self) -> list[int] | None:
        """R9: each seat's place by its money at the end (the House's seat too, in House variants)."""
        return competition_places(self.money) if self.phase == OVER else None

    def winners(self) -> list[int]:
        """R9: the richest seats (ties share the win); House seats count in House variants."""
        best = max(self.money)
        return [seat for seat, money in enumerate(self.money) if money == best]

    # -- the race caller ---------------------------------------------------------
    def calls(self) -> dict[str, Any]:
        """What the race caller has said about the race in progress, or about the race just run
        while the next one has not rolled yet: ``{"race": n, "lines": [message JSON]}``.

        The lines depend only on the rolls already made and the caller's seed (drawn with the decks,
        so every viewer gets the same lines and a restored game says them again); they tell nothing
        of the dice to come. A race is called off with its first roll ("They're off!"): before it
        nothing is said of it, while the table waits for its people or its host as much as while the
        House places its tokens. Pages translate them with their catalog.
        """
        # the race's log as it stands (its length and its last event, the same object in a copy
        # that has not gone another way): the lines are those of the last call while it holds
        log = self.race_log
        last = log[-1] if log else None
        counts = (self.race_no, len(log), len(self.history))
        cached = self._calls
        if cached is not None and cached[2] == counts and cached[3] is last:
            return cached[1]
        race, rolls = self.race_no, roll_sums(log)
        if not rolls and self.history:
            race, rolls = self.history[-1]["race"], self.history[-1].get("rolls", [])
        # the rolls themselves, not their count: a clone (a bettor's copy, which shares the lines
        # said so far) that rolls other dice says other lines
        key = (race, tuple(rolls))
        if cached is None or cached[0] != key:
            lines = race_calls(self.caller_seed, race, rolls) if rolls else []
            cached = (key, {"race": race, "lines": lines})
        self._calls = (cached[0], cached[1], counts, last)
        return cached[1]

    # -- views (fields, JSON and clone: state_fields) --------------------------------
    def board(self) -> list[dict[str, Any]]:
        """The board as views show it: every space of this race with the tokens on it, the House's
        tokens and whether its column is closed (R4). Made again only when a bet is placed, the
        spaces change (a race's cards) or the closed columns do: a roll, every seat's view at one
        state and the copies the bettors read share the same list (which views hand out to be
        read, never changed). When only bets were placed since, the new board shares the spaces'
        entries the bets did not touch (the bettors bet after every roll: a board a bet)."""
        spaces, bets, house_bets, closed = self.spaces, self.bets, self.house_bets, self.closed_columns()
        # the bets' lists start empty with each race and are only appended to within it
        # (state_fields), in a state and in its clones alike: in one race, as many bets are the
        # same bets (a clone that bets on its own has more, and makes its own board)
        key = (self.race_no, len(bets), len(house_bets), closed)
        cached = self._board
        if cached is not None and cached[0] is spaces:
            if cached[1] == key:
                return cached[2]
            made = cached[1]
            if made[0] == key[0] and made[2:] == key[2:] and made[1] < key[1]:   # only bets placed since
                board = list(cached[2])
                for space, placed in _tokens_of(bets[made[1]:]).items():
                    at = cached[3][space]
                    board[at] = {**board[at], "tokens": board[at]["tokens"] + placed}
                self._board = (spaces, key, board, cached[3])
                return board
        tokens = _tokens_of(bets)
        house_tokens: dict[str, list[int]] = {}
        for bet in house_bets:
            house_tokens.setdefault(bet["space"], []).append(bet["token"]["value"])
        board = [{**space.to_json(), "tokens": tokens.get(space.id, []), "house_tokens": house_tokens.get(space.id, []),
                  "closed": bool(closed) and space.column in closed} for space in spaces.values()]
        self._board = (spaces, key, board, {space: at for at, space in enumerate(spaces)})
        return board

    def view(self, seat: int | None) -> dict[str, Any]:
        return merged_view(self.shared_view(), self.own_view(seat))

    def shared_view(self) -> dict[str, Any]:
        race = self.race.to_json()
        race["finished"] = self.race.finished
        race["bets_closed"] = self.race.bets_closed
        return {
            "game": self.name, "variant": self.variant, "seats": self.seats,
            "players": self.players, "race_no": self.race_no, "races": self.races, "phase": self.phase,
            "house_seat": self.house_seat, "betting_seats": self.betting_seats(),
            "race": race, "race_log": list(self.race_log), "board": self.board(),
            "props": list(self.props), "exotics": list(self.exotics),
            "money": list(self.money),
            "tokens": [[{**t, "used": t["id"] in self.used[s]} for t in self.tokens[s]] for s in range(self.seats)],
            "vip_cards": [list(cards) for cards in self.vip_cards],
            "deck_sizes": {"props": len(self.prop_deck), "exotics": len(self.exotic_deck), "vip": len(self.vip_deck),
                           "vip_discard": len(self.vip_discard)},
            # rulings 2: who is still choosing a VIP card (public); each seat's own two cards and the
            # one it kept are its own view's, held back until everyone has chosen (R8)
            "vip_choosing": self.vip_choosing(),
            "caller": self.calls(),
            "history": [dict(race) for race in self.history],
            "over": self.phase == OVER,
            "winners": self.winners() if self.phase == OVER else None,
        }

    def own_view(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "vip_choice": self._vip_choice_view(seat)}

    def secrets(self, seat: int | None) -> list[Any]:
        """The order of the cards still in the prop, exotic-finish and VIP decks (R5, R6, R8), and
        the VIP cards another seat is choosing between, together and one by one (R8)."""
        found: list[Any] = [list(deck) for deck in (self.prop_deck, self.exotic_deck, self.vip_deck) if deck]
        if self.vip_drawn and self.vip_queue[0] != seat:
            found += [list(self.vip_drawn), *self.vip_drawn]
        for other, hand in enumerate(self.vip_hands or ()):
            if hand and other != seat:   # rulings 2: another player's cards, and the one it kept
                found += [list(hand), *hand]
        return found

    def _vip_choice_view(self, seat: int | None) -> dict[str, Any] | None:
        hand = self.vip_hands[seat] if self.vip_hands and seat is not None and 0 <= seat < self.seats else None
        return {"drawn": list(hand), "kept": self.vip_kept[seat]} if hand else None
