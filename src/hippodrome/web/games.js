// The games' descriptions (GET /api/games): names, titles, setup schemas, bot levels and the
// public data pages draw with. Pages read games from here and never list them themselves.

let all = null;
const one = {};

// Every game's description, in the server's order.
export async function loadGames() {
  if (!all) all = (await (await fetch("/api/games")).json()).games;
  return all;
}

// One game's description (the play pages ask for theirs only).
export async function gameDescription(name) {
  if (all) return all.find((game) => game.name === name);
  if (!one[name]) one[name] = (await fetch(`/api/games/${encodeURIComponent(name)}`)).json();
  return one[name];
}
