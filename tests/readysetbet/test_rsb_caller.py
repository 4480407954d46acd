"""The race caller: every roll, bonus moves, snake eyes and boxcars, red-line crossings and
"no more bets" (R2), the finish and Win/Place/Show (R3), the story of the race, pause and resume."""

from collections import Counter

from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.readysetbet.call_session import CallSession, run_plain
from hippodrome.readysetbet.caller import PHRASES, RaceCaller
from hippodrome.readysetbet.dice_race import RaceState, advance


def called(caller, state, sums):
    lines = []
    for s in sums:
        before = state
        state, events = advance(state, s)
        lines.append(caller.call_roll(before, state, events))
    return state, lines


def lines_of(key, lang="en"):
    return PHRASES[lang][key]


def matches(line, key, lang="en"):
    return any(line.startswith(p.split("{")[0]) for p in lines_of(key, lang))


def test_snake_eyes_boxcars_and_bonus_are_called():
    caller = RaceCaller("en", seed=1)
    _, lines = called(caller, RaceState.start(), [2, 12, 12])
    assert matches(lines[0][0], "snake_eyes")
    assert matches(lines[1][0], "boxcars")
    assert any("4 spaces" in line for line in lines[2])  # 11/12 repeated: 1 + bonus 3 (R1)


def test_r2_red_line_crossings_warning_and_no_more_bets_are_called():
    caller = RaceCaller("es", seed=2)
    _, lines = called(caller, RaceState((9, 9, 9, 0, 0, 0, 0, 0, 0)), [2, 4, 5])
    flat = [line for roll in lines for line in roll]
    assert sum("línea roja" in line for line in flat) >= 3
    assert any(matches(line, "red_line_warning", "es") for line in lines[1])
    assert any(matches(line, "no_more_bets", "es") for line in lines[2])


def test_leader_change_breakaway_and_late_charge():
    caller = RaceCaller("en", seed=3)
    state = RaceState((0, 0, 0, 0, 6, 8, 0, 0, 0), crossings=0)
    state, lines = called(caller, state, [8])          # 8 leads 9 to 6: breakaway (gap 3)
    assert any(matches(line, "leader") for line in lines[0])
    assert any(matches(line, "breakaway") for line in lines[0])
    state = RaceState((9, 2, 2, 3, 10, 12, 2, 5, 9), last_sum=None, crossings=2)
    state, lines = called(caller, state, [10, 10])     # 10 from last into the top 3 after the red line
    assert any(matches(line, "late_charge") for line in lines[1])


def test_lines_vary_rather_than_one_fixed_sentence():
    caller = RaceCaller("en", seed=4)
    said = Counter(caller.say("start") for _ in range(30))
    assert len(said) >= 2
    assert all(len(PHRASES[lang][key]) >= 2 for lang in ("en", "es")
               for key in ("start", "roll", "bonus", "red_line", "no_more_bets", "leader", "breakaway", "late_charge"))


def test_finish_and_win_place_show_with_a_tie_for_second():
    caller = RaceCaller("en", seed=5)
    assert caller.results((15, 12, 12, 3, 0, 0, 0, 0, 0)) == ["Win: 2/3. Place: 4, 5. Show: 4, 5."]
    state, lines = called(caller, RaceState((14, 0, 0, 0, 0, 0, 0, 0, 0)), [3])
    assert any(matches(line, "finish") for line in lines[0])


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
    assert session.clock.paused and matches(session.lines[-1], "paused")
    now.t = 50.0
    assert session.step() == []
    session.handle_key("p")
    assert not session.clock.paused
    now.t = 51.0
    assert session.step()
    session.handle_key("q")
    assert session.over


def test_plain_session_calls_a_whole_race_to_the_result():
    out = []
    session = CallSession(0.0, "en", seed=7)
    run_plain(session, sleep=lambda s: None, out=out.append)
    assert matches(out[0], "start")
    assert any(line.startswith("Win: ") for line in out)
    assert session.shadow.finished and session.shadow == session.table.state.state


def test_call_command_plain_mode_and_bad_language():
    result = CliRunner().invoke(app, ["readysetbet", "call", "--plain", "--pace", "0", "--seed", "1", "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert "Ganador:" in result.stdout and "11/12" in result.stdout
    bad = CliRunner().invoke(app, ["readysetbet", "call", "--plain", "--lang", "fr"])
    assert bad.exit_code == 2 and "--lang" in bad.stderr
