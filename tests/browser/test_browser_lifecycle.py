"""The table's lifecycle on the play page (issue 11, point 1): two people open their links, see
who is connected and ready, press Ready; between races each presses Next race while the
countdown runs; a host starts a table without its absent player."""

import pytest

from tests.browser.conftest import TURFMASTER_SEAT_AUTOPLAY, Server, create, open_seat, screenshot, send_as

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
    # Ana's page draws the state at its next frame: it may come a moment after Bea's
    ana.wait_for_function("() => document.querySelector('#lifecycle .lifecycle-mine').textContent === 'You are ready'")
    screenshot(ana, "lifecycle-laptop-waiting")
    screenshot(bea, "lifecycle-phone-waiting")
    bea.click("#lifecycle .lifecycle-mine")
    for page in (ana, bea):  # the game starts: the panel goes, race 1 runs, then it stands between races
        page.wait_for_selector("#lifecycle[data-status=between_races]", timeout=120000)
    # race 2 is dealt (no VIP cards to choose) but not off until the gate opens: nothing says it is
    assert ana.get_attribute("#redline", "data-crossings") == "0" and "off" not in ana.text_content("#announce")
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


def test_a_ready_set_bet_seat_handed_to_a_bot_offers_no_bet(server, browser):
    """The absent friend's Ready Set Bet seat, handed to a bot: her page says so, her tokens are
    the bot's (none to choose) and a click on the board places nothing."""
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1, "vip": False},
                            "seats": [{"name": "Ana"}, {"name": "Bea"}], "pace": 5}, start=False)
    page, errors = open_seat(browser, server, table["play_host_link"])
    page.wait_for_selector("#lifecycle .lifecycle-host:not([hidden])")
    page.click("#lifecycle .lifecycle-host")
    page.wait_for_function("() => document.body.dataset.tableStatus === 'playing'")
    bea, bea_errors = open_seat(browser, server, table["seats"][1]["link"])
    bea.wait_for_selector("#lifecycle[data-handed=yes]")
    bea.wait_for_function("() => document.querySelectorAll('#tokens button.token').length > 0")
    assert bea.locator("#tokens button.token:not([disabled])").count() == 0
    assert bea.locator("#tokens button.token.selected").count() == 0
    assert "A bot plays your seat" in bea.text_content(".hint")
    bea.locator('button.space[data-space="win:7:M"]').click()
    bea.wait_for_selector("#messages .error-box")
    assert "A bot plays your seat" in bea.text_content("#messages")
    assert not errors and not bea_errors, errors + bea_errors
    page.close()
    bea.close()


def test_the_host_starts_without_the_absent_player(tmp_path, browser):
    """"Start now, bots take empty seats": the host who never pressed Ready keeps the seat (the
    start counts as being ready) and plays; the absent friend's seat goes to a bot, and when she
    opens her link later her page says so and offers no move. The bots wait 4 s before each move
    (a server of the test's own), so that her page shows the bot's turn at her seat."""
    server = Server(tmp_path / "slow-bots.sqlite3", bot_delay=4).start()
    try:
        table = create(server, {"game": "turfmaster", "setup": {"players": 2, "horses_per_player": 2},
                                "seats": [{"name": "Ana"}, {"name": "Bea"}]}, start=False)
        page, errors = open_seat(browser, server, table["play_host_link"])
        page.wait_for_selector("#lifecycle .lifecycle-host:not([hidden])")
        assert "not connected" in page.text_content('#lifecycle li[data-seat="1"]')
        assert page.text_content("#lifecycle .lifecycle-mine") == "Ready"   # not pressed
        page.set_viewport_size(PHONE)
        screenshot(page, "lifecycle-phone-host")
        page.set_viewport_size({"width": 1366, "height": 800})
        page.click("#lifecycle .lifecycle-host")
        page.wait_for_function("() => document.body.dataset.tableStatus === 'playing'")
        assert page.locator("#lifecycle").is_hidden()
        # the host's own seat is still a person's: its decisions (the bonus cards, T8) are offered
        page.wait_for_selector("#turn[data-mine=yes]")
        assert page.text_content("#turn").startswith("Your turn:")
        bea, bea_errors = open_seat(browser, server, table["seats"][1]["link"])
        bea.wait_for_selector("#lifecycle[data-handed=yes]")
        assert "A bot plays your seat" in bea.text_content("#lifecycle")
        for _ in range(2):   # Ana keeps both bonus cards for later: then it is the bot's turn at Bea's seat
            state = page.get_attribute("#app", "data-state-id")
            page.locator("#decision button[data-type=decline_bonus]").first.click()
            page.wait_for_function(f"() => document.querySelector('#app').dataset.stateId !== '{state}'")
        bea.wait_for_function("() => document.querySelector('#turn').textContent.startsWith('A bot plays your seat:')")
        assert bea.get_attribute("#turn", "data-mine") == "no"
        assert bea.locator("#decision button").count() == 0 and bea.locator("#hands .card.playable").count() == 0
        screenshot(bea, "lifecycle-laptop-handed")
        bea.set_viewport_size(PHONE)
        screenshot(bea, "lifecycle-phone-handed")
        assert not errors and not bea_errors, errors + bea_errors
        page.close()
        bea.close()
    finally:
        server.stop()


def test_the_host_lets_a_bot_play_the_seat_of_a_player_who_left(server, browser):
    """Bea said she was ready, then closed her tab: the race waits for her turn. The host's page
    lists her as a player who left, with "Let a bot play"; pressed, the list says a bot plays for
    her, and the bot takes her turn: the race goes on."""
    setup = {"course": "oval", "horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}
    table = create(server, {"game": "turfmaster-race", "setup": setup, "seats": [{"name": "Ana"}, {"name": "Bea"}]},
                   start=False)
    send_as(server, table, {"type": "ready"}, token=table["seats"][1]["token"],
            until=lambda m: 1 in m["lifecycle"]["ready"])   # and her connection closes
    page, errors = open_seat(browser, server, table["play_host_link"])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector("#lifecycle[data-status=waiting] .lifecycle-mine:not([hidden])")
    page.click("#lifecycle .lifecycle-mine")   # Ana is ready too: the race starts
    page.wait_for_function("() => document.body.dataset.tableStatus === 'playing'")
    bea = '#lifecycle li[data-seat="1"]'
    page.wait_for_selector('#lifecycle[data-away=yes] li[data-seat="1"] .lifecycle-hand:not([hidden])')
    assert "Players who left" in panel_text(page) and "Bea" in page.text_content(bea)
    assert "not connected" in page.text_content(bea) and page.text_content(f"{bea} .lifecycle-hand") == "Let a bot play"
    assert page.locator('#lifecycle li[data-seat="0"]').count() == 0   # the host's own seat is not offered
    page.evaluate(TURFMASTER_SEAT_AUTOPLAY)   # Ana plays her turns until the race waits for Bea's
    page.wait_for_function("() => document.querySelector('#turn').textContent.startsWith('Bea to play')", timeout=60000)
    # Ana stops playing: what follows is the hand-over and the bot's turn alone (her autoplay,
    # clicking every 30 ms, could send a move twice once her turn comes again)
    page.evaluate("() => { window.__auto.paused = true; }")
    assert page.locator("#messages .error-box").all_text_contents() == []
    waited_at = int(page.get_attribute("#app", "data-state-id"))
    screenshot(page, "hand-laptop-host")
    page.set_viewport_size(PHONE)
    screenshot(page, "hand-phone-host")
    box = page.locator(f"{bea} .lifecycle-hand").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]   # the button fits a phone
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click(f"{bea} .lifecycle-hand")
    page.wait_for_function(f"() => document.querySelector('{bea}').textContent.includes('a bot plays for this absent player')")
    assert page.locator(f"{bea} .lifecycle-hand").is_hidden() and "Players who left" in panel_text(page)
    screenshot(page, "hand-laptop-handed")
    # the bot takes Bea's turn: the race moves on (nothing else could while it waited for her)
    page.wait_for_function(f"() => Number(document.querySelector('#app').dataset.stateId) > {waited_at}", timeout=60000)
    assert page.locator("#messages .error-box").all_text_contents() == []
    assert not errors, errors
    page.close()


#: the lifecycle panel alone on a host's page, fed the message given (the table is none: the page is ours)
HOST_PANEL = """async (msg) => {
  const { LifecyclePanel } = await import('/static/lifecycle.js');
  document.getElementById('messages').hidden = true;
  const panel = new LifecyclePanel(document.getElementById('lifecycle'), { send: () => true }, { host: 'h' });
  panel.update(msg);
}"""


def test_between_races_the_host_may_hand_a_person_still_choosing_but_not_a_bot(server, browser):
    """R8: between races everyone chooses a VIP card at once, and the host may let a bot play the
    seat of a person the table waits for; a bot still thinking over its card is waited for too, but
    is no seat to hand to a bot: it gets no "Let a bot play"."""
    page, errors = open_seat(browser, server, "/play/none")
    page.wait_for_selector("#messages .error-box")
    page.evaluate(HOST_PANEL, {
        "type": "state", "game": "readysetbet", "state_id": 1, "seat": 0, "status": "between_races",
        "seats": [{"seat": 0, "name": "Ana", "kind": "person"}, {"seat": 1, "name": "Bea", "kind": "person"},
                  {"seat": 2, "name": "Bot 2", "kind": "bot"}],
        "lifecycle": {"countdown": 25, "next_race_seconds": 30, "persons": [0, 1], "present": [0, 1], "ready": [0, 1],
                      "next": [], "handed": [], "absent": [], "waiting_for": [0, 1, 2]}})
    page.wait_for_selector('#lifecycle li[data-seat="2"]')
    assert page.is_visible('#lifecycle li[data-seat="1"] .lifecycle-hand')
    assert page.is_hidden('#lifecycle li[data-seat="2"] .lifecycle-hand')
    assert errors == []
