// The TurfMaster page: the course drawn from its data, horses, hands, decisions, tables, log.
// It renders only what the server sends: view(seat) and the decision's options.
import { t, tn, ordinal, render, seatName } from "/static/i18n.js";
import { el, svg } from "/static/net.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const horseName = (id) => t(cap(id));
const LIGHT = new Set(["yellow", "white"]);
const key = (lane, square) => `${lane}:${square}`;
const isJoker = (card) => card.startsWith("J");
// NOTE: a joker card of TurfMaster, e.g. "joker 9"
const cardName = (card) => (isJoker(card) ? t("joker {value}", { value: card.slice(1) }) : card);

// A decision's note on option `index`, in the page's language (the server's message when it sent
// one as JSON, else its text).
function noteOf(decision, index) {
  const message = decision.notes_i18n && decision.notes_i18n[index];
  return message ? render(message) : (decision.notes && decision.notes[index]) || "";
}

// The move log, oldest first: the meeting's events and the race's history merged in the order
// they happened. The meeting's events (bonus cards, cards given up) are in order and say their
// race; the view holds the history of one race only. An event between two races comes before the
// history of the later one; a claim during the race is placed where the engine says (`at`: the
// history's length then) or, without that, where the page saw it arrive (`seenAt`: event index ->
// history length). A horse that falls at a fence does so at the end of its move.
export function timeline(view, race, seenAt = {}) {
  const history = (race && race.history) || [];
  const events = view.events || [];
  const historyRace = view.phase === "race" ? view.race_no : (view.results || []).length;
  const before = [], after = [], during = [];
  events.forEach((event, index) => {
    if (event.race > historyRace) after.push(event);
    else if (event.race === historyRace && event.during_race) {
      during.push({ event, at: event.at ?? seenAt[index] ?? history.length });
    } else before.push(event);
  });
  const merged = [...before];
  history.forEach((entry, index) => {
    for (const d of during) if (d.at === index) merged.push(d.event);
    merged.push(entry);
    if (entry.event === "move" && entry.fell) merged.push({ ...entry, event: "fall" });
  });
  for (const d of during) if (d.at >= history.length) merged.push(d.event);
  return [...merged, ...after];
}

export class Page {
  constructor(root, summary, description) {
    this.courses = description.data.courses;
    this.colours = Object.fromEntries(description.data.horses.map((horse) => [horse.id, horse.colour]));
    this.root = root;
    this.summary = summary;
    this.msg = null;
    this.selected = null;      // the card (or die) option chosen, waiting for a square
    this.previewSquares = null;
    this.intent = null;        // the square to move to once the card is played
    this.horseNodes = {};
    this.build();
  }

  build() {
    this.root.innerHTML = "";
    this.turnBox = el("div", { class: "turn", id: "turn", "aria-live": "polite" });
    this.roundBox = el("div", { class: "muted", id: "round" });
    const zoomed = this.courseWrap ? this.courseWrap.classList.contains("zoom") : window.innerWidth < 700;
    this.courseWrap = el("div", { class: "course-wrap", id: "course" },
      el("div", { class: "course-tools" },
        el("button", { type: "button", id: "zoom", onclick: () => this.toggleZoom() }, t("Zoom"))));
    if (zoomed) this.courseWrap.classList.add("zoom");  // a phone: squares big enough to tap
    this.decisionBox = el("div", { class: "options", id: "decision" });
    this.handBox = el("div", { id: "hands" });
    this.horsesBox = el("div", { id: "horses" });
    this.tablesBox = el("div", { id: "tables" });
    this.logBox = el("ol", { class: "log", id: "log", reversed: true, dataset: { order: "newest-first" } });
    this.root.append(el("div", { class: "tm-layout" },
      el("div", { class: "column" },
        el("div", { class: "panel p-turn" }, this.turnBox, this.roundBox),
        el("div", { class: "p-course" }, this.courseWrap),
        el("div", { class: "panel p-horses", style: "margin-top:.75rem" }, el("h2", {}, t("Horses")), this.horsesBox)),
      el("div", { class: "column" },
        el("div", { class: "panel p-hand" }, el("h2", {}, t("Your hand")), this.handBox, this.decisionBox),
        el("div", { class: "panel p-tables" }, this.tablesBox),
        el("div", { class: "panel p-log" }, el("h2", {}, t("Moves")), this.logBox))));
  }

  rerender() { this.build(); this.svgBuilt = null; this.horseNodes = {}; if (this.msg) this.update(this.msg); }

  toggleZoom() {
    this.courseWrap.classList.toggle("zoom");
    this.scrollToCurrent();
  }

  raceView(msg) {
    const view = msg.view;
    if (msg.game === "turfmaster-race") return view;
    return view.race;
  }

  // -- the course --------------------------------------------------------------------
  async ensureCourse(name, steeplechase) {
    const id = `${name}:${steeplechase}`;
    if (this.svgBuilt === id) return;
    if (this.loading === id) return this.loadingPromise;
    this.loading = id;
    this.loadingPromise = (async () => {
      const course = this.courses[name];
      this.course = course;
      this.drawCourse(course, steeplechase);
      this.svgBuilt = id;
    })();
    return this.loadingPromise;
  }

  drawCourse(course, steeplechase) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [, , , cell] of course.squares) for (const [x, y] of cell) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const pad = 24;
    const root = svg("svg", { viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`,
                              role: "img", "aria-label": t("The course") });
    const fenceLines = new Set(steeplechase ? course.fences.map((f) => f.line) : []);
    this.cells = {};
    this.polys = {};
    const squares = svg("g", { class: "squares" });
    for (const [lane, index, line, cell] of course.squares) {
      const cls = ["sq"];
      if (lane % 2) cls.push("alt");
      if (index === 0) cls.push("start");
      if (index >= course.finish[lane]) cls.push("past");
      if (fenceLines.has(line)) cls.push("fence");
      const poly = svg("polygon", { points: cell.map((p) => p.join(",")).join(" "), class: cls.join(" "),
                                    dataset: { lane, square: index } });
      squares.append(poly);
      const cx = cell.reduce((s, p) => s + p[0], 0) / 4, cy = cell.reduce((s, p) => s + p[1], 0) / 4;
      this.cells[key(lane, index)] = [cx, cy];
      this.polys[key(lane, index)] = poly;
    }
    root.append(squares);
    const lines = svg("g", {});
    for (const [lane, index, , cell] of course.squares) {
      if (index === course.finish[lane]) lines.append(svg("line", { class: "finish", x1: cell[0][0], y1: cell[0][1], x2: cell[3][0], y2: cell[3][1] }));
      if (index === 0) lines.append(svg("line", { class: "startline", x1: cell[1][0], y1: cell[1][1], x2: cell[2][0], y2: cell[2][1] }));
    }
    root.append(lines);
    // the home straight is run twice, so the squares of both passes share a place: reachable
    // squares are drawn again on a layer of their own, above both
    this.reachLayer = svg("g", { class: "reach-layer" });
    root.append(this.reachLayer);
    this.horseLayer = svg("g", { class: "horses" });
    root.append(this.horseLayer);
    const old = this.courseWrap.querySelector("svg");
    if (old) old.remove();
    this.courseWrap.append(root);
    this.horseNodes = {};
  }

  clickSquare(lane, square) {
    const msg = this.msg;
    if (!msg || !this.reach || !this.reach.has(key(lane, square))) return;
    const decision = msg.decision;
    if (decision && decision.kind === "square" && decision.options) {
      const option = decision.options.find((o) => o.type === "square" && o.lane === lane && o.square === square);
      if (option) this.connection.act(option);
      return;
    }
    if (this.selected) {
      this.intent = { horse: this.selected.horse, lane, square };
      this.connection.act(this.selected);
      this.selected = null;
      this.previewSquares = null;
    }
  }

  drawHorses(race) {
    if (!this.horseLayer) return;
    const current = this.currentHorse(race);
    const seen = new Set();
    for (const horse of race.horses) {
      if (horse.lane === undefined || horse.status === "finished") continue;
      const at = this.cells[key(horse.lane, horse.square)];
      if (!at) continue;
      seen.add(horse.id);
      let node = this.horseNodes[horse.id];
      const colour = this.colours[horse.id] || horse.id;
      if (!node) {
        node = svg("g", { class: "horse", dataset: { horse: horse.id } },
          svg("circle", { class: "body", r: 10, fill: colour }),
          svg("text", { fill: LIGHT.has(horse.id) ? "#111" : "#fff" }, horseName(horse.id).charAt(0)),
          svg("g", { class: "badge" }));
        this.horseLayer.append(node);
        this.horseNodes[horse.id] = node;
      }
      node.style.transform = `translate(${at[0]}px, ${at[1]}px)`;
      node.classList.toggle("current", horse.id === current);
      node.classList.toggle("fallen", horse.status === "fallen");
      node.style.opacity = horse.status === "fallen" ? 0.35 : 1;
      const badge = node.querySelector(".badge");
      badge.innerHTML = "";
      if (horse.limit) {
        badge.append(svg("circle", { class: "limit", cx: 11, cy: -11, r: 7 }),
                     svg("text", { x: 11, y: -11, fill: "#111", style: "font-size:9px" }, String(horse.limit)));
      }
    }
    for (const [id, node] of Object.entries(this.horseNodes)) if (!seen.has(id)) { node.remove(); delete this.horseNodes[id]; }
  }

  currentHorse(race) {
    if (!race || race.over) return null;
    if (race.pending && race.pending.horse) return race.pending.horse;
    return race.order ? race.order[race.turn] : null;
  }

  showReach() {
    // bring the lit squares into sight: on a phone the course is below the hand
    const mark = this.reachLayer && this.reachLayer.querySelector("polygon");
    if (!mark) return;
    const wrap = this.courseWrap.getBoundingClientRect();
    if (wrap.top > window.innerHeight - 120 || wrap.bottom < 120) this.courseWrap.scrollIntoView({ block: "center" });
    if (this.courseWrap.classList.contains("zoom")) {
      const box = mark.getBoundingClientRect(), now = this.courseWrap.getBoundingClientRect();
      this.courseWrap.scrollLeft += box.left - now.left - now.width / 2;
      this.courseWrap.scrollTop += box.top - now.top - now.height / 2;
    }
  }

  scrollToCurrent() {
    if (!this.courseWrap.classList.contains("zoom") || !this.msg) return;
    const race = this.raceView(this.msg);
    const id = race && this.currentHorse(race);
    const node = id && this.horseNodes[id];
    if (!node) return;
    const box = node.getBoundingClientRect(), wrap = this.courseWrap.getBoundingClientRect();
    this.courseWrap.scrollLeft += box.left - wrap.left - wrap.width / 2;
    this.courseWrap.scrollTop += box.top - wrap.top - wrap.height / 2;
  }

  // -- state --------------------------------------------------------------------------
  async update(msg) {
    const previous = this.msg;
    this.msg = msg;
    if (!previous || previous.state_id !== msg.state_id) { this.selected = null; this.previewSquares = null; }
    const view = msg.view;
    await this.ensureCourse(view.course, view.steeplechase);
    if (this.msg !== msg) return;   // a newer state arrived while the course loaded
    const decision = msg.decision;
    const mine = decision && decision.options && decision.seat === msg.seat;
    if (this.intent && mine && decision.kind === "square") {
      const option = decision.options.find((o) => o.type === "square" && o.horse === this.intent.horse
                                                  && o.lane === this.intent.lane && o.square === this.intent.square);
      this.intent = null;
      if (option) { this.connection.act(option); this.autoSent = msg.state_id; }
    } else if (this.intent && !(mine && decision.kind === "card")) {
      this.intent = null;
    }
    this.root.dataset.stateId = msg.state_id;
    const race = this.raceView(msg);
    if (race) this.drawHorses(race); else if (this.horseLayer) { this.horseLayer.innerHTML = ""; this.horseNodes = {}; }
    this.renderTurn(msg, race);
    this.renderHands(msg);
    this.renderDecision(msg);
    this.renderHorses(msg, race);
    this.renderTables(msg, race);
    this.renderLog(msg, race);
    this.renderReach();
    if (msg.decision && msg.decision.options && msg.decision.kind === "square") this.showReach(); else this.scrollToCurrent();
  }

  seatName(seat) { return seatName(this.msg && this.msg.seats, seat); }

  describeDecision(decision) {
    const horse = decision.horse || (decision.context && decision.context.horse);
    const h = horse ? horseName(horse) : "";
    return {
      card: t("play a card for {horse}", { horse: h }),
      square: t("choose where {horse} ends its move", { horse: h }),
      die: t("choose one die for {horse}", { horse: h }),
      dice_use: t("use the dice: the sum or one die"),
      claim_bonus: t("claim or keep the bonus cards of {horse}", { horse: h }),
      keep: t("choose the cards {horse} keeps", { horse: h }),
      empty_hand: t("{horse} has no card left: claim its bonus cards, or let it stand still", { horse: h }),
    }[decision.kind] || decision.kind;
  }

  renderTurn(msg, race) {
    const view = msg.view;
    const decision = msg.decision;
    let text;
    let mine = false;
    if (msg.over) text = msg.game === "turfmaster" ? t("The meeting is over.") : t("The race is over.");
    else if (decision && decision.seat !== undefined) {
      mine = decision.seat === msg.seat && this.autoSent !== msg.state_id;
      text = mine ? t("Your turn: {what}", { what: this.describeDecision(decision) })
                  : t("{name} to play: {what}", { name: this.seatName(decision.seat), what: this.describeDecision(decision) });
    } else text = t("The dice are rolling…");
    this.turnBox.textContent = text;
    this.turnBox.classList.toggle("mine", mine);
    this.turnBox.dataset.mine = mine ? "yes" : "no";
    this.turnBox.dataset.over = msg.over ? "yes" : "no";
    const parts = [];
    if (msg.game === "turfmaster") parts.push(t("Race {n} of 3", { n: view.race_no || 1 }));
    if (race) {
      parts.push(race.round_kind === "card" ? t("round {n}: cards", { n: race.round }) : t("round {n}: dice", { n: race.round }));
      if (!race.over) parts.push(t("next dice roller: {name}", { name: this.seatName(race.roller) }));
    }
    this.roundBox.innerHTML = "";
    this.roundBox.append(parts.join(" · "));
    if (race && race.dice) {
      const use = race.dice_use ? (race.dice_use.use === "sum" ? t("the sum, {n}", { n: race.dice[0] + race.dice[1] })
                                                               : t("one die, {n}", { n: race.dice_use.value })) : t("not chosen yet");
      this.roundBox.append(" · ", t("dice:"), " ", el("span", { class: "dice", id: "dice" }, race.dice.map((d) => el("span", { class: "die" }, String(d)))),
                           " ", t("used: {use}", { use }));
    }
  }

  renderHands(msg) {
    const view = msg.view;
    const decision = msg.decision;
    this.handBox.innerHTML = "";
    const hands = view.hands || {};
    if (msg.seat === null) { this.handBox.append(el("p", { class: "muted" }, t("You are watching: hands are hidden."))); return; }
    const playing = decision && decision.options && decision.kind === "card" ? decision : null;
    for (const [horse, cards] of Object.entries(hands)) {
      const options = playing && playing.context.horse === horse ? playing.options.filter((o) => o.type === "card") : [];
      const row = el("div", { class: "hand", dataset: { horse } },
        el("div", { style: "width:100%" }, el("span", { class: "swatch", style: `background:${this.colours[horse] || horse}` }), horseName(horse),
           el("span", { class: "muted" }, " · ", tn("{n} card", "{n} cards", cards.length))));
      let marked = false;
      for (const card of cards) {
        const index = options.findIndex((o) => o.card === card);
        const option = index >= 0 ? options[index] : null;
        const note = option ? noteOf(playing, playing.options.indexOf(option)) : "";
        const cls = ["card"];
        if (isJoker(card)) cls.push("joker");
        if (option) cls.push("playable");
        if (note) cls.push("over-limit");
        if (this.selected && option && this.selected.card === card && !marked) { cls.push("selected"); marked = true; }
        row.append(el("button", { type: "button", class: cls.join(" "), disabled: !option, title: note || null,
                                  dataset: { card, horse }, onclick: () => option && this.chooseCard(option) },
          isJoker(card) ? card.slice(1) : card, isJoker(card) ? el("small", {}, t("joker")) : null));
        if (isJoker(card)) row.lastChild.setAttribute("aria-label", cardName(card));
      }
      this.handBox.append(row);
    }
    if (!Object.keys(hands).length) this.handBox.append(el("p", { class: "muted" }, t("No cards in hand.")));
  }

  chooseCard(option) {
    this.selected = option;
    this.previewSquares = null;
    this.connection.preview(option);
    this.renderHands(this.msg);
    this.renderDecision(this.msg);
  }

  onPreview(message) {
    if (!this.msg || message.state_id !== this.msg.state_id || !this.selected) return;
    if (JSON.stringify(message.action) !== JSON.stringify(this.selected)) return;
    this.previewSquares = message.squares;
    this.renderReach();
    this.renderDecision(this.msg);
    this.showReach();
  }

  renderReach() {
    if (this.reachLayer) this.reachLayer.innerHTML = "";
    this.reach = new Set();
    const msg = this.msg;
    if (!msg || !this.polys) return;
    const decision = msg.decision;
    let squares = [];
    const notes = {};
    if (decision && decision.options && decision.kind === "square") {
      decision.options.forEach((o, i) => { if (o.type === "square") { squares.push(o); notes[key(o.lane, o.square)] = noteOf(decision, i); } });
    } else if (this.selected && this.previewSquares) squares = this.previewSquares;
    for (const s of squares) {
      const poly = this.polys[key(s.lane, s.square)];
      if (!poly) continue;
      const mark = svg("polygon", { points: poly.getAttribute("points"), class: `sq reach${notes[key(s.lane, s.square)] ? " falls" : ""}`,
                                    dataset: { lane: s.lane, square: s.square } });
      mark.addEventListener("click", () => this.clickSquare(s.lane, s.square));
      this.reachLayer.append(mark);
      this.reach.add(key(s.lane, s.square));
    }
  }

  optionLabel(option, decision) {
    switch (option.type) {
      case "dice_use": {
        const dice = decision.context.dice || [];
        return option.use === "sum" ? t("Use the sum: {n}", { n: dice[0] + dice[1] }) : t("Use one die: {n}", { n: option.value });
      }
      case "die": return t("Move {horse} by {n}", { horse: horseName(option.horse), n: option.value });
      case "claim_bonus": return t("Claim the 2 bonus cards of {horse}", { horse: horseName(option.horse) });
      case "decline_bonus": return t("Keep the bonus cards of {horse} for later", { horse: horseName(option.horse) });
      case "discard": return t("Give up a {card}", { card: cardName(option.card) });
      case "stand_still": return t("Let {horse} stand still this round", { horse: horseName(option.horse) });
      case "square": return t("Lane {lane}, square {square}", { lane: option.lane, square: option.square });
      case "card": return t("Play {card}", { card: cardName(option.card) });
      default: return JSON.stringify(option);
    }
  }

  renderDecision(msg) {
    const box = this.decisionBox;
    box.innerHTML = "";
    const decision = msg.decision;
    if (!decision || !decision.options || decision.seat !== msg.seat) return;
    if (decision.kind === "card") {
      if (this.selected) {
        if (this.previewSquares && this.previewSquares.length) {
          box.append(el("p", {}, t("Click a highlighted square to move there.")));
          for (const square of this.previewSquares) {
            box.append(el("button", { type: "button", class: "option square-option", dataset: { type: "square" },
                                      onclick: () => this.clickSquare(square.lane, square.square) },
                          this.optionLabel({ type: "square", ...square }, decision)));
          }
        }
        else if (this.previewSquares) box.append(el("p", { class: "note" }, t("This card will not move the horse.")),
          el("button", { type: "button", class: "primary", id: "play-anyway", onclick: () => { this.connection.act(this.selected); } }, t("Play it anyway")));
      } else box.append(el("p", {}, t("Choose a card: the squares it reaches light up.")));
    }
    if (decision.kind === "square") box.append(el("p", {}, t("Click a highlighted square to move there.")));
    if (decision.kind === "keep") {
      const c = decision.context;
      box.append(el("p", {}, t("{horse} holds {n} cards and may keep {limit}: give up {k} more.", { horse: horseName(c.horse), n: c.hand.length, limit: c.limit, k: c.to_discard })));
    }
    decision.options.forEach((option, index) => {
      if (option.type === "card") return;
      const note = noteOf(decision, index);
      box.append(el("div", {}, el("button", { type: "button", class: "option", dataset: { type: option.type },
                                              onclick: () => this.connection.act(option) }, this.optionLabel(option, decision)),
                    note ? el("div", { class: "note" }, note) : null));
    });
  }

  renderHorses(msg, race) {
    const view = msg.view;
    const rows = [];
    const source = race ? race.horses : (view.horses || []);
    const meetingHorses = {};
    for (const h of view.horses || []) meetingHorses[h.id] = h;
    const head = el("tr", {}, el("th", {}, t("Horse")), el("th", {}, t("Owner")), el("th", {}, t("Where")), el("th", {}, t("Limit")), el("th", {}, t("Cards")));
    for (const horse of source) {
      let where = "";
      if (horse.status === "finished") where = ordinal(horse.place);
      else if (horse.status === "fallen") where = t("fell");
      else if (horse.lane !== undefined) where = t("lane {lane}, square {square}", { lane: horse.lane, square: horse.square });
      const cards = horse.cards_left ?? (meetingHorses[horse.id] || {}).cards ?? horse.cards;
      rows.push(el("tr", { dataset: { horse: horse.id } },
        el("td", {}, el("span", { class: "swatch", style: `background:${this.colours[horse.id] || horse.id}` }), horseName(horse.id)),
        el("td", {}, this.seatName(horse.owner)), el("td", {}, where), el("td", {}, race && horse.limit ? String(horse.limit) : "–"),
        el("td", {}, cards === undefined || cards === null ? "" : String(cards))));
    }
    this.horsesBox.innerHTML = "";
    this.horsesBox.append(el("table", { class: "data" }, head, rows));
  }

  renderTables(msg, race) {
    const view = msg.view;
    const box = this.tablesBox;
    box.innerHTML = "";
    if (race && race.places && race.places.length) {
      box.append(el("h2", {}, t("This race")));
      box.append(el("table", { class: "data", id: "race-table" }, race.places.map((h, i) =>
        el("tr", {}, el("td", {}, ordinal(i + 1)), el("td", {}, horseName(h)), el("td", {}, this.seatName(race.horses.find((x) => x.id === h).owner))))));
    }
    if (msg.game === "turfmaster" && view.standings) {
      box.append(el("h2", {}, msg.over ? t("Final table") : t("The meeting")));
      const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), [1, 2, 3].map((n) => el("th", {}, t("Race {n}", { n }))), el("th", {}, t("Points")));
      box.append(el("table", { class: "data", id: "meeting-table" }, head, view.standings.map((row) =>
        el("tr", {}, el("td", {}, String(row.rank)), el("td", {}, this.seatName(row.seat)),
           [0, 1, 2].map((i) => el("td", {}, row.races[i] === undefined ? "" : String(row.races[i]))), el("td", {}, el("b", {}, String(row.total)))))));
    }
    if (!box.childNodes.length) {
      const allFell = race && race.over && !(race.places && race.places.length);
      box.append(el("p", { class: "muted", id: "no-places" }, allFell ? t("Every horse fell: no horse is placed.") : t("No horse has finished yet.")));
    }
  }

  logLine(event) {
    const h = event.horse ? horseName(event.horse) : "";
    switch (event.event) {
      case "card": return event.handicapped ? t("{horse} plays {card}: above its limit of {limit}, it does not move", { horse: h, card: cardName(event.card), limit: event.handicapped })
                                           : t("{horse} plays {card}", { horse: h, card: cardName(event.card) });
      case "roll": return t("{name} rolls {a} and {b}", { name: this.seatName(event.roller), a: event.dice[0], b: event.dice[1] });
      case "dice_use": return event.use === "sum" ? t("The roller uses the sum: {n}", { n: event.value }) : t("The roller uses one die: {n}", { n: event.value });
      case "move": return t("{horse} moves {steps} to lane {lane}, square {square}", { horse: h, steps: event.steps, lane: event.to.lane, square: event.to.square });
      case "fall": return t("{horse} falls at the fence", { horse: h });
      case "finish": return t("{horse} finishes {place}", { horse: h, place: ordinal(event.place) });
      case "no_card": return t("{horse} has no card left and stands still", { horse: h });
      case "claim_bonus": return t("{horse} takes its bonus cards", { horse: h });
      case "keep_discard": return t("{horse} gives up a card", { horse: h });
      case "bonus_discard": return tn("{horse} loses {n} card at random", "{horse} loses {n} cards at random", event.cards, { horse: h });
      case "bonus_dealt": return t("{horse} is dealt its bonus cards", { horse: h });
      default: return event.event;
    }
  }

  renderLog(msg, race) {
    const events = msg.view.events || [];
    const length = ((race && race.history) || []).length;
    this.seenAt = this.seenAt || {};
    events.forEach((event, index) => { if (event.during_race && !(index in this.seenAt)) this.seenAt[index] = length; });
    const lines = timeline(msg.view, race, this.seenAt).slice(-60).reverse();
    this.logBox.innerHTML = "";
    for (const event of lines) this.logBox.append(el("li", { dataset: { event: event.event } }, this.logLine(event)));
  }
}
