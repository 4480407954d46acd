// The race caller: a big track and big announcements for a table playing Ready Set Bet with the
// physical box (the program rolls; people bet at the table). Optional voice through the
// browser's speech synthesis; pause and resume with the host link (#host=TOKEN).
//
// The lines are the server's race caller's (the game view's "caller": {race, lines}), each a
// message {msgid, params} whose params may be messages themselves: the page translates them with
// its catalog, so every viewer hears the same commentary, each in their own language.
import { t, render as renderMessage, languageSelector, speechTag } from "/static/i18n.js";
import { TableConnection, fragmentParam, el } from "/static/net.js";
import { drawTrack, useDescription } from "/static/readysetbet.js";
import { gameDescription } from "/static/games.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
let languages = [];
let spokenUpTo = null;   // {race, count}: the caller's lines already heard
let state = null;

function speak(text) {
  if (!$("voice").checked || !("speechSynthesis" in window)) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = speechTag(languages);
  window.speechSynthesis.speak(utterance);
}

// The lines not heard yet: none of the backlog of a page just opened; all of a new race's.
function unheard(caller) {
  if (!spokenUpTo) return [];
  const from = spokenUpTo.race === caller.race ? spokenUpTo.count : 0;
  return caller.lines.slice(from);
}

function render(message, { fresh = true } = {}) {
  state = message;
  document.body.dataset.stateId = message.state_id;
  const view = message.view;
  if (message.game !== "readysetbet") { $("announce").textContent = t("The race caller is for Ready Set Bet tables."); return; }
  $("race-no").textContent = t("Race {n} of {m}", { n: view.race_no, m: view.races });
  const log = view.race_log || [];
  const lastMove = [...log].reverse().find((e) => e.event === "move");
  const moveKey = `${view.race_no}:${lastMove ? log.lastIndexOf(lastMove) : -1}`;
  drawTrack($("track"), view.race, lastMove, moveKey !== render.moveKey);
  render.moveKey = moveKey;
  const caller = view.caller || { race: view.race_no, lines: [] };
  const calls = caller.lines.map(renderMessage);
  let headline = calls.length ? calls[calls.length - 1] : t("They're off: place your bets!");
  if (view.over) headline = t("The game is over.");
  if (message.clock && message.clock.paused && view.phase === "race") headline = t("Paused") + " · " + headline;
  $("announce").textContent = headline;
  $("pause").disabled = message.clock.paused;
  $("resume").disabled = !message.clock.paused;
  const list = $("calls");
  list.innerHTML = "";
  for (const line of calls.slice(-12).reverse()) list.append(el("li", {}, line));
  if (!fresh) return;  // the same lines in another language: nothing new to say
  for (const line of unheard(caller).map(renderMessage)) speak(line);
  spokenUpTo = { race: caller.race, count: caller.lines.length };
}

async function start() {
  languages = await languageSelector($("lang"), () => state && render(state, { fresh: false }));
  const summary = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
  useDescription(await gameDescription(summary.game));
  const connection = new TableConnection(tableId, {
    host: fragmentParam("host"),
    onState: render,
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
  $("pause").addEventListener("click", () => connection.pause());
  $("resume").addEventListener("click", () => connection.resume());
}

start();
