// The race caller: a big track and big announcements for a table playing Ready Set Bet with the
// physical box (the program rolls; people bet at the table). Optional voice through the
// browser's speech synthesis; pause and resume with the host link (#host=TOKEN).
import { t, languageSelector, speechTag } from "/static/i18n.js";
import { TableConnection, fragmentParam, el } from "/static/net.js";
import { drawTrack, announce } from "/static/readysetbet.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
let languages = [];
let spokenUpTo = null;   // (race, number of race_log events) already called
let state = null;

function speak(text) {
  if (!$("voice").checked || !("speechSynthesis" in window)) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = speechTag(languages);
  window.speechSynthesis.speak(utterance);
}

function render(message) {
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
  const calls = log.map(announce).filter(Boolean);
  let headline = calls.length ? calls[calls.length - 1] : t("They're off: place your bets!");
  if (view.over) headline = t("The game is over.");
  if (message.clock && message.clock.paused && view.phase === "race") headline = t("Paused") + " · " + headline;
  $("announce").textContent = headline;
  $("pause").disabled = message.clock.paused;
  $("resume").disabled = !message.clock.paused;
  const list = $("calls");
  list.innerHTML = "";
  for (const line of calls.slice(-12).reverse()) list.append(el("li", {}, line));
  // speak what is new since the last update (not the backlog of a page just opened)
  const key = view.race_no;
  if (spokenUpTo && spokenUpTo.race === key) for (const line of log.slice(spokenUpTo.count).map(announce).filter(Boolean)) speak(line);
  spokenUpTo = { race: key, count: log.length };
}

async function start() {
  languages = await languageSelector($("lang"), () => state && render(state));
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
