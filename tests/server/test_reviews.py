"""Reviews of finished tables on the server (issue 36.3 and 36.5): made once per table in a review
worker process (never on the event loop), stored (a new app on the same database has it), shared
by the requests that come while it runs, refused in words (404, 409, 429)."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import time

import pytest
from fastapi.testclient import TestClient

from hippodrome.core.registry import game_class
from hippodrome.i18n import localize_text, message_from_json
from hippodrome.server import create_app
from hippodrome.server.accounts.review_routes import with_words
from hippodrome.server.review_worker import PACE_CHECK, REVIEW_NICENESS, Pacing
from hippodrome.server.review_settings import ReviewSettings
from hippodrome.server.reviews import BUSY_LOOP, IDLE_LOOP, ReviewPace
from hippodrome.table.thinking import worker_pids
from hippodrome.table.thought import WORKER_NICENESS
from tests.server.conftest import make_table
from tests.server.finished import finished_meeting, finished_tables
from tests.server.priority import scheduler_after_lowering

#: playouts a decision: a meeting's review in a second or two of a core, the same every time
PLAYOUTS = 2
#: the most seconds a review of a test may take (only reached when something is broken)
LONGEST = 120


@pytest.fixture(scope="module")
def meeting():
    return finished_meeting("review-1")


@pytest.fixture(scope="module")
def other_meeting():
    return finished_meeting("review-2")


@pytest.fixture
def db(tmp_path, meeting, other_meeting):
    path = str(tmp_path / "reviews.sqlite3")
    finished_tables(path, {"done": meeting, "other": other_meeting})
    return path


def app_on(db, **settings):
    """An app that reviews (:data:`PLAYOUTS` a decision unless told); unpaced (a share of all of a
    core) and not at the idle priority: the tests' polling and bot tables keep its loop busy, and
    pacing, tested apart below, would hold a review back for minutes on a loaded machine, as the
    lowest priority would where the suite's other workers keep both cores busy (a review never came
    in 120 s)."""
    settings = {"share": 1.0, "idle": False, "playouts": PLAYOUTS, **settings}
    return TestClient(create_app(db, bot_delay=0, reviews=ReviewSettings(**settings)))


def review_of(client, table_id):
    """The review once it is ready (asked for until then)."""
    deadline = time.monotonic() + LONGEST
    while time.monotonic() < deadline:
        status = client.get(f"/api/tables/{table_id}/review").json()
        if status["status"] in ("ready", "failed"):
            return status
        assert status["status"] == "running" and 0 <= status["done"] <= status["total"] or status["total"] == 0
        time.sleep(0.1)
    raise AssertionError("the review never came")


def test_a_finished_table_is_reviewed_once_in_a_worker_process_and_stored(db, monkeypatch):
    # the review function, in this process, fails: the review is made in another one
    monkeypatch.setattr("hippodrome.turfmaster.review.review", lambda *args, **kwargs: 1 / 0)
    with app_on(db) as client:
        reviews = client.app.state.reviews
        made = []
        make = reviews._make
        monkeypatch.setattr(reviews, "_make", lambda *args: made.append(args[0]) or make(*args))
        assert client.get("/api/tables/done/review").json() == {"status": "none", "done": 0, "total": 0}
        first = client.post("/api/tables/done/review")
        second = client.post("/api/tables/done/review")   # while the first runs: the same run
        assert first.status_code == second.status_code == 202 and first.json()["status"] == "running"
        pids = [worker.process.pid for worker in reviews._workers]
        assert pids and os.getpid() not in pids
        assert not set(pids) & set(worker_pids(client.app.state.hub.thinker))   # not a bot's worker
        answer = review_of(client, "done")
        assert made == ["done"]
        assert answer["status"] == "ready" and answer["done"] == answer["total"] == len(answer["review"]["decisions"])
        review = answer["review"]
        assert review["game"] == "turfmaster" and review["playouts"] == PLAYOUTS
        assert [player["seat"] for player in review["players"]] == [0, 1]
        marked = [d for d in review["decisions"] if d["mark"] != "good"]
        assert marked, "random bots make mistakes"
        for decision in review["decisions"]:
            assert {"seat", "step", "chosen", "best", "loss", "stderr", "mark", "kind", "race", "at"} <= set(decision)
            assert decision["chosen"]["words"]["msgid"] and decision["best"]["words"]["msgid"]
        card = next(d for d in review["decisions"] if d["kind"] == "card")
        words = card["chosen"]["words"]   # "Play 9 for Red", in the page's language
        assert words["msgid"] == "Play {card} for {horse}" and words["params"]["card"] == card["chosen"]["action"]["card"]
        assert words["params"]["horse"]["msgid"] == card["chosen"]["action"]["horse"].capitalize()
        # each mark's step on the replay: the position where the player was asked
        shown = client.get(f"/api/tables/done/replay?step={card['at']}").json()
        assert shown["decision"]["seat"] == card["seat"]
        again = client.post("/api/tables/done/review")
        assert again.status_code == 200 and again.json() == answer and made == ["done"]
    with app_on(db) as client:   # a restart: the review is read back, never made again
        assert client.get("/api/tables/done/review").json() == answer
        assert client.post("/api/tables/done/review").json() == answer
        assert client.app.state.reviews.running == {} and client.app.state.reviews._workers == [None]


def test_reviews_past_the_bound_unknown_tables_tables_in_play_and_no_workers_are_refused_in_words(db):
    with app_on(db, workers=0) as client:   # serve --review-workers 0
        none = client.post("/api/tables/other/review")
        assert none.status_code == 503 and none.json()["detail"] == "this server does not review games"
    # one playout a decision: what is checked is the bound, not the review (the test above)
    with app_on(db, waiting=1, playouts=1) as client:
        assert client.post("/api/tables/done/review").status_code == 202
        busy = client.post("/api/tables/other/review", headers={"Accept-Language": "fr"})
        assert busy.status_code == 429 and int(busy.headers["Retry-After"]) > 0
        assert busy.json()["error"] == "too_many" and "minute" in busy.json()["detail"]   # "une minute"
        assert busy.json()["message_i18n"]["msgid"].startswith("the server is reviewing as many games")
        unknown = client.post("/api/tables/nowhere/review")
        assert unknown.status_code == 404 and unknown.json()["detail"] == "no table 'nowhere'"
        assert client.get("/api/tables/nowhere/review").status_code == 404
        live = make_table(client, start=False)
        playing = client.post(f"/api/tables/{live['id']}/review")
        assert playing.status_code == 409 and f"/play/{live['id']}" in playing.json()["detail"]
        assert "still being played" in playing.json()["detail"]
        assert review_of(client, "done")["status"] == "ready"
        assert client.post("/api/tables/other/review").status_code == 202   # room again


def test_a_ready_set_bet_review_names_its_bets_in_words():
    """The answer's words come from the game's own (readysetbet/words.py bet_words): a bet is "the 3
    token on Win on horse 7", never its data."""
    bet = {"type": "bet", "token": "3", "space": "win:7:R"}
    better = {"type": "bet", "token": "3", "space": "colour:blue"}
    review = {"decisions": [{"seat": 0, "step": 4, "chosen": {"action": bet, "value": 0.5},
                             "best": {"action": better, "value": 2.5}, "loss": 2.0, "mark": "mistake"}]}
    answer = with_words(json.dumps(review), game_class("readysetbet").description.review_words_function())
    decision = answer["review"]["decisions"][0]
    assert answer["status"] == "ready" and answer["done"] == answer["total"] == 1
    assert localize_text(message_from_json(decision["chosen"]["words"]), "en") == "the 3 token on Win on horse 7"
    assert localize_text(message_from_json(decision["best"]["words"]), "en") == "the 3 token on Blue wins"


class PacingTime:
    """A wall clock and a thread's processor time that move only when told (a review's pacing)."""

    def __init__(self):
        self.now = self.used = 0.0
        self.slept: list[float] = []

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def test_a_paced_review_keeps_to_the_share_of_a_core_it_is_allowed_and_reads_it_again_while_it_pauses():
    share = multiprocessing.get_context("spawn").RawValue("d", 0.2)
    clock = PacingTime()
    pacing = Pacing(share, clock=lambda: clock.now, used=lambda: clock.used, sleep=clock.sleep)
    clock.now += 0.1
    clock.used += 0.1        # a decision that took its whole tenth of a second on the processor
    pacing.pause()
    assert clock.now == pytest.approx(0.5)   # 0.1 s of a core in 0.5 s: a fifth
    assert max(clock.slept) <= PACE_CHECK
    clock.slept.clear()
    clock.now += 0.3
    clock.used += 0.05       # a decision that waited for the processor: it already kept to its share
    pacing.pause()
    assert clock.slept == []

    def idle_again(seconds):  # the server becomes idle during the pause: the review goes on at once
        clock.sleep(seconds)
        share.value = 1.0
    pacing.sleep = idle_again
    clock.used += 0.1
    pacing.pause()
    assert clock.slept == [PACE_CHECK]
    clock.slept.clear()
    clock.used += 0.1
    pacing.pause()
    assert clock.slept == []


def test_reviews_are_allowed_all_of_a_core_while_the_live_tables_leave_the_event_loop_idle_and_less_as_they_keep_it_busier():
    pace = ReviewPace(0.2)
    allowed = []
    for busy in (0.0, IDLE_LOOP, (IDLE_LOOP + BUSY_LOOP) / 2, BUSY_LOOP, 0.9):
        pace.update(busy)
        allowed.append(pace.share.value)
    assert allowed == pytest.approx([1.0, 1.0, 0.6, 0.2, 0.2])


def test_the_pace_follows_the_event_loops_processor_time_while_reviews_run():
    used = [0.0]
    pace = ReviewPace(0.3, used=lambda: used[0])
    running = {"t": object()}

    async def busy_loop():
        watching = asyncio.ensure_future(pace.watch(running))
        for _ in range(30):   # the loop's thread 'uses' as much time as goes by: a busy loop
            await asyncio.sleep(0.05)
            used[0] += 0.05
            if pace.share.value < 1.0:
                break
        allowed_when_busy = pace.share.value
        running.clear()
        await watching
        return allowed_when_busy

    assert asyncio.run(busy_loop()) == pytest.approx(0.3)
    assert pace.share.value == 1.0   # no review runs: nothing is held back


@pytest.mark.parametrize("idle", [True, False])
def test_a_review_worker_runs_at_the_idle_priority_unless_told_not_to(idle):
    """``--review-idle`` (the default): the review worker runs only when nothing else wants the
    processor, at the nicest niceness; ``--no-review-idle``: at the bots' workers' niceness."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    process = context.Process(target=scheduler_after_lowering, args=(idle, theirs))
    process.start()
    try:
        assert mine.poll(60), "the process never answered"
        scheduler, niceness = mine.recv()
    finally:
        process.join(10)
    assert niceness == min(19, os.nice(0) + (REVIEW_NICENESS if idle else WORKER_NICENESS))
    assert (scheduler == os.SCHED_IDLE) == idle

