"""The table's lifecycle on the play page (issue 11, point 1): two people open their links, see
who is connected and ready, press Ready; between races each presses Next race while the
countdown runs; a host starts a table without its absent player."""

import pytest

from tests.browser.conftest import create, open_seat, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def panel_text(page):
    return page.text_content("#lifecycle")


def test_ready_then_next_race_on_a_laptop_and_a_phone(server, browser):
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 2, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}], "pace": 0.05,
                            "next_race_seconds": 600}, start=False)
    ana, errors = open_seat(browser, server, table["seats"][0]["link"])
    ana.set_viewport_size({"width": 1280, "height": 800})
    bea = browser.new_page(viewport=PHONE)
    bea_errors: list[str] = []
    bea.on("pageerror", lambda error: bea_errors.append(str(error)))
    bea.goto(server.url + table["seats"][1]["link"])
    for page in (ana, bea):
        page.wait_for_selector("#lifecycle[data-status=waiting] .lifecycle-mine:not([hidden])")
    ana.wait_for_function("() => document.querySelectorAll('#lifecycle li').length === 2 && "
                          "[...document.querySelectorAll('#lifecycle li')].every(li => li.textContent.includes('connected ·'))")
    assert "Ready: 0 of 2 players" in panel_text(ana) and "Ana (you)" in panel_text(ana)
    assert ana.locator(".lifecycle-host").is_hidden()  # a seat's own link is no host link
    ana.click("#lifecycle .lifecycle-mine")
    bea.wait_for_function("() => document.querySelector('#lifecycle').textContent.includes('Ready: 1 of 2 players')")
    assert "You are ready" == ana.text_content("#lifecycle .lifecycle-mine")
    screenshot(ana, "lifecycle-laptop-waiting")
    screenshot(bea, "lifecycle-phone-waiting")
    bea.click("#lifecycle .lifecycle-mine")
    for page in (ana, bea):  # the game starts: the panel goes, race 1 runs, then it stands between races
        page.wait_for_selector("#lifecycle[data-status=between_races]", timeout=120000)
    assert "The next race starts in" in panel_text(ana) and "Next race" == ana.text_content("#lifecycle .lifecycle-mine")
    ana.click("#lifecycle .lifecycle-mine")
    bea.wait_for_function("() => document.querySelector('#lifecycle').textContent.includes('Next race pressed: 1 of 2 players present')")
    assert "pressed Next race" in panel_text(bea) and "reading the results" in panel_text(bea)
    screenshot(ana, "lifecycle-laptop-between-races")
    screenshot(bea, "lifecycle-phone-between-races")
    bea.click("#lifecycle .lifecycle-mine")
    for page in (ana, bea):
        page.wait_for_function("() => document.body.dataset.tableStatus !== 'between_races'")
    assert ana.locator("#lifecycle").is_hidden()
    assert not errors and not bea_errors, errors + bea_errors
    ana.close()
    bea.close()


def test_the_host_starts_without_the_absent_player(server, browser):
    table = create(server, {"game": "turfmaster", "setup": {"players": 2, "horses_per_player": 2},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}]}, start=False)
    page, errors = open_seat(browser, server, table["play_host_link"])
    page.wait_for_selector("#lifecycle .lifecycle-host:not([hidden])")
    assert "not connected" in page.text_content('#lifecycle li[data-seat="1"]')
    page.set_viewport_size(PHONE)
    screenshot(page, "lifecycle-phone-host")
    page.click("#lifecycle .lifecycle-host")
    page.wait_for_function("() => document.body.dataset.tableStatus === 'playing'")
    assert page.locator("#lifecycle").is_hidden()
    assert not errors, errors
    page.close()
