"""A called race in the terminal: the roll clock, the caller's lines and keyboard control.

:class:`CallSession` is the part without a terminal (tests drive it with a fake time source
and keys); :func:`run_live` draws it with Rich (race_caller_screen.py: the track across the
terminal's width, the red line and the finish) and reads keys (space or p: pause/resume, q:
quit); :func:`run_plain` prints the lines as they come (non-interactive mode) and a plain text
track at the end (readysetbet/caller.py ``track_lines``). Lines are kept as Messages and shown
in the session's language; :func:`speaker` reads them aloud with espeak-ng in that language's
voice, and :class:`PacedVoice` keeps that voice within a roll of the dice (readysetbet/pacing.py:
stale commentary dropped, red-line crossings, "No more bets!" and the finish said first, cutting
commentary).
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import threading
import time
from typing import Callable, Protocol

from hippodrome.i18n import SPEECH_TAGS, Message
from hippodrome.readysetbet import race_game  # noqa: F401  (registers "readysetbet-race")
from hippodrome.readysetbet.caller import RaceCaller, track_lines
from hippodrome.readysetbet.pacing import SHORT, PacedSpeech, priority
from hippodrome.readysetbet.settled_words import settlement_lines
from hippodrome.readysetbet.dice_race import RaceState, advance
from hippodrome.table.clock import Clock, strike_if_due
from hippodrome.table.table import Table


class CallSession:
    def __init__(self, pace: float, lang: str = "en", seed: int | None = None,
                 now: Callable[[], float] = time.monotonic, positions: str | None = None):
        setup = {"positions": positions} if positions else {}
        self.lang = lang
        self.table = Table("readysetbet-race", setup, [], seed=seed)
        self.caller = RaceCaller(seed)
        self.clock = Clock(pace, now=now)
        self.shadow: RaceState = self.table.state.state
        self.seen = 0
        self.messages: list[Message] = self.caller.start()
        self.quit = False

    @property
    def over(self) -> bool:
        return self.quit or self.table.over

    @property
    def lines(self) -> list[str]:
        """Everything called so far, in the session's language."""
        return [message.translate(self.lang) for message in self.messages]

    def handle_key(self, key: str) -> None:
        if key in (" ", "p", "P"):
            self.messages.append(self.caller.pause(self.clock.toggle()))
        elif key in ("q", "Q", "\x03"):
            self.quit = True

    def step(self) -> list[str]:
        """Roll whatever is due and return the new lines."""
        return [message.translate(self.lang) for message in self.step_messages()]

    def step_messages(self) -> list[Message]:
        """Roll whatever is due and return the new lines as Messages."""
        start = len(self.messages)
        if not self.over:
            strike_if_due(self.clock, self.table)
        log = self.table.state.log
        while self.seen < len(log):
            before = self.shadow
            self.shadow, events = advance(before, log[self.seen]["sum"])
            self.seen += len(events)
            self.messages.extend(self.caller.call_roll(before, self.shadow, events))
            if self.shadow.finished:
                self.messages.extend(self.caller.results(self.shadow.positions))
                self.messages.extend(settlement_lines(self.shadow.positions))
        return self.messages[start:]

    def spoken(self, messages: list[Message]) -> list[tuple[str, str | None, int]]:
        """Lines for a :class:`PacedVoice`: each in the session's language, its short form, how urgent."""
        def short(message: Message) -> str | None:
            form = SHORT.get(message.msgid)
            return Message(form, **message.params).translate(self.lang) if form else None

        return [(message.translate(self.lang), short(message), priority(message)) for message in messages]


class Speaking(Protocol):
    """A line being said: wait for its end, or stop it (a ``subprocess.Popen`` is one)."""

    def wait(self) -> object: ...

    def terminate(self) -> None: ...


def speaker(lang: str) -> Callable[[str], Speaking] | None:
    """Start saying a line with espeak-ng in ``lang``'s voice (SPEECH_TAGS), or None without espeak-ng."""
    program = shutil.which("espeak-ng")
    if program is None:
        return None

    def speak(line: str) -> Speaking:
        return subprocess.Popen([program, "-v", SPEECH_TAGS[lang], line],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return speak


def run_plain(session: CallSession, sleep: Callable[[float], None] = time.sleep, out=print,
              speak: Callable[[str], Speaking] | None = None) -> None:
    voice = PacedVoice(speak) if speak is not None else None

    def say(messages: list[Message]) -> None:
        for message in messages:
            out(message.translate(session.lang))
        if voice is not None and messages:
            voice.say(session.spoken(messages))

    say(list(session.messages))
    while not session.over:
        say(session.step_messages())
        if not session.over:
            sleep(session.clock.time_left())
    for row in track_lines(session.shadow.positions):
        out(row)
    if voice is not None:
        voice.close(finish=True)


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


def _render(session: CallSession, console, race_no: int = 1):
    """The live screen at the console's size now (a window resized is drawn to its new size)."""
    from hippodrome.cli.race_caller_screen import screen

    width, height = console.size
    return screen(session.shadow.positions, session.lines, session.clock.paused, race_no, session.lang,
                  width, height, over=session.table.over, stopped=session.quit)


def run_live(session: CallSession, speak: Callable[[str], None] | None = None) -> None:
    from rich.console import Console
    from rich.live import Live

    console = Console()
    keys: "queue.Queue[str]" = queue.Queue()
    stop = threading.Event()
    reader = None
    if sys.stdin.isatty():
        reader = threading.Thread(target=_key_reader, args=(keys, stop), daemon=True)
        reader.start()
    voice = PacedVoice(speak) if speak is not None else None
    try:
        with Live(_render(session, console), console=console, refresh_per_second=10) as live:
            if voice is not None:
                voice.say(session.spoken(session.messages))
            while not session.over:
                while not keys.empty():
                    session.handle_key(keys.get())
                new_lines = session.step_messages()
                if voice is not None and new_lines:
                    voice.say(session.spoken(new_lines))
                live.update(_render(session, console))
                time.sleep(0.05)
            live.update(_render(session, console))
    finally:
        stop.set()
        if reader is not None:
            reader.join(timeout=1)
        if voice is not None:
            voice.close()


class PacedVoice:
    """Says lines in a thread of its own, so the track keeps moving, and keeps pace with the dice:
    each call of :meth:`say` is one roll's lines (:class:`PacedSpeech` drops stale commentary and
    puts urgent lines first); an urgent line stops a line of commentary being said."""

    def __init__(self, speak: Callable[[str], Speaking]):
        self.speak = speak
        self.paced = PacedSpeech()
        self.lock = threading.Condition()
        self.current: tuple[Speaking, int] | None = None   # the line being said, and how urgent
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            with self.lock:
                while not self.closed and not self.paced.waiting:
                    self.lock.wait()
                line = self.paced.next()
                if line is None:   # closed, nothing left to say
                    return
                speaking = self.speak(line.text)
                self.current = (speaking, line.priority)
            speaking.wait()
            with self.lock:
                self.current = None

    def say(self, lines: list[tuple[str, str | None, int]]) -> None:
        with self.lock:
            urgent = self.paced.add(lines)
            if self.current is not None and self.current[1] < urgent:
                self.current[0].terminate()
            self.lock.notify()

    def close(self, finish: bool = False) -> None:
        """Stop (``finish``: once the lines waiting are said)."""
        with self.lock:
            if not finish:
                self.paced.waiting.clear()
                if self.current is not None:
                    self.current[0].terminate()
            self.closed = True
            self.lock.notify()
        self.thread.join(timeout=None if finish else 1)
