"""The full-screen terminal game (issue 33, point 7) through tmux: at 80x24 one screen, redrawn in
place, holds the course with the horses, the horses' standing, the hands and the question at once,
before race 1 too (T10: the horses in their stalls); an option's note is read with ?N; below 60x20
the screen says the size it needs; --scroll prints the old scrolling log."""

import re

from tests.turfmaster.test_terminal_play import HIPPODROME, _screen, _tmux, _wait_for, _wait_until, tmux_session  # noqa: F401


def start(session, columns, lines, options=""):
    command = (f"env -u COLUMNS -u LINES {HIPPODROME} turfmaster play --players 8 --seed 12 --bots tactical "
               f"--steeplechase {options}; sleep 60")
    _tmux(session, "new-session", "-d", "-s", session, "-x", str(columns), "-y", str(lines), command)


def visible(session):
    """What the pane shows now, without its scrollback."""
    return _tmux(session, "capture-pane", "-t", session, "-p").stdout


def test_at_80x24_the_course_horses_hand_and_question_are_on_one_screen(tmux_session):
    start(tmux_session, 80, 24)
    screen = _wait_until(tmux_session, lambda s: "your choice (1-2" in s, "the first question", capture=visible)
    lines = screen.splitlines()
    # T10: before race 1 the horses stand in their stalls on the course, stall 1 in lane 1
    assert lines[0].startswith("TurfMaster") and "Stalls for race 1" in screen
    assert "lane 1 P" in screen and "lane 8 O" in screen and "#" in screen   # Purple drew stall 1; the fences
    assert "Red: 10 cards" in screen and "Your hands:" in screen
    assert "claim the 2 bonus cards of Red?" in screen and "your choice (1-2" in screen
    # a note on demand
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "?1", "Enter")
    screen = _wait_for(tmux_session, "hand limit is 12")
    assert "lane 8" in visible(tmux_session), "the screen is redrawn in place, the course still on it"
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "2", "Enter")
    # the screen as a whole once redrawn: its question, drawn last, is on it (not a capture of it half drawn)
    screen = _wait_until(tmux_session, lambda s: "Round of cards: choose a card for Red" in s and "your choice (1-" in s,
                         "a card asked", capture=visible)
    # the header's race, round and dice roller read whole: the game's name and the course, shown
    # elsewhere on the screen, are left out of 80 columns first
    assert re.fullmatch(r"Race 1 of 3 - round 1: cards - next dice roller: Tactical bot \d", screen.splitlines()[0].rstrip())
    assert "lane 1 " in screen and "lane 8 " in screen and "9 (at most 8)" in screen   # T6: the start's handicaps
    assert "Your hands:" in screen and "Play 3 for Red" in screen and "your choice (1-" in screen
    assert len(screen.rstrip("\n").splitlines()) <= 24
    # a meeting quit is lost: "q" asks first, and Enter goes back to the question
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "q", "Enter")
    _wait_for(tmux_session, "Type q again to quit")
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "q", "Enter")
    _wait_for(tmux_session, "meeting abandoned")


def test_below_60x20_the_screen_says_the_size_it_needs(tmux_session):
    start(tmux_session, 50, 18)
    screen = _wait_for(tmux_session, "your choice")
    assert "This terminal is 50x18" in " ".join(screen.split()) and "--scroll" in screen


def test_scroll_prints_a_scrolling_log(tmux_session):
    start(tmux_session, 80, 24, "--scroll")
    _wait_for(tmux_session, "your choice")
    _tmux(tmux_session, "send-keys", "-t", tmux_session, "2", "Enter")
    _wait_until(tmux_session, lambda s: s.count("your choice") >= 2, "a second question, below the first")
    log = _screen(tmux_session)
    assert log.count("your choice") >= 2 and log.index("claim the 2 bonus cards of Red?") < log.rindex("your choice")
