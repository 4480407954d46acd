// The TurfMaster board: an SVG drawing of a course from its data (the game description's
// public_data), with rails, lane numbers, level lines, start and finish posts, fences, horse
// tokens and the squares a move may end on; zoom and pan (buttons, wheel, pinch, drag, keys); the
// view the page frames at each turn (frameRace: the track where the horses run, names whole).
// Updates patch what is drawn: tokens move, marks change, the zoom stays.
import { t, tc } from "/static/i18n.js";
import { el, svg } from "/static/net.js";
import { motionAllowed, motionWanted, pathOf, setMotionWanted, travel, travelTime } from "/static/turfmaster_travel.js";

const key = (lane, square) => `${lane}:${square}`;
const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
// a box of the course ({x, y, w, h}, in its units): around a point, around points, holding two boxes
const around = ([x, y], r) => ({ x: x - r, y: y - r, w: 2 * r, h: 2 * r });
const boxOf = (list) => {
  const xs = list.map((p) => p[0]), ys = list.map((p) => p[1]);
  return { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
};
// a box with `by` more room on every side
const grow = (b, by) => ({ x: b.x - by, y: b.y - by, w: b.w + 2 * by, h: b.h + 2 * by });
const union = (a, b) => {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
};
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const within = (a, b) => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
// a drawn text's box (its outline's width more round it)
const textBox = (node) => { const b = node.getBBox(); return { x: b.x - 2, y: b.y - 2, w: b.width + 4, h: b.height + 4 }; };
const centre = (cell) => [cell.reduce((s, p) => s + p[0], 0) / cell.length, cell.reduce((s, p) => s + p[1], 0) / cell.length];
const points = (list) => list.map((p) => `${+p[0].toFixed(1)},${+p[1].toFixed(1)}`).join(" ");
// a token's colour is light: its label is written in black
export const LIGHT = new Set(["yellow", "white"]);
// a fence's name: its number, or the one on the start line
// a lane as players read it: 1 on the rail to 8 (the data, like ruling T12, counts from 0 on the
// rail); every lane a person reads goes through it, the data attributes keep the data's number
export const laneNumber = (lane) => Number(lane) + 1;
// a square's name for a person: "Lane 1, square 12" (the index counts from the start line)
export const squareName = (lane, square) => t("Lane {lane}, square {square}", { lane: laneNumber(lane), square });
export const fenceLabel = (number) => (number === "start" ? t("the fence on the start line") : t("fence {n}", { n: number }));
// A horse's number, painted on its token and beside its name: its place in the game's horses in
// colour order (the description's data.horses: 1 red, 2 blue, 3 yellow ...), the same on every
// page and whichever horses run; horses: [{id, colour}] in that order.
export const horseNumbers = (horses) => Object.fromEntries(horses.map((h, i) => [h.id, String(i + 1)]));
// A handicap as the rulebooks print it (T6): "handicap 9: at most 8 squares"; the short form, under
// a "Handicap" heading, "9 (at most 8)". numbers: the description's data.handicap_numbers (a limit ->
// its handicap's number, one above it): a page never shows the limit as the handicap or the reverse.
export const handicapWords = (numbers, limit) => t("handicap {handicap}: at most {limit} squares", { handicap: numbers[limit], limit });
export const handicapShort = (numbers, limit) => t("{handicap} (at most {limit})", { handicap: numbers[limit], limit });
// a horse's colour with its number, beside its name in the pages' lists
export function horseSwatch(horses, id) {
  const horse = horses.find((h) => h.id === id);
  return el("span", { class: `swatch numbered${LIGHT.has(id) ? " light" : ""}`, style: `background:${horse ? horse.colour : id}` },
            horseNumbers(horses)[id] || "");
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// A handicapped horse's die decision (T6) in words, with the numbers: which horse, the sum the
// roller chose and the horse's limit (the play page and the puzzles say it the same way).
export function dieWhat(decision) {
  const c = decision.context || {};
  const sum = (c.dice || []).reduce((a, b) => a + b, 0);
  return t("choose one die for {horse}: the sum {sum} is above its limit of {limit}",
           { horse: c.horse ? t(cap(c.horse)) : "", sum, limit: c.limit });
}
const TOKEN = 9.2;          // token radius (a square is 20 units)
const MIN_VIEW = 180;     // the closest zoom: 9 squares across the box's smaller side
const PHONE_VIEW = 320;   // on a small screen the view follows the horse to move this close
const PAD = 34;           // room around the course for the posts
const AREA_STEP = 10;     // the grid on which framing measures the track's area (units)
const FINISH_NEAR = 14;   // the finish is framed with the horse to move once it is this many squares from it, or fewer
// The handicap tag of a token (T6): the handicap's number as the rulebooks print it, 9, 10 or 11
// (its tooltip: "handicap 9: at most 8 squares"; a bare 8 on a handicap tag read as "handicap 8",
// which does not exist), on a label pointing at its token: a pale square card with a point, never a
// disc (a numbered disc is a horse: "6 8 / 8 8" read as four horses). It stands on the square behind
// the token in its lane, its point touching the token. That square is always free (T4: a horse
// blocks the squares just ahead of and behind it) and never a move's end; the label reaches no token
// of another lane (their centres are a square, 20 units, away: TAG_ACROSS + TOKEN is less) nor one
// two squares behind (TAG_BACK + TOKEN is less than 20). On the start squares, with no square behind,
// it goes on the one ahead, pointing back.
const TAG_BACK = 10, TAG_FRONT = 8, TAG_ACROSS = 8.5, TAG_POINT = 10.8;
const TAG_SHAPE = [[-TAG_BACK, -TAG_ACROSS], [TAG_FRONT, -TAG_ACROSS], [TAG_POINT, 0], [TAG_FRONT, TAG_ACROSS], [-TAG_BACK, TAG_ACROSS]];
const NAME_SIZE = 64, NAME_ROOM = 0.86;   // the course's name in the infield (fitCourseName)

export class Board {
  // course: the description's course; horses: the game's horses in colour order, [{id, colour}]
  // (the description's data.horses: a horse's number on its token is its place there, horseNumbers);
  // handicaps: the description's data.handicap_numbers (for the tags' tooltips)
  constructor(host, course, { steeplechase = false, horses = [], title = "", handicaps = {} } = {}) {
    this.host = host;
    this.handicaps = handicaps;
    this.course = course;
    this.steeplechase = steeplechase;
    this.numbers = horseNumbers(horses);
    this.colours = Object.fromEntries(horses.map((h) => [h.id, h.colour]));
    this.squares = {};       // "lane:square" -> {lane, index, line, cell, at}
    this.byLine = new Map();  // line -> its squares, inner lane first
    for (const [lane, index, line, cell] of course.squares) {
      const s = this.squares[key(lane, index)] = { lane, index, line, cell, at: centre(cell) };
      if (!this.byLine.has(line)) this.byLine.set(line, []);
      this.byLine.get(line).push(s);
    }
    for (const list of this.byLine.values()) list.sort((a, b) => a.lane - b.lane);
    this.tokens = {};
    this.build(title);
  }

  // -- drawing the course ----------------------------------------------------------------------
  build(title) {
    const course = this.course;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const { cell } of Object.values(this.squares)) for (const [x, y] of cell) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    this.full = { x: minX - PAD, y: minY - PAD, w: maxX - minX + 2 * PAD, h: maxY - minY + 2 * PAD };
    this.view = { ...this.full };
    const root = this.root = svg("svg", { class: "board", viewBox: this.viewBox(), role: "img",
                                          "aria-label": t("The course"), preserveAspectRatio: "xMidYMid meet" });
    root.append(this.defs());
    root.append(svg("rect", { class: "ground", x: this.full.x - 2000, y: this.full.y - 2000, width: this.full.w + 4000, height: this.full.h + 4000 }));
    const lap = this.lap(0), outer = this.lap(course.lanes - 1);
    this.infield = lap.map((s) => s.cell[0]);
    root.append(svg("polygon", { class: "infield", points: points(this.infield) }));
    const [cx, cy] = centre(lap.map((s) => s.at));
    this.courseName = svg("text", { class: "course-name", x: cx, y: cy }, title);
    root.append(this.courseName);
    root.append(this.drawSquares());
    this.measureTrack();
    root.append(this.drawLevelLines());
    root.append(svg("polyline", { class: "rail shadow", points: points(this.edge(lap, 0, 1)) }),
                svg("polyline", { class: "rail", points: points(this.edge(lap, 0, 1)) }),
                svg("polyline", { class: "rail shadow", points: points(this.edge(outer, 3, 2)) }),
                svg("polyline", { class: "rail", points: points(this.edge(outer, 3, 2)) }));
    root.append(this.drawLaneNumbers(), this.drawStartFinish());
    if (this.steeplechase) root.append(this.drawFences());
    this.reachLayer = svg("g", { class: "reach-layer" });
    this.ringLayer = svg("g", { class: "rings" });
    this.horseLayer = svg("g", { class: "horses" });
    this.confirmLayer = svg("g", { class: "confirm-layer" });
    this.whyLayer = svg("g", { class: "why-layer" });
    this.reviewLayer = svg("g", { class: "review-layer" });
    // the review's words ("chosen", "better") over the horses and their handicap tags, never under them
    this.reviewLabels = svg("g", { class: "review-labels" });
    root.append(this.reachLayer, this.whyLayer, this.reviewLayer, this.ringLayer, this.horseLayer, this.confirmLayer,
                this.reviewLabels);
    this.ring = svg("g", { class: "current-ring", visibility: "hidden" },
      svg("circle", { class: "ring-dark", r: TOKEN + 3.5 }), svg("circle", { class: "ring-light", r: TOKEN + 3.5 }));
    this.ringLayer.append(this.ring);

    this.wrap = el("div", { class: "board-view", tabindex: "0", style: `--course-aspect: ${(this.full.w / this.full.h).toFixed(3)}`, role: "group", "aria-label": t("The course: arrow keys move it, + and − zoom") }, root);
    this.tools = el("div", { class: "course-tools" },
      el("button", { type: "button", id: "zoom-in", "aria-label": t("Zoom in"), title: t("Zoom in"), onclick: () => { this.touched = true; this.zoomBy(1 / 1.4, this.focusPoint()); } }, "+"),
      el("button", { type: "button", id: "zoom-out", "aria-label": t("Zoom out"), title: t("Zoom out"), onclick: () => { this.touched = true; this.zoomBy(1.4); } }, "−"),
      el("button", { type: "button", id: "zoom-fit", title: t("Show the whole course"), onclick: () => { this.touched = true; this.fit(); } }, t("Fit")),
      this.motionButton = el("button", { type: "button", id: "motion", "aria-pressed": motionWanted() ? "true" : "false",
                                         title: t("Show the horses moving along the squares"), onclick: () => this.toggleMotion() }, t("Motion")));
    this.host.append(this.tools, this.wrap);
    this.listen();
    this.fitCourseName();
  }

  // The course's name painted in the infield, as large as fits there in any language: at most
  // NAME_SIZE units high, no wider than NAME_ROOM of the infield's width across its middle, and
  // never higher than a third of its height. Measured once drawn (a box not yet laid out tries
  // again when it is: the resize observer).
  fitCourseName() {
    const text = this.courseName;
    if (this.nameFitted || !text.textContent) return;
    text.setAttribute("font-size", NAME_SIZE);
    const length = text.getComputedTextLength();
    if (!length) return;
    const cx = Number(text.getAttribute("x")), cy = Number(text.getAttribute("y"));
    const across = (along, at, other) => {   // the infield's extent through (cx, cy) along one axis
      let low = -Infinity, high = Infinity;
      this.infield.forEach((a, i) => {
        const b = this.infield[(i + 1) % this.infield.length];
        if ((a[other] - at) * (b[other] - at) > 0 || a[other] === b[other]) return;
        const hit = a[along] + (at - a[other]) * (b[along] - a[along]) / (b[other] - a[other]);
        const mine = along === 0 ? cx : cy;
        if (hit <= mine) low = Math.max(low, hit); else high = Math.min(high, hit);
      });
      const mine = along === 0 ? cx : cy;
      return 2 * Math.min(mine - low, high - mine);
    };
    const width = across(0, cy, 1), height = across(1, cx, 0);
    const size = Math.min(NAME_SIZE, NAME_SIZE * NAME_ROOM * width / length, height / 3);
    text.setAttribute("font-size", +size.toFixed(1));
    this.nameFitted = true;
  }

  defs() {
    return svg("defs", {},
      svg("pattern", { id: "tm-checker", width: 6, height: 6, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 6, height: 6, fill: "#fff" }), svg("rect", { width: 3, height: 3, fill: "#111" }),
        svg("rect", { x: 3, y: 3, width: 3, height: 3, fill: "#111" })),
      svg("pattern", { id: "tm-mown", width: 40, height: 40, patternUnits: "userSpaceOnUse", patternTransform: "rotate(30)" },
        svg("rect", { width: 40, height: 40, fill: "#2e7a3f" }), svg("rect", { width: 20, height: 40, fill: "#338545" })),
      svg("pattern", { id: "tm-hurdle", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 8, height: 8, fill: "#6b3f1d" }), svg("rect", { width: 4, height: 8, fill: "#c98b4a" })));
  }

  // a lane's squares once round the course, from the start (the home straight's second pass
  // stands on the first's squares)
  lap(lane) {
    const out = [];
    const seen = new Set();
    for (let i = 1; ; i++) {
      const s = this.squares[key(lane, i)];
      if (!s) break;
      const at = this.spot(s);
      if (seen.has(at)) break;
      seen.add(at);
      out.push(s);
    }
    return out;
  }

  spot(s) { return `${Math.round(s.at[0] * 2)}:${Math.round(s.at[1] * 2)}`; }

  // a rail: the chosen edge (corners a -> b) of each square of a lap, closed
  edge(squares, a, b) {
    const line = [];
    for (const s of squares) line.push(s.cell[a], s.cell[b]);
    line.push(line[0]);
    return line;
  }

  drawSquares() {
    const g = svg("g", { class: "squares" });
    const fenceLines = new Set(this.steeplechase ? this.course.fences.map((f) => f.line) : []);
    const drawn = new Map();   // where a square is drawn -> its polygon (the second pass's squares are the first's)
    this.polys = {};
    for (const [lane, index, line, cell] of this.course.squares) {
      const s = this.squares[key(lane, index)];
      const at = this.spot(s);
      let poly = drawn.get(at);
      if (!poly) {
        const cls = ["sq"];
        if (lane % 2) cls.push("alt");
        if (index === 0) cls.push("start");
        poly = svg("polygon", { points: points(cell), class: cls.join(" "), dataset: { lane, square: index } });
        drawn.set(at, poly);
        g.append(poly);
      } else poly.dataset.pass2 = index;   // the same square on the second pass
      if (fenceLines.has(line)) poly.classList.add("fence");
      this.polys[key(lane, index)] = poly;
    }
    return g;
  }

  // The track's area, for framing to weigh how much of it a view shows: a grid of AREA_STEP units over
  // the course, 1 where a cell's middle is on a square, summed from the top left corner (trackIn).
  measureTrack() {
    const { x: x0, y: y0, w, h } = this.full, cols = Math.ceil(w / AREA_STEP), rows = Math.ceil(h / AREA_STEP);
    const on = new Uint8Array(cols * rows);
    const seen = new Set();
    for (const s of Object.values(this.squares)) {
      if (seen.has(this.spot(s))) continue;   // the second pass's squares are the first's
      seen.add(this.spot(s));
      const cell = s.cell, box = boxOf(cell);
      // inside a convex cell: on the same side of each of its edges
      const inside = (px, py) => {
        const sides = cell.map((a, i) => { const b = cell[(i + 1) % cell.length]; return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]); });
        return sides.every((v) => v >= 0) || sides.every((v) => v <= 0);
      };
      for (let r = Math.max(0, Math.floor((box.y - y0) / AREA_STEP)); r < rows && y0 + r * AREA_STEP <= box.y + box.h; r++) {
        for (let c = Math.max(0, Math.floor((box.x - x0) / AREA_STEP)); c < cols && x0 + c * AREA_STEP <= box.x + box.w; c++) {
          if (inside(x0 + (c + 0.5) * AREA_STEP, y0 + (r + 0.5) * AREA_STEP)) on[r * cols + c] = 1;
        }
      }
    }
    const sum = this.trackSum = new Float64Array((cols + 1) * (rows + 1));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        sum[(r + 1) * (cols + 1) + c + 1] = on[r * cols + c] + sum[r * (cols + 1) + c + 1] + sum[(r + 1) * (cols + 1) + c] - sum[r * (cols + 1) + c];
      }
    }
    this.trackGrid = { cols, rows };
  }

  // how much of the track is in a box of the course, in squares (a square is 20 x 20 units)
  trackIn(box) {
    const { cols, rows } = this.trackGrid, sum = this.trackSum;
    const at = (v, from, n) => Math.min(Math.max(Math.round((v - from) / AREA_STEP), 0), n);
    const c0 = at(box.x, this.full.x, cols), c1 = at(box.x + box.w, this.full.x, cols);
    const r0 = at(box.y, this.full.y, rows), r1 = at(box.y + box.h, this.full.y, rows);
    const cells = sum[r1 * (cols + 1) + c1] - sum[r0 * (cols + 1) + c1] - sum[r1 * (cols + 1) + c0] + sum[r0 * (cols + 1) + c0];
    return cells * AREA_STEP * AREA_STEP / 400;
  }

  // Level lines across the curves: squares on one line stand level (the line decides who leads).
  // In a straight the grid shows it; in a curve the front edges of the level squares are joined.
  drawLevelLines() {
    const g = svg("g", { class: "level-lines" });
    const seen = new Set();
    for (const [line, squares] of this.byLine) {
      if (squares.length < 2) continue;
      const first = squares[0], last = squares[squares.length - 1];
      // a straight: every square's front edge is parallel to the lanes' crossing, skip it
      if (squares.length === this.course.lanes && this.isStraight(first, last)) continue;
      const from = first.cell[1], to = last.cell[2];
      const spot = `${Math.round(from[0])}:${Math.round(from[1])}`;
      if (seen.has(spot)) continue;
      seen.add(spot);
      g.append(svg("line", { class: squares.length === this.course.lanes ? "level all" : "level", x1: from[0], y1: from[1], x2: to[0], y2: to[1],
                             dataset: { line, lanes: squares.map((s) => s.lane).join(",") } }));
    }
    return g;
  }

  isStraight(first, last) {
    const prev = this.squares[key(first.lane, first.index - 1)], prevLast = this.squares[key(last.lane, last.index - 1)];
    return Boolean(prev && prevLast && prev.line === prevLast.line);
  }

  // Lane numbers painted on the track at the second square of every straight, under the horses.
  drawLaneNumbers() {
    const g = svg("g", { class: "lane-numbers" });
    for (const line of this.straightStarts()) {
      for (const s of this.byLine.get(line)) {
        g.append(svg("text", { class: "lane-mark", x: s.at[0], y: s.at[1], dataset: { lane: s.lane } }, String(laneNumber(s.lane))));
      }
    }
    return g;
  }

  // the lines of a straight's second square (a straight begins after a curve's last square, which
  // is level across every lane, as every square of a straight is)
  straightStarts() {
    const all = (s) => s && this.byLine.get(s.line).length === this.course.lanes;
    const inner = this.lap(0);
    const out = [inner[1].line];   // the home straight, just past the start
    for (let i = 2; i + 1 < inner.length; i++) {
      if (!all(inner[i - 2]) && all(inner[i - 1]) && all(inner[i]) && all(inner[i + 1])) out.push(inner[i + 1].line);
    }
    return out;
  }

  drawStartFinish() {
    const g = svg("g", { class: "posts" });
    const lanes = this.course.lanes;
    // start: the front edge of the start squares
    const s0 = this.squares[key(0, 0)], sN = this.squares[key(lanes - 1, 0)];
    const startLine = [s0.cell[1], sN.cell[2]];
    this.trackWidth = Math.hypot(startLine[1][0] - startLine[0][0], startLine[1][1] - startLine[0][1]);
    g.append(svg("line", { class: "startline", x1: startLine[0][0], y1: startLine[0][1], x2: startLine[1][0], y2: startLine[1][1] }));
    const start = this.post(startLine, "start-post", tc("the start line's post on the course", "Start"));
    g.append(start);
    // finish: the back edge of the first square past the finish line
    const f0 = this.squares[key(0, this.course.finish[0])], fN = this.squares[key(lanes - 1, this.course.finish[lanes - 1])];
    const finishLine = [f0.cell[0], fN.cell[3]];
    const [a, b] = finishLine;
    const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy);
    const nx = -dy / len * 3, ny = dx / len * 3;
    g.append(svg("polygon", { class: "finish", points: points([[a[0] - nx, a[1] - ny], [b[0] - nx, b[1] - ny], [b[0] + nx, b[1] + ny], [a[0] + nx, a[1] + ny]]) }));
    const finish = this.post(finishLine, "finish-post", t("Finish"));
    g.append(finish);
    // the posts' names and the lines they stand on (the view frames a name whole, or not at all)
    this.postNames = [{ line: s0.line, text: start.querySelector("text") }, { line: f0.line, text: finish.querySelector("text") }];
    this.finishAt = { squares: [f0, fN], name: this.postNames[1].text };   // the finish line's end squares, its post's name
    return g;
  }

  // a post at each end of a line across the course, its name written outside the outer rail
  post([inner, outer], cls, label) {
    const dx = outer[0] - inner[0], dy = outer[1] - inner[1], len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len;
    const pIn = [inner[0] - ux * 5, inner[1] - uy * 5], pOut = [outer[0] + ux * 5, outer[1] + uy * 5];
    const text = [outer[0] + ux * 18, outer[1] + uy * 18];
    return svg("g", { class: `post ${cls}` },
      svg("circle", { cx: pIn[0], cy: pIn[1], r: 4 }), svg("circle", { cx: pOut[0], cy: pOut[1], r: 4 }),
      svg("text", { x: text[0], y: text[1] }, label));
  }

  // Steeplechase fences: a hurdle across every lane on the fence's line, on the pass where it
  // counts, with its number on a flag beyond the outer rail.
  drawFences() {
    const g = this.fenceLayer = svg("g", { class: "fences" });
    this.flags = [];   // the flags' boxes (the view shows a flag whole, or not at all)
    for (const fence of this.course.fences) {
      const across = this.byLine.get(fence.line);
      if (!across) continue;
      const inner = across[0], outer = across[across.length - 1];
      const a = mid(inner.cell[0], inner.cell[1]), b = mid(outer.cell[3], outer.cell[2]);
      const fwd = [inner.cell[1][0] - inner.cell[0][0], inner.cell[1][1] - inner.cell[0][1]];
      const fl = Math.hypot(...fwd), fx = fwd[0] / fl * 3.5, fy = fwd[1] / fl * 3.5;
      const name = fenceLabel(fence.number);
      // on the part of the home straight run twice a fence counts on one pass only (T11)
      const twice = across.some((s) => this.polys[key(s.lane, s.index)].dataset.pass2 !== undefined);
      const title = fence.number === "start" ? t("{fence}: jumped on the second lap only", { fence: name })
        : twice ? t("{fence}: jumped on the first lap only", { fence: name }) : name;
      const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy);
      const flag = [a[0] - dx / len * 22, a[1] - dy / len * 22];   // in the infield, beside the inner rail
      this.flags.push(around(flag, 9));
      g.append(svg("g", { class: "fence-mark", dataset: { fence: fence.number, line: fence.line } },
        svg("title", {}, title),
        svg("polygon", { class: "hurdle", points: points([[a[0] - fx, a[1] - fy], [b[0] - fx, b[1] - fy], [b[0] + fx, b[1] + fy], [a[0] + fx, a[1] + fy]]) }),
        svg("circle", { class: "flag", cx: flag[0], cy: flag[1], r: 8 }),
        svg("text", { class: "flag-text", x: flag[0], y: flag[1] }, fence.number === "start" ? "S" : String(fence.number))));
    }
    return g;
  }

  toggleMotion() {
    const on = !motionWanted();
    setMotionWanted(on);
    this.motionButton.setAttribute("aria-pressed", on ? "true" : "false");
  }

  // -- horses ----------------------------------------------------------------------------------
  // Place the horses (patched in place: a token is made once and moved); `current` gets the ring.
  setHorses(horses, current) {
    const seen = new Set();
    this.horseAt = {};   // where each token on the track stands
    this.horseBoxes = {};   // the box of each token with its tag and ring, and its square's line (framing)
    const taken = new Map();   // a spot on the board -> tokens there (a fallen horse and a lapping one)
    // the tokens that move in this update travel along their squares (turfmaster_travel.js)
    const moved = (horse) => {
      const node = this.tokens[horse.id];
      return node && horse.lane !== undefined && (Number(node.dataset.lane) !== horse.lane || Number(node.dataset.square) !== horse.square);
    };
    const movers = horses.filter(moved);
    const motion = motionAllowed() && movers.length > 0;
    const time = travelTime(movers.length);
    const fences = new Set(this.fenceLayer ? [...this.fenceLayer.children].filter((m) => m.dataset.state === "up").map((m) => Number(m.dataset.line)) : []);
    const from = (node) => ({ lane: Number(node.dataset.lane), square: Number(node.dataset.square) });
    for (const horse of horses) {
      if (horse.stage === "finished" && moved(horse)) {   // it runs past the post, then leaves
        const node = this.tokens[horse.id];
        const end = this.squares[key(horse.lane, horse.square)];
        const run = motion && end ? travel(node, pathOf(this.squares, from(node), horse), end.at, { fences, time }) : null;
        delete this.tokens[horse.id];
        if (run) run.finished.then(() => node.remove(), () => node.remove()); else node.remove();
        continue;
      }
      if (horse.lane === undefined || horse.stage === "finished") continue;
      const s = this.squares[key(horse.lane, horse.square)];
      if (!s) continue;
      seen.add(horse.id);
      const spot = this.spot(s);
      const shift = taken.get(spot) || 0;
      taken.set(spot, shift + 1);
      const at = [s.at[0] + shift * 5, s.at[1] - shift * 5];
      let node = this.tokens[horse.id];
      if (!node) {
        const light = LIGHT.has(horse.id);
        node = svg("g", { class: `horse${light ? " light" : ""}`, dataset: { horse: horse.id } },
          svg("circle", { class: "body", r: TOKEN, fill: this.colours[horse.id] || horse.id }),
          svg("text", { class: "num", fill: light ? "#111" : "#fff" }, this.numbers[horse.id] || "?"),
          // ringed in the horse's colour: which token a tag belongs to reads at a glance
          svg("g", { class: "limit", visibility: "hidden" },
            svg("polygon", { class: "tag-body", points: points(TAG_SHAPE) }), svg("text", {}, ""), svg("title", {}, "")));
        this.horseLayer.append(node);
        this.tokens[horse.id] = node;
      }
      if (motion && moved(horse)) {
        travel(node, pathOf(this.squares, from(node), horse), at, { fences, time, falls: horse.stage === "fallen" && !node.classList.contains("fallen") });
      }
      node.style.transform = `translate(${at[0]}px, ${at[1]}px)`;
      this.horseAt[horse.id] = at;
      node.dataset.lane = horse.lane;
      node.dataset.square = horse.square;
      node.classList.toggle("current", horse.id === current);
      node.classList.toggle("fallen", horse.stage === "fallen");
      const limit = node.querySelector(".limit");
      const value = horse.stage === "racing" && horse.limit ? String(this.handicaps[horse.limit] ?? "") : "";
      const tooltip = value ? handicapWords(this.handicaps, horse.limit) : "";
      limit.setAttribute("visibility", value ? "visible" : "hidden");
      const [text, title] = limit.querySelectorAll("text, title");
      if (text.textContent !== value) text.textContent = value;
      if (title.textContent !== tooltip) title.textContent = tooltip;
      let box = around(at, TOKEN + 6);   // the token and the ring round it (the horse to move's)
      if (value) {
        const spot = this.squares[key(horse.lane, horse.square - 1)] || this.squares[key(horse.lane, horse.square + 1)] || s;
        const dx = spot.at[0] - s.at[0], dy = spot.at[1] - s.at[1];
        box = union(box, around([at[0] + dx, at[1] + dy], TAG_POINT + 1));   // and its tag
        limit.setAttribute("transform", `translate(${+dx.toFixed(1)} ${+dy.toFixed(1)})`);
        // the label's point towards the token; its digits upright, in the middle of its square part
        const angle = Math.atan2(-dy, -dx), mid = (TAG_FRONT - TAG_BACK) / 2;
        limit.querySelector(".tag-body").setAttribute("transform", `rotate(${+(angle * 180 / Math.PI).toFixed(1)})`);
        text.setAttribute("x", +(mid * Math.cos(angle)).toFixed(2));
        text.setAttribute("y", +(mid * Math.sin(angle)).toFixed(2));
      }
      this.horseBoxes[horse.id] = { box, line: s.line };
      if (horse.id === current) {
        // a ring that was hidden appears where the horse is, without sliding there
        if (!this.currentAt) { this.ring.style.transition = "none"; requestAnimationFrame(() => { this.ring.style.transition = ""; }); }
        this.ring.style.transform = node.style.transform;
        this.currentAt = at;
        if (this.ringHorse !== current) { this.ringHorse = current; this.spinRing(); }
      }
    }
    for (const [id, node] of Object.entries(this.tokens)) if (!seen.has(id)) { node.remove(); delete this.tokens[id]; }
    this.markFences(horses);
    if (!current || !seen.has(current)) this.currentAt = this.ringHorse = null;
    this.ring.setAttribute("visibility", this.currentAt ? "visible" : "hidden");
  }

  // The ring's light spins twice for a horse that has just become the one to move (style.css)
  spinRing() {
    const light = this.ring.querySelector(".ring-light");
    light.classList.add("spin");
    for (const animation of light.getAnimations()) { animation.currentTime = 0; animation.play(); }
  }

  // A fence stands up while a horse still has it ahead; once the whole field is past it, it is
  // drawn faint. The fence on the start line goes up once every horse has left the start.
  markFences(horses) {
    if (!this.fenceLayer) return;
    const lines = horses.filter((h) => h.stage === "racing" && h.lane !== undefined)
      .map((h) => (this.squares[key(h.lane, h.square)] || {}).line).filter((line) => line !== undefined);
    for (const mark of this.fenceLayer.children) {
      const line = Number(mark.dataset.line);
      const up = mark.dataset.fence === "start" ? lines.length > 0 && !lines.includes(0) : lines.some((l) => l < line);
      const state = up ? "up" : mark.dataset.fence === "start" && lines.some((l) => l < line) ? "waiting" : "cleared";
      if (mark.dataset.state !== state) mark.dataset.state = state;
    }
  }

  // -- squares to choose -----------------------------------------------------------------------
  // marks: [{lane, square, falls, confirming, title}]; onPick(lane, square) on a click or Enter.
  setMarks(marks, onPick) {
    this.reachLayer.innerHTML = "";
    this.confirmLayer.innerHTML = "";
    for (const m of marks) {
      const poly = this.polys[key(m.lane, m.square)];
      if (!poly) continue;
      const mark = svg("polygon", { points: poly.getAttribute("points"),
                                    class: `sq ${m.confirming ? "confirming" : "reach"}${m.falls ? " falls" : ""}`,
                                    dataset: { lane: m.lane, square: m.square, falls: m.falls ? "yes" : "no" } },
                       svg("title", {}, m.title));
      if (m.confirming) { this.confirmLayer.append(mark); continue; }
      mark.setAttribute("tabindex", "0");
      mark.setAttribute("role", "button");
      mark.setAttribute("aria-label", m.title);
      mark.addEventListener("click", () => { if (!this.dragged) onPick(m.lane, m.square); });
      mark.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(m.lane, m.square); return; }
        // the arrows go from lit square to lit square (the view follows the focus)
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
        if (!step) return;
        e.preventDefault();
        const all = [...this.reachLayer.querySelectorAll("polygon")];
        this.focusMark((all.indexOf(mark) + step + all.length) % all.length);
      });
      this.reachLayer.append(mark);
    }
  }

  // the focus on lit square n (the first by default), brought into view if it is out of it
  focusMark(n = 0) {
    const mark = this.reachLayer.querySelectorAll("polygon")[n];
    if (!mark) return;
    mark.focus({ preventScroll: true });
    const at = this.squares[key(mark.dataset.lane, mark.dataset.square)].at;
    if (!this.contains({ x: at[0] - 15, y: at[1] - 15, w: 30, h: 30 })) this.centreOn(at);
  }

  // onTap(lane, squares) on a click on a square that is not marked (or on a horse: its square): squares is its index on each
  // pass ([first] or [first, second]) for the page to pick the one it means
  onSquareTap(onTap) { this.onTap = onTap; }

  // the square a "why" explanation is about, outlined (null: none)
  markWhy(lane, square) {
    this.whyLayer.innerHTML = "";
    const poly = lane === null ? null : this.polys[key(lane, square)];
    if (poly) this.whyLayer.append(svg("polygon", { points: poly.getAttribute("points"), class: "sq why", dataset: { lane, square } }));
  }

  // A review's choice at a decision (the replay): the square chosen and the better one, outlined and
  // labelled ("chosen", "better"), both in view. spots: [{lane, square, kind: "made"|"better", label}].
  markChoices(spots) {
    this.reviewLayer.innerHTML = "";
    this.reviewLabels.innerHTML = "";
    const shown = [];
    for (const spot of spots) {
      const poly = this.polys[key(spot.lane, spot.square)];
      if (!poly) continue;
      const at = this.squares[key(spot.lane, spot.square)].at;
      shown.push(at);
      this.reviewLayer.append(
        svg("polygon", { points: poly.getAttribute("points"), class: `sq review-${spot.kind}`, dataset: { lane: spot.lane, square: spot.square } },
            svg("title", {}, spot.label)));
      this.reviewLabels.append(
        svg("text", { class: `review-label review-${spot.kind}`, x: at[0], y: at[1] - (spot.kind === "better" ? 16 : -24) }, spot.label));
    }
    if (shown.length && !shown.every(([x, y]) => this.contains({ x: x - 20, y: y - 20, w: 40, h: 40 }))) this.frameSpots(shown);
  }

  // -- zoom and pan ----------------------------------------------------------------------------
  viewBox() { const v = this.view; return `${v.x} ${v.y} ${v.w} ${v.h}`; }

  // the view's shape follows the box it is shown in (so that "fit" fills it)
  aspect() {
    const box = this.wrap && this.wrap.getBoundingClientRect();
    return box && box.width > 0 && box.height > 0 ? box.width / box.height : this.full.w / this.full.h;
  }

  setView(view) {
    const ratio = this.aspect();
    let { x, y, w, h } = view;
    // keep the box's shape, neither closer than MIN_VIEW nor farther than the whole course
    const cx = x + w / 2, cy = y + h / 2;
    if (w / h > ratio) h = w / ratio; else w = h * ratio;
    const fitScale = Math.max(this.full.w / ratio, this.full.h);   // the fitted view's height
    const most = fitScale, least = Math.min(MIN_VIEW / Math.min(ratio, 1), most);
    h = Math.min(Math.max(h, least), most);
    w = h * ratio;
    this.view = this.clampView({ x: cx - w / 2, y: cy - h / 2, w, h });
    this.root.setAttribute("viewBox", this.viewBox());
    this.wrap.dataset.zoom = (this.fitHeight() / h).toFixed(2);
  }

  // a view moved so as never to pan the course out of sight: the part of it in sight (`band`, the
  // shares of its height the page's pinned panels leave, as the last frame had it) stays on the course
  clampView({ x, y, w, h }) {
    const [top, bottom] = this.band || [0, 1], seen = (bottom - top) * h;
    const fx = this.full.x + this.full.w / 2, fy = this.full.y + this.full.h / 2;
    const spanX = Math.max(0, (this.full.w - w) / 2), spanY = Math.max(0, (this.full.h - seen) / 2);
    const cy = Math.min(Math.max(y + top * h + seen / 2, fy - spanY), fy + spanY);
    return { x: Math.min(Math.max(x + w / 2, fx - spanX), fx + spanX) - w / 2, y: cy - seen / 2 - top * h, w, h };
  }

  fitHeight() { const ratio = this.aspect(); return Math.max(this.full.w / ratio, this.full.h); }

  fit() { this.setView({ ...this.full }); }

  // zoom by `factor` (below 1: closer) about a point of the course (default: the view's centre)
  zoomBy(factor, about = null) {
    const v = this.view;
    const [px, py] = about || [v.x + v.w / 2, v.y + v.h / 2];
    const w = v.w * factor, h = v.h * factor;
    this.setView({ x: px - (px - v.x) * factor, y: py - (py - v.y) * factor, w, h });
  }

  // where the + button zooms: the horse to move when it is in view, else the view's centre
  focusPoint() {
    const at = this.currentAt;
    return at && this.contains({ x: at[0], y: at[1], w: 0, h: 0 }) ? at : null;
  }

  panBy(dx, dy) { const v = this.view; this.setView({ ...v, x: v.x + dx, y: v.y + dy }); }

  // centre the view on a point of the course, at the zoom it has
  centreOn([x, y]) { const v = this.view; this.setView({ ...v, x: x - v.w / 2, y: y - v.h / 2 }); }

  zoomed() { return this.view.h < this.fitHeight() * 0.98; }

  // The horse to move in sight: when zoomed in, the view follows it; on a small screen the view
  // comes close to it first.
  follow(small) {
    if (!this.currentAt) return;
    const [x, y] = this.currentAt;
    if (small && !this.zoomed()) this.setView({ x: x - PHONE_VIEW / 2, y: y - PHONE_VIEW / 2, w: PHONE_VIEW, h: PHONE_VIEW });
    else if (this.zoomed() && !this.contains({ x: x - 40, y: y - 40, w: 80, h: 80 })) this.centreOn(this.currentAt);
  }

  // The squares to choose from (and the horse) in sight, close enough to tap on a small screen.
  showMarks(small) {
    const spots = [...this.reachLayer.querySelectorAll("polygon"), ...this.confirmLayer.querySelectorAll("polygon")]
      .map((p) => this.squares[key(p.dataset.lane, p.dataset.square)].at);
    if (this.currentAt) spots.push(this.currentAt);
    if (!spots.length) return;
    const box = grow(boxOf(spots), 30);
    if (small) {
      const grow = (side) => Math.max(side, PHONE_VIEW * 0.8);
      const w = grow(box.w), h = grow(box.h);
      this.setView({ x: box.x + box.w / 2 - w / 2, y: box.y + box.h / 2 - h / 2, w, h });
    }
    else if (!this.contains(box)) this.centreOn([box.x + box.w / 2, box.y + box.h / 2]);
  }

  // The view around some points of the course (the horse to move, the squares it may reach):
  // all of them in sight with room around, at least `least` units high, and close enough that a
  // token is at least `tokenPx` pixels across (then, if they do not all fit, centred between them).
  // wanted: more boxes of the course ({x, y, w, h}) in groups, most wanted first: each group is
  // framed too while it fits as close as that. Where the view has room to spare, placeView decides.
  // `touched` says the player moved the view (zoom, pan, Fit): the page leaves it so until its next
  // turn.
  // band: the part of the box's height in sight, [top, bottom] in pixels from its top (a phone's
  // panels pinned over the board hide the rest): the spots are framed in it.
  frameSpots(spots, { tokenPx = 26, least = 260, pad = 36, band = null, wanted = [] } = {}) {
    const box = this.wrap.getBoundingClientRect();
    if (!spots.length || !box.width || !box.height) return;
    const [top, bottom] = band && band[1] - band[0] > box.height * 0.35 ? band : [0, box.height];
    // the share of the view's height in sight, below the buttons over its top edge
    const seen = (bottom - Math.max(top, this.tools.getBoundingClientRect().bottom - box.top)) / box.height;
    const ratio = box.width / box.height;
    const close = box.height * 2 * TOKEN / tokenPx;   // the view's height at which a token is tokenPx
    const need = (f) => Math.max(f.h / seen, f.w / ratio);   // the view's height that holds a frame in sight
    const spotsBox = boxOf(spots);
    let frame = grow(spotsBox, pad);
    for (const group of wanted) {
      const more = group.reduce(union, frame);
      if (need(more) <= close) frame = more;
    }
    // a name, flag or horse across the frame's edge is taken in whole (each once), while that fits
    let left = this.kept();
    for (let grown = true; grown;) {
      grown = false;
      left = left.filter((b) => {
        if (!overlaps(b, frame) || within(b, frame) || need(union(frame, b)) > close) return true;
        frame = union(frame, b);
        grown = true;
        return false;
      });
    }
    const h = Math.min(Math.max(need(frame), Math.min(least, close)), close);
    this.band = [top / box.height, bottom / box.height];
    // the spots themselves, a token and its ring round each, are never left out for the rest
    this.setView(this.placeView(grow(spotsBox, TOKEN + 6), frame, h * ratio, h));
  }

  // Where a view of w x h holds `hold` in its band (this.band: [top, bottom], the shares of its
  // height in sight; centred on it along a side it does not fit): the place that shows the most of
  // the track (its area, in squares), with no post's name, fence flag or horse cut at the band's
  // edges or hidden under the buttons, and as little of `frame` (the spots with room round them,
  // and what was wanted) out of sight as that allows; a post's name in sight counts as 40 squares, a
  // flag as 10; between equals, the nearest to the frame's middle. The places tried: the frame
  // against each edge of what is in sight (below the buttons at the top), the frame in its middle,
  // and steps between.
  placeView(hold, frame, w, h) {
    const [top, bottom] = this.band, wrap = this.wrap.getBoundingClientRect(), tools = this.tools.getBoundingClientRect();
    const below = Math.max(top, (tools.bottom - wrap.top) / wrap.height);   // the top of what is in sight, below the buttons
    const names = this.postNames.map((p) => textBox(p.text)), flags = this.flags || [], keep = this.kept();
    const mid = { x: frame.x + frame.w / 2 - w / 2, y: frame.y + frame.h / 2 - (below + bottom) / 2 * h };
    const places = (low, high, ...aligned) => (high < low ? [(low + high) / 2]
      : [...aligned, ...Array.from({ length: 25 }, (_, i) => low + (high - low) * i / 24)].map((v) => Math.min(Math.max(v, low), high)));
    const xs = places(hold.x + hold.w - w, hold.x, mid.x, frame.x, frame.x + frame.w - w);
    const ys = places(hold.y + hold.h - bottom * h, hold.y - below * h, mid.y, frame.y - below * h, frame.y + frame.h - bottom * h);
    const outside = (b, v) => Math.max(0, v.x - b.x) + Math.max(0, b.x + b.w - v.x - v.w) + Math.max(0, v.y - b.y) + Math.max(0, b.y + b.h - v.y - v.h);
    let best = null;
    for (const x of xs) {
      for (const y of ys) {
        const v = this.clampView({ x, y, w, h });
        const seen = { x: v.x, y: v.y + top * h, w, h: (bottom - top) * h };
        const under = { x: v.x + (tools.left - wrap.left) / wrap.width * w, y: v.y + (tools.top - wrap.top) / wrap.height * h,
                        w: tools.width / wrap.width * w, h: tools.height / wrap.height * h };
        let score = -2 * outside(frame, { ...seen, y: v.y + below * h, h: (bottom - below) * h }) - Math.hypot(v.x - mid.x, v.y - mid.y) / 100;
        score += this.trackIn(seen);
        for (const b of keep) if ((overlaps(b, seen) && !within(b, seen)) || overlaps(b, under)) score -= 1000;
        const shown = (b) => within(b, seen) && !overlaps(b, under);
        score += 40 * names.filter(shown).length + 10 * flags.filter(shown).length;
        if (!best || score > best.score) best = { score, view: v };
      }
    }
    return best.view;
  }

  // What a view shows whole or not at all: the posts' names, the fence flags and the horses with
  // their tags and rings, as boxes of the course.
  kept() {
    return [...this.postNames.map((p) => textBox(p.text)), ...(this.flags || []), ...Object.values(this.horseBoxes || {}).map((b) => b.box)];
  }

  // Frame the race at a turn: `focus` ([{lane, square}]: the horse to move and the squares it may
  // choose, or the horses in their stalls) in sight, then, as they fit (frameSpots' wanted): the
  // squares it might reach (`ahead`, aheadOf: a guess while its card or its dice are not known); the
  // track across all its lanes where these are; the names of the posts there; the finish post
  // and its name once they come near it; the other horses on the track, the nearest first (before
  // the squares ahead when `fieldFirst`: in a round of dice the roller's choice moves every horse).
  frameRace(focus, { ahead = [], fieldFirst = false, ...options } = {}) {
    const at = (list) => list.map((s) => this.squares[key(s.lane, s.square)]).filter(Boolean);
    const squares = at(focus), guess = at(ahead);
    if (!squares.length) return;
    const lines = [...squares, ...guess].map((s) => s.line), first = Math.min(...lines), last = Math.max(...lines);
    const names = this.postNames.filter((p) => p.line >= first && p.line <= last).map((p) => textBox(p.text));
    const across = [...this.byLine.entries()].filter(([line]) => line >= first && line <= last)
      .flatMap(([, list]) => list.map((s) => boxOf(s.cell)));
    const field = Object.values(this.horseBoxes || {}).sort((a, b) => Math.abs(a.line - first) - Math.abs(b.line - first))
      .map((horse) => [horse.box]);
    const wanted = [...(fieldFirst ? field : []), guess.map((s) => around(s.at, TOKEN + 6)), across, names];
    const toGo = (s) => this.course.finish[s.lane] - s.index;   // squares to the finish line, in its lane
    if ([...squares, ...guess].some((s) => toGo(s) > 0 && toGo(s) <= FINISH_NEAR)) {
      wanted.push([...this.finishAt.squares.map((s) => boxOf(s.cell)), textBox(this.finishAt.name)]);
    }
    if (!fieldFirst) wanted.push(...field);
    this.frameSpots(squares.map((s) => s.at), { least: this.trackWidth + 2 * PAD, ...options, wanted });
  }

  // where a horse on (lane, square) might go: the squares up to `ahead` in front of it, in its lane
  // and the lanes beside it (the frame before a card is chosen), as [{lane, square}]
  aheadOf(lane, square, ahead = 12) {
    const out = [];
    for (const l of [lane - 1, lane, lane + 1]) {
      const s = this.squares[key(l, Number(square) + ahead)] || this.squares[key(l, Number(square) + Math.round(ahead / 2))];
      if (s) out.push({ lane: s.lane, square: s.index });
    }
    return out;
  }

  // Every horse on the track and the squares lit in sight, as close as that allows (the guided
  // first race: its few horses stay near one another).
  frame() {
    const lit = [...this.reachLayer.querySelectorAll("polygon")].map((p) => this.squares[key(p.dataset.lane, p.dataset.square)].at);
    const spots = [...Object.values(this.horseAt || {}), ...lit];
    if (!spots.length) return;
    // more room above: the zoom buttons sit over the view's top edge
    const roomy = grow(boxOf(spots), 30), box = { ...roomy, y: roomy.y - 25, h: roomy.h + 25 };
    const w = Math.max(box.w, PHONE_VIEW * 0.8), h = Math.max(box.h, PHONE_VIEW * 0.8);
    this.setView({ x: box.x + box.w / 2 - w / 2, y: box.y + box.h / 2 - h / 2, w, h });
  }

  contains(box) {
    const v = this.view;
    return box.x >= v.x && box.y >= v.y && box.x + box.w <= v.x + v.w && box.y + box.h <= v.y + v.h;
  }

  // a point on screen -> the course's units
  toCourse(clientX, clientY) {
    const r = this.wrap.getBoundingClientRect(), v = this.view;
    return [v.x + (clientX - r.left) / r.width * v.w, v.y + (clientY - r.top) / r.height * v.h];
  }

  // a square's name, shown on hover (made then: a thousand titles would slow the drawing)
  squareTitle(poly) {
    const { lane, square, pass2 } = poly.dataset;
    return pass2 === undefined ? squareName(lane, square)
      : t("Lane {lane}, square {first} on the first lap, {second} on the second", { lane: laneNumber(lane), first: square, second: pass2 });
  }

  listen() {
    const wrap = this.wrap;
    wrap.addEventListener("pointerover", (e) => {
      const poly = e.target;
      if (poly.parentNode && poly.parentNode.classList.contains("squares") && !poly.firstChild) poly.append(svg("title", {}, this.squareTitle(poly)));
    });
    wrap.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.touched = true;
      this.zoomBy(Math.exp(e.deltaY * 0.0015), this.toCourse(e.clientX, e.clientY));
    }, { passive: false });
    const pointers = new Map();
    let last = null, pinch = null, moved = 0;
    wrap.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 1) { last = [e.clientX, e.clientY]; moved = 0; this.dragged = false; }
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { dist: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      }
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) last = null;
      else last = [...pointers.values()][0];
    };
    wrap.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      const r = wrap.getBoundingClientRect();
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a[0] - b[0], a[1] - b[1]);
        this.zoomBy(pinch.dist / dist, this.toCourse((a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
        pinch = { dist };
        this.dragged = this.touched = true;
        return;
      }
      if (!last) return;
      const dx = e.clientX - last[0], dy = e.clientY - last[1];
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved > 6) {
        if (!this.dragged) wrap.setPointerCapture(e.pointerId);
        this.dragged = this.touched = true;
        this.panBy(-dx / r.width * this.view.w, -dy / r.height * this.view.h);
      }
      last = [e.clientX, e.clientY];
    });
    wrap.addEventListener("pointerup", end);
    wrap.addEventListener("pointercancel", end);
    // a drag is not a click on the square it ends on
    wrap.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); this.dragged = false; } }, true);
    wrap.addEventListener("click", (e) => {
      if (!this.onTap) return;
      const token = e.target.closest ? e.target.closest("g.horse") : null;   // a horse's token: the square it stands on
      if (token && token.dataset.lane !== undefined) { this.onTap(Number(token.dataset.lane), [Number(token.dataset.square)]); return; }
      const poly = e.target;
      if (!poly.parentNode || !poly.parentNode.classList || !poly.parentNode.classList.contains("squares")) return;
      const { lane, square, pass2 } = poly.dataset;
      this.onTap(Number(lane), pass2 === undefined ? [Number(square)] : [Number(square), Number(pass2)]);
    });
    wrap.addEventListener("keydown", (e) => {
      const step = this.view.w * 0.15;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (e.target !== wrap) return;
      if (moves[e.key] || ["+", "=", "-", "_", "0"].includes(e.key)) this.touched = true;
      if (moves[e.key]) { e.preventDefault(); this.panBy(...moves[e.key]); }
      else if (e.key === "+" || e.key === "=") { e.preventDefault(); this.zoomBy(1 / 1.4); }
      else if (e.key === "-" || e.key === "_") { e.preventDefault(); this.zoomBy(1.4); }
      else if (e.key === "0") { e.preventDefault(); this.fit(); }
    });
    // the box changed size (a phone turned, the window resized): keep the view's centre and zoom
    this.resizer = new ResizeObserver(() => { this.fitCourseName(); this.setView(this.view); });
    this.resizer.observe(wrap);
  }

  remove() { this.resizer.disconnect(); this.tools.remove(); this.wrap.remove(); }
}
