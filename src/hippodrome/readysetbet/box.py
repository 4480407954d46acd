"""Ready Set Bet for the box, as a Game ("readysetbet-box"): the program rolls and calls every
race of the meeting while the people at the table play with the physical box (their bets, tokens
and VIP cards stay on the real board), so it asks nobody anything: it has no seats and no
decision, only chance steps.

Flow: one untimed chance step draws the race caller's seed (drawn on its own, so it tells nothing
of the dice); then every roll of every race is a timed chance step (the table's clock draws it,
R1-R3). A finished race stays as it ended (track, results, commentary) until the first roll of the
next one, which starts that race; after the last race the game is over.

Setup (JSON): ``{"races": 1..4}`` (default 4, the meeting's races).
"""

from __future__ import annotations

import random
from typing import Any

from hippodrome.core.chance import Draws
from hippodrome.core.errors import InvalidSetup, given
from hippodrome.core.game import Action, Chance, Game
from hippodrome.core.registry import register_game
from hippodrome.core.state import RESET, DeclaredState, StateFields, object_codec, shallow, shared
from hippodrome.i18n import Message
from hippodrome.readysetbet.caller import SEED_DRAW, race_calls, results_message, seed_bytes, seed_from_bytes
from hippodrome.readysetbet.description import BOX
from hippodrome.readysetbet.dice_race import HORSES, RACE_DATA, RaceState, finishing_order, roll_dice, roll_sums
from hippodrome.readysetbet.game import race_roll
from hippodrome.readysetbet.settled_words import settlement_lines

CALLER_SEED = "caller_seed"


@register_game
class BoxMeeting(DeclaredState, Game):
    """The races of a meeting, rolled by the clock and called; nobody decides anything."""

    name = "readysetbet-box"
    description = BOX

    state_fields = StateFields(
        shared("setup"),
        shared("races"),
        shared("race_no"),
        shared("caller_seed"),
        shared("race", codec=object_codec(RaceState)),  # a frozen RaceState
        shallow("race_log"),  # events are complete when appended
        shallow("history"),   # one record per finished race
        # the caller's lines are handed to views, so a clone makes its own
        caches={"_calls": RESET},
    )
    _calls: tuple[tuple, dict[str, Any]] | None

    @classmethod
    def new(cls, setup: dict[str, Any]) -> "BoxMeeting":
        if not isinstance(setup, dict):
            raise InvalidSetup(Message('a setup for the box is a JSON object such as {{"races": 4}}'))
        races = setup.get("races", RACE_DATA["races"])
        if not isinstance(races, int) or isinstance(races, bool) or not 1 <= races <= RACE_DATA["races"]:
            raise InvalidSetup(Message("'races' must be from 1 to {high}, not {value}", high=RACE_DATA["races"],
                                       value=given(races)))
        return cls.create(setup=setup, races=races, race_no=1, caller_seed=None, race=RaceState.start(),
                          race_log=[], history=[])

    # -- reading ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.race.finished and self.race_no >= self.races

    def between_races(self) -> bool:
        """A race has finished and another is still to run (its first roll starts it): the game
        protocol's hook (``Game.between_races``), where a table made for its host waits."""
        return self.race.finished and self.race_no < self.races

    def pending(self) -> Chance | None:
        if self.caller_seed is None:
            return Chance(CALLER_SEED, self._sample_seed, self._is_seed,
                          draws=Draws((SEED_DRAW,),
                                      lambda drawn: {"type": CALLER_SEED, "seed": seed_from_bytes(drawn[0])},
                                      lambda action: [seed_bytes(action["seed"])]))
        if self.over:
            return None
        return race_roll(self.race_no + 1 if self.race.finished else self.race_no)

    @staticmethod
    def _sample_seed(rng: random.Random) -> Action:
        return {"type": CALLER_SEED, "seed": rng.randrange(2 ** 32)}

    @staticmethod
    def _is_seed(action: Action) -> bool:
        seed = action.get("seed")
        return (action.get("type") == CALLER_SEED and isinstance(seed, int) and not isinstance(seed, bool)
                and 0 <= seed < 2 ** 32)

    # -- acting -------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        pending = self.step_answered_by(action, Message("the races are over; no more rolls"))
        if pending.kind == CALLER_SEED:
            self.caller_seed = action["seed"]
            return
        if self.race.finished:  # the first roll of the next race starts it
            self.race_no += 1
            self.race = RaceState.start()
            self.race_log = []
        self.race, events = roll_dice(self.race, action["dice"])
        self.race_log.extend(events)
        if self.race.finished:
            self.history.append({"race": self.race_no, "positions": dict(zip(HORSES, self.race.positions)),
                                 "order": self._order(), "rolls": roll_sums(self.race_log),
                                 "placings": results_message(self.race.positions).to_json()})

    def _order(self) -> list[dict[str, Any]]:
        return [{"rank": rank, "horse": horse, "space": space}
                for rank, horse, space in finishing_order(self.race.positions)]

    # -- views --------------------------------------------------------------------
    def calls(self) -> dict[str, Any]:
        """What the race caller has said about the race shown (the one running, or the one just
        finished until the next one rolls): ``{"race": n, "lines": [message JSON]}``. The lines
        depend only on the rolls made and the caller's seed."""
        sums = roll_sums(self.race_log)
        key = (self.race_no, len(sums), self.caller_seed)
        if self._calls is None or self._calls[0] != key:
            lines = race_calls(self.caller_seed, self.race_no, sums) if self.caller_seed is not None else []
            if self.race.finished:   # then the colour bets, exotic finishes and props that win
                lines = lines + [line.to_json() for line in settlement_lines(self.race.positions)]
            self._calls = (key, {"race": self.race_no, "lines": lines})
        return self._calls[1]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The same for everyone: the race shown (positions, red-line crossings), its log (each move
        with its two dice), the finishing order once it has finished, the caller's lines, the races
        run and whether the meeting is between two races or over."""
        race = self.race.to_json()
        race.update(finished=self.race.finished, bets_closed=self.race.bets_closed)
        return {
            "game": self.name, "race_no": self.race_no, "races": self.races,
            "phase": "over" if self.over else "between_races" if self.between_races() else "race",
            "race": race, "race_log": list(self.race_log),
            "order": self._order() if self.race.finished else None,
            "caller": self.calls(),
            "history": [dict(record) for record in self.history],
            "over": self.over,
        }
