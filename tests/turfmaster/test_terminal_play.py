"""Terminal play through tmux, and the simulate and replay commands (T8, T9, T10 as shown)."""

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hippodrome.cli.main import app
from hippodrome.core import Match
from hippodrome.core.registry import game_class
import hippodrome.turfmaster.meeting  # noqa: F401

HIPPODROME = str(Path(sys.executable).with_name("hippodrome"))
runner = CliRunner()


def _tmux(session, *args, check=True):
    """tmux on the session's own server (``tmux -L``, named as the session): a server exits once its
    last session is killed, and a session started on it at that moment fails ("server exited
    unexpectedly"), be it the next test's or another test process's."""
    return subprocess.run(["tmux", "-L", session, *args], capture_output=True, text=True, check=check)


def _screen(session):
    return _tmux(session, "capture-pane", "-t", session, "-p", "-S", "-200").stdout


@pytest.fixture
def tmux_session():
    if shutil.which("tmux") is None:
        if os.environ.get("HIPPODROME_REQUIRE_TMUX"):
            pytest.fail("tmux is required (apt-get install tmux)")
        pytest.skip("tmux is not installed")
    name = f"hippodrome-test-{uuid.uuid4().hex[:12]}"
    yield name
    _tmux(name, "kill-server", check=False)
    Path(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", name).unlink(missing_ok=True)  # its socket


def _wait_until(session, test, what, timeout=60.0, capture=None):
    """The screen once ``test(screen)`` holds (looked at every 20 ms; the bound only matters when
    the program is stuck); ``capture(session)``: what is looked at (the pane with its scrollback)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = (capture or _screen)(session)
        if test(screen):
            return screen
        time.sleep(0.02)
    raise AssertionError(f"{what}; screen:\n{_screen(session)}")


def _wait_for(session, text, timeout=60.0):
    return _wait_until(session, lambda screen: text in screen, f"{text!r} did not appear", timeout)


@pytest.mark.slow
def test_a_meeting_played_at_the_keyboard_through_tmux_then_replayed(tmux_session, tmp_path):
    record_file = tmp_path / "meeting.json"
    # COLUMNS and LINES, when the test's own environment sets them (a CI runner's 80x24), would win
    # over the pane's size: the program must measure the 150x60 pane
    command = (f"env -u COLUMNS -u LINES {HIPPODROME} turfmaster play --players 2 --horses 2 --seed 12 --bots tactical "
               f"--save {record_file}; sleep 60")
    _tmux(tmux_session, "new-session", "-d", "-s", tmux_session, "-x", "150", "-y", "60", command)
    screen = _wait_for(tmux_session, "your choice")
    # T8: before race 1 the owner is asked about the bonus cards of each horse
    assert "claim the 2 bonus cards of Red?" in screen and "Your hands:" in screen
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "99", "Enter")
    screen = _wait_for(tmux_session, "is not a choice")
    assert "type a number from 1 to 2" in screen
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "2", "Enter")  # decline red's
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "2", "Enter")  # decline blue's
    screen = _wait_for(tmux_session, "Round of cards: choose a card for")
    # the course, the horses, the handicap of the start (all level in 1st place: handicap 9, at most 8, T6)
    assert "lane 8" in screen and "┃" in screen and "9 (at most 8)" in screen
    # lanes are counted from 1 (the rail) for players: the map's rows and the horses' table
    assert "lane 1 " in screen and "lane 0" not in screen
    assert "Race 1 of 3" in screen and "next dice roller" in screen
    for _ in range(300):  # then always the first option, a few keys ahead of the program
        before = _screen(tmux_session)
        if "record saved" in before:
            break
        for _ in range(5):
            _tmux(tmux_session, "send-keys", "-t", tmux_session, "1", "Enter")
        _wait_until(tmux_session, lambda screen: screen != before, "the game did not take the keys")
    screen = _wait_for(tmux_session, "record saved")
    assert "Final table" in screen
    record = json.loads(record_file.read_text())
    assert record["game"] == "turfmaster" and record["seed"] == "12"
    live = Match.from_record(record).state
    assert live.over
    result = runner.invoke(app, ["turfmaster", "replay", str(record_file), "--final-only"], env={"COLUMNS": "150"})
    assert result.exit_code == 0, result.output
    for row in live.standings():
        assert any(line.split("│")[2].strip().startswith(live.names[row["seat"]]) and line.rstrip().endswith(
            f"{row['total']} │") for line in result.output.splitlines() if line.count("│") >= 6)


@pytest.mark.slow
def test_replay_move_by_move_gives_the_recorded_final_table(tmp_path):
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "steeplechase": True}, seed="r")
    while (pending := match.pending()) is not None:
        match.act(pending.seat, pending.options[-1])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["turfmaster", "replay", str(path), "--seat", "1"], env={"COLUMNS": "150"})
    assert result.exit_code == 0, result.output
    decisions = sum(1 for e in match.record()["log"] if e["by"] != "chance")
    assert result.output.count("move ") >= decisions
    final = result.output[result.output.rindex("Final table"):]
    for row in match.state.standings():
        assert f"{row['total']} │" in final
    # seats are numbered as the players know them: 1 and 2 here, never 0 (the record has no names)
    assert "Player 1: " in result.output and "Player 2" in final and "seat 0" not in result.output
    refused = runner.invoke(app, ["turfmaster", "replay", str(path), "--seat", "0"], env={"COLUMNS": "150"})
    assert refused.exit_code == 2 and "--seat must be from 1 to 2" in refused.output
    assert runner.invoke(app, ["turfmaster", "replay", str(path), "--seat", "2", "--final-only"],
                         env={"COLUMNS": "150"}).exit_code == 0


def test_play_refuses_a_save_path_before_the_meeting_and_says_when_the_record_cannot_be_written(tmp_path, monkeypatch):
    """`play --save`: a folder that does not exist, or a folder given for the file, is refused
    before the meeting starts (exit 2: no meeting played for nothing); a write that fails at the
    end is said in words (exit 1), never a traceback."""
    for save, words in ((tmp_path / "nowhere" / "m.json", "there is no folder"), (tmp_path, "is a folder")):
        result = runner.invoke(app, ["turfmaster", "play", "--players", "2", "--save", str(save)], input="q\n")
        assert result.exit_code == 2 and words in result.output and "Race 1" not in result.output, result.output
    monkeypatch.setattr(Path, "write_text", lambda *args, **kwargs: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    result = runner.invoke(app, ["turfmaster", "play", "--players", "2", "--save", str(tmp_path / "m.json")], input="q\n")
    said = " ".join(result.output.split())   # (the terminal's lines wrap the path)
    assert result.exit_code == 1 and "Traceback" not in said, result.output
    assert f"could not be written to {tmp_path / 'm.json'}: No space left on device" in said, result.output


def test_simulate_refuses_fewer_than_one_worker():
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "2", "--workers", "0", "--json"])
    assert result.exit_code == 2 and "--workers" in result.output and "Traceback" not in result.output, result.output


def test_replay_refuses_bad_records(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{")
    assert runner.invoke(app, ["turfmaster", "replay", str(path)]).exit_code == 2
    path.write_text(json.dumps({"game": "turfmaster", "setup": {"players": 4}, "seed": 1,
                                "log": [{"by": 0, "action": {"type": "card", "horse": "red", "card": "7"}}]}))
    result = runner.invoke(app, ["turfmaster", "replay", str(path)])
    assert result.exit_code == 2 and "log entry 1 cannot be replayed" in result.output   # counted as moves are
    started = Match("turfmaster", {"players": 2}, seed=1)
    started.pending()   # the decks shuffled, the stalls drawn: chance entries to spoil
    record = started.record()
    first = record["log"][0]
    for log, words in (([first, "garbage"], "log entry 2 cannot be replayed: a log entry is an object with 'by'"),
                       ([{"action": first["action"]}], "log entry 1 cannot be replayed: a log entry is an object"),
                       ([{**first, "by": 0}], "the next step is a draw of chance, not a decision of player 1"),
                       ([{**first, "by": "chance", "free": True}], "log entry 1 cannot be replayed")):
        path.write_text(json.dumps({**record, "log": log}))
        result = runner.invoke(app, ["turfmaster", "replay", str(path), "--final-only"], env={"COLUMNS": "200"})
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output, result.output


def test_replay_refuses_an_entry_made_by_another_seat_than_the_one_deciding(tmp_path):
    """A record's "by" must be who answers the step: the deciding seat, or "chance" for a draw."""
    match = Match("turfmaster", {"players": 2}, seed=1)
    decision = match.pending()
    log = match.record()["log"]
    path = tmp_path / "r.json"
    for by in (1 - decision.seat, 7, "chance", True if decision.seat == 0 else False):
        path.write_text(json.dumps({**match.record(), "log": [*log, {"by": by, "action": decision.options[0]}]}))
        result = runner.invoke(app, ["turfmaster", "replay", str(path), "--final-only"], env={"COLUMNS": "200"})
        assert result.exit_code == 2, (by, result.output)
        assert f"log entry {len(log) + 1} cannot be replayed: it is player {decision.seat + 1}'s turn" in result.output
    path.write_text(json.dumps({**match.record(), "log": [*log, {"by": decision.seat, "action": decision.options[0]}]}))
    assert runner.invoke(app, ["turfmaster", "replay", str(path), "--final-only"]).exit_code == 0


def test_replay_shows_a_card_given_up_to_its_owner_only(tmp_path):
    """T8: a hand over its limit gives up cards face down. Replayed as another seat or as a
    spectator, the record says that a card was given up, never which."""
    from hippodrome.cli.turfmaster import decision_line
    from hippodrome.core.match import apply_entry
    from hippodrome.turfmaster.bots import TacticalBot

    match = Match("turfmaster", {"players": 2, "horses_per_player": 2, "names": ["Ana", "Ben"]}, seed=0)
    bots = [TacticalBot(seed=seat) for seat in range(2)]
    while not any(e["by"] != "chance" and e["action"].get("type") == "discard" for e in match.log):
        pending = match.pending()
        match.act(pending.seat, bots[pending.seat].choose(match.state.observation(pending.seat), pending.options))
    owner, card = match.log[-1]["by"], match.log[-1]["action"]["card"]
    state = game_class("turfmaster").new(match.setup)
    lines = {viewer: [] for viewer in (owner, 1 - owner, None)}
    for entry in match.log:
        for viewer, said in lines.items():
            said.append(decision_line(state, entry, viewer, "en"))
        apply_entry(state, entry)
    assert lines[owner][-1] == f"{['Ana', 'Ben'][owner]}: Give up the {card}"
    for viewer in (1 - owner, None):   # the rest of the log reads the same to everyone
        assert lines[viewer][-1] is None and lines[viewer][:-1] == lines[owner][:-1]
    # and through the command, as the other seat: the event says a card was given up, not which
    path = tmp_path / "r.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["turfmaster", "replay", str(path), "--seat", str(2 - owner)], env={"COLUMNS": "100"})
    assert result.exit_code == 0 and "gives up a card" in result.output and "Give up the" not in result.output


def test_simulate_prints_win_rates_with_intervals():
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "6", "--bots", "tactical,random",
                                 "--horses", "2", "--workers", "2"], env={"COLUMNS": "150"})
    assert result.exit_code == 0, result.output
    assert "95% CI (Wilson)" in result.output and "tactical" in result.output and "6/6" in result.output
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "2", "--bots", "tactical,nobody"])
    assert result.exit_code == 2 and "unknown bot" in result.output
    result = runner.invoke(app, ["turfmaster", "simulate", "--games", "2", "--bots", "random,random,random",
                                 "--horses", "1"])
    assert result.exit_code == 2 and "3 players" in result.output and "not 1" in result.output  # 2 horses each (T7)


@pytest.mark.parametrize("args, words", [
    # T7: how many horses each player runs; the terminal's option is named, not the setup's key
    (["--players", "3", "--horses", "3"], "with 3 players, --horses must be 2 (at least 4 horses race), not 3"),
    (["--players", "2", "--horses", "5"], "with 2 players, --horses must be from 2 to 4 (at least 4 horses race), not 5"),
    (["--players", "2", "--bots", "tactical,random"], "--bots names 2 bots, but 1 seat is played by a bot: name one"),
    (["--players", "4", "--bots", "tactical,random"],
     "--bots names 2 bots, but 3 seats are played by bots: name one bot for all of them, or 3, one a seat"),
])
def test_play_names_its_own_options_when_it_refuses_a_table(args, words):
    result = runner.invoke(app, ["turfmaster", "play", *args], input="q\n", env={"COLUMNS": "200"})
    assert result.exit_code == 2 and words in result.output and "horses_per_player" not in result.output, result.output


def test_play_refuses_a_bad_table():
    result = runner.invoke(app, ["turfmaster", "play", "--players", "9"])
    assert result.exit_code == 2 and "2 to 8 players" in result.output


def test_the_screen_fits_the_terminal_leaving_out_the_least_needed_first():
    """On a small terminal (80x24) the course, the seat's hands and the question stay in sight:
    the points table, the move log's older lines, then the horses table make way, in that order."""
    import io
    import random

    from rich.console import Console

    from hippodrome.cli.turfmaster_view import screen

    match = Match("turfmaster", {"players": 4, "horses_per_player": 1}, seed=3)
    rng = random.Random(1)
    while match.state.phase != "race" or len(match.log) < 60:
        pending = match.pending()
        match.act(pending.seat, rng.choice(pending.options))
    view = match.state.observation(match.pending().seat)
    events = [f"move {n}" for n in range(12)]

    def shown(width, height):
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(screen(view, events, "en", width, height))
        text = console.export_text()
        return len(text.splitlines()), text

    whole_lines, whole = shown(120, None)
    assert "Points" in whole or "points" in whole.lower()
    for width, height in ((80, 15), (120, 31), (120, whole_lines - 3), (120, whole_lines)):
        lines, text = shown(width, height)
        assert lines <= height, (width, height, text)
        assert "The course" in text and "Your hands:" in text and "lane 8" in text
    assert "move 11" in shown(120, 31)[1] and "move 4" not in shown(120, 31)[1]   # the latest moves
    assert "Owner" not in shown(80, 15)[1] and "Owner" in shown(120, 31)[1]   # the horses table
    assert shown(120, whole_lines)[1] == whole


def test_the_terminal_warns_of_a_fall_or_a_boxed_in_move_before_the_card_or_die_is_played():
    """What the page's preview shows, the terminal says beside the option: a card whose every end
    square falls at a fence (T11), a die the horse can use only in part, boxed in (T5)."""
    import random

    from hippodrome.cli.turfmaster import consequence_warnings
    from hippodrome.cli.turfmaster_view import options_block
    from hippodrome.turfmaster.preview import consequences

    match = Match("turfmaster", {"players": 4, "horses_per_player": 1, "steeplechase": True}, seed=0)
    rng = random.Random(0)
    seen = set()
    for _ in range(95):
        pending = match.pending()
        if pending.kind in ("card", "die"):
            warnings = consequence_warnings(match.state, pending.seat, "en")
            for index, option in enumerate(pending.options):
                if option["type"] not in ("card", "die"):
                    continue
                outcome = consequences(match.state, pending.seat, option)
                falls = bool(outcome["squares"]) and all(square["falls"] for square in outcome["squares"])
                boxed = bool(outcome["squares"]) and not falls and outcome["steps"] < outcome["points"]
                words = warnings.get(index, "")
                assert ("falls at a fence" in words) == falls and ("boxed in" in words) == boxed, (option, outcome)
                seen |= {"falls"} if falls else {"boxed"} if boxed else set()
                if words:
                    block = options_block(match.state.observation(pending.seat), "en", warnings).plain
                    assert words in block
        match.act(pending.seat, rng.choice(pending.options))
    assert seen == {"falls", "boxed"}   # both met in this seeded race


def test_q_asks_before_the_meeting_is_lost_and_enter_goes_back_to_the_question():
    """A meeting quit is lost: "q" asks first; Enter (or anything but "q") goes back to the same
    question, "q" again quits; where the input ends at that question, it quits."""
    asked = "Quit? The meeting will be lost. Type q again to quit, or press Enter to go on: "
    args = ["turfmaster", "play", "--players", "2", "--seed", "12", "--scroll"]
    result = runner.invoke(app, args, input="q\n\n2\nq\nno\nq\nq\n", env={"COLUMNS": "150"})
    out = result.output
    assert result.exit_code == 0, out
    assert out.count(asked) == 3 and out.rstrip().endswith("meeting abandoned"), out
    # Enter went back to the same question (T8: Red's bonus cards, asked again), then "2" answered it
    # and the next question came (Blue's)
    first, second = out.index(asked), out.index(asked, out.index(asked) + 1)
    between = out[first:second]
    assert "claim the 2 bonus cards of Red?" in between, out
    assert between.index("claim the 2 bonus cards of Red?") < between.index("claim the 2 bonus cards of Blue?"), out
    # the input ending at the "are you sure" quits, as it did at the question
    result = runner.invoke(app, args, input="q\n", env={"COLUMNS": "150"})
    assert result.exit_code == 0 and asked in result.output and "meeting abandoned" in result.output, result.output
