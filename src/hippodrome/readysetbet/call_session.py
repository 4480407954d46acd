"""A called race in the terminal: the roll clock, the caller's lines and keyboard control.

:class:`CallSession` is the part without a terminal (tests drive it with a fake time source
and keys); :func:`run_live` draws it with Rich and reads keys (space or p: pause/resume,
q: quit); :func:`run_plain` prints the lines as they come (non-interactive mode).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Callable

from hippodrome.readysetbet import race_game  # noqa: F401  (registers "readysetbet-race")
from hippodrome.readysetbet.caller import RaceCaller, track_lines
from hippodrome.readysetbet.clock import RollClock
from hippodrome.readysetbet.dice_race import FINISH, HORSES, RED_LINE, RaceState, advance
from hippodrome.table.table import Table


class CallSession:
    def __init__(self, pace: float, lang: str = "en", seed: int | None = None,
                 now: Callable[[], float] = time.monotonic, positions: str | None = None):
        setup = {"positions": positions} if positions else {}
        self.table = Table("readysetbet-race", setup, [], seed=seed)
        self.caller = RaceCaller(lang, seed)
        self.clock = RollClock(self.table, pace, now=now)
        self.shadow: RaceState = self.table.state.state
        self.seen = 0
        self.lines: list[str] = self.caller.start()
        self.quit = False

    @property
    def over(self) -> bool:
        return self.quit or self.table.over

    def handle_key(self, key: str) -> None:
        if key in (" ", "p", "P"):
            paused = self.clock.toggle()
            self.lines.append(self.caller.say("paused" if paused else "resumed"))
        elif key in ("q", "Q", "\x03"):
            self.quit = True

    def step(self) -> list[str]:
        """Roll whatever is due and return the new lines."""
        start = len(self.lines)
        if not self.over:
            self.clock.poll()
        log = self.table.state.log
        while self.seen < len(log):
            move = log[self.seen]
            before = self.shadow
            self.shadow, events = advance(before, move["sum"])
            self.seen += len(events)
            self.lines.extend(self.caller.call_roll(before, self.shadow, events))
            if self.shadow.finished:
                self.lines.extend(self.caller.results(self.shadow.positions))
        return self.lines[start:]


def run_plain(session: CallSession, sleep: Callable[[float], None] = time.sleep, out=print) -> None:
    for line in session.lines:
        out(line)
    while not session.over:
        for line in session.step():
            out(line)
        if not session.over:
            sleep(session.clock.seconds_to_next_roll())
    for row in track_lines(session.shadow.positions):
        out(row)


def _key_reader(keys: "queue.Queue[str]", stop: threading.Event) -> None:
    import select
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while not stop.is_set():
            ready, _, _ = select.select([sys.stdin], [], [], 0.1)
            if ready:
                keys.put(sys.stdin.read(1))
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _render(session: CallSession, race_no: int = 1):
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table as RichTable
    from rich.text import Text

    phrases = session.caller.phrases
    grid = RichTable.grid(padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column()
    colours = {"blue": "bright_blue", "orange": "dark_orange", "red": "red", "black": "white"}
    from hippodrome.readysetbet.dice_race import COLOUR

    for horse, position in zip(HORSES, session.shadow.positions):
        lane = Text()
        for space in range(FINISH + 1):
            if space == RED_LINE:
                lane.append("┃", style="bold red")
            lane.append("●" if space == position else ("·" if space else "│"),
                        style=colours[COLOUR[horse]] if space == position else "grey50")
        grid.add_row(Text(horse, style=colours[COLOUR[horse]]), lane)
    status = f"{phrases['help']}" + ("   [PAUSE]" if session.clock.paused else "")
    talk = Text("\n".join(session.lines[-8:]))
    return Panel(Group(grid, Text(""), talk, Text(status, style="dim")),
                 title=phrases["track_title"].format(race=race_no))


def run_live(session: CallSession) -> None:
    from rich.console import Console
    from rich.live import Live

    console = Console()
    keys: "queue.Queue[str]" = queue.Queue()
    stop = threading.Event()
    reader = None
    if sys.stdin.isatty():
        reader = threading.Thread(target=_key_reader, args=(keys, stop), daemon=True)
        reader.start()
    try:
        with Live(_render(session), console=console, refresh_per_second=10) as live:
            while not session.over:
                while not keys.empty():
                    session.handle_key(keys.get())
                session.step()
                live.update(_render(session))
                time.sleep(0.05)
            live.update(_render(session))
    finally:
        stop.set()
        if reader is not None:
            reader.join(timeout=1)
