// The TurfMaster rules page's diagrams: pieces of the real course (each square drawn from its cell
// in the course file) with what the engine computed on them (GET /api/games/turfmaster/rules): the
// squares a move may end on, the blocked squares, the handicap limits, a card round, a dice round,
// a jump and a fall, the finish. `say(key, params)` gives the page's words in the reader's language.
import { t, ordinal } from "/static/i18n.js";
import { el, svg } from "/static/net.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const horseName = (id) => t(cap(id));
const LIGHT = new Set(["yellow", "white"]);
const key = ([lane, square]) => `${lane}:${square}`;
const centre = (cell) => [cell.reduce((s, p) => s + p[0], 0) / cell.length, cell.reduce((s, p) => s + p[1], 0) / cell.length];
const cardName = (card) => (card.startsWith("J") ? t("joker {value}", { value: card.slice(1) }) : card);

function defs() {
  return svg("defs", {},
    svg("pattern", { id: "blocked-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, fill: "#3f8f4f" }), svg("rect", { width: 3, height: 6, fill: "#c0392b" })),
    svg("marker", { id: "rules-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#fff" })));
}

// The squares of `data`, each with the classes `marks` gives it (key -> class), the finish line,
// arrows (from -> to), then the horses on top, each with its number as the game's board paints it
// (the legend gives its rank or place: a number on a token is always a horse).
function board(data, { marks = {}, arrows = [], finish = [] } = {}) {
  const cells = {};
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [, , cell] of data.squares) for (const [x, y] of cell) {
    minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
  }
  const pad = 3;
  const [width, height] = [maxX - minX + 2 * pad, maxY - minY + 2 * pad];
  // squares about 36 pixels wide where there is room, smaller on a narrow screen
  const picture = svg("svg", { viewBox: `${minX - pad} ${minY - pad} ${width} ${height}`, width: width * 1.8, role: "img" }, defs());
  for (const [lane, index, cell, mark] of data.squares) {
    const classes = ["sq", (lane + index) % 2 ? "alt" : "", mark, marks[key([lane, index])] || ""].filter(Boolean);
    picture.append(svg("polygon", { points: cell.map((p) => p.join(",")).join(" "), class: classes.join(" "),
                                    dataset: { lane, square: index } }));
    cells[key([lane, index])] = cell;
  }
  for (const [lane, index] of finish) {
    const cell = cells[key([lane, index])];
    if (cell) picture.append(svg("line", { class: "finish", x1: cell[0][0], y1: cell[0][1], x2: cell[3][0], y2: cell[3][1] }));
  }
  for (const [from, to] of arrows) {
    const [a, b] = [centre(cells[key(from)]), centre(cells[key(to)])];
    const shorten = 8 / Math.hypot(b[0] - a[0], b[1] - a[1]);
    const end = [b[0] - (b[0] - a[0]) * shorten, b[1] - (b[1] - a[1]) * shorten];
    picture.append(svg("line", { class: "arrow", x1: a[0], y1: a[1], x2: end[0], y2: end[1], "marker-end": "url(#rules-arrow)" }));
  }
  for (const horse of data.horses) {
    const [x, y] = centre(cells[key(horse.at)]);
    const group = svg("g", { class: "horse", dataset: { horse: horse.id } },
      svg("circle", { class: "body", cx: x, cy: y, r: 7.5, fill: horse.colour }),
      svg("text", { class: "in-horse", x, y, fill: LIGHT.has(horse.id) ? "#111" : "#fff" }, String(horse.number)));
    if (horse.fell) group.append(svg("path", { class: "fall", d: `M${x - 8},${y - 8} L${x + 8},${y + 8} M${x + 8},${y - 8} L${x - 8},${y + 8}` }));
    picture.append(group);
  }
  return picture;
}

function swatch(colour) { return el("span", { class: "swatch", style: `background:${colour}` }); }
function legend(entries) {
  return el("ul", { class: "legend" }, entries.map(([mark, text]) =>
    el("li", { class: mark === "wide" ? "wide" : null }, !mark || mark === "wide" ? null
    : typeof mark === "string" ? el("span", { class: `key ${mark}` }) : mark, text)));
}
function frame(picture, entries) {
  return el("div", {}, el("div", { class: "diagram-board" }, picture), legend(entries));
}

// A move on the course: where it starts, the squares it may end on, the blocked squares.
function move(data, say) {
  const marks = {};
  for (const square of data.blocked) marks[key(square)] = "blocked";
  for (const square of data.ends) marks[key(square)] = "end";
  const mover = data.horses.find((h) => h.moving);
  const entries = [[swatch(mover.colour), data.steps === data.points
    ? say("moves", { horse: horseName(mover.id), points: data.points })
    : say("moves_short", { horse: horseName(mover.id), points: data.points, steps: data.steps })],
  ["end", say("end")]];
  if (data.blocked.length) entries.push(["blocked", say("blocked")]);
  for (const horse of data.horses.filter((h) => !h.moving)) entries.push([swatch(horse.colour), say("standing", { horse: horseName(horse.id) })]);
  return frame(board(data, { marks }), entries);
}

function limitWords(horse, say) {
  return horse.limit === null || horse.limit === undefined ? say("no_limit") : say("limit", { limit: horse.limit });
}

function handicap(data, say) {
  const entries = data.horses.map((horse) => [swatch(horse.colour),
    `${say("ranked", { horse: horseName(horse.id), rank: ordinal(horse.rank) })} · ${limitWords(horse, say)}`]);
  return frame(board(data), entries);
}

// What one horse did in a round the engine played.
function deed(horse, data, say) {
  const name = horseName(horse.id);
  const parts = [];
  if (horse.card) parts.push(say("played", { horse: name, card: cardName(horse.card) }));
  else parts.push(name);
  if (horse.spent) parts.push(say("spent", { limit: horse.limit }));
  else if (horse.points !== undefined) {
    const oneDie = data.use && data.use.use === "sum" && horse.points !== data.use.value;
    if (oneDie) parts.push(say("one_die", { value: horse.points, limit: horse.limit }));
    if (!oneDie || horse.steps !== horse.points) {
      parts.push(horse.steps === horse.points ? say("moved", { points: horse.points }) : say("moved_short", { points: horse.points, steps: horse.steps }));
    }
  }
  if (horse.jumped) parts.push(say("jumped"));
  if (horse.fell) parts.push(say("fell"));
  if (horse.place) parts.push(say("place", { place: ordinal(horse.place) }));
  else if (data.finish && !horse.fell) parts.push(say("racing_on"));
  return parts.join(" · ");
}

// A round the engine played: every horse's start, where it ended and what it did.
function round(data, say) {
  const moved = data.horses.filter((h) => key(h.start) !== key(h.at));
  const marks = {};
  for (const horse of moved) marks[key(horse.start)] = "from";
  const fences = data.squares.filter((s) => s[3] === "fence");
  for (const horse of moved) {
    horse.jumped = !horse.fell && fences.some(([lane, index]) => lane === horse.at[0] && index > horse.start[1] && index < horse.at[1]);
  }
  const picture = board(data, { marks, arrows: moved.map((h) => [h.start, h.at]), finish: data.finish || [] });
  const entries = [];
  if (data.roll) entries.push(["wide", say("roll", { a: data.roll[0], b: data.roll[1], sum: data.roll[0] + data.roll[1] })]);
  for (const horse of data.horses) entries.push([swatch(horse.colour), deed(horse, data, say)]);
  if (fences.length) entries.push(["fence", say("fence", { cost: data.jump_cost })]);
  if (data.finish) entries.push(["past", say("past")]);
  entries.push(["from", say("from")]);
  return frame(picture, entries);
}

const DRAW = {
  "lane-change-short": move, "lane-change-long": move, blocking: move, "full-move": move,
  handicap, "card-round": round, "dice-round": round, fences: round, finish: round,
};

export function draw(name, data, say) {
  return DRAW[name](data, say);
}
