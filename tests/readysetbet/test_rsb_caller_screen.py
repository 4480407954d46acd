"""The terminal race caller's live screen (``hippodrome readysetbet call``): the track takes the
terminal's width (a wider terminal, longer spaces), the red line is drawn between spaces 9 and 10
and the finish at space 15 (R2), each horse where its space's number is; below 60 columns the
screen says the size it needs; at 80x24 and 120x40 in tmux, a whole race."""

import io

import pytest
from rich.console import Console

from hippodrome.cli.race_caller_screen import MIN_HEIGHT, MIN_WIDTH, screen
from hippodrome.i18n import LANGUAGES, translate
from hippodrome.i18n.vocabulary import READYSETBET_TERMS
from hippodrome.readysetbet.dice_race import FINISH, HORSES, RED_LINE
from tests.turfmaster.test_terminal_play import HIPPODROME, _tmux, _wait_until, tmux_session  # noqa: F401

#: a race under way: 2/3 on 3, 4 on 9 (just before the red line), 6 on 10 (just past it), 9 on the
#: finish, 11/12 at the gate
POSITIONS = (3, 9, 6, 10, 5, 8, 15, 12, 0)
CALLS = [f"call number {n}" for n in range(1, 41)]


def drawn(width, height, lang="en", positions=POSITIONS, lines=CALLS, paused=False, **ended):
    """The screen as a terminal ``width`` x ``height`` shows it: its lines of text."""
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    console.print(screen(positions, lines, paused, 1, lang, width, height, **ended))
    return console.export_text().rstrip("\n").split("\n")


def track_rows(lines):
    """The labels' row, the numbers' row and a row per horse (by name), as drawn."""
    numbered = [i for i, line in enumerate(lines) if " 15 " in line]
    assert numbered, "no row numbers the spaces:\n" + "\n".join(lines)
    numbers = numbered[0]
    rows = {}
    for line in lines[numbers + 1:numbers + 1 + len(HORSES)]:
        name = line[1:].split()[0]
        rows[name] = line
    return lines[numbers - 1], lines[numbers], rows


def number_end(numbers_row, space):
    """The column of the last digit of ``space``'s number on the numbers' row."""
    text = f" {space}" if space < 10 else str(space)
    found = [i for i in range(len(numbers_row)) if numbers_row.startswith(text, i)
             and not numbers_row[i + len(text):i + len(text) + 1].isdigit()
             and not numbers_row[i - 1:i].isdigit()]
    assert len(found) == 1, (space, numbers_row)
    return found[0] + len(text) - 1


def bars(row):
    return [i for i, char in enumerate(row) if char == "┃"]


@pytest.mark.parametrize("width,height", [(MIN_WIDTH, MIN_HEIGHT), (80, 24), (120, 40), (200, 50)])
def test_r2_the_red_line_is_between_9_and_10_and_the_finish_at_15_on_every_horses_row(width, height):
    """R2: the red line lies between spaces 9 and 10, space 15 is the finish: both are drawn down
    through the numbers and every horse's row, named above, and each horse stands under its
    space's number: 4 on 9 before the red line, 6 on 10 past it, 9 on 15 against the finish post."""
    lines = drawn(width, height)
    labels, numbers, rows = track_rows(lines)
    assert list(rows) == list(HORSES), "the horses as named everywhere, 2/3 to 11/12"
    red, post = bars(numbers)[0], bars(numbers)[-1]
    assert number_end(numbers, RED_LINE - 1) < red < number_end(numbers, RED_LINE) - 1
    assert number_end(numbers, FINISH) < post and numbers[number_end(numbers, FINISH) + 1:post].strip() == ""
    assert numbers[post + 1:].strip(" │") == "", "nothing after the finish"
    for name, row in rows.items():
        assert bars(row)[:1] == [red] and bars(row)[-1] == post, name
    for horse, position in zip(HORSES, POSITIONS):
        at = rows[horse].index("●")
        if position:
            assert at == number_end(numbers, position), (horse, position)
        else:
            assert at < number_end(numbers, 1), "at the gate, before space 1"
        assert (at < red) == (position < RED_LINE), (horse, position)
        # the spaces it has still to run, a dot each, to the finish
        assert rows[horse][at + 1:post].count("·") == FINISH - position, (horse, position)
    red_label = labels.index("red line")
    assert red_label <= red < red_label + len("red line"), "the red line's name stands over it"
    assert labels.rstrip(" │").endswith("finish") and labels.rindex("finish") + len("finish") - 1 == post


def test_a_wider_terminal_has_longer_spaces_and_the_track_takes_its_width():
    """The track was 17 columns wide whatever the terminal; now its spaces grow with the width and
    the track spans most of it, every line within it."""
    spans = []
    for width in (MIN_WIDTH, 80, 100, 120, 200):
        lines = drawn(width, 40)
        assert all(len(line) <= width for line in lines), width
        _labels, numbers, rows = track_rows(lines)
        spans.append(number_end(numbers, FINISH) - number_end(numbers, 1))
        assert bars(numbers)[-1] >= 0.85 * width, (width, numbers)
    assert spans == sorted(spans) and len(set(spans)) == len(spans), spans
    assert spans[1] >= 3 * 14, "at 80 columns a space is 4 columns wide at least (14 spaces from 1 to 15)"


def test_the_screen_holds_the_track_the_latest_calls_and_the_keys_within_the_terminal():
    """At 80x24 and 120x40 the whole screen fits, a line under it left for the cursor; the latest
    call and the keys are on it, and a taller terminal shows more of the calls."""
    shown = {}
    for width, height in ((80, 24), (120, 40)):
        lines = drawn(width, height)
        assert len(lines) <= height - 1, (width, height, len(lines))
        text = "\n".join(lines)
        assert "call number 40" in text and "space/p: pause or resume, q: quit" in text
        shown[height] = sum(1 for call in CALLS if call + " " in text + " ")
    assert shown[40] > shown[24] >= 5
    assert "[PAUSED]" in "\n".join(drawn(80, 24, paused=True))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width,height", [(80, 24), (MIN_WIDTH - 1, 24)])
def test_once_the_race_is_over_the_screen_says_so_in_place_of_the_keys(lang, width, height):
    """R3: the race ends when its Win, Place and Show are known; the last screen the caller leaves
    says the race is over and offers no key (the program has ended); after q it offers none either."""
    keys, over = (" ".join(translate(lang, msgid).split()) for msgid in ("space/p: pause or resume, q: quit",
                                                                         "The race is over."))
    assert lang == "en" or over != "The race is over."
    text = lambda **ended: " ".join(" ".join(drawn(width, height, lang, **ended)).split())  # noqa: E731
    assert keys in text() and over not in text()
    assert over in text(over=True) and keys not in text(over=True) and "call number 40" in text(over=True)
    assert keys not in text(stopped=True) and over not in text(stopped=True)
    assert translate(lang, "PAUSED") not in text(over=True, paused=True)


@pytest.mark.parametrize("width,height", [(MIN_WIDTH - 1, 24), (45, 30), (80, MIN_HEIGHT - 1)])
def test_below_its_size_the_screen_says_the_size_it_needs_and_the_calls_go_on(width, height):
    lines = drawn(width, height)
    text = " ".join(" ".join(lines).split())
    assert f"This terminal is {width}x{height}: the race's track needs at least {MIN_WIDTH}x{MIN_HEIGHT}." in text
    assert "--plain" in text and "call number 40" in text and "space/p: pause or resume" in text
    assert "┃" not in text and all(len(line) <= width for line in lines) and len(lines) <= height - 1


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", [MIN_WIDTH, 80])
def test_the_red_line_and_the_finish_are_named_in_every_language(lang, width):
    """The names over the lines are the session's language's (the red line as the glossary says
    it), whole, apart, and within the terminal; the horses keep their names."""
    labels, numbers, rows = track_rows(drawn(width, 24, lang))
    red_name = translate(lang, READYSETBET_TERMS["red_line"])
    finish = translate(lang, "finish")
    assert lang == "en" or (red_name, finish) != ("red line", "finish")
    assert labels.split(red_name)[1].strip(" │") == finish, labels
    assert labels.index(red_name) <= bars(numbers)[0] < labels.index(red_name) + len(red_name)
    assert len(labels) <= width and list(rows) == list(HORSES)


# -- in a terminal --------------------------------------------------------------------------------

def visible(session):
    return _tmux(session, "capture-pane", "-t", session, "-p").stdout


@pytest.mark.parametrize("columns,lines", [(80, 24), (120, 40)])
def test_a_whole_race_called_at_80x24_and_120x40_in_tmux(tmux_session, columns, lines):
    """The live caller in a terminal of that size (COLUMNS and LINES unset: the pane's own size)
    runs a race to its result: the track takes the pane's width, red line and finish drawn down
    every horse's row, the winner against the finish post (R2), Win / Place / Show said (R3)."""
    command = f"env -u COLUMNS -u LINES {HIPPODROME} readysetbet call --seed 3 --pace 0 --lang en; sleep 60"
    _tmux(tmux_session, "new-session", "-d", "-s", tmux_session, "-x", str(columns), "-y", str(lines), command)
    screen = _wait_until(tmux_session, lambda s: "Win: " in s and "The race is over." in s, "the race's result",
                         capture=visible)
    assert "pause or resume" not in screen
    rows = screen.rstrip("\n").split("\n")
    assert len(rows) <= lines and max(len(row) for row in rows) == columns
    labels, numbers, by_horse = track_rows(rows)
    assert "red line" in labels and "finish" in labels and list(by_horse) == list(HORSES)
    red, post = bars(numbers)[0], bars(numbers)[-1]
    assert post >= 0.85 * columns
    assert all(bars(row)[0] == red and bars(row)[-1] == post for row in by_horse.values())
    winner = screen.split("Win: ")[1].split(".")[0]
    assert by_horse[winner].index("●") == number_end(numbers, FINISH)
