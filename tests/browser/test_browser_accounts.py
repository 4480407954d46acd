"""Players who come back (issue 35), in the browser, on a desktop and on a phone: sign up in the
lobby, play a Ready Set Bet race against a bot at a seat that follows the account, see the rating
move on the profile and the leaderboard, watch the game again on the replay page; then sign in on
a phone, in Spanish, and find the game among "your games"; the account's pages show no English in
any of the five languages."""

import json
import re
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import create, screenshot
from tests.browser.i18n_pages import LANGUAGES, READ_MISSING, press_ready

pytestmark = pytest.mark.browser

NAME, PASSWORD = "Zelda", "a long horse-race phrase 7"


def get(server, path):
    return json.loads(urllib.request.urlopen(server.url + path, timeout=30).read())


def no_english(page, what):
    """The page shown in each language through its menu, Spanish last (the phone's): the msgids it
    asked for that a catalog lacks."""
    problems = []
    for lang in ["en"] + [lang for lang in LANGUAGES if lang != "es"] + ["es"]:
        page.select_option("#lang", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        missing = page.evaluate(READ_MISSING)
        if missing:
            problems.append(f"{what} [{lang}]: no translation for {missing}")
    return problems


@pytest.fixture(scope="module")
def played(server, browser):
    """The desktop's story; returns the finished table's id."""
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.click("#sign-in-open")
    page.fill("#account-name", NAME)
    page.fill("#account-password", "short")
    page.click("#sign-up")   # refused in words, nothing made
    page.wait_for_selector("#account-error")
    assert "at least 10 characters" in page.inner_text("#account-error")
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    page.wait_for_selector("#signed-in a.player-link")
    assert page.inner_text("#signed-in") == NAME
    page.wait_for_selector("#my-games-panel:not([hidden])")
    screenshot(page, "accounts-lobby-signed-in-desktop")
    # the profile before any game: no rating
    page.click("#signed-in a.player-link")
    page.wait_for_selector("#ratings p.muted")
    assert "No rated game yet" in page.inner_text("#ratings")
    # a seat link opened signed in: the seat follows the account; the race is played to its end
    table = create(server, {"game": "readysetbet", "setup": {"players": 2, "races": 1}, "pace": 0.05,
                            "seats": [{"name": NAME}, {"name": "Rob", "kind": "bot", "level": "random"}]}, start=False)
    page.goto(server.url + table["seats"][0]["link"])
    page.wait_for_function(f"() => fetch('/api/players/{NAME}').then((r) => r.json())"
                           ".then((p) => p.games.length === 1)")   # the seat is the account's
    page.wait_for_selector(f"#players-line a.player-link[href='/players/{NAME}']")   # names link to profiles
    press_ready(page)
    page.wait_for_selector("#final:not([hidden]) #winner", timeout=120000)
    page.wait_for_selector("#again:not([hidden]) #play-again")   # Play again, for everyone still here
    screenshot(page, "accounts-race-over-desktop")
    # the rating moved: the profile and the leaderboard say so
    page.goto(server.url + f"/players/{NAME}")
    page.wait_for_selector("#ratings-table tr[data-game=readysetbet] .rating")
    assert re.search(r"-?\d+\.\d \(provisional\)", page.inner_text("#ratings-table tr[data-game=readysetbet] .rating"))
    assert page.inner_text("#games-table .place") in ("1st", "2nd")
    screenshot(page, "accounts-profile-desktop")
    page.click("#ratings-table a")   # its game's leaderboard
    page.wait_for_selector("#board-table")
    board = page.inner_text("#board-table")
    assert NAME in board and "Random bot" in board
    screenshot(page, "accounts-leaderboard-desktop")
    # the replay, from the profile
    page.goto(server.url + f"/players/{NAME}")
    page.click("#games-table .replay-link")
    page.wait_for_selector("#timeline:not([hidden])")
    steps = get(server, f"/api/tables/{table['id']}/replay")["steps"]
    assert page.inner_text("#where") == f"Step 0 of {steps}"
    page.click("#forward")
    page.wait_for_function("() => document.querySelector('#where').textContent.startsWith('Step 1 ')")
    page.click("#last")
    page.wait_for_function(f"() => document.querySelector('#where').textContent === 'Step {steps} of {steps}'")
    page.wait_for_selector("#final:not([hidden]) #winner")   # the end, as it was
    page.click("#step-link")
    assert page.url.endswith(f"#step={steps}")
    screenshot(page, "accounts-replay-desktop")
    assert not errors, errors
    page.close()
    return table["id"]


def test_sign_up_play_see_the_rating_move_and_replay_on_a_desktop(played):
    assert played


def test_sign_in_on_a_phone_in_spanish_finds_the_game_and_replays_it(server, browser, played):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es",
                                  extra_http_headers={"Accept-Language": "es"})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.click("#sign-in-open")
    page.fill("#account-name", NAME.upper())   # a name is a name whatever its case
    page.fill("#account-password", "not the password at all")
    page.click("#sign-in")
    page.wait_for_selector("#account-error")
    assert "contraseña" in page.inner_text("#account-error")   # in words, in Spanish
    page.fill("#account-password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_selector(f"#my-games-table tr[data-table='{played}'] .replay-link")
    assert "Tus partidas" in page.inner_text("#my-games-panel")
    screenshot(page, "accounts-lobby-phone-es")
    problems = no_english(page, "lobby")
    page.click(f"#my-games-table tr[data-table='{played}'] .replay-link")
    page.wait_for_selector("#timeline:not([hidden])")
    assert page.inner_text("#where").startswith("Paso 0 de ")
    steps = get(server, f"/api/tables/{played}/replay")["steps"]
    page.fill("#scrub", str(steps - 6))   # a few steps before the end
    page.dispatch_event("#scrub", "input")
    page.wait_for_function(f"() => document.querySelector('#where').textContent.startsWith('Paso {steps - 6} ')")
    page.select_option("#speed", "8")
    page.click("#play")   # plays on by itself, then stops at the end
    page.wait_for_function("() => { const s = document.querySelector('#scrub'); return s.value === s.max; }",
                           timeout=60000)
    assert page.eval_on_selector("#timeline", "t => t.scrollWidth <= t.clientWidth")   # fits the phone
    screenshot(page, "accounts-replay-phone-es")
    problems += no_english(page, "replay")
    page.goto(server.url + f"/players/{NAME}")
    page.wait_for_selector("#games-table")
    problems += no_english(page, "profile")
    page.goto(server.url + "/ratings/readysetbet")
    page.wait_for_selector("#board-table")
    problems += no_english(page, "leaderboard")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in-open")
    context.close()
    assert not problems + errors, "\n".join(problems + errors)


def test_a_passkey_added_signed_in_then_signs_in_on_a_desktop(server, browser, played):
    """Chromium's virtual authenticator stands for the device's (WebAuthn wants a host name, not an
    address: the page is opened at localhost)."""
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    page.goto(server.url.replace("127.0.0.1", "localhost") + "/")
    page.click("#sign-in-open")
    page.fill("#account-name", NAME)
    page.fill("#account-password", PASSWORD)
    page.click("#sign-in")
    page.click("#add-passkey")
    page.wait_for_selector("#account-said")
    assert "Passkey added" in page.inner_text("#account-said")
    page.click("#sign-out")
    page.click("#sign-in-open")
    page.click("#passkey-sign-in")   # no name, no password: the device's passkey
    page.wait_for_selector("#signed-in a.player-link")
    assert page.inner_text("#signed-in") == NAME
    screenshot(page, "accounts-passkey-desktop")
    # the lobby proposes the account's name for the first seat
    page.wait_for_selector(f".seat-row .seat-name[value='{NAME}'], .seat-row .seat-name", state="attached")
    page.wait_for_function(f"() => document.querySelector('.seat-row .seat-name').value === '{NAME}'")
    # one's own profile deletes the account: its name is gone, its games stay
    page.click("#signed-in a.player-link")
    page.wait_for_selector("#delete-panel:not([hidden])")
    page.fill("#delete-password", "not the password at all")
    page.click("#delete-account")
    page.wait_for_selector("#delete-error .error-box")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-account")
    page.wait_for_selector("#sign-in-open")   # back in the lobby, signed out
    assert get_status(server, f"/api/players/{NAME}") == 404
    seats = get(server, f"/api/tables/{played}/replay")["seats"]
    assert seats[0]["former"] is True and NAME not in json.dumps(seats)
    page.close()
    assert not errors, errors


def get_status(server, path):
    try:
        return urllib.request.urlopen(server.url + path, timeout=30).status
    except urllib.error.HTTPError as error:
        return error.code
