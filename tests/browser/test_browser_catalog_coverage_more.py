"""More screens with no English on them: a whole TurfMaster meeting of eight horses (bonus cards
claimed, cards given up between races, the meeting table and the final table), Ready Set Bet with
VIP cards and both House variants, the spectator's view, and the error boxes of refused messages.

As in test_browser_catalog_coverage.py, each page's i18n.js keeps `missing` (msgids the language's
catalog lacks) for as long as the page lives. Here the seats play themselves: a small script in
the page clicks whatever the seat is asked (as a person would, through the page's own buttons),
so the languages' tables run side by side on one server without a round trip per move. The
refused messages go through the page's own WebSocket (caught by an init script), so the page
draws the server's answer in its error box exactly as it draws a refused click.
"""

import time

import pytest

from tests.browser.conftest import Server, create, free_port
from tests.browser.test_browser_catalog_coverage import LANGUAGES, new_context, open_lobby, untranslated

pytestmark = pytest.mark.browser

# every WebSocket the page opens, and the codes of the errors it was sent
CATCH_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__errors = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
      this.addEventListener("message", (event) => {
        try { const m = JSON.parse(event.data); if (m.type === "error") window.__errors.push(m.code); } catch (e) { /* not JSON */ }
      });
    }
  };
})();
"""

# TurfMaster: take every decision of this seat by clicking the page's own buttons and squares
# (a card, then a lit square; or the first option: claim the bonus, give up a card, a die...)
TURFMASTER_AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { clicked: {}, paused: false };
  let actedOn = null, actedAt = 0, cardOn = null, cardAt = 0;
  const click = (node, what) => {
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    auto.clicked[what] = (auto.clicked[what] || 0) + 1;
  };
  setInterval(() => {
    const turn = document.querySelector("#turn");
    if (auto.paused || !turn || turn.dataset.mine !== "yes") return;
    const state = document.querySelector("#app").dataset.stateId;
    // a square where the horse falls (T11) asks first: say yes, once
    const fall = document.querySelector("#confirm-fall:not([data-clicked])");
    if (fall) { fall.dataset.clicked = "yes"; click(fall, "confirm-fall"); return; }
    if (actedOn === state && Date.now() - actedAt < 2000) return;   // the move is on its way
    const act = (node, what) => { click(node, what); actedOn = state; actedAt = Date.now(); };
    const square = document.querySelector(".reach-layer polygon");
    const anyway = document.querySelector("#play-anyway");
    const option = document.querySelector("#decision button.option:not(.square-option)");
    const card = document.querySelector(".card.playable");
    if (square) act(square, "square");
    else if (anyway) act(anyway, "anyway");
    else if (option) act(option, option.dataset.type);
    else if (card && (cardOn !== state || Date.now() - cardAt > 1500)) {   // its squares light up
      click(card, "card"); cardOn = state; cardAt = Date.now();
    }
  }, 30);
}"""

# Ready Set Bet: keep the first VIP card, answer the House's questions, place the House's tokens
# (once on a space that already holds one: the page refuses that itself), and bet now and then
READYSETBET_AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { clicked: {}, paused: false, houseRefused: false };
  let actedOn = null, actedAt = 0, betAt = 0;
  const click = (node, what) => {
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    auto.clicked[what] = (auto.clicked[what] || 0) + 1;
  };
  const pick = (nodes) => nodes[Math.floor(Math.random() * nodes.length)];
  setInterval(() => {
    const turn = document.querySelector("#turn");
    if (auto.paused || !turn || turn.dataset.over === "yes") return;
    const state = document.querySelector("#app").dataset.stateId;
    const houseTokens = document.querySelector("#house-tokens");
    const option = document.querySelector("#decision button.option");
    if (houseTokens || option) {
      if (actedOn === state && Date.now() - actedAt < 2000) return;
      actedOn = state; actedAt = Date.now();
      if (option) { click(option, option.dataset.type); return; }
      const spaces = [...document.querySelectorAll("#board .space:not([disabled])")];
      const held = spaces.filter((s) => s.querySelector(".chip.house"));
      if (held.length && !auto.houseRefused) { auto.houseRefused = true; click(held[0], "house-refused"); actedOn = null; return; }
      const free = spaces.filter((s) => !s.querySelector(".chip"));
      if (free.length) click(pick(free), "house_token");
      return;
    }
    const token = document.querySelector("#tokens .token:not([disabled])");
    if (token && Date.now() - betAt > 400) {
      const free = [...document.querySelectorAll("#board .space:not([disabled]):not(.taken):not(.mine)")];
      if (free.length) { click(pick(free), "bet"); betAt = Date.now(); }
    }
  }, 40);
}"""


@pytest.fixture
def fast_server(tmp_path):
    """Bots that hardly wait: three races of eight horses, four languages at once."""
    server = Server(tmp_path / "coverage.sqlite3", free_port(), bot_delay=0.005).start()
    yield server
    server.stop()


def catching_context(browser, lang):
    context = new_context(browser, lang)
    context.add_init_script(CATCH_SOCKETS)
    return context


def open_page(context, url, ready):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_function("() => window.__sockets.some((s) => s.readyState === 1)"
                           " && document.querySelector('#connection').dataset.status === 'online'")
    return page


def refuse(page, message, code):
    """Send `message` on the page's own WebSocket; the server refuses it with `code`, and the page
    shows its answer in the error box."""
    before = page.evaluate("() => window.__errors.length")
    page.evaluate("(m) => window.__sockets.filter((s) => s.readyState === 1).pop()"
                  ".send(JSON.stringify({ v: 1, ...m }))", message)
    page.wait_for_function(f"() => window.__errors.length > {before}", timeout=5000)
    assert page.evaluate(f"() => window.__errors[{before}]") == code, message
    page.wait_for_selector("#messages .error-box")


def state_id(page):
    return int(page.get_attribute("#app", "data-state-id"))


def wait_all_over(pages, seconds):
    deadline = time.time() + seconds
    for what, page in pages:
        left = max(0.1, deadline - time.time())
        page.wait_for_function("() => (document.querySelector('#turn') || {dataset: {}}).dataset.over === 'yes'",
                               timeout=left * 1000)


def test_a_meeting_of_eight_horses_its_spectator_and_refused_moves_show_no_english(fast_server, browser):
    server = fast_server
    problems, seats, tables, contexts = [], {}, {}, {}
    for lang in LANGUAGES:
        contexts[lang] = context = catching_context(browser, lang)
        # the lobby's meeting form, eight players (one horse each)
        lobby = open_lobby(context, server, "turfmaster")
        lobby.fill("#players", "8")
        lobby.dispatch_event("#players", "change")
        lobby.wait_for_function("() => document.querySelectorAll('.seat-row').length === 8")
        problems += untranslated(lobby, lang, "lobby (TurfMaster meeting, 8 players)")
        lobby.close()
        # one seat of ours, seven bots: all eight horses (the page names them t("Red") ... t("Purple"))
        tables[lang] = table = create(server, {
            "game": "turfmaster", "setup": {"players": 8, "horses_per_player": 1, "steeplechase": True},
            "seats": [{"name": "Ana"}] + [{"name": f"Bot{n}", "kind": "bot", "level": "random"} for n in range(1, 8)]})
        seats[lang] = page = open_page(context, server.url + table["seats"][0]["link"], "#hands .hand")
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === 'yes'", timeout=15000)
        # refused messages, each answered in the error box: a move too late, one that is not an
        # option, a preview of something that is not a card, an unknown message, another version
        now = state_id(page)
        refuse(page, {"type": "act", "state_id": now - 1, "action": {"type": "card", "card": "1"}}, "stale")
        refuse(page, {"type": "act", "state_id": now, "action": {"type": "card", "card": "99"}}, "illegal")
        refuse(page, {"type": "preview", "action": {"type": "square", "lane": 0, "square": 0}}, "illegal")
        refuse(page, {"type": "shout"}, "bad_message")
        refuse(page, {"type": "act", "v": 2}, "bad_version")
    for page in seats.values():   # the meetings run side by side from here
        page.evaluate(TURFMASTER_AUTOPLAY)
    wait_all_over(list(seats.items()), 45)
    discards = {}
    for lang, page in seats.items():
        clicked = page.evaluate("() => window.__auto.clicked")
        discards[lang] = clicked.get("keep", 0)   # the keep-cards screen confirmed (T8)
        # the meeting's own decisions were on screen: the bonus cards (T8), and (below) a hand cut to its limit
        assert clicked.get("claim_bonus"), (lang, clicked)
        page.wait_for_selector("#meeting-table tr >> nth=8")   # the final table: a row per player
        horses = set(page.eval_on_selector_all("#horses tr[data-horse]", "rows => rows.map(r => r.dataset.horse)"))
        assert len(horses) == 8, horses
        problems += untranslated(page, lang, "TurfMaster meeting (seat)")
        # a spectator: hands hidden, the final table; and it may not play
        spectator = open_page(contexts[lang], server.url + tables[lang]["spectator_link"], "#meeting-table tr")
        refuse(spectator, {"type": "act", "state_id": state_id(spectator), "action": {"type": "card", "card": "1"}}, "forbidden")
        refuse(spectator, {"type": "preview", "action": {"type": "card", "card": "1"}}, "forbidden")
        problems += untranslated(spectator, lang, "TurfMaster meeting (spectator)")
    for context in contexts.values():
        context.close()
    assert any(discards.values()), f"no hand was cut to its limit between races: {discards}"
    assert not problems, "\n".join(problems)


def test_ready_set_bet_vip_cards_and_the_house_show_no_english(fast_server, browser):
    server = fast_server
    problems, pages, spectators, contexts = [], [], {}, {}
    for lang in LANGUAGES:
        contexts[lang] = context = catching_context(browser, lang)
        # the lobby's House bets form: the House's seat row
        lobby = open_lobby(context, server, "readysetbet")
        lobby.select_option("#variant", "house_bets")
        lobby.wait_for_function("() => document.querySelectorAll('.seat-row').length === 3")
        problems += untranslated(lobby, lang, "lobby (Ready Set Bet, House bets)")
        lobby.close()
        # the rotating House, two races: both seats ours, so whoever holds the House places its
        # tokens and is asked to stay; after race 1 the players keep one of two VIP cards
        rotating = create(server, {"game": "readysetbet",
                                   "setup": {"players": 2, "variant": "rotating_house", "races": 2, "vip": True},
                                   "seats": [{"name": "Ana"}, {"name": "Bo"}], "pace": 0.05})
        spectators[lang] = rotating["spectator_link"]
        # House bets: our seat is the House (a seat of its own), two bots bet
        house = create(server, {"game": "readysetbet",
                                "setup": {"players": 2, "variant": "house_bets", "races": 1, "vip": True},
                                "seats": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"},
                                          {"name": "House"}], "pace": 0.05})
        pages += [(lang, f"rotating House, seat {n}", open_page(context, server.url + rotating["seats"][n]["link"], "#board .space"))
                  for n in range(2)]
        pages.append((lang, "House bets, the House", open_page(context, server.url + house["seats"][2]["link"], "#board .space")))
        # refused: a bet with a token that does not exist
        seat = pages[-3][2]
        refuse(seat, {"type": "act", "state_id": state_id(seat), "action": {"type": "bet", "token": "nope", "space": "win:7:R"}}, "illegal")
    for _, _, page in pages:   # the tables run side by side from here
        page.evaluate(READYSETBET_AUTOPLAY)
    wait_all_over([(what, page) for _, what, page in pages], 45)
    clicked = {}
    for lang, what, page in pages:
        page.wait_for_selector("#standings tr")
        for kind, n in page.evaluate("() => window.__auto.clicked").items():
            clicked.setdefault(lang, {}).setdefault(kind, 0)
            clicked[lang][kind] += n
        problems += untranslated(page, lang, f"Ready Set Bet ({what})")
    for lang, link in spectators.items():
        # a spectator of the rotating House's table: no tokens, the standings; it may neither bet nor pause
        spectator = open_page(contexts[lang], server.url + link, "#standings tr")
        refuse(spectator, {"type": "act", "state_id": state_id(spectator), "action": {"type": "bet", "token": "2", "space": "win:7:R"}}, "forbidden")
        refuse(spectator, {"type": "pause"}, "forbidden")
        problems += untranslated(spectator, lang, "Ready Set Bet (spectator)")
    for context in contexts.values():
        context.close()
    for lang, kinds in clicked.items():
        # on screen: the House's tokens (and the page's own refusal), a VIP card kept, a House question
        assert kinds.get("house_token") and kinds.get("house-refused"), (lang, kinds)
        assert kinds.get("vip") and kinds.get("house"), (lang, kinds)
    assert not problems, "\n".join(problems)
