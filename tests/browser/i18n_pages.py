"""What the five-language browser sweeps share: pages that record what they show in English, the
language sweep, and the scripts that play a seat from inside its page.

The pages' i18n.js keeps `missing`, the msgids a page asked t()/tn() for that the language's
catalog lacks (they show in English). A page opened in one language reads that set once it has
shown its screens (untranslated()). A page can also be *swept* (sweep(), swept()): shown in each
language in turn through its own language menu (the pages redraw everything on a switch),
`missing` read and cleared after each one, so that one played-out table is checked in every
language instead of being played once per language. Between two sweeps a page files what it
draws under the language it draws it in, and an autoplaying or watching page sweeps itself each
time it shows a kind of screen it has not been swept on (window.__screen), so that no screen of
the table goes unseen in any language.

A page also records each msgid it looks up in a language's catalog (the catalogs it loads are
read through a proxy): a TurfMaster seat sweeps itself whenever the page has shown words not yet
shown in every language (__sweepNew), before its seat acts, so one race or meeting is checked in
every language; a word that passed before any sweep could show it everywhere (a bot's move, a
note between two answers of the server) is looked up in the other languages' catalogs
(swept(..., every_msgid=True)). What a page writes once, in the language of the moment (the
server's answer to a refused message, a passing note of the lobby's form), is done again in
each language (in_every_language()); what a page shows while the server has not answered yet is
swept with its messages held back (__sweepHolding).
"""

import json

from tests.browser.conftest import screenshot

LANGUAGES = ["es", "fr", "nl", "de"]
SHOT_LANGUAGES = {"fr", "nl"}
READ_MISSING = 'async () => [...(await import("/static/i18n.js")).missing].sort()'
#: upper bound of one language switch (catalog loaded, page redrawn): it only matters on failure
SWITCH_TIMEOUT_MS = 60000

# Installed in every page of a context of new_context(), before the page's own scripts. It keeps every
# WebSocket the page opens, the codes of the errors it was sent and the newest state; counts the
# page's fetches until their JSON is read; and gives the page
#   __sweep(languages, what[, action]): show the page in each language in turn (and there do
#       `action`: for a message a page writes once, in the language of the moment) and file what
#       it showed in English under that language (sweeps queue up: one at a time);
#   __sweepScreen(what): the same in every language, when the page shows a kind of screen it has
#       not been swept on;
#   __watchScreens(): __sweepScreen() whenever the page shows a new kind of screen;
#   __sweepNew(what): the same when the page looked up a msgid not yet looked up in every
#       language, or shows a `what` not yet swept; __unsweptLacking(): such msgids, with the
#       languages whose catalog lacks them;
#   __sweepHolding(what, action): action(), then a sweep with the page's messages held back;
#   __i18n: {missing: {lang: [msgid]}, shown: {what: [lang]}, asked: {lang: {msgid: true}},
#       screens, error, sweeps, sweepMs}.
SWEEPING = """
(() => {
  const LANGUAGES = window.__languages = __LANGUAGES__;
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__errors = [];
  window.__state = null;
  window.__updating = Promise.resolve();
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
      this.send = (data) => { if (window.__held) window.__held.push(() => super.send(data)); else super.send(data); };
      this.addEventListener("message", (event) => {
        let m;
        try { m = JSON.parse(event.data); } catch (e) { return; }
        if (m.type === "error") window.__errors.push(m.code);
        // whole states and patches (for a page that asks for them), taken in the order they came
        if (m.type === "state" || m.type === "patch") window.__updating = window.__updating.then(async () => {
          if (m.type === "state") { window.__state = m; return; }
          const { applyPatch } = await import("/static/net.js");
          window.__state = applyPatch(window.__state, m.ops);
        });
      });
    }
  };
  // a fetch is done when its JSON has been read and the code awaiting it has run
  window.__fetching = 0;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (...args) => {
    window.__fetching++;
    let finished = false;
    const done = () => { if (!finished) { finished = true; setTimeout(() => { window.__fetching--; }, 0); } };
    return nativeFetch(...args).then((response) => {
      if (!response.ok) { done(); return response; }
      const json = response.json.bind(response);
      const catalog = /[/]i18n[/]([a-z_-]+)[.]json/.exec(String((args[0] && args[0].url) || args[0]));
      response.json = () => json().then((data) => (catalog ? recording(data, catalog[1]) : data)).finally(done);
      setTimeout(done, 5000);   // a body nobody reads
      return response;
    }, (error) => { done(); throw error; });
  };

  const report = window.__i18n = { missing: {}, shown: {}, screens: [], sweeps: 0, error: null, asked: {}, asks: {}, sweepMs: 0 };
  // A catalog the page loads is read through a proxy: each msgid the page looks up there is
  // filed under the catalog's language (asked: {lang: {msgid: true}}) and counted (asks).
  const catalogs = {};
  const recording = (data, lang) => {
    if (!data || typeof data.messages !== "object") return data;
    const asked = report.asked[lang] || (report.asked[lang] = {});
    catalogs[lang] = data.messages;
    const messages = new Proxy(data.messages, {
      get(target, msgid, receiver) {
        if (typeof msgid === "string") { asked[msgid] = true; report.asks[msgid] = (report.asks[msgid] || 0) + 1; }
        return Reflect.get(target, msgid, receiver);
      },
    });
    return { ...data, messages };
  };
  // What the page drew in English is filed under the language whose catalog it read: the one
  // <html lang> names. i18n.js sets <html lang> once a new catalog is in (its `lang` changes
  // before, as it asks for the catalog), so whatever was drawn until then is filed under the
  // language it names still, just before it changes.
  let i18n = null;
  const file = (lang) => {
    if (!i18n || !lang) return;
    const list = report.missing[lang] || (report.missing[lang] = []);
    for (const msgid of i18n.missing) if (!list.includes(msgid)) list.push(msgid);
    i18n.missing.clear();
  };
  const langProperty = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "lang");
  Object.defineProperty(HTMLElement.prototype, "lang", {
    configurable: true, enumerable: langProperty.enumerable,
    get() { return langProperty.get.call(this); },
    set(value) {
      if (this === document.documentElement) file(langProperty.get.call(this));
      langProperty.set.call(this, value);
    },
  });
  const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const frame = () => new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 100); });
  async function until(test, what) {
    const end = Date.now() + __SWITCH_TIMEOUT_MS__;
    while (!test()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await later(10);
    }
  }
  async function sweepNow(languages, what, action) {
    i18n = i18n || await import("/static/i18n.js");
    await until(() => document.querySelector("#lang option"), "the language menu");
    file(document.documentElement.lang);
    // Each sweep starts in the language the page rests in (it drew all it shows in it since it came
    // to it: no redraw needed there) and ends in the one before it, where the page rests until the
    // next sweep: one language switch fewer a sweep, and the pages still rest in every language in turn.
    const resting = languages.indexOf(i18n.lang);
    const first = resting >= 0 ? resting : report.sweeps;
    report.sweeps++;
    const start = Date.now();
    for (let k = 0; k < languages.length; k++) {
      const lang = languages[(first + k) % languages.length];
      if (i18n.lang !== lang) {
        const select = document.querySelector("#lang");
        select.value = lang;
        select.dispatchEvent(new Event("change"));
      }
      await until(() => document.documentElement.lang === lang && i18n.lang === lang && window.__fetching === 0,
                  `the page in ${lang}`);
      await frame();
      if (action) { action(); await frame(); }
      file(document.documentElement.lang);
      const shown = report.shown[what] || (report.shown[what] = []);
      if (!shown.includes(lang)) shown.push(lang);
    }
    report.sweepMs += Date.now() - start;
  }
  let queue = Promise.resolve();
  window.__sweep = (languages, what, action) => {
    const run = queue.then(() => sweepNow(languages, what, action));
    queue = run.catch((error) => { report.error = String(error); });
    return run;
  };
  // a kind of screen: the game's phase and race, whether bets are closed, the race finished, the
  // game over, the clock paused, the decision asked (of this seat or another), the races
  // settled, the kinds of events of the race so far, and whether an error is on screen
  // (null until the page has drawn the newest state it was sent: it draws a burst's newest state
  // at the next frame, and a screen is swept as drawn, under the kind of screen the page shows)
  window.__screen = () => {
    const m = window.__state;
    if (!m || !m.view) return null;
    const app = document.querySelector("#app");
    if (String(m.state_id) !== ((app && app.dataset.stateId) || document.body.dataset.stateId)) return null;
    const v = m.view, d = m.decision || {}, race = v.race || {};
    const events = [...new Set((v.race_log || v.events || []).map((e) => e.event))].sort();
    return JSON.stringify([v.phase, v.race_no, !!race.bets_closed, !!race.finished, !!(v.over || m.over),
                           !!(m.clock && m.clock.paused), m.status || null, d.kind || d.chance || null, d.seat === m.seat,
                           (v.history || v.results || []).length, events,
                           !!document.querySelector("#messages .error-box, .error-box")]);
  };
  window.__sweepScreen = async (what = "screen") => {
    const screen = window.__screen();
    if (screen === null || report.screens.includes(screen)) return false;
    report.screens.push(screen);
    await window.__sweep(LANGUAGES, what);
    return true;
  };
  // the msgids the page looked up in some language's catalog but not in every language's
  window.__unswept = () => {
    const all = new Set(LANGUAGES.flatMap((lang) => Object.keys(report.asked[lang] || {})));
    return [...all].filter((msgid) => LANGUAGES.some((lang) => !(report.asked[lang] || {})[msgid])).sort();
  };
  // ... each with the languages it was looked up in, and those of the others whose catalog lacks
  // it or holds it in another form (a text where the others hold plural forms, or the reverse)
  window.__unsweptLacking = () => {
    const form = (lang, msgid) => {
      const entry = catalogs[lang] ? catalogs[lang][msgid] : undefined;
      return typeof entry === "string" ? "text" : Array.isArray(entry) ? "plural" : null;
    };
    return window.__unswept().map((msgid) => {
      const asked = LANGUAGES.filter((lang) => (report.asked[lang] || {})[msgid]);
      const forms = new Set(asked.map((lang) => form(lang, msgid)).filter(Boolean));
      const lacking = LANGUAGES.filter((lang) => !asked.includes(lang)
                                       && !(catalogs[lang] && forms.size === 1 && forms.has(form(lang, msgid))));
      return { msgid, asked, lacking };
    });
  };
  // __sweep(LANGUAGES, what) when the page has looked up a msgid that is not swept yet (asked
  // again since the last such sweep), or shows a `what` not yet swept: any new words on screen
  // are shown in every language
  let sweptAsks = {};
  window.__sweepNew = async (what = "screen") => {
    const fresh = window.__unswept().filter((msgid) => report.asks[msgid] !== sweptAsks[msgid]);
    if (!fresh.length && LANGUAGES.every((lang) => (report.shown[what] || []).includes(lang))) return false;
    const before = { ...report.asks };   // words that came up during the sweep: swept again
    await window.__sweep(LANGUAGES, what);
    sweptAsks = before;
    return true;
  };
  // __sweepHolding(what, action): action() with the page's messages to the server held back
  // while the page is swept (what it shows until the server answers), then sent
  window.__held = null;
  window.__sweepHolding = async (what, action) => {
    window.__held = [];
    try {
      action();
      await window.__sweep(LANGUAGES, what);
    } finally {
      const held = window.__held;
      window.__held = null;
      for (const send of held) send();
    }
  };
  window.__watchScreens = () => {
    if (window.__watching) return;
    let busy = false;
    window.__watching = setInterval(async () => {
      if (busy) return;
      busy = true;
      try { await window.__sweepScreen(); } catch (e) { report.error = String(e); } finally { busy = false; }
    }, 30);
  };
})();
""".replace("__LANGUAGES__", json.dumps(LANGUAGES)).replace("__SWITCH_TIMEOUT_MS__", str(SWITCH_TIMEOUT_MS))

# TurfMaster: take every decision of this seat by clicking the page's own buttons and squares
# (its highest card that moves the horse, then a lit square; or the first option: claim the
# bonus, give up the cards proposed, a die...),
# and press Next race between races. Whenever the page has shown words it has not been swept on
# (__sweepNew: a msgid not yet looked up in every language), or a kind of decision not swept yet,
# it is swept through the languages first: every screen is shown in every language before the
# seat acts on it. `auto.clicked` counts the clicks by kind; the timed branches only retry a
# click that got lost.
TURFMASTER_AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { clicked: {}, paused: false, busy: false };
  let actedOn = null, actedAt = 0, cardOn = null, cardAt = 0;
  const click = (node, what) => {
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    auto.clicked[what] = (auto.clicked[what] || 0) + 1;
  };
  const step = async () => {
    if (auto.paused) return;
    const next = document.querySelector("#lifecycle[data-status=between_races] .lifecycle-mine:not([disabled]):not([hidden])");   // between races: ready for the next one
    const turn = document.querySelector("#turn");
    const mine = turn && turn.dataset.mine === "yes";
    const fall = mine && document.querySelector("#confirm-fall:not([data-clicked])");
    const square = mine && document.querySelector(".reach-layer polygon");
    const anyway = mine && document.querySelector("#play-anyway");
    const option = mine && document.querySelector("#decision button.option:not(.square-option)");
    // the highest card that moves the horse (it finishes with cards left: a hand to cut before the next race)
    const card = mine && ([...document.querySelectorAll(".card.playable:not(.over-limit)")].pop() || document.querySelector(".card.playable"));
    const decision = (window.__state && window.__state.decision) || {};
    const kind = next ? "between_races" : fall ? "confirm-fall" : square ? (decision.kind === "square" ? "square" : "card chosen")
      : anyway ? "anyway" : option ? option.dataset.type : card ? "card" : turn && turn.dataset.over === "yes" ? "over" : "screen";
    if (await window.__sweepNew(kind)) return;
    if (next) { click(next, "next_race"); return; }
    if (!mine) return;
    const state = document.querySelector("#app").dataset.stateId;
    // a square where the horse falls (T11) asks first: say yes, once
    if (fall) { fall.dataset.clicked = "yes"; click(fall, "confirm-fall"); return; }
    if (actedOn === state && Date.now() - actedAt < 2000) return;   // the move is on its way
    const act = (node, what) => { click(node, what); actedOn = state; actedAt = Date.now(); };
    if (square) act(square, "square");
    else if (anyway) act(anyway, "anyway");
    else if (option && option.dataset.type === "keep") {   // the cards to give up, sent one by one
      await window.__sweepHolding("giving up", () => act(option, "keep"));
    } else if (option) act(option, option.dataset.type);
    else if (card && (cardOn !== state || Date.now() - cardAt > 1500)) {   // its squares light up
      click(card, "card"); cardOn = state; cardAt = Date.now();
    }
  };
  setInterval(async () => {
    if (auto.busy) return;
    auto.busy = true;
    try { await step(); } catch (e) { window.__i18n.error = String(e); } finally { auto.busy = false; }
  }, 30);
}"""


def stop_autoplay(page):
    """The seat's script stops, once done with the step it is in (and the sweep it may be making:
    the page is not being drawn anew under the test's reads)."""
    page.evaluate("""async () => {
      window.__auto.paused = true;
      while (window.__auto.busy) await new Promise((resolve) => setTimeout(resolve, 20));
    }""")


# Ready Set Bet: keep the first VIP card, answer the House's questions, place the House's tokens
# (once on a space that already holds one: the page refuses that itself), and bet now and then.
# Each new kind of screen is swept through the languages before the seat acts on it: a decision
# is shown in every language before it is taken (auto.clicked counts the clicks by kind).
READYSETBET_AUTOPLAY = """() => {
  if (window.__auto) return;
  const auto = window.__auto = { clicked: {}, paused: false, houseRefused: false };
  let actedOn = null, actedAt = 0, betAt = 0, busy = false;
  const click = (node, what) => {
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    auto.clicked[what] = (auto.clicked[what] || 0) + 1;
  };
  const pick = (nodes) => nodes[Math.floor(Math.random() * nodes.length)];
  const step = async () => {
    const turn = document.querySelector("#turn");
    if (auto.paused || !turn || turn.dataset.over === "yes") return;
    const houseTokens = document.querySelector("#house-tokens");
    const option = document.querySelector("#decision button.option");
    // between races (its own choices made first), the results on screen: then ready for the next race
    const next = document.querySelector("#lifecycle[data-status=between_races] .lifecycle-mine:not([disabled]):not([hidden])");
    const kind = option ? option.dataset.type : houseTokens ? "house_token" : next ? "between_races" : "screen";
    if (await window.__sweepScreen(kind)) return;
    const state = document.querySelector("#app").dataset.stateId;
    if (houseTokens || option) {
      if (actedOn === state && Date.now() - actedAt < 2000) return;
      actedOn = state; actedAt = Date.now();
      if (option) { click(option, option.dataset.type); return; }
      const spaces = [...document.querySelectorAll("#board .space:not(.closed)")];
      const held = spaces.filter((s) => s.querySelector(".chip.house"));
      if (held.length && !auto.houseRefused) {
        auto.houseRefused = true;
        // the page's own refusal, written in the language of the click: made in every language
        await window.__sweep(window.__languages, "house-refused", () => click(held[0], "house-refused"));
        actedOn = null;
        return;
      }
      const free = spaces.filter((s) => !s.querySelector(".chip"));
      if (free.length) click(pick(free), "house_token");
      return;
    }
    if (next) { click(next, "next_race"); return; }
    const token = document.querySelector("#tokens .token:not([disabled])");
    if (token && Date.now() - betAt > 400) {
      const free = [...document.querySelectorAll("#board .space:not(.closed):not(.taken):not(.mine)")];
      if (free.length) { click(pick(free), "bet"); betAt = Date.now(); }
    }
  };
  setInterval(async () => {
    if (busy) return;
    busy = true;
    try { await step(); } catch (e) { window.__i18n.error = String(e); } finally { busy = false; }
  }, 40);
}"""


def new_context(browser, lang):
    """A browser context whose pages ask for `lang`, each with SWEEPING installed."""
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale=lang,
                                  extra_http_headers={"Accept-Language": lang})
    context.add_init_script(SWEEPING)
    return context


def untranslated(page, lang, what):
    """The problems of a page opened in `lang`: its language, and the msgids it showed in English."""
    problems = []
    shown = page.evaluate("() => document.documentElement.lang")
    if shown != lang:
        problems.append(f"{what} [{lang}]: <html lang={shown!r}>, not {lang!r}")
    missing = page.evaluate(READ_MISSING)
    if missing:
        problems.append(f"{what} [{lang}]: no translation for " + ", ".join(map(repr, missing)))
    return problems


def sweep(page, what, shots=None):
    """Show the page in every language, through its language menu, and file what it shows in
    English under each; `shots`: a screenshot name for the languages of SHOT_LANGUAGES."""
    if not shots:
        page.evaluate("([languages, what]) => window.__sweep(languages, what)", [LANGUAGES, what])
        return
    for lang in LANGUAGES:
        page.evaluate("([languages, what]) => window.__sweep(languages, what)", [[lang], what])
        if lang in SHOT_LANGUAGES:
            screenshot(page, shots.format(lang=lang))


def swept(page, what, kinds=("end",), every_msgid=False):
    """The problems of a swept page, once it is swept a last time: the msgids it showed in
    English in each language, a language it was never shown in, a screen of `kinds` not shown in
    every language, or a sweep that failed; with `every_msgid`, also the msgids it looked up in
    some languages only (words that passed before a sweep could show them in every language) that
    the other languages' catalogs lack."""
    sweep(page, "end")
    report = page.evaluate("() => window.__i18n")
    problems = [f"{what} [{lang}]: no translation for " + ", ".join(map(repr, sorted(msgids)))
                for lang, msgids in sorted(report["missing"].items()) if msgids]
    if every_msgid:
        for word in page.evaluate("() => window.__unsweptLacking()"):
            if word["lacking"]:
                problems.append(f"{what} {word['lacking']}: no translation for {word['msgid']!r}"
                                f" (on screen in {word['asked']} only)")
    if report["error"]:
        problems.append(f"{what}: a language sweep failed: {report['error']}")
    for kind in kinds:
        if sorted(report["shown"].get(kind, [])) != sorted(LANGUAGES):
            problems.append(f"{what}: {kind!r} was shown in {report['shown'].get(kind, [])}, not in {LANGUAGES}")
    return problems


def in_every_language(page, what, act):
    """act() done in every language in turn, for what a page writes once, in the language of the
    moment (an answer of the server, a note that passes)."""
    for lang in LANGUAGES:
        page.evaluate("([languages, what]) => window.__sweep(languages, what)", [[lang], what])
        act()


def refuse_in_every_language(page, what, refusals):
    """Each of `refusals` ((message, code), see refuse()) refused in every language in turn."""
    in_every_language(page, what, lambda: [refuse(page, message, code) for message, code in refusals])


def open_lobby_in_every_language(context, server, lang, problems):
    """The lobby, opened in `lang` (the context's: it speaks the browser's language first), then
    shown in every language on the form it opens on, TurfMaster's, with the open tables."""
    lobby = open_lobby(context, server, "turfmaster")
    problems += untranslated(lobby, lang, "lobby")
    sweep(lobby, "opened")
    return lobby


def open_lobby(context, server, game):
    return choose_game(start_lobby(context, server), game)


def start_lobby(context, server):
    """A new page of the lobby, on its way (choose_game() waits for it): several lobbies load at once."""
    page = context.new_page()
    page.goto(server.url + "/", wait_until="commit")
    return page


def choose_game(page, game):
    """The lobby's form for `game`, once the lobby offers it."""
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    return page


def create_in_lobby(page, link_selector):
    page.click("#create-button")
    page.wait_for_selector(link_selector)
    page.wait_for_selector("#tables td")  # the open tables, listed in the language too
    return page.get_attribute(link_selector, "href")


def open_page(context, url, ready):
    """A page of a context of new_context(), once it shows `ready` and its WebSocket is online."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_function("() => window.__sockets.some((s) => s.readyState === 1)"
                           " && document.querySelector('#connection').dataset.status === 'online'")
    return page


def press_ready(page):
    """A table just made in the lobby waits for its people: the seat's page presses Ready (its
    seat is the table's one person, so the game starts)."""
    page.wait_for_selector("#lifecycle[data-status=waiting] .lifecycle-mine:not([hidden])")
    page.click("#lifecycle .lifecycle-mine")
    page.wait_for_function("() => document.body.dataset.tableStatus !== 'waiting'")


def refuse(page, message, code):
    """Send `message` on the page's own WebSocket; the server refuses it with `code`, and the page
    shows its answer in the error box."""
    before = page.evaluate("() => window.__errors.length")
    page.evaluate("(m) => window.__sockets.filter((s) => s.readyState === 1).pop()"
                  ".send(JSON.stringify({ v: 1, ...m }))", message)
    page.wait_for_function(f"() => window.__errors.length > {before}", timeout=30000)
    assert page.evaluate(f"() => window.__errors[{before}]") == code, message
    page.wait_for_selector("#messages .error-box")


def state_id(page):
    return int(page.get_attribute("#app", "data-state-id"))


def wait_all_over(pages, timeout_s=300):
    """Until every page says its game is over; the bound only matters when a game is stuck."""
    for page in pages:
        page.wait_for_function("() => (document.querySelector('#turn') || {dataset: {}}).dataset.over === 'yes'",
                               timeout=timeout_s * 1000)
