"""A finished table's review in chromium (issue 36.3): offered on the table's page once it is over,
made on its replay's page (its progress shown), its marks on the timeline coloured by mark, the
list of marked decisions, and at a marked step the choice made against the better one, in words
and on TurfMaster's course."""

import json
import re
import urllib.request

import pytest

from tests.browser.conftest import Server, screenshot
from tests.browser.i18n_pages import untranslated
from tests.server.finished import finished_meeting, finished_tables

pytestmark = pytest.mark.browser

#: the longest a review of the test may take (its 2 playouts a decision: a few seconds)
REVIEW_MS = 120_000


@pytest.fixture(scope="module")
def review_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("review") / "review.sqlite3"
    finished_tables(str(db), {"done": finished_meeting("browser-review")})
    server = Server(db, args=("--review-playouts", "2", "--no-review-idle")).start()
    yield server
    server.stop()


def no_ids(text: str) -> None:
    """What a player reads: words, never an action's data nor a placeholder."""
    assert text.strip()
    for leftover in ('"type"', "{", "}", "claim_bonus", "dice_use", "undefined", "null"):
        assert leftover not in text, (leftover, text)
    assert not re.search(r"\bJ\d", text), text   # a joker is "joker 12", never its id "J12"


def test_a_finished_meeting_is_offered_reviewed_and_its_marks_shown_on_the_replay(review_server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{review_server.url}/play/done")
    offer = page.wait_for_selector("#review-game")   # a spectator: "Review the game"
    assert offer.get_attribute("href") == "/replay/done#review"
    screenshot(page, "review-offer")
    offer.click()
    page.wait_for_url(re.compile(r"/replay/done#review$"))
    # the link asks for the review at once: its progress, then the review
    page.wait_for_selector("#review-progress, #review-list", timeout=REVIEW_MS)
    page.wait_for_selector("#review-list", timeout=REVIEW_MS)
    review = json.loads(urllib.request.urlopen(f"{review_server.url}/api/tables/done/review").read())["review"]
    marked = [d for d in review["decisions"] if d["mark"] != "good"]
    marks = page.query_selector_all("#review-marks .review-mark")
    assert len(marks) == len(marked) > 0   # a spectator sees every player's marks
    assert {m.get_attribute("data-mark") for m in marks} <= {"inaccuracy", "mistake", "blunder"}
    for line in page.query_selector_all(".review-player"):
        no_ids(line.text_content())
        assert "%" in line.text_content()
    # a marked square: the replay goes to the step where it was chosen, drawn beside the better one
    square = next(d for d in marked if d["kind"] == "square")
    listed = page.text_content(f'#review-list button[data-at="{square["at"]}"]')
    # the list names the timeline's step, and what the choice lost (its value reads as a loss there)
    assert f"Race {square['race']}, step {square['at']}:" in listed, listed
    assert re.search(r", [\d.,]+ points? lost$", listed), listed
    page.click(f'#review-list button[data-at="{square["at"]}"]')
    page.wait_for_function("at => document.querySelector('#scrub').value === String(at)", arg=square["at"])
    assert page.text_content("#where").startswith(f"Step {square['at']} of ")   # the step the list named
    here = page.wait_for_selector("#review-here")
    no_ids(here.text_content())
    assert f"step {square['at']}:" in here.text_content()
    assert "better" in here.text_content() and "lane" in here.text_content()
    page.wait_for_selector("polygon.sq.review-better")
    page.wait_for_selector("polygon.sq.review-made")
    assert {t.text_content() for t in page.query_selector_all("text.review-label")} == {"chosen", "better"}
    # the words are drawn over the horses and their handicap tags (later in the picture), not under them
    assert page.evaluate("""() => [...document.querySelectorAll('text.review-label')].every((label) =>
        [...document.querySelectorAll('#course g.horse')].every((horse) =>
            horse.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING))""")
    screenshot(page, "review-square")
    page.locator("polygon.sq.review-better").scroll_into_view_if_needed()
    screenshot(page, "review-square-board")
    # a marked card: named in words
    card = next((d for d in marked if d["kind"] == "card"), None)
    if card is not None:
        page.click(f'#review-marks .review-mark[data-at="{card["at"]}"]')
        page.wait_for_function("at => document.querySelector('#scrub').value === String(at)", arg=card["at"])
        text = page.wait_for_selector("#review-here").text_content()
        no_ids(text)
        assert "Play " in text and " for " in text
    # in the other languages, the same in their words: none shown in English
    for lang, heading in (("es", "Revisión"), ("fr", "Analyse"), ("nl", "Analyse"), ("de", "Analyse")):
        page.select_option("#lang", lang)
        page.wait_for_function("([l, h]) => document.documentElement.lang === l && document.querySelector('#review h2')"
                               ".textContent === h", arg=[lang, heading])
        no_ids(page.text_content("#review-here"))
        if lang == "fr":
            screenshot(page, "review-fr")
    assert untranslated(page, "de", "the replay's review") == []
    page.close()
