// The lobby: a form built from the games' descriptions (GET /api/games), the seats the server says
// a setup makes (POST /api/games/{name}/check), the links of a new table, and the open tables.
// No game, limit, colour or rule is written here: they all come from the descriptions.
import { t, colon, render, languageSelector, seatName, words } from "/static/i18n.js";
import { el, createTable, tableLinks } from "/static/net.js";
import { loadGames } from "/static/games.js";
import { AccountBox, me } from "/static/account.js";
import { refreshFinished, refreshMine } from "/static/lobby_life.js";

let games = [];
let accountName = null;   // the signed-in person's name (null: a guest)
let plan = { seats: null, fields: {}, error: null };   // the server's answer for the current values
let asked = 0;                                        // answers to older questions are ignored
let checking = Promise.resolve();                     // the question in flight

const $ = (id) => document.getElementById(id);
const inputId = (key) => key.replace(/_/g, "-");
const current = () => games.find((game) => game.name === $("game").value);

function field(entry, input) {
  const label = el("label", { dataset: { key: entry.key } }, el("span", {}, words(entry.label)), input);
  if (entry.help) label.title = words(entry.help);
  return label;
}

function inputFor(entry) {
  const id = inputId(entry.key);
  if (entry.kind === "boolean") return el("input", { id, type: "checkbox", checked: Boolean(entry.default) });
  if (entry.kind === "choice") {
    return el("select", { id }, entry.choices.map((choice) =>
      el("option", { value: String(choice.value), selected: choice.value === entry.default }, words(choice.label))));
  }
  const step = entry.kind === "integer" ? 1 : "any";
  return el("input", { id, type: "number", value: entry.default, min: entry.minimum, max: entry.maximum, step,
                       style: "width:5rem" });
}

// The value of a field's input, typed as the setup wants it.
function valueOf(entry) {
  const input = $(inputId(entry.key));
  if (!input) return undefined;
  if (entry.kind === "boolean") return input.checked;
  if (entry.kind === "choice") {
    const choice = entry.choices.find((c) => String(c.value) === input.value);
    return choice ? choice.value : undefined;
  }
  return input.value === "" ? undefined : Number(input.value);
}

// What the form's inputs hold now (id -> value), so that redrawing it keeps them.
function formValues(box) {
  const values = {};
  for (const input of box.querySelectorAll("input, select")) values[input.id] = input.type === "checkbox" ? input.checked : input.value;
  return values;
}

function restoreValues(box, values) {
  for (const input of box.querySelectorAll("input, select")) {
    if (!(input.id in values)) continue;
    if (input.type === "checkbox") input.checked = values[input.id]; else input.value = values[input.id];
  }
}

function askable(game) { return game.setup.filter((entry) => entry.kind !== "seat_names"); }

// The links to the rules page and the puzzles of the game chosen (the description names them).
function showRulesLink(game) {
  for (const [id, page, offered] of [["rules-link", "rules", game.rules], ["puzzles-link", "puzzles", game.puzzles]]) {
    const link = $(id);
    link.hidden = !offered;
    link.href = offered ? `/${page}/${encodeURIComponent(game.name)}` : "";
  }
}

// The guided first game that teaches a game (its description's tutorial_of names it), if any.
const tutorialOf = (game) => games.find((other) => other.tutorial_of === game.name);

function showPlayNow(game) {
  const button = $("play-now");
  button.hidden = !(game.bots.length && game.seats.max > 1);   // bots to play against
}

function showLearnButton(game) {
  const tutorial = tutorialOf(game);
  const button = $("learn-button");
  button.hidden = !tutorial;
  button.title = tutorial ? words(tutorial.summary) : "";
}

// The name the person gave the first seat (its row's name field), else "Player" in the language.
function personName() {
  const input = document.querySelector(".seat-row .seat-name");
  return (input && input.value.trim()) || t("Player");
}

// "Learn to play": a table of the game's tutorial, one person seat named as the person named the
// first seat, started at once; then its page.
async function learnToPlay() {
  const tutorial = tutorialOf(current());
  if (!tutorial) return;
  lastError = null;
  showError();
  const { ok, data, statusText } = await createTable({ game: tutorial.name, setup: {},
                                                       seats: [{ name: personName(), kind: "person" }] });
  if (!ok) {
    lastError = { ...data, statusText };
    showError();
    return;
  }
  location.assign(data.play_host_link);
}

function renderGameOptions(keep = false) {
  const game = current();
  showRulesLink(game);
  showLearnButton(game);
  showPlayNow(game);
  $("game-summary").textContent = words(game.summary);
  $("seats-heading").hidden = game.seats.max === 0;   // a game without seats (the box's races)
  const box = $("game-options");
  const values = keep ? formValues(box) : {};
  box.innerHTML = "";
  for (const entry of [...askable(game), ...game.table_options]) box.append(field(entry, inputFor(entry)));
  restoreValues(box, values);
  for (const input of box.querySelectorAll("input, select")) input.addEventListener("change", checkSetup);
  applyPlan();
  checkSetup();
}

function setupValues(game) {
  const setup = {};
  for (const entry of askable(game)) {
    const value = valueOf(entry);
    if (value !== undefined) setup[entry.key] = value;
  }
  return setup;
}

// Ask the server what the values chosen so far make: the seats, the fields' limits, or the refusal.
function checkSetup() {
  const game = current();
  const question = ++asked;
  checking = (async () => {
    const response = await fetch(`/api/games/${encodeURIComponent(game.name)}/check`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ setup: setupValues(game) }) });
    const answer = await response.json();
    if (question !== asked || !response.ok) return;
    plan = answer;
    applyPlan();
  })();
  return checking;
}

// Wait until the server has answered for the values on screen (the seat rows then match them).
async function settled() {
  let seen;
  do { seen = asked; await checking; } while (seen !== asked);
}

// The server's adjustments: a field's allowed choices, or a field that does not apply.
function applyPlan() {
  const game = current();
  for (const entry of askable(game)) {
    const input = $(inputId(entry.key));
    const adjust = plan.fields[entry.key] || {};
    if (!input) continue;
    input.closest("label").hidden = Boolean(adjust.hidden);
    if (adjust.hidden && "value" in adjust && entry.kind === "boolean") input.checked = adjust.value;
    if (entry.kind === "integer" || entry.kind === "number") {
      input.min = adjust.minimum ?? entry.minimum ?? "";
      input.max = adjust.maximum ?? entry.maximum ?? "";
    }
    if (entry.kind === "choice") {   // the choices the other values allow (all, unless the server says)
      const allowed = (adjust.choices || entry.choices.map((choice) => choice.value)).map(String);
      const old = input.value;
      for (const option of input.options) option.hidden = option.disabled = !allowed.includes(option.value);
      if (!allowed.includes(old)) {
        input.value = allowed[0];
        checkSetup();
      }
    }
  }
  $("setup-problem").textContent = plan.error ? render(plan.error.message_i18n) || plan.error.message : "";
  renderSeats();
}

function renderSeats() {
  const game = current();
  const box = $("seats");
  if (!plan.seats) return;   // a refused setup keeps the rows people have filled in
  const count = plan.seats.length;
  let rows = [...box.querySelectorAll(".seat-row")];
  while (rows.length > count) rows.pop().remove();
  for (let i = rows.length; i < count; i++) {
    const kind = el("select", { id: `kind-${i}`, class: "seat-kind" },
      el("option", { value: "person", selected: i === 0 }), el("option", { value: "bot", selected: i !== 0 }));
    const row = el("div", { class: "row seat-row", dataset: { seat: i } },
      el("span", { class: "muted seat-label" }),
      el("input", { class: "seat-name", maxlength: 40 }),
      kind,
      el("select", { id: `level-${i}`, class: "seat-level" }));
    // a seat's proposed name follows its kind: a bot's "Bot 1" becomes "Player 2" as a person
    kind.addEventListener("change", () => { labelSeat(row, i); showLevel(row); });
    box.append(row);
  }
  rows = [...box.querySelectorAll(".seat-row")];
  rows.forEach((row, i) => {
    const role = plan.seats[i].role;
    row.querySelector(".seat-label").textContent = role ? words(role) : t("Player {n}", { n: i + 1 });
    labelSeat(row, i);
    const level = row.querySelector(".seat-level");
    const chosen = level.value;
    level.innerHTML = "";
    for (const bot of game.bots) level.append(el("option", { value: bot.name, title: words(bot.about) }, words(bot.title)));
    const names = game.bots.map((bot) => bot.name);
    level.value = names.includes(chosen) ? chosen : names[names.length - 1];
    showLevel(row);
  });
  // one word on each bot level, under the seats
  $("bot-levels").replaceChildren(...game.bots.map((bot) =>
    el("li", {}, el("b", {}, words(bot.title)), colon(), words(bot.about))));
}

function showLevel(row) {
  row.querySelector(".seat-level").hidden = row.querySelector(".seat-kind").value !== "bot";
}

// The name proposed for seat i: a person is "Player" (the first seat) or "Player 3", a bot "Bot 2".
function proposedName(i, kind) {
  if (kind === "bot") return t("Bot {n}", { n: i });
  if (i === 0 && accountName) return accountName;   // signed in: the first seat is yours
  return i === 0 ? t("Player") : t("Player {n}", { n: i + 1 });
}

// The texts of a seat row in the current language; a name still as proposed follows the language
// and the seat's kind.
function labelSeat(row, i) {
  const name = row.querySelector(".seat-name");
  const proposed = proposedName(i, row.querySelector(".seat-kind").value);
  if (!name.value || name.value === name.dataset.proposed) name.value = proposed;
  name.dataset.proposed = proposed;
  name.setAttribute("aria-label", t("Name"));
  const kind = row.querySelector(".seat-kind");
  kind.setAttribute("aria-label", t("Person or bot"));
  for (const option of kind.options) option.textContent = option.value === "bot" ? t("Bot") : t("Person");
  row.querySelector(".seat-level").setAttribute("aria-label", t("Bot level"));
}

function requestBody() {
  const game = current();
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => ({
    name: row.querySelector(".seat-name").value.trim(), kind: row.querySelector(".seat-kind").value,
    level: row.querySelector(".seat-level").value }));
  const setup = setupValues(game);
  for (const entry of game.setup) {
    if (entry.kind === "seat_names") setup[entry.key] = seats.map((s, i) => s.name || t("Player {n}", { n: i + 1 }));
  }
  const body = { game: game.name, seats, setup };
  for (const entry of game.table_options) {
    const value = valueOf(entry);
    if (value !== undefined) body[entry.key] = value;
  }
  return body;
}

let lastError = null;   // the server's refusal, kept to redraw it in another language

function showError() {
  $("create-error").innerHTML = "";
  if (!lastError) return;
  const text = lastError.message_i18n ? render(lastError.message_i18n) : String(lastError.detail || lastError.statusText);
  $("create-error").append(el("div", { class: "error-box", role: "alert" }, text));
}

async function submitTable(event) {
  event.preventDefault();
  lastError = null;
  showError();
  await settled();
  const body = requestBody();
  const { ok, data, statusText } = await createTable(body);
  if (!ok) {
    lastError = { ...data, statusText };
    showError();
    return;
  }
  rememberLevel(body);
  showCreated(data);
  refreshTables();
}

// The bot level "Play now" gives its bots: the strongest one the player chose for a table of this
// game the last time, else the game's strongest (its last level).
const LEVEL_STORE = (game) => `hippodrome.lobby.level.${game}`;
function rememberLevel(body) {
  const names = current().bots.map((bot) => bot.name);
  const levels = body.seats.filter((s) => s.kind === "bot").map((s) => names.indexOf(s.level)).filter((i) => i >= 0);
  if (!levels.length) return;
  try { localStorage.setItem(LEVEL_STORE(body.game), names[Math.max(...levels)]); } catch (e) { /* private mode */ }
}
function playNowLevel(game) {
  let level = null;
  try { level = localStorage.getItem(LEVEL_STORE(game.name)); } catch (e) { /* private mode */ }
  const names = game.bots.map((bot) => bot.name);
  return names.includes(level) ? level : names[names.length - 1];
}

// "Play now": the game chosen, with the options on screen (the defaults unless changed), the person
// in the first seat and bots in the others; the table starts at once (its page says Ready for the
// person: #ready=now) and the page goes to it.
async function playNow() {
  const game = current();
  lastError = null;
  showError();
  $("play-now").disabled = true;
  try {
    await settled();
    const body = requestBody();
    const level = playNowLevel(game);
    body.seats = body.seats.map((seat, i) => (i === 0 ? { name: seat.kind === "person" ? seat.name || t("Player") : personName(), kind: "person" }
                                                       : { name: proposedName(i, "bot"), kind: "bot", level }));
    for (const entry of game.setup) {
      if (entry.kind === "seat_names") body.setup[entry.key] = body.seats.map((s) => s.name);
    }
    const { ok, data, statusText } = await createTable(body);
    if (!ok) {
      lastError = { ...data, statusText };
      showError();
      return;
    }
    location.assign(`${data.play_host_link}&ready=now`);
  } finally {
    $("play-now").disabled = false;
  }
}

let lastCreated = null;

function showCreated(data) {
  lastCreated = data;
  const box = $("created");
  box.hidden = false;
  box.innerHTML = "";
  box.append(tableLinks(data));
}

function gameTitle(name) {
  const game = games.find((g) => g.name === name);
  return game ? words(game.title) : name;
}

// A table's lifecycle status (docs/protocol.md, "Lifecycle") in words.
function statusWords(status) {
  return { waiting: t("waiting for its players"), playing: t("playing"), between_races: t("between races"),
           over: t("over") }[status] || "";
}

// The open tables, newest first, a page of the listing at a time (GET /api/tables, docs/protocol.md):
// "More tables" shows one page more; every refresh reads again the pages shown. A guided first game
// is one person's lesson, not a table to join: the listing leaves them out (tutorials=exclude), as
// its status filter leaves out damaged and finished tables.
const OPEN = "waiting,playing,between_races";
const PAGE = 20;
let pagesShown = 1;

async function openTables() {
  const tables = [];
  let after = null;
  let more = false;
  for (let n = 0; n < pagesShown; n++) {
    const query = new URLSearchParams({ status: OPEN, tutorials: "exclude", limit: PAGE, ...(after ? { after } : {}) });
    const response = await fetch(`/api/tables?${query}`);
    const page = await response.json();
    tables.push(...page.tables);
    after = page.next;
    more = Boolean(after);
    if (!more) break;
  }
  return { tables, more };
}

async function refreshTables() {
  const { tables: open, more } = await openTables();
  const box = $("tables");
  box.innerHTML = "";
  if (!open.length) { box.append(el("p", { class: "muted" }, t("No table is open. Create one above."))); return; }
  const list = el("table", { class: "data" }, el("tr", {}, el("th", {}, t("Table")), el("th", {}, t("Game")), el("th", {}, t("Status")), el("th", {}, t("Seats")), el("th", {})));
  for (const table of open) {
    list.append(el("tr", {},
      el("td", {}, table.id),
      el("td", {}, gameTitle(table.game)),
      el("td", { class: "table-status", dataset: { status: table.status, saving: table.saving || "ok" } },
         table.saving === "failing" ? t("paused: saving failed, retrying") : statusWords(table.status)),
      el("td", { class: "seats" }, table.seats.map((s, i) => el("span", { class: "seat", dataset: { seat: s.seat, kind: s.kind } },
        seatName(table.seats, s.seat),
        // a bot in words, a person here as a dot drawn by the page (no emoji: not every device has the font)
        s.kind === "bot" ? el("span", { class: "seat-bot" }, t("bot"))
          : s.connected ? el("span", { class: "seat-here", role: "img", title: t("connected"), "aria-label": t("connected") }) : null,
        i < table.seats.length - 1 ? ", " : ""))),
      el("td", {}, el("a", { href: table.watch || `/play/${table.id}` }, t("Watch")))));
  }
  box.append(el("div", { class: "open-tables" }, list));   // a narrow phone scrolls the list, never the page
  if (more) {
    box.append(el("p", {}, el("button", { type: "button", class: "more-tables",
      onclick: () => { pagesShown += 1; refreshTables(); } }, t("More tables"))));
  }
}

function fillGames(keep = false) {
  const select = $("game");
  const chosen = select.value;
  select.innerHTML = "";
  for (const game of games.filter((g) => g.lobby && !g.tutorial_of)) {   // a tutorial is offered by its game
    select.append(el("option", { value: game.name, selected: game.name === chosen, title: words(game.summary) }, words(game.title)));
  }
  renderGameOptions(keep);
}

function refreshLife() {
  refreshFinished(games);
  refreshMine(games);
  me().then((who) => {
    if (who.name === accountName) return;
    accountName = who.name;
    document.querySelectorAll(".seat-row").forEach((row, i) => labelSeat(row, i));
  });
}

async function start() {
  let account = null;   // made once the catalog is loaded: it draws words
  await languageSelector($("lang"), () => {
    fillGames(true); refreshTables(); showError(); if (lastCreated) showCreated(lastCreated); if (account) account.rerender(); refreshLife();
  });
  account = new AccountBox($("account"), refreshLife);
  games = await loadGames();
  fillGames();
  // a game chosen while the form settles counts too (the list is on screen from here)
  $("game").addEventListener("change", () => { plan = { seats: null, fields: {}, error: null }; renderGameOptions(); });
  await settled();   // the seats the setup makes are on screen: the form is ready
  $("create-form").removeAttribute("aria-busy");
  $("loading").hidden = true;
  $("create-button").disabled = false;
  $("play-now").disabled = false;
  $("create-form").addEventListener("submit", submitTable);
  $("learn-button").addEventListener("click", learnToPlay);
  $("learn-button").disabled = false;   // (shown with the games, pressed only once it answers)
  $("play-now").addEventListener("click", playNow);
  refreshTables();
  refreshLife();
  setInterval(refreshTables, 5000);
  setInterval(refreshLife, 15000);
}

start();
