// The Ready Set Bet rules page's diagrams, from what the engine computed (GET /api/games/readysetbet/rules):
// the printed betting board, a run of rolls with their bonus moves, a race at the moment bets close
// (the third crossing of the red line) and the same race finished and settled. A table wider than
// a phone scrolls sideways, and takes the keyboard's focus so that the arrows scroll it too.
import { t, ordinal, formatMoney } from "/static/i18n.js";
import { el, svg } from "/static/net.js";

const KINDS = ["show", "place", "win"];
const COLOUR_BETS = { blue: "Blue wins", orange: "Orange wins", red: "Red wins", "7-fifth-or-worse": "7 finishes 5th or worse" };
const chip = (horse, colour) => el("span", { class: `rsb-horse ${colour}` }, horse);
const penalty = (value) => (value ? el("span", { class: "penalty" }, `−${value}`) : null);
const money = (amount) => el("span", { class: amount >= 0 ? "money-won" : "money-lost" },
  amount >= 0 ? `+${formatMoney(amount)}` : `−${formatMoney(-amount)}`);

function boardTable(data, say) {
  const head = el("tr", {}, el("th", {}, say("horse")), KINDS.map((kind) =>
    el("th", { colspan: data.columns.filter((c) => c.startsWith(`${kind}:`)).length }, say(kind))));
  const rows = data.rows.map((row) => el("tr", { dataset: { horse: row.horse } }, el("th", {}, chip(row.horse, row.colour)),
    row.spaces.map(([multiplier, loss], n) => el("td", { class: data.closed_with_two.includes(data.columns[n]) ? "closed-two" : "" },
      `×${multiplier}`, penalty(loss)))));
  const colours = el("ul", { class: "legend" }, data.colour_bets.map((bet) =>
    el("li", {}, `${t(COLOUR_BETS[bet.id] || bet.id)}: ×${bet.multiplier}`, penalty(bet.penalty))));
  return el("div", { class: "rsb-board", tabindex: "0" }, el("table", {}, el("thead", {}, head), el("tbody", {}, rows)),
    el("p", { class: "muted" }, say("board_key")), el("h3", {}, say("colour_bets")), colours);
}

function bonusTable(data, say) {
  const rows = data.rolls.map((roll, n) => el("tr", {},
    el("td", {}, String(n + 1)), el("td", {}, String(roll.sum)), el("td", {}, chip(roll.horse, data.colours[roll.horse])),
    el("td", {}, roll.bonus ? say("bonus_move", { bonus: roll.bonus }) : roll.bonus_move ? say("no_bonus_left", { horse: roll.horse }) : say("plain_move")),
    el("td", {}, `${roll.from} → ${roll.to}`, roll.crossing ? ` · ${say("crossed")}` : "")));
  return el("div", { class: "table-wrap", tabindex: "0" }, el("table", { class: "rolls" },
    el("thead", {}, el("tr", {}, ["roll", "dice", "horse", "move", "space"].map((k) => el("th", {}, say(k))))),
    el("tbody", {}, rows)));
}

// The nine horses on their spaces, the red line and the finish; `badge(horse)` marks a horse.
function track(data, say, badge = () => "") {
  const cell = 30, row = 26, left = 48, top = 22;
  const width = left + (data.finish + 1) * cell + 36, height = top + data.track.length * row + 6;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  for (let space = 0; space <= data.finish; space++) {
    const x = left + space * cell;
    picture.append(svg("rect", { x, y: top, width: cell - 1, height: data.track.length * row, fill: space === data.finish ? "#245a33" : space % 2 ? "#3f8f4f" : "#4a9c59" }),
      svg("text", { x: x + cell / 2, y: 15, fill: "#fff", "font-size": 11, "text-anchor": "middle" }, space === 0 ? "" : String(space)));
  }
  const lineX = left + data.red_line * cell - 1;
  picture.append(svg("line", { class: "red-line", x1: lineX, y1: 2, x2: lineX, y2: height - 2, stroke: "#ff2d2d", "stroke-width": 4 }));
  const fills = { blue: "#1d5fbf", orange: "#d9731a", red: "#c62828", black: "#222" };
  data.track.forEach((horse, n) => {
    const y = top + n * row + row / 2;
    const x = left + horse.space * cell + cell / 2;
    picture.append(svg("text", { x: 4, y: y + 4, fill: "#fff", "font-size": 12, "font-weight": 700 }, horse.horse),
      svg("g", { class: "horse", dataset: { horse: horse.horse } },
        svg("rect", { x: x - 14, y: y - 10, width: 28, height: 20, rx: 5, fill: fills[horse.colour], stroke: "#fff" }),
        svg("text", { x, y: y + 3.5, fill: "#fff", "font-size": horse.horse.length > 3 ? 8.5 : 10, "font-weight": 700, "text-anchor": "middle" }, horse.horse)));
    const mark = badge(horse);
    if (mark) picture.append(svg("text", { x: left + (data.finish + 1) * cell + 4, y: y + 4, fill: "#ffd34d", "font-size": 12, "font-weight": 700 }, mark));
  });
  return el("div", { class: "rsb-track" }, picture);
}

function redLine(data, say) {
  const order = Object.fromEntries(data.crossings.map((c) => [c.horse, c.crossing]));
  const entries = data.crossings.map((c) => el("li", {}, say("crossing", { horse: c.horse, n: ordinal(c.crossing) })));
  return el("div", {}, track(data, say, (horse) => (order[horse.horse] ? ordinal(order[horse.horse]) : "")),
    el("ul", { class: "legend" }, entries, el("li", {}, say("closed_after", { rolls: data.rolls }))));
}

function settled(data, say) {
  const rows = data.bets.map((bet) => el("tr", {},
    el("td", {}, say(bet.kind)), el("td", {}, chip(bet.horse, bet.colour)), el("td", {}, String(bet.token)),
    el("td", {}, `×${bet.multiplier}`, penalty(bet.penalty)),
    el("td", {}, bet.won ? say("won", { token: bet.token, multiplier: bet.multiplier }) : say("lost")), el("td", {}, money(bet.amount))));
  return el("div", {}, track(data, say, (horse) => ordinal(horse.rank)),
    el("div", { class: "table-wrap", tabindex: "0" }, el("table", { class: "rolls" },
      el("thead", {}, el("tr", {}, ["bet", "horse", "token", "odds", "result", "money"].map((k) => el("th", {}, say(k))))),
      el("tbody", {}, rows))),
    el("p", {}, say("total", { money: formatMoney(data.money) })));
}

const DRAW = { board: boardTable, bonus: bonusTable, "red-line": redLine, settled };

export function draw(name, data, say) {
  return DRAW[name](data, say);
}
