"""The caller's commentary (issue 11, point 8): plain rolls told by the race's situation (the
first move of a horse, the red line ahead, the gap to the leader, the distance to the finish, a
close finish...), counted spaces in each language's plural forms ("surges 1 spaces" no more), in
words only: no rule code, no id. The red line and the finish are R2's; bonus moves R1's."""

import re

import pytest

from hippodrome.core import Match
from hippodrome.i18n import LANGUAGES, Plural, load_catalog, message_from_json
from hippodrome.readysetbet.caller import PHRASES, PLAIN_ROLLS, RaceCaller, msgids, plain_situation
from hippodrome.readysetbet.dice_race import FINISH, HORSE_FOR_SUM, HORSES, RED_LINE, RaceState, advance
from tests.readysetbet.rsb_helpers import positions

#: each language's word for a space of the track, singular and plural
SPACE_WORDS = {"en": ("space", "spaces"), "es": ("casilla", "casillas"), "fr": ("case", "cases"),
               "nl": ("veld", "velden"), "de": ("Feld", "Felder")}

#: a race position and a roll for each situation of a plain roll (the mover is the roll's horse)
SITUATIONS = {
    "home": (positions(h7=12, h6=3), 7, {"n": 2}),                         # 7 to 13: 2 to go
    "neck_and_neck": (positions(h7=10, h6=12), 7, {"rival": "6"}),         # 7 to 11, 6 on 12
    "first_move": (positions(h7=5), 6, {}),                                # 6 leaves the gate
    "late_start": (positions(h7=10), 6, {}),                               # ... with 7 over the red line
    "red_line_edge": (positions(h6=8, h7=3), 6, {}),                       # 6 to 9: the red line next
    "level": (positions(h7=6, h6=5), 6, {}),                               # 6 joins 7 on 6
    "extends": (positions(h7=6, h6=4), 7, {"n": 3}),                       # 7 to 7, 6 on 4
    "chasing": (positions(h7=8, h6=2, h5=1, h8=1, h9=1, h4=1, h10=1, h2_3=1, h11_12=1), 6, {"n": 5}),
    "back": (positions(h7=8, h6=2, h5=3, h8=3, h9=3, h4=3, h10=3, h2_3=3, h11_12=3), 6, {}),
    "roll": (positions(h7=6, h6=6), 6, {"to": 7}),                         # 6 takes the lead alone
}


def plain_move(before, dice_sum):
    after, events = advance(before, dice_sum)
    return after, events[0]


@pytest.mark.parametrize("key", SITUATIONS)
def test_the_line_chosen_depends_on_the_race_situation(key):
    start, dice_sum, params = SITUATIONS[key]
    before = RaceState(start)
    after, move = plain_move(before, dice_sum)
    assert not move["bonus"]
    chosen, found = plain_situation(before, after, move)
    assert chosen == key and found == params
    line = RaceCaller(seed=1).call_roll(before, after, [move])[0]
    assert line.msgid in msgids(key)


def test_the_same_roll_is_told_differently_in_different_races():
    """A 6 moving horse 6 by one space: from the gate, up to the red line, level, chasing."""
    told = {plain_situation(RaceState(start), *plain_move(RaceState(start), 6))[0]
            for start in (positions(h7=5), positions(h6=8, h7=3), positions(h7=6, h6=5),
                          positions(h7=9, h6=2, h5=1, h8=1, h9=1, h4=1, h10=1, h2_3=1, h11_12=1),
                          positions(h7=11))}
    assert told == {"first_move", "red_line_edge", "level", "chasing", "late_start"}


@pytest.mark.parametrize("key", SITUATIONS)
def test_every_line_of_every_situation_is_said_for_some_caller_seed(key):
    start, dice_sum, _ = SITUATIONS[key]
    before = RaceState(start)
    after, move = plain_move(before, dice_sum)
    said = {RaceCaller(seed=seed).call_roll(before, after, [move])[0].msgid for seed in range(60)}
    assert said == set(msgids(key))


def test_at_least_twelve_lines_tell_plain_rolls_in_every_language():
    templates = [msgid for key in PLAIN_ROLLS for msgid in msgids(key)]
    assert len(templates) >= 12 and len(set(templates)) == len(templates)
    for lang in LANGUAGES:
        catalog = load_catalog(lang)
        texts = {catalog.plural[t][1] if t in catalog.plural else catalog.singular.get(t, t) for t in templates}
        assert len(texts) == len(templates), lang


def plural_templates():
    return [template for key in PHRASES for template in PHRASES[key] if isinstance(template, Plural)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counted_spaces_take_the_plural_form_of_each_language(lang):
    singular, plural = SPACE_WORDS[lang]
    assert len(plural_templates()) >= 10
    for template in plural_templates():
        one = Plural(template.msgid, template.plural, 1, horse="7", sum=7).translate(lang)
        many = Plural(template.msgid, template.plural, 3, horse="7", sum=7).translate(lang)
        assert re.search(rf"\b1 {singular}\b", one) and not re.search(rf"\b{plural}\b", one), (lang, one)
        assert re.search(rf"\b3 {plural}\b", many), (lang, many)


def test_a_bonus_move_cut_short_by_the_finish_surges_one_space_not_one_spaces():
    """R1/R2: horse 4 on 14 rolls 4 twice; its bonus is cut at the finish: 1 space in all."""
    caller = RaceCaller(seed=3)
    before, _ = advance(RaceState(positions(h4=13)), 4)  # 4 to 14
    after, events = advance(before, 4)                   # again: 1 + 3, stopped at 15
    line = caller.call_roll(before, after, events)[0]
    assert line.msgid in msgids("bonus") and line.n == 1
    for lang in LANGUAGES:
        text = line.translate(lang)
        assert f"1 {SPACE_WORDS[lang][0]}" in text and SPACE_WORDS[lang][1] not in text.split(), (lang, text)


FORBIDDEN = re.compile(r"\(?\b[RT]\d+\b\)?|\b(?:win|place|show|exotic|prop):|\b(?:bonus|house)-\d|[{}]|\bseat \d|_")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lines_of_whole_meetings_are_words_only(lang):
    """No rule code ("(R2)"), no id ("win:7:R", "seat 0"), no placeholder left: every line of
    four meetings for the box, in every language."""
    seen = set()
    for seed in range(4):
        match = Match("readysetbet-box", {}, seed=seed)
        match.resolve_chance()
        while match.state.pending() is not None:
            match.tick()
            if not match.state.race.finished:
                continue
            for line in match.state.observation(None)["caller"]["lines"]:   # every line of the race just run
                text = message_from_json(line).translate(lang)
                assert text and not FORBIDDEN.search(text), (lang, text)
                seen.add(line["msgid"])
    assert len(seen & {m for key in PLAIN_ROLLS for m in msgids(key)}) >= 12


def test_the_situations_use_the_tracks_landmarks():
    """The red line stands before space 10 and the finish at 15 (R2): the lines' thresholds."""
    assert (RED_LINE, FINISH) == (10, 15)
    assert HORSES[HORSE_FOR_SUM[6]] == "6"


def race_lines(caller, start, sums):
    """Every line ``caller`` says for these rolls from ``start``."""
    lines, state = [], RaceState(start)
    for dice_sum in sums:
        before = state
        state, events = advance(before, dice_sum)
        lines += caller.call_roll(before, state, events)
    return lines


#: races that make the caller say each kind of line besides the plain rolls (R1 bonus and third roll,
#: R2 red line, "no more bets" and the finish, the story's leader, breakaway and late charge)
SCENES = [
    lambda caller: caller.start(),
    lambda caller: [caller.pause(True), caller.pause(False)],
    lambda caller: race_lines(caller, positions(), [4, 4, 4]),                        # bonus, then none
    lambda caller: race_lines(caller, positions(h2_3=9, h4=9, h5=9, h6=9), [2, 4, 5, 6]),  # 4 crossings
    lambda caller: race_lines(caller, positions(h6=6, h8=8), [8]),                      # leader, breakaway
    lambda caller: race_lines(caller, positions(h2_3=9, h4=2, h5=2, h6=3, h7=10, h8=12, h9=2, h10=5,
                                                h11_12=9), [10, 10]),                   # late charge
    lambda caller: race_lines(caller, positions(h7=14), [7]),                           # finish
]


def test_every_line_of_the_caller_is_said_in_some_race():
    """Each template of every kind of line is reachable: some caller seed says it in some race."""
    said = {line.msgid for seed in range(40) for scene in SCENES for line in scene(RaceCaller(seed=seed))}
    for key in SITUATIONS:   # the plain rolls, from their situations
        start, dice_sum, _ = SITUATIONS[key]
        said |= {line.msgid for seed in range(40) for line in race_lines(RaceCaller(seed=seed), start, [dice_sum])}
    missing = {key: set(msgids(key)) - said for key in PHRASES if set(msgids(key)) - said}
    assert not missing, missing
