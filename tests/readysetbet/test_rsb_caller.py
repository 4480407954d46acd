"""The race caller: every roll, bonus moves (R1), snake eyes and boxcars, red-line crossings and
"no more bets" (R2), the finish and Win/Place/Show (R3), the story of the race, pause and resume;
in every language, in the terminal and in the game's view."""

import random
import re
import string
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.i18n import LANGUAGES, Message, load_catalog, translate
from hippodrome.i18n.vocabulary import READYSETBET_CALLS
from hippodrome.cli.race_caller import CallSession, run_plain
from hippodrome.readysetbet import caller as caller_module
from hippodrome.readysetbet.caller import PHRASES, RESULTS, RaceCaller, call_race, msgids
from hippodrome.readysetbet.dice_race import RaceState, advance
from tests.readysetbet.rsb_helpers import match_at_race, run_race_with

#: a value for every placeholder the caller's phrases use
SAMPLE_PARAMS = {"horse": "2/3", "sum": 3, "to": 12, "n": 2, "limit": 3, "gap": 4, "rival": "7"}
COMMENTARY = ("start", "roll", "first_move", "red_line_edge", "level", "extends", "chasing", "back", "home",
              "neck_and_neck", "bonus", "no_bonus", "red_line", "red_line_late", "red_line_warning",
              "no_more_bets", "leader", "breakaway", "late_charge", "finish", "resumed")


def called(caller, state, sums):
    lines = []
    for s in sums:
        before = state
        state, events = advance(state, s)
        lines.append(caller.call_roll(before, state, events))
    return state, lines


def is_a(line, key):
    return line.msgid in msgids(key)


def placeholders(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_snake_eyes_boxcars_and_bonus_are_called():
    """The rulebook's cries on a 2 and a 12, then the roll; a repeat gets its bonus (R1)."""
    caller = RaceCaller(seed=1)
    _, lines = called(caller, RaceState.start(), [2, 12, 12])
    assert lines[0][0] == Message(READYSETBET_CALLS["snake_eyes"]) and is_a(lines[0][1], "first_move")
    assert lines[1][0] == Message(READYSETBET_CALLS["boxcars"])
    bonus = lines[2][1]
    assert is_a(bonus, "bonus") and bonus.n == 4  # 11/12 repeated: 1 + bonus 3 (R1)
    assert "4 spaces" in str(bonus)


def test_r1_a_third_roll_in_a_row_is_called_without_bonus():
    caller = RaceCaller(seed=1)
    _, lines = called(caller, RaceState.start(), [4, 4, 4])
    assert is_a(lines[1][0], "bonus") and is_a(lines[2][0], "no_bonus")


def test_r2_red_line_crossings_warning_and_no_more_bets_are_called():
    caller = RaceCaller(seed=2)
    _, lines = called(caller, RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0)), [2, 4, 5])
    crossings = [line for roll in lines for line in roll if is_a(line, "red_line")]
    assert [line.params["n"] for line in crossings] == [1, 2, 3]
    assert any(is_a(line, "red_line_warning") for line in lines[1])
    assert Message(READYSETBET_CALLS["no_more_bets"]) in lines[2]
    assert any(is_a(line, "no_more_bets") for line in lines[2])
    spanish = [line.translate("es") for line in lines[2]]
    assert "¡Se acabaron las apuestas!" in spanish  # the Spanish rulebook's own words


def test_leader_change_breakaway_and_late_charge():
    caller = RaceCaller(seed=3)
    state = RaceState((0, 0, 0, 0, 6, 8, 0, 0, 0), crossings=0)
    state, lines = called(caller, state, [8])          # 8 leads 9 to 6: breakaway (gap 3)
    assert any(is_a(line, "leader") for line in lines[0])
    assert any(is_a(line, "breakaway") and line.params["gap"] == 3 for line in lines[0])
    state = RaceState((9, 2, 2, 3, 10, 12, 2, 5, 9), last_sum=None, crossings=2)
    state, lines = called(caller, state, [10, 10])     # 10 from last into the top 3 after the red line
    assert any(is_a(line, "late_charge") and line.params["horse"] == "10" for line in lines[1])


def test_lines_vary_rather_than_one_fixed_sentence():
    caller = RaceCaller(seed=4)
    said = Counter(caller.say("start").msgid for _ in range(30))
    assert len(said) >= 2
    assert all(len(PHRASES[key]) >= 2 for key in COMMENTARY)


def test_the_caller_never_draws_from_the_dice_generator():
    """Its own generator: the same seed and rolls give the same lines, another seed other lines."""
    sums = [6, 8, 6, 7, 5, 9, 7, 7, 10, 4] * 3
    assert call_race(sums, "a") == call_race(sums, "a")
    assert any(call_race(sums, seed) != call_race(sums, "a") for seed in ("b", "c", "d"))


def test_finish_and_win_place_show_with_a_tie_for_second():
    """R3: horses tied for 2nd are 2nd and 3rd, so they stand under Place and Show."""
    caller = RaceCaller(seed=5)
    assert caller.results((15, 12, 12, 3, 0, 0, 0, 0, 0)) == [Message(RESULTS, win="2/3", place="4, 5",
                                                                      show="4, 5")]
    assert str(caller.results((15, 12, 12, 3, 0, 0, 0, 0, 0))[0]) == "Win: 2/3. Place: 4, 5. Show: 4, 5."
    state, lines = called(caller, RaceState((14, 0, 0, 0, 0, 0, 0, 0, 0)), [3])
    assert any(is_a(line, "finish") for line in lines[0])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrase_renders_in_every_language_with_its_params(lang):
    catalog = load_catalog(lang)
    for key in PHRASES:
        for msgid in msgids(key):
            assert placeholders(msgid) <= set(SAMPLE_PARAMS), (key, msgid)
            text = translate(lang, msgid, **SAMPLE_PARAMS)
            assert text and "{" not in text, (lang, msgid, text)
            translated = catalog.singular.get(msgid)
            if translated is not None:  # once the lead has merged the translations
                assert placeholders(translated) == placeholders(msgid), (lang, msgid, translated)
    results = translate(lang, RESULTS, win="7", place="6, 8", show="5")
    assert "7" in results and "6, 8" in results and "5" in results


@pytest.mark.parametrize("lang,words", [("es", "¡Salen al galope!"), ("fr", "Ils sont partis\u00a0!"),
                                        ("nl", "Daar gaan ze!"), ("de", "Und ab geht's!"),
                                        ("en", "They're off!")])
def test_the_house_starts_the_race_with_the_rulebook_call_in_each_language(lang, words):
    first = call_race([7], seed=1)[0]
    assert first.translate(lang) == words


def test_a_race_is_called_off_with_its_first_roll_not_before():
    """The box's table waits for its host with the caller's seed drawn (R2's race not run yet):
    nothing is said of the race until its first roll, which brings "They're off!", its line of
    commentary and the roll's own lines, the same lines as a caller that opens at once (the
    terminal's) says in the same order."""
    assert call_race([], seed=1) == []
    first = call_race([7], seed=1)
    caller = RaceCaller(1)
    opening = caller.start()
    assert first[:2] == opening and first[0] == Message(READYSETBET_CALLS["start"]) and is_a(first[1], "start")
    _, rolled = called(caller, RaceState.start(), [7])
    assert first[2:] == rolled[0]


def test_no_line_puts_an_article_before_a_number():
    """"on a 8", "a 11": English writes "an 8", "an 11", so no line may put a word before {sum}
    (or any number) that depends on it; the lines say "a roll of {sum}", "{sum} on the dice"."""
    for key in PHRASES:
        for template in PHRASES[key]:
            texts = [template.msgid, template.plural] if hasattr(template, "plural") else [template]
            for text in texts:
                assert not re.search(r"\b(an?|on an?)\s+\{(sum|n|gap|to|limit)\}", text), (key, text)
    state, sums = RaceState.start(), []
    for total in [8, 11, 6, 8, 11, 5, 8, 8, 11, 11, 3] * 10:   # many 8s and 11s, to the finish
        state, _events = advance(state, total)
        sums.append(total)
        if state.finished:
            break
    for seed in range(10):
        said = [line.translate("en") for line in call_race(sums, seed=seed)]
        assert not any(re.search(r"\ba (8|11)\b", line) for line in said), said


# -- the terminal caller --------------------------------------------------------------------

class FakeTime:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_session_pause_and_resume_from_the_keyboard():
    now = FakeTime()
    session = CallSession(1.0, "en", seed=6, now=now)
    now.t = 1.0
    assert session.step()  # first roll called
    session.handle_key(" ")
    assert session.clock.paused and is_a(session.messages[-1], "paused")
    now.t = 50.0
    assert session.step() == []
    session.handle_key("p")
    assert not session.clock.paused and is_a(session.messages[-1], "resumed")
    now.t = 50.9
    assert session.step() == []  # the time left when paused (1 second) runs again from the resume
    now.t = 51.0
    assert session.step()
    session.handle_key("q")
    assert session.over


def test_plain_session_calls_a_whole_race_to_the_result():
    out = []
    session = CallSession(0.0, "en", seed=7)
    run_plain(session, sleep=lambda s: None, out=out.append)
    assert out[0] == "They're off!"
    assert any(line.startswith("Win: ") for line in out)
    assert session.shadow.finished and session.shadow == session.table.state.state


def test_plain_mode_ends_with_the_plain_track_it_has_always_printed():
    """--plain (scripts, screen readers) keeps its plain text track after the calls, whatever the
    live screen draws: a row per horse, its place, "!" for the red line between spaces 9 and 10 (R2),
    the horse's space at the end (seed 1: horse 9 wins on space 15)."""
    out = []
    run_plain(CallSession(0.0, "en", seed=1), sleep=lambda s: None, out=out.append)
    assert out[-9:] == ["  2/3 |...@.....!......  4",
                        "    4 |........@!......  9",
                        "    5 |.....@...!......  6",
                        "    6 |.........!@..... 10",
                        "    7 |....@....!......  5",
                        "    8 |.......@.!......  8",
                        "    9 |.........!.....@ 15",
                        "   10 |.........!..@... 12",
                        "11/12 |.@.......!......  2"]


def test_the_terminal_session_speaks_its_language():
    spoken = []

    class Said:   # a mocked espeak-ng: said at once
        def __init__(self, text):
            spoken.append(text)

        def wait(self):
            return 0

        def terminate(self):
            pass

    session = CallSession(0.0, "de", seed=7)
    run_plain(session, sleep=lambda s: None, out=lambda line: None, speak=Said)
    results = [text for text, message in zip(session.lines, session.messages) if message.msgid == RESULTS]
    assert results and results[0] in spoken, "the results are always said (the paced voice: test_rsb_pacing.py)"
    assert all(text in session.lines or text.startswith("Rote Linie") for text in spoken), spoken


def call(*args, env=None):
    return CliRunner().invoke(app, ["readysetbet", "call", "--plain", "--pace", "0", "--seed", "1", *args], env=env)


def test_call_command_in_spanish_uses_the_rulebook_words():
    result = call("--lang", "es")
    assert result.exit_code == 0, result.output
    assert "¡Salen al galope!" in result.stdout and "11/12" in result.stdout
    assert "¡Se acabaron las apuestas!" in result.stdout  # seed 1: three horses cross the red line


def test_call_command_takes_the_language_from_the_environment():
    result = call(env={"HIPPODROME_LANG": "", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Und ab geht's!")
    assert "Nichts geht mehr!" in result.stdout


def test_call_command_refuses_a_language_it_lacks_and_a_bad_pace():
    bad = CliRunner().invoke(app, ["readysetbet", "call", "--plain", "--lang", "pt"])
    assert bad.exit_code == 2 and "--lang" in bad.stderr
    slow = call("--pace", "61", "--lang", "en")
    assert slow.exit_code == 2 and re.search(r"--pace must be from 0 to 60, not 61", slow.stderr)


# -- the caller in the game's view (what the web page speaks) ----------------------------------

def test_the_view_carries_the_callers_lines_as_message_json_the_same_for_every_seat():
    match = match_at_race({"players": 3, "races": 2, "vip": False})
    start = match.state.observation(0)["caller"]
    assert start == {"race": 1, "lines": []}, "nothing is said before the race's first roll"
    run_race_with(match, [6])
    assert match.state.observation(0)["caller"]["lines"][0] == {"msgid": "They're off!", "params": {}}
    run_race_with(match, [8, 6, 7, 5])
    views = [match.state.observation(seat)["caller"] for seat in (None, 0, 1, 2)]
    assert all(view == views[0] for view in views)
    lines = views[0]["lines"]
    assert lines == [line.to_json() for line in call_race([6, 8, 6, 7, 5], f"{match.state.caller_seed}:race:1")]
    assert all(set(line) == {"msgid", "params"} for line in lines)


def test_the_callers_lines_tell_nothing_of_the_dice_to_come():
    match = match_at_race({"players": 2, "races": 1})
    run_race_with(match, [6, 8, 6])
    said = match.state.observation(None)["caller"]["lines"]
    for next_sum in (2, 7, 12):
        future = match.state.clone()
        future.apply({"type": "roll", "dice": [1, next_sum - 1] if next_sum < 8 else [6, next_sum - 6]})
        assert future.observation(None)["caller"]["lines"][:len(said)] == said


def test_a_restored_game_says_the_same_lines_and_the_last_race_stays_until_the_next_roll():
    from hippodrome.core import Match

    match = match_at_race({"players": 2, "races": 2, "vip": False}, seed=11)
    while match.state.race_no == 1:
        match.tick()
    finished = match.state.observation(None)["caller"]
    assert finished["race"] == 1 and finished["lines"][-1]["msgid"] == RESULTS
    restored = Match.from_record(match.record())
    assert restored.state.observation(None)["caller"] == finished
    match.tick()
    assert match.state.observation(None)["caller"]["race"] == 2


def test_the_race_is_called_off_with_its_first_roll_once_the_house_has_placed_its_tokens():
    """Nothing is said while the House places its tokens, nor once it has, until the race's first
    roll (the table may still wait for its people); that roll opens with "They're off!", and a
    restored game says the same."""
    match = match_at_race({"players": 2, "variant": "house_bets", "races": 1})
    assert match.state.observation(None)["caller"]["lines"] == []
    while match.state.phase == "house_tokens":
        match.act(2, match.pending().options[0])
    assert match.state.observation(None)["caller"]["lines"] == []
    run_race_with(match, [7])
    lines = match.state.observation(None)["caller"]["lines"]
    assert lines and lines[0] == {"msgid": "They're off!", "params": {}}
    assert lines == type(match.state).from_json(match.state.to_json()).observation(None)["caller"]["lines"]


def random_race_sums(rng, state=None):
    """The dice totals of a race run to its finish (R1), from its start or from ``state``."""
    state, sums = state or RaceState.start(), []
    while not state.finished:
        total = rng.randint(1, 6) + rng.randint(1, 6)
        state, _events = advance(state, total)
        sums.append(total)
    return sums


def another_total(dice_sum):
    """A dice total other than ``dice_sum``."""
    return 12 if dice_sum != 12 else 2


def told_afresh(seed, race, sums):
    """The lines of a race told from its start by a new caller, not through race_calls' cache."""
    return [line.to_json() for line in call_race(sums, f"{seed}:race:{race}")]


def test_race_calls_told_roll_by_roll_are_the_whole_race_told_at_once():
    """The views ask for a race's lines at every roll; the lines are told once per roll and kept
    (caller._TOLD), and are the same as telling the race from its start (R1-R3), whatever the
    order the rolls are asked in, for prefixes, for races that part ways, and once forgotten."""

    rng = random.Random(11)
    for race in range(12):
        sums = random_race_sums(rng)
        seed = rng.randrange(2 ** 32)
        whole = told_afresh(seed, race, sums)
        cuts = list(range(len(sums) + 1))
        if race % 3 == 1:
            rng.shuffle(cuts)
        if race % 3 == 2:
            caller_module._TOLD.clear()
        for cut in cuts:
            told = caller_module.race_calls(seed, race, sums[:cut])
            assert told == told_afresh(seed, race, sums[:cut]), (race, cut)
        assert caller_module.race_calls(seed, race, sums) == whole
        # two races parting ways after the same beginning: going on from a kept caller leaves it as it was
        caller_module._TOLD.clear()
        caller_module.race_calls(seed, race, sums[:3])
        for fork in (sums[:3] + [another_total(sums[3])], sums[:4], sums[:5]):
            assert caller_module.race_calls(seed, race, fork) == told_afresh(seed, race, fork), (race, fork)


def test_race_calls_told_on_without_copying_the_caller_are_the_race_told_afresh():
    """Each roll goes on with the caller of the roll before (taken over, not copied): at every roll
    of many races the lines are those of the race told afresh from its start (R1-R3)."""

    rng = random.Random(23)
    for race in range(30):
        sums, seed = random_race_sums(rng), rng.randrange(2 ** 32)
        for cut in range(len(sums) + 1):
            assert caller_module.race_calls(seed, race, sums[:cut]) == told_afresh(seed, race, sums[:cut]), (race, cut)


def going_another_way(rng, sums, at):
    """The dice totals of a race rolled as ``sums`` up to roll ``at``, which is another total, then
    random ones to its finish."""
    rolls, state = sums[:at] + [another_total(sums[at])], RaceState.start()
    for dice_sum in rolls:
        state, _events = advance(state, dice_sum)
    return rolls + random_race_sums(rng, state)


def in_turn(count, *races):
    """The rolls asked for when races (their dice totals and the first roll to tell) are told in
    turn, ``count`` rolls each."""
    return [sums[:first + told] for told in range(count) for sums, first in races]


def test_race_calls_going_other_ways_from_rolls_whose_caller_was_taken_over():
    """A race told to roll k; then a copy of it rolling other dice from roll j < k (whose caller was
    taken over long since), told in turn with the first; then a third going another way from roll
    i < j, told in turn with both; then the first to its finish: every roll's lines are those of
    its own race told afresh (R1-R3)."""

    rng = random.Random(29)
    for race in range(30):
        sums, seed = random_race_sums(rng), rng.randrange(2 ** 32)
        k = rng.randrange(3, len(sums))
        j = rng.randrange(2, k)
        i = rng.randrange(1, j)
        second, third = going_another_way(rng, sums, j), going_another_way(rng, sums, i)
        asked = [sums[:cut] for cut in range(k + 1)]
        asked += in_turn(6, (second, j + 1), (sums, k + 1))
        asked += in_turn(6, (third, i + 1), (second, j + 7), (sums, k + 7))
        asked += [sums[:cut] for cut in range(k + 13, len(sums) + 1)]
        for rolls in asked:
            assert caller_module.race_calls(seed, race, rolls) == told_afresh(seed, race, rolls), (race, i, j, k, rolls)


def test_race_calls_are_the_same_once_forgotten(monkeypatch):
    """Whether the kept races are cleared between two rolls or only the latest race told is kept
    (another race's roll pushes this one's latest roll and its caller out), every roll's lines are
    those of the race told afresh (R1-R3)."""

    rng = random.Random(31)
    monkeypatch.setattr(caller_module, "TOLD_KEPT", 1)
    for race in range(20):
        sums, seed = random_race_sums(rng), rng.randrange(2 ** 32)
        for cut in range(len(sums) + 1):
            if rng.random() < 0.1:
                caller_module._TOLD.clear()
            if race % 2:
                caller_module.race_calls(seed, race + 1, sums[:cut])
            assert caller_module.race_calls(seed, race, sums[:cut]) == told_afresh(seed, race, sums[:cut]), (race, cut)


def test_race_calls_told_by_several_threads_at_once():
    """Threads telling the same races roll by roll at once may each go on from a roll whose caller
    another has just taken over: every roll's lines are still those of the race told afresh (R1-R3)."""
    rng = random.Random(37)
    races = [(race, rng.randrange(2 ** 32), random_race_sums(rng)) for race in range(8)]
    afresh = {(race, cut): told_afresh(seed, race, sums[:cut]) for race, seed, sums in races
              for cut in range(len(sums) + 1)}

    def tell_all():
        return all(caller_module.race_calls(seed, race, sums[:cut]) == afresh[race, cut]
                   for race, seed, sums in races for cut in range(len(sums) + 1))

    caller_module._TOLD.clear()
    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(lambda _: tell_all(), range(8)))
