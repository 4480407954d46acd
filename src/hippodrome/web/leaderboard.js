// A rated game's leaderboard (/ratings/GAME): best first, a page at a time ("More players").
import { t, languageSelector, formatNumber, render } from "/static/i18n.js";
import { el } from "/static/net.js";
import { loadGames } from "/static/games.js";
import { AccountBox } from "/static/account.js";
import { playerLink, ratingText, gameTitle } from "/static/players_view.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
const PAGE = 50;
let games = [];
let rows = [];
let next = 0;
let problem = null;

function draw() {
  const title = t("Leaderboard: {game}", { game: gameTitle(games, game) });
  $("board-title").textContent = title;
  document.title = `${title} · hippodrome`;
  $("messages").innerHTML = "";
  if (problem) $("messages").append(el("div", { class: "error-box", role: "alert" }, problem()));
  const box = $("board");
  box.innerHTML = "";
  if (!rows.length) { if (!problem) box.append(el("p", { class: "muted" }, t("Nobody is rated yet."))); }
  else {
    const table = el("table", { class: "data", id: "board-table" },
      el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), el("th", {}, t("Rating")), el("th", {}, t("Rated games"))));
    for (const row of rows) {
      table.append(el("tr", { dataset: { kind: row.kind } }, el("td", {}, formatNumber(row.rank)), el("td", {}, playerLink(games, row)),
        el("td", { class: "rating" }, ratingText(row)), el("td", {}, formatNumber(row.games))));
    }
    box.append(el("div", { class: "open-tables" }, table));
  }
  $("more").hidden = next === null;
}

async function more() {
  const response = await fetch(`/api/ratings/${encodeURIComponent(game)}?start=${next}&limit=${PAGE}`);
  const answer = await response.json();
  if (!response.ok) { problem = () => (answer.message_i18n ? render(answer.message_i18n) : answer.detail); next = null; }
  else { rows.push(...answer.ratings); next = answer.next; }
  draw();
}

async function start() {
  let account = null;   // made once the catalog is loaded: it draws words
  await languageSelector($("lang"), () => { if (account) account.rerender(); draw(); });
  account = new AccountBox($("account"));
  games = await loadGames();
  $("more").addEventListener("click", more);
  await more();
}

start();
