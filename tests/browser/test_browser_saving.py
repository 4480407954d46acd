"""The play page while the server cannot save the game (issue 15, part 2): another process holds
the database's write lock, the server's commit fails after SQLite's busy timeout, the table
pauses and the page says so in words; once the lock is gone the game is saved and goes on."""

import subprocess
import sys

import pytest

from hippodrome.server.rooms import SAVING_WORKS
from hippodrome.table.runner import SAVING_FAILED
from tests.browser.conftest import create, open_seat, screenshot
from tests.server.test_server_durable import LOCK_HOLDER

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
#: SQLite's busy timeout (5 s) and a retry or two, on a loaded machine
BANNER_TIMEOUT = 60000


def test_the_page_says_saving_failed_and_then_that_play_goes_on(own_server, browser):
    table = create(own_server, {"game": "readysetbet", "setup": {"players": 2}, "pace": 1.0,
                                "seats": [{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}]})
    laptop, errors = open_seat(browser, own_server, table["seats"][0]["link"])
    laptop.set_viewport_size({"width": 1280, "height": 800})
    phone = browser.new_page(viewport=PHONE, locale="de-DE")   # in German, from the page's own catalog
    phone.goto(own_server.url + table["seats"][0]["link"])
    for page in (laptop, phone):
        page.wait_for_function("() => document.body.dataset.tableStatus === 'playing'")
        assert page.locator(".saving-banner").is_hidden()
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(own_server.db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        for page in (laptop, phone):   # the next roll cannot be stored
            page.wait_for_selector(".saving-banner[data-saving=failing]", timeout=BANNER_TIMEOUT)
        assert laptop.text_content(".saving-banner") == "the table is paused: saving the game failed, retrying"
        assert phone.text_content(".saving-banner") == SAVING_FAILED.translate("de")
        screenshot(laptop, "saving-failed-laptop")
        screenshot(phone, "saving-failed-phone")
    finally:
        holder.stdin.close()
        holder.wait(10)
    for page in (laptop, phone):
        page.wait_for_selector(".saving-banner[data-saving=ok]", timeout=BANNER_TIMEOUT)
    assert laptop.text_content(".saving-banner") == "the game is saved again: play goes on"
    assert phone.text_content(".saving-banner") == SAVING_WORKS.translate("de")
    screenshot(phone, "saving-ok-phone")
    assert not errors, errors
    laptop.close()
    phone.close()
