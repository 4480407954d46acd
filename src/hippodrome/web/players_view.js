// What the profile and the leaderboard share: a player's name in words (a bot level by its words
// in the game's description, a deleted account as "a former player") linked to its profile, a
// rating with its provisional mark, a game's title.
import { t, words, formatNumber } from "/static/i18n.js";
import { el } from "/static/net.js";

export function botTitle(games, level) {
  for (const game of games) {
    const bot = (game.bots || []).find((b) => b.name === level);
    if (bot) return words(bot.title);
  }
  return level;
}

// a player of a table's seat list or of a ladder: {name, kind, level?, account?, former?}
export function playerLink(games, player) {
  if (player.former) return el("span", { class: "former" }, t("a former player"));
  if (player.kind === "bot") {
    const level = player.level || player.name;
    return el("a", { href: `/players/${encodeURIComponent(level)}`, class: "player-link bot" }, botTitle(games, level));
  }
  if (player.account === false) return el("span", {}, player.name || t("Guest"));
  return el("a", { href: `/players/${encodeURIComponent(player.name)}`, class: "player-link" }, player.name);
}

export function ratingText(rating) {
  const number = formatNumber(rating.rating, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return rating.provisional ? t("{rating} (provisional)", { rating: number }) : number;
}

// a list of players, each linked to its profile, separated by commas
export function playerLinks(games, players) {
  return players.flatMap((p, i) => [playerLink(games, p), i < players.length - 1 ? ", " : ""]);
}

// where one of a player's games goes on: its replay once finished, else its table (as this
// browser's seat when it has played there: seatToken(table))
export function gameLink(game, token) {
  if (game.finished !== null) return el("a", { href: `/replay/${encodeURIComponent(game.table)}`, class: "replay-link" }, t("Replay"));
  return el("a", { href: `/play/${encodeURIComponent(game.table)}${token ? `#seat=${token}` : ""}`, class: "play-link" },
            token ? t("Play") : t("Watch"));
}

export function gameTitle(games, name) {
  const game = games.find((g) => g.name === name);
  return game ? words(game.title) : name;
}
