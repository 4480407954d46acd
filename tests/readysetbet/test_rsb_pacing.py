"""A caller's voice that keeps pace with the dice (issue 34, point 2; rulings R2, R3): measured
with a mocked speech engine that takes a person's time to say each line (150 words a minute)
while the dice roll every 1.5 s, the voice is never more than one roll behind, and red-line
crossings, "No more bets!" and the finish start the moment their roll comes. The first-in,
first-out voice it replaces falls further behind with every roll (the measure can fail)."""

import random
import threading

import pytest

from hippodrome.cli.race_caller import CallSession, PacedVoice, run_plain
from hippodrome.i18n import Message
from hippodrome.i18n.vocabulary import READYSETBET_CALLS
from hippodrome.readysetbet.caller import RESULTS, RaceCaller, msgids
from hippodrome.readysetbet.dice_race import RaceState, advance
from hippodrome.readysetbet.pacing import NEW_RACE, PRIORITY, SHORT, PacedSpeech, is_urgent, priority
from hippodrome.readysetbet.settled_words import settlement_lines

PACE = 1.5            # seconds between rolls
WORDS_A_SECOND = 2.5  # 150 words a minute


def spoken(line):
    short = Message(SHORT[line.msgid], **line.params).translate("en") if line.msgid in SHORT else None
    return line.translate("en"), short, priority(line)


def race_by_roll(seed):
    """A seeded race's lines, one list per roll (the opening with the first roll, the results with
    the last), in English, each (text, short form, priority)."""
    rng, caller, state = random.Random(seed), RaceCaller(seed), RaceState.start()
    rolls, opening = [], caller.start()
    while not state.finished:
        before = state
        state, events = advance(before, rng.randint(1, 6) + rng.randint(1, 6))
        lines = opening + caller.call_roll(before, state, events)
        opening = []
        if state.finished:
            lines += caller.results(state.positions) + settlement_lines(state.positions)
        rolls.append([spoken(line) for line in lines])
    return rolls


def duration(text):
    return len(text.split()) / WORDS_A_SECOND


def speak_race(rolls, paced=True):
    """Say a race with a mocked engine in simulated time: each line takes `duration`; roll k
    comes at k * PACE. Returns what was said: (start time, text, urgent, its roll, rolls come by then)."""
    speech, said, fifo = PacedSpeech(), [], []
    now, speaking = 0.0, None   # speaking: (end time, priority)
    for k, lines in enumerate(rolls, start=1):
        at = k * PACE
        while True:   # say lines until this roll comes
            if speaking and speaking[0] <= at:
                now, speaking = max(now, speaking[0]), None
            if speaking:
                break
            line = speech.next() if paced else (fifo.pop(0) if fifo else None)
            if line is None:
                break
            now = max(now, (k - 1) * PACE)
            said.append((now, line.text, line.priority, line.roll, k - 1))
            speaking = (now + duration(line.text), line.priority)
        now = at
        if paced:
            urgent = speech.add(lines)
            if speaking and speaking[1] < urgent:
                speaking = None   # a more urgent line stops what is said
        else:
            speech.roll += 1
            fifo += [type("Line", (), {"text": t, "priority": p, "roll": k})() for t, _, p in lines]
    k = len(rolls)
    while (line := speech.next() if paced else (fifo.pop(0) if fifo else None)) is not None:
        if speaking:
            now = max(now, speaking[0])
        said.append((now, line.text, line.priority, line.roll, k))
        speaking = (now + duration(line.text), line.priority)
    return said


@pytest.mark.parametrize("seed", range(6))
def test_R2_the_voice_is_never_more_than_a_roll_behind_and_no_more_bets_is_never_late(seed):
    rolls = race_by_roll(seed)
    said = speak_race(rolls)
    assert all(come - roll <= 1 for _, _, _, roll, come in said), [s for s in said if s[4] - s[3] > 1]
    texts = [text for _, text, *_ in said]
    no_more_bets = Message(READYSETBET_CALLS["no_more_bets"]).translate("en")
    closing = [k for k, lines in enumerate(rolls, start=1) if any(text == no_more_bets for text, *_ in lines)]
    if closing:   # a race ends with fewer than three horses across now and then
        start = next(at for at, text, *_ in said if text == no_more_bets)
        assert start == closing[0] * PACE, "said the moment its roll comes, cutting commentary"
    urgent = [(text, short) for lines in rolls for text, short, level in lines if level]
    assert sum(1 for text in texts if any(text in pair for pair in urgent)) == len(urgent), "every urgent line is said"
    assert any(text.startswith("Win:") for text in texts) and any(text.startswith(("Winning prop bets", "No prop")) for text in texts)
    assert len(texts) < sum(map(len, rolls)), "stale commentary is dropped"


def test_the_first_in_first_out_voice_falls_behind_the_measure_catches_it():
    said = speak_race(race_by_roll(0), paced=False)
    assert max(come - roll for *_, roll, come in said) > 3


def test_urgent_lines_are_the_red_line_no_more_bets_the_finish_and_the_results():
    urgent = [msgids("red_line")[0], msgids("finish")[0], READYSETBET_CALLS["no_more_bets"], RESULTS]
    assert all(is_urgent({"msgid": m}) for m in urgent)
    assert not any(is_urgent({"msgid": m}) for m in msgids("leader") + msgids("roll") + msgids("red_line_warning"))
    speech = PacedSpeech()
    speech.add([("old chatter", None, 0), ("old crossing, said at length", "old crossing", 2)])
    assert speech.add([("chatter", None, 0), ("No more bets!", None, 3)]) == 3, "it cuts a crossing being said"
    assert [speech.next().text for _ in range(3)] == ["No more bets!", "old crossing", "chatter"]
    assert speech.next() is None


def test_a_new_race_drops_what_the_race_before_left_unsaid_and_cuts_what_is_said():
    """R2, R3: a host may start the next race while the bets that won the last one are still being
    read; the new race's first lines ("They're off!") go out at once: nothing of the last race is
    kept, its results neither, and whatever is being said is cut."""
    speech = PacedSpeech()
    speech.add([("Win: 7. Place: 5. Show: 9.", None, 1), ("Winning prop bets: a long list", None, 1)])
    assert speech.next().text == "Win: 7. Place: 5. Show: 9."   # being said; the prop bets wait
    assert speech.add([("They're off!", None, 0)], new_race=True) == NEW_RACE > max(PRIORITY.values())
    assert speech.next().text == "They're off!" and speech.next() is None
    # within a race the results are kept across rolls, as before
    speech.add([("Win: 7. Place: 5. Show: 9.", None, 1), ("commentary", None, 0)])
    assert speech.add([("a roll", None, 0)]) == 0
    assert [line.text for line in speech.waiting] == ["Win: 7. Place: 5. Show: 9.", "a roll"]


class FakeEspeak:
    """A line being said, until the test ends it (or the voice stops it)."""

    def __init__(self, text, log):
        self.text, self.done = text, threading.Event()
        log.append(self)

    def wait(self):
        self.done.wait(30)

    def terminate(self):
        self.stopped = True
        self.done.set()


def test_the_terminal_voice_cuts_commentary_for_no_more_bets_and_drops_stale_lines():
    said, started = [], threading.Semaphore(0)

    def speak(text):
        line = FakeEspeak(text, said)
        started.release()
        return line

    voice = PacedVoice(speak)
    voice.say([("roll one", None, 0), ("more about roll one", None, 0)])
    assert started.acquire(timeout=30)
    voice.say([("roll two", None, 0)])                                # "more about roll one" is stale now
    voice.say([("roll three", None, 0), ("No more bets!", None, 3)])   # cuts "roll one"
    assert started.acquire(timeout=30)
    assert getattr(said[0], "stopped", False) and said[1].text == "No more bets!"
    said[1].done.set()
    assert started.acquire(timeout=30)
    said[2].done.set()
    voice.close(finish=True)
    assert [line.text for line in said] == ["roll one", "No more bets!", "roll three"]


def test_the_plain_caller_speaks_through_the_paced_voice_and_says_the_results():
    said = []

    class Instant:
        def __init__(self, text):
            said.append(text)

        def wait(self):
            return 0

        def terminate(self):
            pass

    now = [0.0]
    session = CallSession(pace=1.0, lang="en", seed=3, now=lambda: now[0])
    out = []
    run_plain(session, sleep=lambda s: now.__setitem__(0, now[0] + s), out=out.append, speak=Instant)
    assert any(text.startswith("Win:") for text in said), "the results are always said"
    assert all(text in out or text.startswith("Red line:") for text in said), "the lines printed, or their short form"
