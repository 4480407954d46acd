// A table's page: connects as the seat of the link (#seat=TOKEN) or as a spectator, and hands
// every state to the game's own page module. Switching the language re-renders everything.
import { t, render, languageSelector, seatName, useSeats, words, lang } from "/static/i18n.js";
import { TableConnection, SavingBanner, fragmentParam, el } from "/static/net.js";
import { gameDescription } from "/static/games.js";
import { LifecyclePanel } from "/static/lifecycle.js";
import { ruleLink } from "/static/rule_link.js";
import { keepSeat } from "/static/account.js";
import { Again } from "/static/again.js";
import { ReviewOffer } from "/static/review_offer.js";
import { playerLinks } from "/static/players_view.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const token = fragmentParam("seat");
const host = fragmentParam("host");   // the host link (#seat=..&host=..): may start the game and call the next race
const $ = (id) => document.getElementById(id);
let shownMessage = null;   // the error on screen: {text: () => string, kind, rule}
let description = null;   // the game's description: its rules page's anchors, for the "Rule" link
let status = "connecting";
let lastState = null;
let gamePage = null;      // the game's page module's Page: its subtitle (Ready Set Bet's variant) joins the heading

// A message read as a sentence: its first letter a capital, in the page's language. The engines'
// refusals start in lower case ("betting is closed: ..."), as they are also said inside other
// sentences; a first word in quotes ('act') names a field and stays as it is, a number stays first.
// (Dutch capitalises the pair "ij" together: "IJ".)
function asSentence(text) {
  return String(text).replace(/^([\s¡¿«“„]*)(ij|\p{Ll})/u, (all, lead, first) =>
    lead + (first === "ij" && lang !== "nl" ? "Ij" : first.toLocaleUpperCase(lang)));
}

function drawMessage() {
  const box = $("messages");
  box.innerHTML = "";
  if (shownMessage) {
    box.append(el("div", { class: "error-box", role: "alert", dataset: { kind: shownMessage.kind } }, asSentence(shownMessage.text()),
                  shownMessage.rule ? " " : null, ruleLink(description, shownMessage.rule)));
  }
}

// text: a function giving the message in the current language (so a language switch redraws it);
// rule: the ruling it comes from ("T4"), shown as a link to the rules page's paragraph
function showMessage(text, kind = "error", rule = null) {
  const message = text ? { text: typeof text === "function" ? text : () => text, kind, rule } : null;
  shownMessage = message;
  drawMessage();
  if (message) setTimeout(() => { if (shownMessage === message) { shownMessage = null; drawMessage(); } }, kind === "stale" ? 3000 : 8000);
}

function errorText(message) {
  if (message.code === "stale") return () => t("The game moved on before your move arrived; look again and choose.");
  return message.message_i18n ? () => render(message.message_i18n) : () => message.message;
}

function drawHeader() {
  document.title = `${t("Table {id}", { id: tableId })} · hippodrome`;
  // the heading names the game played, in words (the table's id stays in the link and the tab's title)
  const subtitle = gamePage && gamePage.subtitle ? gamePage.subtitle(lastState) : "";
  $("table-title").textContent = description ? words(description.title) + (subtitle ? ` · ${subtitle}` : "") : t("Table {id}", { id: tableId });
  if (lastState) $("who").textContent = lastState.seat === null ? t("watching") : t("you are {name}", { name: seatName(lastState.seats, lastState.seat) });
  const node = $("connection");
  node.className = `status-dot ${status}`;
  node.textContent = { online: t("online"), offline: t("reconnecting…"), connecting: t("connecting") }[status];
  node.dataset.status = status;
}

// The table's players, each linked to its profile (people with an account, bots by their level),
// shown where someone at the table has an account.
class PlayersLine {
  constructor(root, table, kept) {
    this.root = root;
    this.players = null;
    this.games = null;   // the table's game's description (its bots' words)
    kept.then(() => fetch(`/api/tables/${encodeURIComponent(table)}/players`)).then((r) => (r.ok ? r.json() : null))
      .then((answer) => { this.players = answer && answer.players; this.render(); }).catch(() => {});
  }

  setGame(description) { this.games = [description]; this.render(); }

  render() {
    const linked = this.games && this.players && this.players.some((p) => p.account);   // someone with a profile
    this.root.hidden = !linked;
    if (!linked) return;
    this.root.innerHTML = "";
    this.root.append(t("Players:"), " ", ...playerLinks(this.games, this.players));
  }
}

async function start() {
  // a signed-in player's seats follow it (docs/accounts.md)
  const kept = token ? keepSeat(tableId, token).catch(() => {}) : Promise.resolve();
  let page = null;
  let connection = null;
  let lifecycle = null;
  let tutorial = null;   // the guided first game's panel, loaded when a view carries a tutorial step
  const again = new Again($("again"), tableId, { token, host });
  const reviewOffer = new ReviewOffer($("review-offer"), tableId);
  const players = new PlayersLine($("players-line"), tableId, kept);
  const saving = new SavingBanner(document.querySelector("main"));
  await languageSelector($("lang"), () => {
    drawHeader();
    saving.rerender();
    drawMessage();
    if (lifecycle) lifecycle.rerender();
    if (tutorial) tutorial.rerender();
    again.rerender();
    reviewOffer.rerender();
    players.render();
    if (page) page.rerender();
    if (connection) connection.setLanguage();
  });
  drawHeader();
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) { showMessage(() => t("There is no table {id}.", { id: tableId })); return; }
  const summary = await response.json();
  // a table without seats is watched elsewhere (the race caller's page for the box's races)
  if (summary.watch && summary.watch !== location.pathname) { location.replace(summary.watch + location.hash); return; }
  description = await gameDescription(summary.game);
  players.setGame(description);
  reviewOffer.setGame(description);
  drawHeader();
  if (description.rules) {
    $("rules-link").href = `/rules/${encodeURIComponent(description.name)}`;
    $("rules-link").hidden = false;
  }
  const module = await import(`/static/${description.page}.js`);
  const showTutorial = async (step) => {
    if (step && !tutorial) {
      const { TutorialPanel } = await import("/static/tutorial.js");
      tutorial = tutorial || new TutorialPanel($("tutorial"), description);
    }
    if (tutorial) tutorial.update(step);
  };
  // A state is drawn at the screen's next frame, and of the states that came meanwhile only the
  // newest: bots' moves come in bursts (an eight-horse meeting sends two of three states within
  // 16 ms of the one before), and a page that drew each one would spend its processor on screens
  // no one could see. The timer draws it where frames are held back (a page in the background).
  let queued = null;
  const showState = (message) => {
    const step = (state) => state && state.view && state.view.tutorial && state.view.tutorial.key;
    // a guided game's hint belongs to its step: the next step clears it
    if (shownMessage && step(lastState) && step(message) !== step(lastState)) showMessage(null);
    lastState = message;
    useSeats(message.seats);   // the server's messages name seats as {seat: n}
    drawHeader();
    lifecycle.update(message);
    showTutorial(message.view && message.view.tutorial);
    again.update(message);
    reviewOffer.update(message);
    page.update(message);
  };
  const drawQueued = () => {
    if (queued === null) return;
    const message = queued;
    queued = null;
    showState(message);
  };
  const drawSoon = (message) => {
    const waiting = queued !== null;
    queued = message;
    if (!waiting) { requestAnimationFrame(drawQueued); setTimeout(drawQueued, 100); }
  };
  page = gamePage = new module.Page($("app"), summary, description);
  if (page.playAgain) { again.ownButton = true; page.onPlayAgain = () => again.request(); }
  connection = new TableConnection(tableId, {
    token,
    host,
    onState: (message) => drawSoon(message),
    onError: (message) => {
      showMessage(errorText(message), message.code === "stale" ? "stale" : "error", message.rule);
      if (page.onError) page.onError(message);
    },
    onPreview: (message) => page.onPreview && page.onPreview(message),
    onWhy: (message) => page.onWhy && page.onWhy(message),
    onSaving: (message) => saving.update(message),
    onStatus: (now) => { status = now; drawHeader(); if (page.onStatus) page.onStatus(now); },
  });
  lifecycle = new LifecyclePanel($("lifecycle"), connection, { host });
  page.connection = connection;
  page.showMessage = showMessage;
}

start();
