// The lobby's life beyond the open tables: the tables finished lately, to replay; the signed-in
// person's own games (its seats follow it to any device); the leaderboards of the rated games.
import { t, words, ordinal } from "/static/i18n.js";
import { el } from "/static/net.js";
import { me, seatToken } from "/static/account.js";
import { playerLinks, gameTitle, gameLink } from "/static/players_view.js";

const FINISHED = 10;
const MINE = 10;
const $ = (id) => document.getElementById(id);

// the listing's seats name no account: a person's seat is shown as its name, a bot's as its level
function players(games, seats) {
  return playerLinks(games, seats.map((s) => ({ ...s, account: s.kind === "bot" ? undefined : false })));
}

export async function refreshFinished(games) {
  const query = new URLSearchParams({ status: "over", tutorials: "exclude", limit: FINISHED });
  const response = await fetch(`/api/tables?${query}`);
  const tables = response.ok ? (await response.json()).tables : [];
  const box = $("finished");
  box.innerHTML = "";
  if (!tables.length) box.append(el("p", { class: "muted" }, t("No table has finished yet.")));
  else {
    const list = el("table", { class: "data", id: "finished-table" },
      el("tr", {}, el("th", {}, t("Table")), el("th", {}, t("Game")), el("th", {}, t("Seats")), el("th", {})));
    for (const table of tables) {
      list.append(el("tr", { dataset: { table: table.id } }, el("td", {}, table.id), el("td", {}, gameTitle(games, table.game)),
        el("td", {}, ...players(games, table.seats)),
        el("td", {}, el("a", { href: `/replay/${encodeURIComponent(table.id)}`, class: "replay-link" }, t("Replay")))));
    }
    box.append(el("div", { class: "open-tables" }, list));
  }
  const boards = $("leaderboards");
  boards.innerHTML = "";
  for (const game of games.filter((g) => g.rated)) {
    boards.append(el("a", { href: `/ratings/${encodeURIComponent(game.name)}`, class: "button" },
                     t("Leaderboard: {game}", { game: words(game.title) })));
  }
}

export async function refreshMine(games) {
  const who = await me();
  const panel = $("my-games-panel");
  panel.hidden = !who.name;
  if (!who.name) return;
  const response = await fetch(`/api/players/${encodeURIComponent(who.name)}?limit=${MINE}`);
  if (!response.ok) return;
  const { games: mine } = await response.json();
  const box = $("my-games");
  box.innerHTML = "";
  if (!mine.length) { box.append(el("p", { class: "muted" }, t("No game yet."))); return; }
  const list = el("table", { class: "data", id: "my-games-table" },
    el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Place")), el("th", {}, t("Players")), el("th", {})));
  for (const game of mine) {
    list.append(el("tr", { dataset: { table: game.table } }, el("td", {}, gameTitle(games, game.game)),
      el("td", {}, game.place ? ordinal(game.place) : t("being played")),
      el("td", {}, ...playerLinks(games, game.players)),
      el("td", {}, gameLink(game, seatToken(game.table)))));
  }
  box.append(el("div", { class: "open-tables" }, list));
}
