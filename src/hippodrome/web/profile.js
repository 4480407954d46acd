// A player's profile (/players/NAME): its ratings in each rated game and its latest games, each
// finished one linked to its replay, each one still played to its table.
import { t, languageSelector, formatNumber, ordinal, render } from "/static/i18n.js";
import { el } from "/static/net.js";
import { loadGames } from "/static/games.js";
import { AccountBox, seatToken, me } from "/static/account.js";
import { playerLinks, ratingText, gameTitle, gameLink, botTitle } from "/static/players_view.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
let games = [];
let player = null;
let problem = null;

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

function draw() {
  const shown = player ? (player.kind === "bot" ? botTitle(games, player.name) : player.name) : name;
  $("player-title").textContent = shown;
  document.title = `${shown} · hippodrome`;
  $("messages").innerHTML = "";
  if (problem) { $("messages").append(el("div", { class: "error-box", role: "alert" }, problem())); return; }
  if (!player) return;
  const ratings = $("ratings");
  ratings.innerHTML = "";
  const rated = Object.entries(player.ratings);
  if (!rated.length) ratings.append(el("p", { class: "muted" }, t("No rated game yet.")));
  else {
    const table = el("table", { class: "data", id: "ratings-table" },
      el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Rating")), el("th", {}, t("Rated games")), el("th", {})));
    for (const [game, rating] of rated) {
      table.append(el("tr", { dataset: { game } }, el("td", {}, gameTitle(games, game)), el("td", { class: "rating" }, ratingText(rating)),
        el("td", {}, formatNumber(rating.games)), el("td", {}, el("a", { href: `/ratings/${encodeURIComponent(game)}` }, t("Leaderboard")))));
    }
    ratings.append(table);
  }
  const list = $("games");
  list.innerHTML = "";
  if (!player.games.length) { list.append(el("p", { class: "muted" }, t("No game yet."))); return; }
  const table = el("table", { class: "data", id: "games-table" },
    el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Finished")), el("th", {}, t("Place")), el("th", {}, t("Players")), el("th", {})));
  for (const game of player.games) {
    table.append(el("tr", { dataset: { table: game.table } },
      el("td", {}, gameTitle(games, game.game)),
      el("td", {}, game.finished !== null ? when(game.finished) : t("being played")),
      el("td", { class: "place" }, game.place ? ordinal(game.place) : "–"),
      el("td", {}, ...playerLinks(games, game.players)),
      el("td", {}, gameLink(game, seatToken(game.table)))));
  }
  list.append(el("div", { class: "open-tables" }, table));
}

// one's own profile offers to delete the account, with its password (DELETE /api/me)
async function offerDeletion() {
  const who = await me();
  $("delete-panel").hidden = !(player && player.kind === "person" && who.name === player.name);
  $("delete-form").onsubmit = async (event) => {
    event.preventDefault();
    const response = await fetch("/api/me", { method: "DELETE", headers: { "Content-Type": "application/json" },
                                              body: JSON.stringify({ password: $("delete-password").value }) });
    if (response.ok) { location.assign("/"); return; }
    const answer = await response.json();
    $("delete-error").innerHTML = "";
    $("delete-error").append(el("div", { class: "error-box", role: "alert" }, answer.message_i18n ? render(answer.message_i18n) : answer.detail));
  };
}

async function start() {
  let account = null;   // made once the catalog is loaded: it draws words
  await languageSelector($("lang"), () => { if (account) account.rerender(); draw(); });
  account = new AccountBox($("account"));
  games = await loadGames();
  const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const answer = await response.json();
  if (response.ok) player = answer;
  else problem = () => (answer.message_i18n ? render(answer.message_i18n) : answer.detail);
  draw();
  offerDeletion();
}

start();
