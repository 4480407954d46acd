// The race caller: a big track and big announcements for a table playing Ready Set Bet with the
// physical box (the program rolls; people bet at the table). It shows the two dice of each roll,
// the red-line crossings (bets close at the third), the leader and the commentary; optional voice
// through the browser's speech synthesis, kept within a roll of the dice (voice.js: stale
// commentary dropped, "No more bets!", the finish and red-line crossings said first).
//
// Only the host link (#host=TOKEN) shows the buttons: Start while the table waits, Pause/Resume,
// and Next race between races (the table's "status"); a spectator link shows none.
//
// The lines are the server's race caller's (the game view's "caller": {race, lines}), each a
// message {msgid, params} whose params may be messages themselves: the page translates them with
// its catalog, so every viewer hears the same commentary, each in their own language.
import { t, tn, render as renderMessage, languageSelector, speechTag } from "/static/i18n.js";
import { TableConnection, SavingBanner, fragmentParam, el, svg, qrButton } from "/static/net.js";
import { drawTrack, useDescription } from "/static/readysetbet.js";
import { gameDescription } from "/static/games.js";
import { PacedVoice } from "/static/voice.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const host = fragmentParam("host");
let languages = [];
let spokenUpTo = null;   // {race, count}: the caller's lines already heard
let state = null;
let crossingsToClose = 3;
let shownRoll = null;    // the roll the dice show ("race:index"), to tumble only new ones
let voice = null;        // the paced voice (voice.js), made with the game's description
const VOICE_KEY = "hippodrome.caller.voice";   // the Voice box, remembered

// The pips of each face on a 100 x 100 die.
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

function die(value) {
  return svg("svg", { class: "die", viewBox: "0 0 100 100", role: "img", "aria-label": String(value), dataset: { value } },
    svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16 }),
    ...PIPS[value].map(([cx, cy]) => svg("circle", { cx, cy, r: 9 })));
}

// A phone or a laptop calling the race keeps its screen on while a race runs (the Screen Wake
// Lock, where the browser has it), and lets it go when the race stops (paused, between races, over).
let wakeLock = null, wantAwake = false;
async function keepAwake(awake) {
  wantAwake = awake;
  if (!("wakeLock" in navigator)) return;
  try {
    if (awake && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
      document.body.dataset.awake = "yes";
    } else if (!awake && wakeLock) {
      const lock = wakeLock;
      wakeLock = null;
      await lock.release();
      document.body.dataset.awake = "no";
    }
  } catch (e) { /* not allowed now (a hidden page): asked again when the page shows */ }
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && wantAwake) keepAwake(true); });

// One roll's new lines (message JSON) to the voice, when the Voice box is ticked.
function speak(lines, newRace) {
  if (!$("voice").checked || !voice || !lines.length) return;
  voice.say(lines, speechTag(languages), newRace);
}

// The lines not heard yet: none of the backlog of a page just opened; all of a new race's.
function unheard(caller) {
  if (!spokenUpTo) return [];
  const from = spokenUpTo.race === caller.race ? spokenUpTo.count : 0;
  return caller.lines.slice(from);
}

function drawDice(view, lastMove, index) {
  const box = $("dice");
  const key = `${view.race_no}:${index}`;
  if (key !== shownRoll) {   // a new roll: new dice, which tumble (not on the first state a page gets)
    box.replaceChildren(...(lastMove && lastMove.dice ? lastMove.dice.map(die) : []));
    box.classList.toggle("fresh", shownRoll !== null);
    shownRoll = key;
  }
  $("roll").dataset.dice = lastMove && lastMove.dice ? lastMove.dice.join("+") : "";
  $("roll-sum").textContent = lastMove ? t("Rolled {sum}: horse {horse}", { sum: lastMove.sum, horse: lastMove.horse })
                                       : t("Waiting for the first roll");
}

// R2: a horse has crossed the red line on reaching space 10; bets close at the third crossing.
function drawRedLine(race) {
  const shown = Math.min(race.crossings, crossingsToClose);
  $("redline").dataset.crossings = String(race.crossings);
  $("redline-count").textContent = `${shown}/${crossingsToClose}`;
  $("redline-pips").replaceChildren(...Array.from({ length: crossingsToClose }, (_, i) => el("span", { class: i < shown ? "on" : "" })));
  const closed = race.crossings >= crossingsToClose;
  $("redline").classList.toggle("closed-now", closed);
  $("redline-closed").textContent = closed ? t("No more bets!") : "";
}

function drawLeader(race) {
  const positions = Object.values(race.positions);
  const best = Math.max(...positions);
  const leaders = Object.keys(race.positions).filter((horse) => race.positions[horse] === best);
  $("leader").dataset.horses = best > 0 ? leaders.join(",") : "";
  $("leader-label").textContent = race.finished ? t("Winner") : t("Leader");
  $("leader-horses").textContent = best > 0 ? tn("Horse {horses}", "Horses {horses}", leaders.length, { horses: leaders.join(", ") })
                                            : "–";
}

// The host's buttons: which ones the table's status calls for (the status comes from the server's
// table lifecycle; without it only Pause and Resume apply).
function drawControls(message) {
  $("host-controls").hidden = !host;
  if (!host) return;
  const status = message.status;
  const waiting = status === "waiting", between = status === "between_races";
  $("start").hidden = !waiting;
  $("next-race").hidden = !between;
  const running = !message.over && !waiting && !between;
  $("pause").hidden = $("resume").hidden = !running;
  $("pause").disabled = message.clock.paused;
  $("resume").disabled = !message.clock.paused;
}

// The race the caller's lines are about once it is run (its history entry: `placings`, its Win /
// Place / Show), until the next race's first roll: for both games, whose view may already hold the
// next race (Ready Set Bet's, once the VIP cards are chosen) while the lines still tell the last one.
function finishedRace(view, caller) {
  const history = view.history || [], last = history[history.length - 1];
  return last && last.placings && last.race === caller.race ? last : null;
}

function headlineOf(message, calls, finished) {
  const view = message.view;
  let headline = calls.length ? calls[calls.length - 1] : t("They're off: place your bets!");
  // a finished race: its Win / Place / Show (the box's caller adds the other bets that win after it)
  if (finished) headline = renderMessage(finished.placings);
  if (view.over) return t("The game is over.") + (calls.length ? " " + headline : "");
  if (message.status === "waiting") headline = t("Waiting for the host to start the races.");
  else if (finished) headline = t("Race {n} is over.", { n: finished.race }) + " " + headline;
  if (message.clock && message.clock.paused && view.phase === "race") headline = t("Paused") + " · " + headline;
  return headline;
}

function render(message, { fresh = true } = {}) {
  state = message;
  document.body.dataset.stateId = message.state_id;
  const view = message.view;
  document.body.dataset.phase = view.phase;
  document.body.dataset.status = message.status || "";
  $("race-no").textContent = t("Race {n} of {m}", { n: view.race_no, m: view.races });
  const log = view.race_log || [];
  const lastMove = [...log].reverse().find((e) => e.event === "move");
  const index = lastMove ? log.lastIndexOf(lastMove) : -1;
  const moveKey = `${view.race_no}:${index}`;
  drawTrack($("track"), view.race, lastMove, moveKey !== render.moveKey);
  render.moveKey = moveKey;
  drawDice(view, lastMove, index);
  drawRedLine(view.race);
  drawLeader(view.race);
  drawControls(message);
  keepAwake(view.phase === "race" && !view.over && (message.status || "playing") === "playing" && !(message.clock && message.clock.paused));
  const caller = view.caller || { race: view.race_no, lines: [] };
  const calls = caller.lines.map(renderMessage);
  const finished = finishedRace(view, caller);
  $("announce").textContent = headlineOf(message, calls, finished);
  // the races run so far (a table for the box keeps each race's Win / Place / Show)
  $("race-results").replaceChildren(...(view.history || []).filter((race) => race.placings).map((race) =>
    el("li", { dataset: { race: race.race } }, el("b", {}, t("Race {n}", { n: race.race })), " ", renderMessage(race.placings))));
  // a finished race: the other bets that win (colour bets, exotic finishes, props), said after
  // its Win / Place / Show, stay in view under the results until the next race starts
  const at = finished ? caller.lines.map((line) => line.msgid).lastIndexOf(finished.placings.msgid) : -1;
  $("settled").replaceChildren(...(at >= 0 ? caller.lines.slice(at + 1) : []).map((line) => el("li", {}, renderMessage(line))));
  const list = $("calls");
  list.innerHTML = "";
  for (const line of calls.slice(-12).reverse()) list.append(el("li", {}, line));
  if (!fresh) return;  // the same lines in another language: nothing new to say
  speak(unheard(caller), Boolean(spokenUpTo && spokenUpTo.race !== caller.race));
  spokenUpTo = { race: caller.race, count: caller.lines.length };
}

// installed as a web app, the caller keeps its static files (web/caller_sw.js)
function keepFiles() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/call/sw.js").catch(() => {});
}

async function start() {
  keepFiles();
  const saving = new SavingBanner(document.querySelector("main") || document.body);
  languages = await languageSelector($("lang"), () => {
    saving.rerender();
    if (state) render(state, { fresh: false });
  });
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) { $("announce").textContent = t("There is no table {id}.", { id: tableId }); return; }
  const summary = await response.json();
  const description = await gameDescription(summary.game);
  if (!description.caller) { $("announce").textContent = t("This table has no race caller."); return; }
  useDescription(description);
  voice = new PacedVoice(description.data.caller_pacing, { synth: window.speechSynthesis, Utterance: window.SpeechSynthesisUtterance });
  $("voice").checked = localStorage.getItem(VOICE_KEY) === "on";
  $("voice").addEventListener("change", () => {
    localStorage.setItem(VOICE_KEY, $("voice").checked ? "on" : "off");
    if (!$("voice").checked) voice.stop();
  });
  crossingsToClose = description.data.race.crossings_to_close_bets;
  const connection = new TableConnection(tableId, {
    host,
    onState: render,
    onSaving: (message) => saving.update(message),
    onError: (message) => {
      $("messages").innerHTML = "";
      $("messages").append(el("div", { class: "error-box", role: "alert" }, message.message));
    },
    onStatus: (status) => {
      const node = $("connection");
      node.className = `status-dot ${status}`;
      node.dataset.status = status;
      node.textContent = { online: t("online"), offline: t("reconnecting…"), connecting: t("connecting") }[status];
    },
  });
  // the host shows the spectators' link as a QR code: the other phones at the table open it with a camera
  if (host) $("host-controls").append(qrButton(location.origin + location.pathname, () => t("QR code of the spectators' link")));
  // full screen, where the browser allows it: the caller read across a room
  $("fullscreen").hidden = !document.fullscreenEnabled;
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  $("pause").addEventListener("click", () => connection.pause());
  $("resume").addEventListener("click", () => connection.resume());
  // the table lifecycle's messages: start a waiting table, open the gate between two races
  $("start").addEventListener("click", () => connection.send({ type: "start", host }));
  $("next-race").addEventListener("click", () => connection.send({ type: "next_race", host }));
}

start();
