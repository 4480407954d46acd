"""The lobby: set up a table with a friend and bots, share links, refused setups explained."""

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def test_set_up_a_meeting_in_the_lobby_and_open_my_seat(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=turfmaster]", state="attached")
    page.select_option("#game", "turfmaster")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    rows = page.locator(".seat-row")
    assert rows.count() == 3
    rows.nth(0).locator(".seat-name").fill("Ana")
    rows.nth(1).locator(".seat-name").fill("Bea")
    rows.nth(1).locator(".seat-kind").select_option("person")
    rows.nth(2).locator(".seat-kind").select_option("bot")
    rows.nth(2).locator(".seat-level").select_option("tactical")
    screenshot(page, "lobby-laptop")
    page.click("#create-button")
    page.wait_for_selector("#created .play-link")
    links = page.eval_on_selector_all("#created .play-link", "a => a.map(x => x.getAttribute('href'))")
    assert len(links) == 2 and all("#seat=" in link for link in links) and links[0] != links[1]
    page.wait_for_selector("#tables td")
    assert "Ana" in page.text_content("#tables")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "lobby-phone")
    page.set_viewport_size({"width": 1366, "height": 800})
    page.click("#created .play-link >> nth=1")
    page.wait_for_selector("#hands .hand")
    assert "you are Bea" in page.text_content("#who")
    hands = page.eval_on_selector_all("#hands .hand", "rows => rows.map(r => r.dataset.horse)")
    assert hands == ["yellow", "green"]  # seat 1's horses, in the deck file's order
    page.close()


def test_a_refused_setup_is_explained(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet]", state="attached")
    page.select_option("#game", "readysetbet")
    # the form's own limits stop most mistakes; the server's message covers the rest
    page.evaluate("() => document.querySelector('#pace').removeAttribute('min')")
    page.fill("#pace", "0")
    page.click("#create-button")
    page.wait_for_selector("#create-error .error-box")
    assert "pace" in page.text_content("#create-error")
    page.close()
