"""The race caller: what the House says as the race runs, in Spanish or English.

The House is asked to call the race (rulebook, "La Casa"): every roll and bonus move,
"snake eyes" on a 2 and "boxcars" on a 12, each red-line crossing and "no more bets" at the
third (R2), the finish, and the story of the race: changes of leader, a horse breaking away
from the field, a late charge. Lines come from data/caller_phrases.json (several per event,
picked by the caller's own generator, never the dice's) so the i18n catalogues can take them.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

from hippodrome.readysetbet.dice_race import CROSSINGS_TO_CLOSE, FINISH, HORSES, RaceState, ranks

PHRASES: dict[str, Any] = json.loads((resources.files("hippodrome.readysetbet") / "data" /
                                      "caller_phrases.json").read_text(encoding="utf-8"))
LANGUAGES = tuple(k for k in PHRASES if not k.startswith("_"))
#: a breakaway is called when the leader is this many spaces clear of the next horse
BREAKAWAY_GAP = 3


class RaceCaller:
    """Turns the events of each roll into lines, remembering the story of the race."""

    def __init__(self, lang: str = "en", seed: int | str | None = None):
        if lang not in LANGUAGES:
            raise ValueError(f"language {lang!r} is not available; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.phrases = PHRASES[lang]
        self.rng = random.Random(seed)
        self.leader: str | None = None
        self.broken_away = False
        self.charged: set[str] = set()
        self._last: dict[str, str] = {}

    def say(self, key: str, **values: Any) -> str:
        """One line for ``key``, not the same as the last line for that key when there is a choice."""
        choices = self.phrases[key]
        if isinstance(choices, str):
            return choices.format(**values)
        options = [c for c in choices if c != self._last.get(key)] or list(choices)
        line = self.rng.choice(options)
        self._last[key] = line
        return line.format(**values)

    def start(self) -> list[str]:
        return [self.say("start")]

    def call_roll(self, before: RaceState, after: RaceState, events: list[dict[str, Any]]) -> list[str]:
        lines: list[str] = []
        move = events[0]
        horse, dice_sum = move["horse"], move["sum"]
        if dice_sum == 2:
            lines.append(self.say("snake_eyes"))
        elif dice_sum == 12:
            lines.append(self.say("boxcars"))
        if move["bonus"]:
            lines.append(self.say("bonus", horse=horse, total=move["to"] - move["from"]))
        elif before.last_horse is not None and before.last_horse == HORSES.index(horse) and before.last_was_bonus \
                and horse != "7":
            lines.append(self.say("no_bonus", horse=horse))
        else:
            lines.append(self.say("roll", sum=dice_sum, horse=horse, to=move["to"]))
        for event in events[1:]:
            if event["event"] == "red_line":
                key = "red_line" if event["crossing"] <= CROSSINGS_TO_CLOSE else "red_line_late"
                lines.append(self.say(key, horse=event["horse"], n=event["crossing"]))
                if event["crossing"] == 2:
                    lines.append(self.say("red_line_warning"))
            elif event["event"] == "no_more_bets":
                lines.append(self.say("no_more_bets"))
        if after.finished:
            lines.append(self.say("finish", horse=horse))
            return lines
        lines.extend(self._story(before, after, horse))
        return lines

    def _story(self, before: RaceState, after: RaceState, mover: str) -> list[str]:
        lines = []
        positions = after.positions
        best = max(positions)
        leaders = [h for h, p in zip(HORSES, positions) if p == best]
        if len(leaders) == 1 and leaders[0] != self.leader and best > 0:
            self.leader = leaders[0]
            self.broken_away = False
            lines.append(self.say("leader", horse=self.leader))
        second = sorted(positions, reverse=True)[1]
        gap = best - second
        if len(leaders) == 1 and gap >= BREAKAWAY_GAP and not self.broken_away:
            self.broken_away = True
            lines.append(self.say("breakaway", horse=leaders[0], gap=gap))
        elif gap < BREAKAWAY_GAP:
            self.broken_away = False
        index = HORSES.index(mover)
        rank_before, rank_after = ranks(before.positions)[index], ranks(positions)[index]
        if after.crossings >= 1 and rank_before >= 5 and rank_after <= 3 and mover not in self.charged:
            self.charged.add(mover)
            lines.append(self.say("late_charge", horse=mover))
        return lines

    def results(self, positions: tuple[int, ...]) -> list[str]:
        rank = ranks(positions)

        def names(limit_low: int, limit_high: int) -> str:
            return ", ".join(h for h, r in zip(HORSES, rank) if limit_low <= r <= limit_high) or "-"

        # R3: horses tied for 2nd are 2nd and 3rd, so they stand in both places
        return [self.say("results", win=names(1, 1), place=names(2, 2), show=names(3, 3) if 3 in rank else names(2, 2))]


def track_lines(positions: tuple[int, ...], lang: str = "en") -> list[str]:
    """A plain text track: one row per horse, the red line before space 10, the finish at 15."""
    rows = []
    for horse, position in zip(HORSES, positions):
        cells = []
        for space in range(FINISH + 1):
            mark = "@" if space == position else ("." if space else "|")
            cells.append(mark)
            if space == 9:
                cells.append("!")
        rows.append(f"{horse:>5} {''.join(cells)} {position:>2}")
    return rows
