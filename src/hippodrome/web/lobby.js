import { t, render, languageSelector, seatName } from "/static/i18n.js";
import { el } from "/static/net.js";

const HORSES = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"];
const TM_HORSES_PER_PLAYER = { 2: [2, 3, 4], 3: [2], 4: [1, 2], 5: [1], 6: [1], 7: [1], 8: [1] };
let info = { games: [], courses: [], variants: [] };

const GAME_TITLES = () => ({
  "turfmaster": t("TurfMaster: a meeting of three races"),
  "turfmaster-race": t("TurfMaster: a single race"),
  "readysetbet": t("Ready Set Bet"),
});

const $ = (id) => document.getElementById(id);

function field(label, input) { return el("label", {}, el("span", {}, label), input); }
function numberInput(id, value, min, max, step = 1) {
  return el("input", { id, type: "number", value, min, max, step, style: "width:5rem" });
}
function selectInput(id, values, labels = {}, chosen) {
  return el("select", { id }, values.map((v) => el("option", { value: v, selected: v === chosen }, labels[v] || String(v))));
}

// What the form's inputs hold now (id -> value), so that redrawing it in another language keeps them.
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

function renderGameOptions(keep = false) {
  const game = $("game").value;
  const box = $("game-options");
  const values = keep ? formValues(box) : {};
  box.innerHTML = "";
  if (game.startsWith("turfmaster")) {
    box.append(field(t("Course"), selectInput("course", info.courses, { oval: t("Oval"), triangle: t("Triangle") })));
    box.append(field(t("Steeplechase"), el("input", { id: "steeplechase", type: "checkbox" })));
    box.append(field(t("Players"), numberInput("players", 2, game === "turfmaster" ? 2 : 1, 8)));
    if (game === "turfmaster") box.append(field(t("Horses per player"), el("select", { id: "horses-per-player" })));
  } else if (game === "readysetbet") {
    box.append(field(t("Players"), numberInput("players", 2, 2, 8)));
    box.append(field(t("Variant"), selectInput("variant", info.variants, {
      standard: t("Standard"), app: t("App: the program runs the race"), house_bets: t("House bets"),
      rotating_house: t("Rotating House") })));
    box.append(field(t("Races"), numberInput("races", 4, 1, 4)));
    box.append(field(t("Prop bets"), el("input", { id: "props", type: "checkbox", checked: true })));
    box.append(field(t("Exotic finishes"), el("input", { id: "exotics", type: "checkbox", checked: true })));
    box.append(field(t("VIP cards"), el("input", { id: "vip", type: "checkbox", checked: true })));
    box.append(field(t("Seconds between rolls"), numberInput("pace", 2, 0.5, 30, 0.5)));
  }
  restoreValues(box, values);
  for (const input of box.querySelectorAll("input, select")) input.addEventListener("change", renderSeats);
  renderSeats();
}

function seatCount() {
  const game = $("game").value;
  const players = Number(($("players") || {}).value || 2);
  if (game === "readysetbet" && ($("variant") || {}).value === "house_bets") return players + 1;
  return players;
}

function renderSeats() {
  const game = $("game").value;
  const hpp = $("horses-per-player");
  if (hpp) {
    const allowed = TM_HORSES_PER_PLAYER[Number($("players").value)] || [1];
    const old = Number(hpp.value);
    hpp.innerHTML = "";
    for (const n of allowed) hpp.append(el("option", { value: n, selected: n === old }, String(n)));
  }
  const box = $("seats");
  const levels = (info.games.find((g) => g.name === game) || { bots: ["random"] }).bots;
  const count = seatCount();
  const house = game === "readysetbet" && ($("variant") || {}).value === "house_bets";
  // keep the rows people have filled in (a re-render would lose what is being typed)
  let rows = [...box.querySelectorAll(".seat-row")];
  while (rows.length > count) rows.pop().remove();
  for (let i = rows.length; i < count; i++) {
    const row = el("div", { class: "row seat-row", dataset: { seat: i } },
      el("span", { class: "muted seat-label" }),
      el("input", { class: "seat-name", maxlength: 40 }),
      selectInput(`kind-${i}`, ["person", "bot"], {}, i === 0 ? "person" : "bot"),
      el("select", { id: `level-${i}`, class: "seat-level" }));
    const kind = row.querySelector(`#kind-${i}`);
    kind.classList.add("seat-kind");
    kind.addEventListener("change", () => { row.querySelector(".seat-level").hidden = kind.value !== "bot"; });
    box.append(row);
  }
  rows = [...box.querySelectorAll(".seat-row")];
  rows.forEach((row, i) => {
    row.querySelector(".seat-label").textContent = house && i === count - 1 ? t("House") : t("Seat {n}", { n: i + 1 });
    labelSeat(row, i);
    const level = row.querySelector(".seat-level");
    const chosen = level.value;
    const labels = { random: t("Random bot"), tactical: t("Tactical bot"), value: t("Value bettor") };
    level.innerHTML = "";
    for (const name of levels) level.append(el("option", { value: name }, labels[name] || name));
    level.value = levels.includes(chosen) ? chosen : levels[levels.length - 1];
    level.hidden = row.querySelector(".seat-kind").value !== "bot";
  });
}

// The texts of a seat row in the current language; a name still as proposed follows the language.
function labelSeat(row, i) {
  const name = row.querySelector(".seat-name");
  const proposed = i === 0 ? t("Player") : t("Bot {n}", { n: i });
  if (!name.value || name.value === name.dataset.proposed) name.value = proposed;
  name.dataset.proposed = proposed;
  name.setAttribute("aria-label", t("Name"));
  const kind = row.querySelector(".seat-kind");
  kind.setAttribute("aria-label", t("Person or bot"));
  for (const option of kind.options) option.textContent = option.value === "bot" ? t("Bot") : t("Person");
  row.querySelector(".seat-level").setAttribute("aria-label", t("Bot level"));
}

function requestBody() {
  const game = $("game").value;
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => ({
    name: row.querySelector(".seat-name").value.trim(), kind: row.querySelector(".seat-kind").value,
    level: row.querySelector(".seat-level").value }));
  const players = Number($("players").value);
  let setup = {};
  let body = { game, seats };
  if (game === "turfmaster") {
    setup = { players, horses_per_player: Number($("horses-per-player").value), course: $("course").value,
              steeplechase: $("steeplechase").checked, names: seats.map((s, i) => s.name || t("Seat {n}", { n: i + 1 })) };
  } else if (game === "turfmaster-race") {
    setup = { course: $("course").value, steeplechase: $("steeplechase").checked,
              horses: seats.map((s, i) => ({ id: HORSES[i], owner: i })), seats: seats.length };
  } else if (game === "readysetbet") {
    setup = { players, variant: $("variant").value, races: Number($("races").value), props: $("props").checked,
              exotics: $("exotics").checked, vip: $("vip").checked };
    body.pace = Number($("pace").value);
  }
  body.setup = setup;
  return body;
}

let lastError = null;   // the server's refusal, kept to redraw it in another language

function showError() {
  $("create-error").innerHTML = "";
  if (!lastError) return;
  const text = lastError.message_i18n ? render(lastError.message_i18n) : String(lastError.detail || lastError.statusText);
  $("create-error").append(el("div", { class: "error-box", role: "alert" }, text));
}

async function createTable(event) {
  event.preventDefault();
  lastError = null;
  showError();
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                                body: JSON.stringify(requestBody()) });
  const data = await response.json();
  if (!response.ok) {
    lastError = { ...data, statusText: response.statusText };
    showError();
    return;
  }
  showCreated(data);
  refreshTables();
}

let lastCreated = null;

function showCreated(data) {
  lastCreated = data;
  const box = $("created");
  box.hidden = false;
  box.innerHTML = "";
  const absolute = (path) => location.origin + path;
  box.append(el("h2", {}, t("Table {id} is ready", { id: data.id })));
  box.append(el("p", { class: "muted" }, t("Send each person their own link: it is their seat, and nobody else can play it.")));
  const list = el("div", { class: "links" });
  for (const seat of data.seats) {
    list.append(el("div", { class: "link-row" },
      el("b", {}, seatName(data.seats, seat.seat)), " ", el("span", { class: "muted" }, seat.kind === "bot" ? t("Bot") : t("Person")),
      seat.link ? el("div", {}, el("code", {}, absolute(seat.link))) : null,
      seat.link ? el("div", { class: "row" },
        el("a", { class: "button primary play-link", href: seat.link, dataset: { seat: seat.seat } }, t("Play this seat")),
        el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(absolute(seat.link)) }, t("Copy link"))) : null));
  }
  box.append(list);
  box.append(el("p", {}, t("Watch as a spectator:"), " ", el("a", { href: data.spectator_link, class: "spectate-link" }, absolute(data.spectator_link))));
  if (data.game === "readysetbet") {
    box.append(el("p", {}, t("Race caller (keep this link: it can pause the race):"), " ",
      el("a", { href: data.host_link, class: "caller-link" }, t("Open the race caller"))));
  }
  try { localStorage.setItem(`hippodrome.table.${data.id}`, JSON.stringify(data)); } catch (e) { /* private mode */ }
}

async function refreshTables() {
  const response = await fetch("/api/tables");
  const { tables } = await response.json();
  const box = $("tables");
  box.innerHTML = "";
  const open = tables.filter((table) => !table.over);
  if (!open.length) { box.append(el("p", { class: "muted" }, t("No table is open. Create one above."))); return; }
  const titles = GAME_TITLES();
  const list = el("table", { class: "data" }, el("tr", {}, el("th", {}, t("Table")), el("th", {}, t("Game")), el("th", {}, t("Seats")), el("th", {})));
  for (const table of open) {
    list.append(el("tr", {},
      el("td", {}, table.id),
      el("td", {}, titles[table.game] || table.game),
      el("td", {}, table.seats.map((s) => `${seatName(table.seats, s.seat)}${s.kind === "bot" ? " 🤖" : s.connected ? " ●" : ""}`).join(", ")),
      el("td", {}, el("a", { href: `/play/${table.id}` }, t("Watch")))));
  }
  box.append(list);
}

async function start() {
  await languageSelector($("lang"), () => { fillGames(true); refreshTables(); showError(); if (lastCreated) showCreated(lastCreated); });
  info = await (await fetch("/api/games")).json();
  fillGames();
  $("game").addEventListener("change", () => renderGameOptions());
  $("create-form").addEventListener("submit", createTable);
  refreshTables();
  setInterval(refreshTables, 5000);
}

function fillGames(keep = false) {
  const select = $("game");
  const chosen = select.value || "turfmaster";
  const titles = GAME_TITLES();
  select.innerHTML = "";
  for (const name of ["turfmaster", "readysetbet", "turfmaster-race"]) {
    if (info.games.some((g) => g.name === name)) select.append(el("option", { value: name, selected: name === chosen }, titles[name]));
  }
  renderGameOptions(keep);
}

start();
