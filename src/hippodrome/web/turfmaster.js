// The TurfMaster page: the course drawn from its data, horses, hands, decisions, tables, log.
// It renders only what the server sends: view(seat) and the decision's options.
import { t, tn, ordinal, render, playerName, words, touchScreen } from "/static/i18n.js";
import { el, keyed, createTable, tableLinks } from "/static/net.js";
import { Board, dieWhat, fenceLabel, handicapShort, horseSwatch, laneNumber, squareName } from "/static/turfmaster_board.js";
import { ruleLink } from "/static/rule_link.js";
import { seatHanded } from "/static/lifecycle.js";
import { renderResults } from "/static/turfmaster_results.js";

// the choices a meeting asks for before a race, not moves of it
const BETWEEN_RACE_CHOICES = new Set(["claim_bonus", "keep"]);

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const horseName = (id) => t(cap(id));
const key = (lane, square) => `${lane}:${square}`;
// Write a text only when it changed: an update touches nothing that did not change.
const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };
const isJoker = (card) => card.startsWith("J");
// NOTE: a joker card of TurfMaster, e.g. "joker 9"
const cardName = (card) => (isJoker(card) ? t("joker {value}", { value: card.slice(1) }) : card);

// A decision's note on option `index`, in the page's language (the server's message when it sent
// one as JSON, else its text).
function noteOf(decision, index) {
  const message = decision.notes_i18n && decision.notes_i18n[index];
  return message ? render(message) : (decision.notes && decision.notes[index]) || "";
}

// One race's part of the move log, oldest first: the meeting's events of that race (given with
// their index in view.events) merged with the race's history in the order they happened. Events
// between two races come before the history of the later one; a claim during the race is placed
// where the engine says (`at`: the history's length then) or, without that, where the page saw it
// arrive (`seenAt`: event index -> history length). A horse that falls at a fence does so at the
// end of its move.
function mergeRace(indexed, history, seenAt) {
  const merged = [], during = [];
  for (const [index, event] of indexed) {
    if (event.during_race) during.push({ event, at: event.at ?? seenAt[index] ?? history.length });
    else merged.push(event);
  }
  history.forEach((entry, index) => {
    for (const d of during) if (d.at === index) merged.push(d.event);
    merged.push(entry);
    if (entry.event === "move" && entry.fell) merged.push({ ...entry, event: "fall" });
  });
  for (const d of during) if (d.at >= history.length) merged.push(d.event);
  return merged;
}

// The move log of the race the view holds, oldest first (events of a later race after it).
export function timeline(view, race, seenAt = {}) {
  const history = (race && race.history) || [];
  const historyRace = view.phase === "race" ? view.race_no : (view.results || []).length;
  const indexed = (view.events || []).map((event, index) => [index, event]);
  const mine = indexed.filter(([, e]) => e.race <= historyRace)
    .map(([i, e]) => (e.race < historyRace && e.during_race ? [i, { ...e, during_race: false }] : [i, e]));
  const after = indexed.filter(([, e]) => e.race > historyRace).map(([, e]) => e);
  return [...mergeRace(mine, history, seenAt), ...after];
}

// The whole meeting's log in sections, one per race, oldest first: the draws for the stalls and
// the first roller open race 1; each race's history comes from `past` (the races run, the
// "races" look-up) or from the view's race.
export function sections(view, race, past = [], seenAt = {}) {
  const current = view.phase === "race" ? view.race_no : (view.results || []).length;
  const last = Math.max(view.race_no || 1, current, 1);
  const indexed = (view.events || []).map((event, index) => [index, event]);
  const out = [];
  for (let n = 1; n <= last; n++) {
    const items = [];
    if (n === 1) {
      for (const rolls of view.stall_rolls || []) items.push({ event: "stall_roll", rolls });
      for (const rolls of view.roller_rolls || []) items.push({ event: "roller_roll", rolls });
    }
    const run = past.find((r) => r.race === n);
    const stalls = run ? run.stalls : (n === last && view.stalls && view.stalls.length ? view.stalls : null);
    if (stalls) items.push({ event: "stalls", stalls });
    const history = run ? run.history : (n === current && race ? race.history || [] : []);
    items.push(...mergeRace(indexed.filter(([, e]) => e.race === n), history, seenAt));
    out.push({ race: n, items });
  }
  return out;
}

// Competition ranking of the horses on the track (T2): finished horses first, then by how far
// along the race each stands (`lineOf`), level horses sharing a place; fallen horses last.
export function raceOrder(horses, lineOf) {
  const finished = horses.filter((h) => h.stage === "finished").sort((a, b) => a.place - b.place);
  const racing = horses.filter((h) => h.stage === "racing")
    .sort((a, b) => lineOf(b) - lineOf(a) || a.lane - b.lane);
  const fallen = horses.filter((h) => h.stage === "fallen");
  const rows = finished.map((h) => ({ horse: h, position: h.place }));
  for (const h of racing) {
    rows.push({ horse: h, position: finished.length + 1 + racing.filter((o) => lineOf(o) > lineOf(h)).length });
  }
  return [...rows, ...fallen.map((h) => ({ horse: h, position: null }))];
}

export class Page {
  constructor(root, summary, description) {
    this.description = description;
    this.courses = description.data.courses;
    this.horses = description.data.horses;
    this.root = root;
    this.summary = summary;
    this.msg = null;
    this.selected = null;      // the card (or die) option chosen, waiting for a square
    this.previewSquares = null;
    this.intent = null;        // the square to move to once the card is played
    this.preview = null;       // the server's answer for the selected option: squares, points, steps...
    this.confirmFall = null;   // the square a falling move would end on, waiting for a confirmation
    this.keepChoice = null;    // the keep-cards screen: {key, give: Set of card indexes to give up}
    this.keepQueue = null;     // the discards confirmed, sent one after another: {horse, cards}
    this.pastRaces = [];       // the races run so far, with their histories (the "races" look-up)
    this.pastAsked = 0;
    this.board = null;
    this.build();
  }

  build() {
    this.root.innerHTML = "";
    this.stageBox = el("h2", { class: "stage", id: "stage" });
    this.turnBox = el("div", { class: "turn", id: "turn", "aria-live": "polite" });
    this.roundBox = el("div", { class: "muted", id: "round" });
    this.courseWrap = el("div", { class: "course-wrap", id: "course" });
    this.decisionBox = el("div", { class: "options", id: "decision" });
    this.handBox = el("div", { id: "hands" });
    this.horsesBody = el("tbody", {});
    this.horsesBox = el("div", { id: "horses" }, el("table", { class: "data", id: "horses-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("Position")), el("th", {}, t("Horse")), el("th", {}, t("Owner")),
                              el("th", {}, t("Where")), el("th", {}, t("Handicap")), el("th", {}, t("Cards left")))),
      this.horsesBody));
    this.finalBox = el("div", { class: "panel p-final", id: "final", hidden: true });
    this.tablesBox = el("div", { id: "tables" });
    this.logBox = el("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-label": t("Moves"), dataset: { order: "newest-first" } });
    // what happens on the track, said to a screen reader as it happens: moves, dice rounds, falls,
    // finishes (page.announce), in the page's language
    this.announcer = el("div", { class: "visually-hidden", id: "announcer", "aria-live": "polite", "aria-atomic": "true" });
    this.root.append(el("div", { class: "tm-layout" },
      el("div", { class: "column" },
        this.finalBox,
        this.turnPanel = el("div", { class: "panel p-turn" }, this.stageBox, this.turnBox, this.roundBox),
        el("div", { class: "p-course" }, this.courseWrap),
        el("div", { class: "panel p-horses", style: "margin-top:.75rem", tabindex: "0", role: "region", "aria-label": t("Horses") },
           el("h2", {}, t("Horses")), this.horsesBox,
           // a handicap is the round's, a position the moment's: a horse gone 2nd keeps its "9 (at most 8)"
           el("p", { class: "muted", id: "handicap-note" },
              t("Handicaps are fixed at the start of each round, by the positions then."), " ", ruleLink(this.description, "T6")))),
      el("div", { class: "column" },
        el("div", { class: "panel p-hand" }, el("h2", {}, t("Your hand")), this.handBox, this.decisionBox),
        el("div", { class: "panel p-tables", tabindex: "0", role: "region", "aria-label": t("Results") }, this.tablesBox),
        el("div", { class: "panel p-log" }, el("h2", {}, t("Moves")), this.logBox))),
      this.announcer);
  }

  // the language changed: everything is drawn again, the board at the zoom it had
  rerender() {
    this.keptView = this.board ? this.board.view : null;
    this.keptTouched = Boolean(this.board && this.board.touched);
    if (this.board) this.board.remove();
    this.build(); this.svgBuilt = null; this.loading = null; this.board = null; this.finalShown = null; this.redraw = true;
    if (this.msg) this.update(this.msg);
  }

  // the race in the view: the meeting holds it, a single race (or the guided first race) is one
  raceView(msg) {
    const view = msg.view;
    return msg.game === "turfmaster" ? view.race : view;
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
    this.fenceAtLine = Object.fromEntries(steeplechase ? course.fences.map((f) => [f.line, f.number]) : []);
    this.lines = {};
    for (const [lane, index, line] of course.squares) this.lines[key(lane, index)] = line;
    if (this.board) this.board.remove();
    this.board = new Board(this.courseWrap, course, { steeplechase, horses: this.horses, handicaps: this.description.data.handicap_numbers, title: steeplechase ? `${words(course.title)} · ${t("Steeplechase")}` : words(course.title) });
    this.board.onSquareTap((lane, indexes) => this.explainSquare(lane, indexes));
    if (this.keptView) this.board.setView(this.keptView); else this.board.fit();
    this.board.touched = Boolean(this.keptTouched);
    this.keptView = null;
  }

  // The fence a horse ending on (lane, square) would fall at: the one on the square ahead.
  fenceAhead(lane, square) {
    const line = this.lines && this.lines[key(lane, square + 1)];
    return this.fenceAtLine && line !== undefined ? this.fenceAtLine[line] : undefined;
  }

  fenceName(lane, square) {
    const number = this.fenceAhead(lane, square);
    return number === undefined ? t("the fence") : fenceLabel(number);
  }

  // Whether a horse ending on (lane, square) falls: the square decision's context, or the preview's.
  fallsAt(lane, square) {
    const decision = this.msg && this.msg.decision;
    if (decision && decision.kind === "square" && decision.context) {
      return (decision.context.falls || []).some((f) => f.lane === lane && f.square === square);
    }
    const found = this.selected && this.preview && this.preview.squares.find((s) => s.lane === lane && s.square === square);
    return Boolean(found && found.falls);
  }

  clickSquare(lane, square, confirmed = false) {
    const msg = this.msg;
    if (!msg || !this.reach || !this.reach.has(key(lane, square))) return;
    if (!confirmed && this.fallsAt(lane, square)) {
      this.confirmFall = { lane, square };
      this.renderReach();
      this.renderDecision(msg);
      return;
    }
    this.confirmFall = null;
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

  // A tap on a square the move cannot end on: the engine says why (the private "why" look-up), in
  // words, with the ruling; the square is outlined meanwhile.
  explainSquare(lane, indexes) {
    const msg = this.msg;
    const decision = this.myDecision(msg);
    if (!decision || !["card", "square"].includes(decision.kind)) return;
    if (decision.kind === "card" && !this.selected) {
      this.showMessage(t("Choose a card first: the squares it reaches light up."), "why");
      return;
    }
    // a square of the home straight has an index on each pass: the one ahead of the horse is meant
    const horse = (this.raceView(msg).horses || []).find((h) => h.id === decision.context.horse);
    const from = horse ? this.lines[key(horse.lane, horse.square)] : -1;
    const square = indexes.find((i) => this.lines[key(lane, i)] > from) ?? indexes[0];
    this.whyAsked = { lane, square };
    this.board.markWhy(lane, square);
    this.connection.why({ square: { lane, square }, ...(decision.kind === "card" ? { action: this.selected } : {}) });
  }

  onWhy(message) {
    const asked = this.whyAsked;
    if (!this.msg || message.state_id !== this.msg.state_id || !asked || !message.square) return;
    if (message.square.lane !== asked.lane || message.square.square !== asked.square || !message.message) return;
    this.showMessage(() => render(message.message), "why", message.rule);
  }

  currentHorse(race) {
    if (!race || race.over) return null;
    // the horse whose move the table waits for (not a choice between races: a bonus claim, cards to keep)
    const decision = this.msg && this.msg.decision;
    if (decision && decision.horse && !BETWEEN_RACE_CHOICES.has(decision.kind)) return decision.horse;
    return race.order ? race.order[race.turn] : null;
  }

  // a phone: the board is small, the squares to choose come close enough to tap
  small() { return window.matchMedia("(max-width: 900px)").matches; }

  // -- the view follows the race --------------------------------------------------------------
  // A turn: whose decision it is and for which horse. At each new one the board frames the horse to
  // move and where it may go, with the track around it (the board's frameRace); once the player has
  // moved the view (zoom, pan, Fit) it stays as they left it until their next turn.
  turnKey(msg, race) {
    const decision = msg.decision;
    if (this.myDecision(msg)) return `mine:${decision.context ? decision.context.horse : ""}:${race ? race.round : ""}:${msg.view.race_no || ""}`;
    return `horse:${race ? this.currentHorse(race) : ""}:${race ? race.round : ""}:${msg.view.race_no || ""}`;
  }

  // The part of the board's height in sight, in pixels from its top: below the panels pinned at
  // the top of a phone's screen (whose turn) and above the one pinned at its bottom (the hand).
  boardInSight() {
    const box = this.board.wrap.getBoundingClientRect();
    let top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
    for (const panel of [this.turnPanel, this.root.querySelector(".p-hand")]) {
      if (!panel || !["sticky", "fixed"].includes(getComputedStyle(panel).position)) continue;
      const r = panel.getBoundingClientRect();
      if (r.bottom <= top || r.top >= bottom) continue;
      if (r.top <= top) top = r.bottom; else bottom = Math.min(bottom, r.top);
    }
    return [top - box.top, bottom - box.top];
  }

  followRace(msg, race) {
    const board = this.board;
    if (!board) return;
    const key = this.turnKey(msg, race);
    if (key !== this.lastTurn) {
      if (!this.lastTurn || key.startsWith("mine:")) board.touched = false;   // the player's turn: framed again
      this.lastTurn = key;
    }
    if (board.touched) return;
    if (msg.view.tutorial) { board.frame(); return; }   // the guided race: its few horses close together
    const current = race && this.currentHorse(race);
    const horse = current && (race.horses || []).find((h) => h.id === current && h.lane !== undefined);
    const options = { tokenPx: this.small() ? 21 : 26, band: this.boardInSight() };
    if (!horse) {   // before a race: the horses in their stalls
      const waiting = this.boardHorses(msg, race).filter((h) => h.stage === "waiting");
      if (waiting.length) board.frameRace(waiting, options);
      return;
    }
    const decision = this.myDecision(msg);
    let reach = [];
    if (decision && decision.kind === "square") reach = decision.options.filter((o) => o.type === "square");
    else if (this.selected && this.previewSquares && this.previewSquares.length) reach = this.previewSquares;
    if (reach.length) { board.frameRace([horse, ...reach], options); return; }
    // where it might go: in a round of dice as far as the dice take it (and the other horses, which
    // move by them too, come first), in a round of cards a card's reach
    const dice = race.round_kind === "dice" && race.dice
      ? (race.dice_use && race.dice_use.use !== "sum" ? race.dice_use.value : race.dice[0] + race.dice[1]) : 0;
    board.frameRace([horse], { ...options, ahead: board.aheadOf(horse.lane, horse.square, dice || undefined), fieldFirst: Boolean(dice) });
  }

  // -- state --------------------------------------------------------------------------
  // A state from the server: drawn once the messages already waiting are read, so that a burst of
  // states (bots moving fast) is drawn once, as its newest.
  update(msg) {
    this.latest = msg;
    if (this.drawTimer) return;
    this.drawTimer = setTimeout(() => { this.drawTimer = null; this.draw(this.latest); }, 0);
  }

  async draw(msg) {
    this.msg = msg;
    const view = msg.view;
    await this.ensureCourse(view.course, view.steeplechase);
    if (this.msg !== msg) return;   // a newer state arrived while the course loaded
    // compared with the last state drawn to the end (a draw left for a newer one drew nothing):
    // the same state again (a seat connected, say): what the player may be touching stays as it is
    // ... or a bot has just taken this seat (the state may be the same): its cards and squares go
    const previous = this.drawn;
    this.drawn = msg;
    const fresh = !previous || previous.state_id !== msg.state_id || this.redraw || this.handed(previous) !== this.handed(msg);
    this.redraw = false;
    if (!previous || previous.state_id !== msg.state_id) {
      this.selected = null; this.previewSquares = null; this.preview = null; this.confirmFall = null;
      this.whyAsked = null;
      if (this.board) this.board.markWhy(null);
    }
    const decision = msg.decision;
    const mine = Boolean(this.myDecision(msg));
    if (this.intent && mine && decision.kind === "square") {
      const option = decision.options.find((o) => o.type === "square" && o.horse === this.intent.horse
                                                  && o.lane === this.intent.lane && o.square === this.intent.square);
      this.intent = null;
      if (option) { this.connection.act(option); this.autoSent = msg.state_id; }
    } else if (this.intent && !(mine && decision.kind === "card")) {
      this.intent = null;
    }
    this.sendQueuedDiscard(msg);
    this.askPastRaces(msg);
    this.root.dataset.stateId = msg.state_id;
    const race = this.raceView(msg);
    if (this.board) this.board.setHorses(this.boardHorses(msg, race), race ? this.currentHorse(race) : null);
    document.body.dataset.choice = mine ? "mine" : "";
    this.renderTurn(msg, race);
    if (fresh) this.renderHands(msg);
    if (fresh || (msg.decision && msg.decision.kind === "keep")) this.renderDecision(msg);   // the keep screen patches itself
    this.renderHorses(msg, race);
    this.renderTables(msg, race);
    this.renderFinal(msg);
    this.renderLog(msg, race);
    if (!fresh) return;
    this.renderReach();
    this.followRace(msg, race);
    this.watchKeys();
    if (mine) this.focusFirst();
  }

  // The horses on the board: before a race (its stalls drawn) each in its stall, the inner stall
  // first (T10: stall n is the start square of lane n); once a race is over the fallen have left the
  // track (the finished ones are past the post), so none stays faded into the next race.
  boardHorses(msg, race) {
    const view = msg.view;
    if (msg.game === "turfmaster" && view.phase === "prepare" && (view.stalls || []).length) {
      return view.stalls.map((id, stall) => ({ id, lane: stall, square: 0, stage: "waiting" }));
    }
    if (!race) return [];
    return race.over ? race.horses.filter((h) => h.stage !== "fallen") : race.horses;
  }

  // The connection came back (the server went away, or closed a socket that sent too much): a move
  // sent as the socket closed may be lost, so this state's turn is the player's again, drawn anew.
  onStatus(now) {
    if (now === "offline") this.lost = true;
    if (now !== "online" || !this.lost) return;
    this.lost = false;
    this.autoSent = null; this.keepSentAt = null; this.keepQueue = null; this.intent = null;
    this.redraw = true;
    if (this.msg) this.update(this.msg);
  }

  seatName(seat) { return playerName(this.msg, seat); }

  // A bot plays this page's seat (lifecycle.js): no turn of its own, no card, no square.
  handed(msg) {
    return seatHanded(msg);
  }

  // The decision this page's player makes now, or null (another seat's, or a bot's for this seat).
  myDecision(msg) {
    const decision = msg && msg.decision;
    return decision && decision.options && decision.seat === msg.seat && !this.handed(msg) ? decision : null;
  }

  // a horse's colour with the number its token carries on the board
  swatch(horse) { return horseSwatch(this.horses, horse); }

  describeDecision(decision) {
    if (decision.kind === "die") return dieWhat(decision);
    const horse = decision.horse || (decision.context && decision.context.horse);
    const h = horse ? horseName(horse) : "";
    return {
      card: t("play a card for {horse}", { horse: h }),
      square: t("choose where {horse} ends its move", { horse: h }),
      dice_use: t("use the dice: the sum or one die"),
      claim_bonus: t("claim or keep the bonus cards of {horse}", { horse: h }),
      keep: t("choose the cards {horse} keeps", { horse: h }),
      empty_hand: t("{horse} has no card left: claim its bonus cards, or let it stand still", { horse: h }),
      tutorial: t("read the step, then press the button"),
    }[decision.kind] || decision.kind;
  }

  // Where the meeting is: "Race 2 of 3 – before the start".
  stageText(msg, race) {
    const view = msg.view;
    if (msg.game !== "turfmaster") return "";   // a single race: the turn and the round say it all
    if (msg.over) return "";   // the final screen and the turn say it
    const n = view.race_no || 1;
    // between races the table waits for Next race: the engine may have set the next race up already
    const run = (view.results || []).length;
    if (msg.status === "between_races" && run) return t("Race {n} of 3 is over – race {next} comes next", { n: run, next: run + 1 });
    if (view.phase === "setup") return t("Race {n} of 3 – drawing the stalls", { n });
    if (view.phase === "prepare") return t("Race {n} of 3 – before the start", { n });
    return t("Race {n} of 3 – under way", { n });
  }

  renderTurn(msg, race) {
    const decision = msg.decision;
    let text;
    let mine = false;
    const status = msg.status || "playing";   // the table's lifecycle: nothing is played while it waits
    if (msg.over) text = msg.game === "turfmaster" ? t("The meeting is over.") : t("The race is over.");
    else if (status === "waiting") text = t("Waiting for the players");
    else if (status === "between_races" && !(decision && decision.seat === msg.seat)) text = t("Between races: read the results");
    else if (decision && decision.seat !== undefined) {
      mine = Boolean(this.myDecision(msg)) && this.autoSent !== msg.state_id && !this.keepQueue;
      const what = this.describeDecision(decision);
      if (mine) text = t("Your turn: {what}", { what });
      else if (decision.seat === msg.seat && this.handed(msg)) text = t("A bot plays your seat: {what}", { what });
      else text = t("{name} to play: {what}", { name: this.seatName(decision.seat), what });
    } else text = t("The dice are rolling…");
    this.stageBox.textContent = this.stageText(msg, race);
    this.stageBox.hidden = !this.stageBox.textContent;
    this.turnBox.textContent = text;
    this.turnBox.classList.toggle("mine", mine);
    this.turnBox.dataset.mine = mine ? "yes" : "no";
    this.turnBox.dataset.over = msg.over ? "yes" : "no";
    const parts = [];
    if (race && msg.view.phase !== "prepare" && !race.over) {
      parts.push(race.round_kind === "card" ? t("round {n}: cards", { n: race.round }) : t("round {n}: dice", { n: race.round }));
      // the roller passes at the end of each dice round (T10): during one, race.roller is rolling now
      parts.push(race.round_kind === "dice" ? t("dice roller this round: {name}", { name: this.seatName(race.roller) })
                                            : t("next dice roller: {name}", { name: this.seatName(race.roller) }));
    }
    this.roundBox.innerHTML = "";
    this.roundBox.append(parts.join(" · "));
    if (race && race.dice && !race.over) {
      const use = race.dice_use ? (race.dice_use.use === "sum" ? t("the sum, {n}", { n: race.dice[0] + race.dice[1] })
                                                               : t("one die, {n}", { n: race.dice_use.value })) : t("not chosen yet");
      this.roundBox.append(" · ", t("dice:"), " ", el("span", { class: "dice", id: "dice" }, race.dice.map((d) => el("span", { class: "die" }, String(d)))),
                           " ", t("used: {use}", { use }));
    }
  }

  // the instruction under the lit squares, in the words of the screen: tap or click
  tapSquare() { return touchScreen() ? t("Tap a highlighted square to move there.") : t("Click a highlighted square to move there."); }

  // Why a card of `horse` is spent without moving it (T6), or "" (page words: no rule codes).
  cardNote(decision, card) {
    const limit = decision.context && decision.context.limit;
    if (!limit || isJoker(card) || Number(card) <= limit) return "";
    return t("above {horse}'s limit of {limit}: the card is spent and the horse does not move",
             { horse: horseName(decision.context.horse), limit });
  }

  renderHands(msg) {
    const view = msg.view;
    const decision = this.myDecision(msg);
    this.handBox.innerHTML = "";
    const hands = view.hands || {};
    if (msg.seat === null) { this.handBox.append(el("p", { class: "muted" }, t("You are watching: hands are hidden."))); return; }
    const playing = decision && decision.kind === "card" ? decision : null;
    // a hand being cut down before a race is shown once, on the keep-cards screen
    // the keep screen is about one horse at a time: the other hands wait for their turn
    const keeping = decision && decision.kind === "keep" ? decision.context.horse : null;
    for (const [horse, cards] of Object.entries(hands)) {
      if (keeping) continue;
      const options = playing && playing.context.horse === horse ? playing.options.filter((o) => o.type === "card") : [];
      // the hand the decision is about (a card to play, bonus cards to claim): on a phone the others are a line each;
      // a choice of mine about no horse (the roller's use of the dice) leaves every hand a line, the choice in sight
      const about = decision && decision.context && decision.context.horse;
      const state = !decision ? "" : about === horse ? "yes" : "no";
      const row = el("div", { class: "hand", dataset: { horse, playing: state } },
        el("div", { style: "width:100%" }, this.swatch(horse), horseName(horse),
           el("span", { class: "muted" }, " · ", tn("{n} card", "{n} cards", cards.length))));
      let marked = false;
      for (const card of cards) {
        const option = options.find((o) => o.card === card) || null;
        const note = option ? this.cardNote(playing, card) : "";
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
      const why = options.length ? this.whyNote(horse, playing, options) : null;
      if (why) this.handBox.append(why);
    }
    if (!Object.keys(hands).length && !keeping) this.handBox.append(el("p", { class: "muted" }, t("No cards in hand.")));
  }

  // "Why?" under a hand whose cards will not move the horse: the cards and the reason (T6), linked to
  // the rules page's paragraph (null: every card moves it)
  whyNote(horse, playing, options) {
    const spent = options.filter((o) => this.cardNote(playing, o.card));
    if (!spent.length) return null;
    const index = playing.options.indexOf(spent[0]);
    const rule = playing.note_rules ? playing.note_rules[index] : null;
    return el("p", { class: "why-note", dataset: { why: "spent", horse } }, el("b", {}, t("Why?")),
      t("{cards}: {reason}", { cards: spent.map((o) => cardName(o.card)).join(", "), reason: this.cardNote(playing, spent[0].card) }),
      rule ? " " : null, ruleLink(this.description, rule));
  }

  chooseCard(option) {
    this.focusSquares = this.keyboard;   // chosen with the keyboard: the squares get the focus next
    this.selected = option;
    this.previewSquares = null;
    this.preview = null;
    this.confirmFall = null;
    this.whyAsked = null;
    if (this.board) this.board.markWhy(null);
    this.connection.preview(option);
    this.renderHands(this.msg);
    this.renderReach();
    this.renderDecision(this.msg);
  }

  onPreview(message) {
    if (!this.msg || message.state_id !== this.msg.state_id || !this.selected) return;
    if (JSON.stringify(message.action) !== JSON.stringify(this.selected)) return;
    this.preview = message;
    this.previewSquares = message.squares;
    this.renderReach();
    this.renderDecision(this.msg);
    this.followRace(this.msg, this.raceView(this.msg));
  }

  renderReach() {
    this.reach = new Set();
    const msg = this.msg;
    if (!msg || !this.board) return;
    const decision = this.myDecision(msg);
    let squares = [];
    if (decision && decision.kind === "square") {
      squares = decision.options.filter((o) => o.type === "square");
    } else if (this.selected && this.previewSquares) squares = this.previewSquares;
    const marks = [];
    for (const s of squares) {
      this.reach.add(key(s.lane, s.square));
      const confirming = Boolean(this.confirmFall && this.confirmFall.lane === s.lane && this.confirmFall.square === s.square);
      if (this.confirmFall && !confirming) continue;   // while a fall waits for its confirmation, only its square shows
      const falls = this.fallsAt(s.lane, s.square);
      marks.push({ lane: s.lane, square: s.square, falls, confirming,
                   title: falls ? t("{horse} falls at {fence} here", { horse: horseName(s.horse || this.selected.horse), fence: this.fenceName(s.lane, s.square) })
                                : squareName(s.lane, s.square) });
    }
    this.board.setMarks(marks, (lane, square) => this.clickSquare(lane, square));
    if (this.focusSquares && marks.some((m) => !m.confirming)) { this.focusSquares = false; this.board.focusMark(); }
  }

  // -- the keyboard ----------------------------------------------------------------------------
  // Played with the keys (Tab, Enter, the arrows among the lit squares): at each new turn the
  // focus goes to the first thing to do (a playable card, a lit square, an option), if it was
  // nowhere (the control it was on is gone) and the last thing the player did was a key.
  watchKeys() {
    if (this.keysWatched) return;
    this.keysWatched = true;
    document.addEventListener("keydown", (e) => { if (["Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) this.keyboard = true; }, true);
    document.addEventListener("pointerdown", () => { this.keyboard = false; }, true);
  }

  focusFirst() {
    if (!this.keyboard) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const target = this.board && this.board.reachLayer.querySelector("polygon")
      || this.root.querySelector("#hands .card.playable, #decision button.option, #decision button.primary, #keep .keep-card");
    if (target) target.focus();
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
      case "discard": return t("Give up the {card}", { card: cardName(option.card) });
      case "stand_still": return t("Let {horse} stand still this round", { horse: horseName(option.horse) });
      case "square": return this.fallsAt(option.lane, option.square)
        ? t("Lane {lane}, square {square}: falls at {fence}", { lane: laneNumber(option.lane), square: option.square, fence: this.fenceName(option.lane, option.square) })
        : squareName(option.lane, option.square);
      case "card": return t("Play {card}", { card: cardName(option.card) });
      case "continue": return noteOf(decision, decision.options.indexOf(option)) || t("Continue");   // the guided race's button
      default: return JSON.stringify(option);
    }
  }

  // The note beside an option, in the page's own words where the server's would cite a rule.
  optionNote(decision, option, index) {
    if (option.type === "square" || option.type === "continue") return "";   // the label says it all
    if (option.type === "claim_bonus") {
      return decision.kind === "claim_bonus"
        ? t("its hand limit is 12 for this race; after the race 2 of its remaining cards are discarded at random")
        : t("once per meeting; after this race 2 of its remaining cards are discarded at random");
    }
    if (option.type === "decline_bonus") return t("once per meeting; if still unclaimed before race 3, they are dealt then");
    return noteOf(decision, index);
  }

  // What the selected card or die will do, before it is played: boxed in (T5), spent (T6), falls (T11).
  consequenceLines(option) {
    const answer = this.preview;
    if (!answer) return [];
    const horse = horseName(option.horse);
    const lines = [];
    if (answer.spent) {
      lines.push(t("{card} is above {horse}'s limit of {limit}: the card is spent and {horse} does not move.",
                   { card: cardName(option.card), horse, limit: answer.limit }));
      return lines;
    }
    const falling = answer.squares.filter((s) => s.falls);
    const allFall = falling.length > 0 && falling.length === answer.squares.length;   // the fence stops it, not a horse
    if (answer.steps === 0 && !allFall) lines.push(t("{horse} is boxed in and cannot move: the {points} points are lost.", { horse, points: answer.points }));
    else if (answer.steps < answer.points && falling.length < answer.squares.length) {
      lines.push(t("{horse} moves {steps} of {points} points: boxed in.", { horse, steps: answer.steps, points: answer.points }));
    } else if (answer.steps === answer.points) lines.push(t("{horse} moves {steps} points.", { horse, steps: answer.steps }));
    if (falling.length) {
      lines.push(t("On the orange squares {horse} falls at {fence} and is out of this race.",
                   { horse, fence: this.fenceName(falling[0].lane, falling[0].square) }));
    }
    return lines;
  }

  renderConfirmFall(box, decision) {
    const { lane, square } = this.confirmFall;
    const horse = horseName((decision.context && decision.context.horse) || (this.selected && this.selected.horse));
    box.append(el("div", { class: "confirm-fall", id: "confirm-box", role: "alertdialog" },
      el("p", { class: "note" }, t("{horse} cannot complete the jump from lane {lane}, square {square}: it falls at {fence} and is out of this race.",
                                   { horse, lane: laneNumber(lane), square, fence: this.fenceName(lane, square) })),
      el("div", { class: "row" },
        el("button", { type: "button", class: "option danger", id: "confirm-fall", dataset: { type: "confirm-fall" },
                       onclick: () => this.clickSquare(lane, square, true) }, t("Move there and fall")),
        el("button", { type: "button", id: "cancel-fall", onclick: () => { this.confirmFall = null; this.renderReach(); this.renderDecision(this.msg); } },
           t("Choose another square")))));
  }

  renderDecision(msg) {
    const box = this.decisionBox;
    const decision = msg.decision;
    const mine = Boolean(this.myDecision(msg));
    if (mine && decision.kind === "keep" && (this.keepQueue || this.keepSentAt === msg.state_id)) {
      box.innerHTML = "";
      box.append(el("p", { class: "muted", id: "keep-sending" }, t("Giving up the cards you chose…")));
      return;
    }
    if (mine && decision.kind === "keep") { this.renderKeep(msg); return; }
    this.keepChoice = null;
    box.innerHTML = "";
    if (!mine) return;
    if (this.confirmFall) { this.renderConfirmFall(box, decision); return; }
    if (decision.kind === "card") {
      if (this.selected) {
        for (const line of this.consequenceLines(this.selected)) box.append(el("p", { class: "consequence" }, line));
        if (this.previewSquares && this.previewSquares.length) {
          box.append(el("p", {}, this.tapSquare()));
          for (const square of this.previewSquares) {
            box.append(el("button", { type: "button", class: `option square-option${square.falls ? " falls" : ""}`, dataset: { type: "square" },
                                      onclick: () => this.clickSquare(square.lane, square.square) },
                          this.optionLabel({ type: "square", ...square }, decision)));
          }
        }
        else if (this.previewSquares) box.append(el("p", { class: "note" }, t("This card will not move the horse.")),
          el("button", { type: "button", class: "primary", id: "play-anyway", onclick: () => { this.connection.act(this.selected); } }, t("Play it anyway")));
      } else box.append(el("p", {}, t("Choose a card: the squares it reaches light up.")));
    }
    if (decision.kind === "die") {   // why one die and not the sum: the horse's handicap (T6)
      const c = decision.context || {};
      const dice = c.dice || [];
      box.append(el("p", { class: "note", id: "die-why" },
        t("{horse} is handicapped (at most {limit}): move it by one die, {a} or {b}", { horse: horseName(c.horse), limit: c.limit, a: dice[0], b: dice[1] }),
        " ", ruleLink(this.description, "T6")));
    }
    if (decision.kind === "square") {
      const c = decision.context || {};
      if (c.steps < c.points) box.append(el("p", { class: "consequence" }, t("{horse} moves {steps} of {points} points: boxed in.", { horse: horseName(c.horse), steps: c.steps, points: c.points })));
      box.append(el("p", {}, this.tapSquare()));
    }
    decision.options.forEach((option, index) => {
      if (option.type === "card") return;
      const note = this.optionNote(decision, option, index);
      const rule = note && decision.note_rules ? decision.note_rules[index] : null;
      box.append(el("div", {}, el("button", { type: "button", class: `option${option.type === "square" && this.fallsAt(option.lane, option.square) ? " falls" : ""}${option.type === "continue" ? " primary" : ""}`,
                                              dataset: { type: option.type },
                                              onclick: () => (option.type === "square" ? this.clickSquare(option.lane, option.square) : this.connection.act(option)) },
                                     this.optionLabel(option, decision)),
                    note ? el("div", { class: "note" }, note, rule ? " " : null, ruleLink(this.description, rule)) : null));
    });
  }

  // -- keeping cards between races (T8): pick every card to give up, confirm once ------------------
  // Cards carried over from the race before (the rest are new): the finished race's hand, as far
  // as it is still in this hand.
  carriedOver(horse, hand) {
    const race = this.msg.view.race;
    const left = race && race.over && race.hands && race.hands[horse] ? [...race.hands[horse]] : [];
    return hand.map((card) => { const i = left.indexOf(card); if (i < 0) return false; left.splice(i, 1); return true; });
  }

  renderKeep(msg) {
    const box = this.decisionBox;
    const decision = msg.decision;
    const c = decision.context;
    const choiceKey = `${c.race}:${c.horse}:${c.hand.join(",")}`;
    const fresh = !this.keepChoice || this.keepChoice.key !== choiceKey;
    if (fresh) {
      // proposed: give up the lowest cards (jokers last); the player changes it with a tap
      const order = c.hand.map((card, i) => i).sort((a, b) => (isJoker(c.hand[a]) - isJoker(c.hand[b])) || Number(c.hand[a].replace("J", "")) - Number(c.hand[b].replace("J", "")));
      this.keepChoice = { key: choiceKey, give: new Set(order.slice(0, c.to_discard)) };
    }
    // drawn anew for a new choice, or in a page drawn anew (a language switch: the choice stays)
    if (fresh || !box.querySelector("#keep")) {
      box.innerHTML = "";
      const carried = this.carriedOver(c.horse, c.hand);
      const cards = el("div", { class: "hand keep-cards", id: "keep-cards" });
      c.hand.forEach((card, i) => cards.append(el("button", {
        type: "button", class: `card keep-card${isJoker(card) ? " joker" : ""}${carried[i] ? " carried" : " new"}`,
        dataset: { card, index: i }, "aria-pressed": "false", onclick: () => this.toggleKeep(i) },
        isJoker(card) ? card.slice(1) : card, isJoker(card) ? el("small", {}, t("joker")) : null,
        el("small", { class: "origin" }, carried[i] ? t("old") : t("new")))));
      box.append(el("div", { class: "keep", id: "keep" },
        el("h3", { class: "keep-horse", id: "keep-horse" }, this.swatch(c.horse), t("{horse}: the cards to keep", { horse: horseName(c.horse) })),
        el("p", { id: "keep-help" }),
        el("p", { class: "muted" }, touchScreen()
          ? t("Tap the cards to give up. “old”: left from the race before; “new”: dealt for this race.")
          : t("Click the cards to give up. “old”: left from the race before; “new”: dealt for this race.")),
        cards,
        el("button", { type: "button", class: "option primary", id: "keep-confirm", dataset: { type: "keep" }, onclick: () => this.confirmKeep() })));
    }
    this.patchKeep(c);
  }

  toggleKeep(index) {
    const give = this.keepChoice.give;
    if (give.has(index)) give.delete(index); else give.add(index);
    this.patchKeep(this.msg.decision.context);
  }

  patchKeep(c) {
    const give = this.keepChoice.give;
    for (const node of this.decisionBox.querySelectorAll(".keep-card")) {
      const out = give.has(Number(node.dataset.index));
      node.classList.toggle("given-up", out);
      node.setAttribute("aria-pressed", out ? "true" : "false");
    }
    const left = c.to_discard - give.size;
    this.decisionBox.querySelector("#keep-help").textContent =
      t("{horse} holds {n} cards and may keep {limit}: choose {k} to give up.", { horse: horseName(c.horse), n: c.hand.length, limit: c.limit, k: c.to_discard })
      + " " + (left > 0 ? tn("{n} more card to choose.", "{n} more cards to choose.", left) : left < 0 ? tn("{n} card too many.", "{n} cards too many.", -left) : "");
    const button = this.decisionBox.querySelector("#keep-confirm");
    button.disabled = left !== 0;
    button.textContent = tn("Keep these {n} card", "Keep these {n} cards", c.hand.length - give.size);
  }

  confirmKeep() {
    const c = this.msg.decision.context;
    if (this.keepChoice.give.size !== c.to_discard) return;
    this.keepQueue = { horse: c.horse, cards: [...this.keepChoice.give].map((i) => c.hand[i]) };
    this.sendQueuedDiscard(this.msg);
    this.renderTurn(this.msg, this.raceView(this.msg));
    this.renderDecision(this.msg);
  }

  // The engine takes one discard at a time: the next one goes when the state asks again.
  sendQueuedDiscard(msg) {
    const queue = this.keepQueue;
    if (!queue) return;
    const decision = this.myDecision(msg);
    if (!(decision && decision.kind === "keep" && decision.context.horse === queue.horse)) {
      this.keepQueue = null;
      return;
    }
    if (this.keepSentAt === msg.state_id) return;
    const card = queue.cards.shift();
    const option = decision.options.find((o) => o.card === card);
    if (!option) { this.keepQueue = null; return; }
    if (!queue.cards.length) this.keepQueue = null;
    this.keepSentAt = msg.state_id;
    this.autoSent = msg.state_id;   // not the player's turn again until the table has moved on
    this.connection.act(option);
  }

  // -- horses, tables, the end -----------------------------------------------------------------------
  renderHorses(msg, race) {
    const view = msg.view;
    const meetingHorses = {};
    for (const h of view.horses || []) meetingHorses[h.id] = h;
    let rows;
    if (race && !(view.phase === "prepare")) {
      rows = raceOrder(race.horses, (h) => this.lines[key(h.lane, h.square)] ?? 0);
    } else {
      const order = view.stalls && view.stalls.length ? view.stalls : (view.horses || []).map((h) => h.id);
      rows = order.map((id) => ({ horse: { ...meetingHorses[id], stage: "waiting" }, position: null }));
    }
    keyed(this.horsesBody, rows, (row) => row.horse.id,
      (row) => el("tr", { dataset: { horse: row.horse.id } }, el("td", { class: "pos" }),
        el("td", {}, this.swatch(row.horse.id), el("span", { class: "name" })),
        el("td", { class: "owner" }), el("td", { class: "where" }), el("td", { class: "limit" }), el("td", { class: "cards" })),
      (node, { horse, position }) => {
        let where = "";
        if (horse.stage === "finished") where = t("finished");
        else if (horse.stage === "fallen") where = t("fell");
        else if (horse.stage === "waiting" && (view.stalls || []).includes(horse.id)) where = t("stall {n}", { n: view.stalls.indexOf(horse.id) + 1 });
        else if (horse.lane !== undefined) where = t("lane {lane}, square {square}", { lane: laneNumber(horse.lane), square: horse.square });
        const cards = horse.cards_left ?? (meetingHorses[horse.id] || {}).cards ?? horse.cards;
        node.classList.toggle("current", horse.id === this.currentHorse(race));
        setText(node.querySelector(".pos"), position ? ordinal(position) : "–");
        setText(node.querySelector(".name"), horseName(horse.id));
        setText(node.querySelector(".owner"), this.seatName(horse.owner));
        setText(node.querySelector(".where"), where);
        setText(node.querySelector(".limit"), horse.stage === "racing" && horse.limit ? handicapShort(this.description.data.handicap_numbers, horse.limit) : "–");
        setText(node.querySelector(".cards"), cards === undefined || cards === null ? "" : String(cards));
      });
  }

  renderTables(msg, race) { renderResults(this.tablesBox, this, msg, race, this.racesRun(msg)); }

  // the races run by the state shown (a replay stepping back shows fewer than it has fetched)
  racesRun(msg) { return this.pastRaces.slice(0, (msg.view.results || []).length); }

  // The final screen: the winner, a podium, points per race, play again with the same seats.
  renderFinal(msg) {
    const box = this.finalBox;
    box.hidden = !msg.over;
    this.turnPanel.hidden = msg.over;   // the final screen says it
    if (!msg.over || this.finalShown === msg.state_id) return;
    this.finalShown = msg.state_id;
    box.innerHTML = "";
    const view = msg.view;
    if (msg.game === "turfmaster" && view.standings && view.standings.length) {
      const top = view.standings.filter((row) => row.rank === 1);
      const names = top.map((row) => this.seatName(row.seat));
      box.append(el("h2", { id: "winner" }, top.length === 1
        ? t("{name} wins the meeting with {points} points!", { name: names[0], points: top[0].total })
        : t("{names} share the win with {points} points!", { names: names.join(", "), points: top[0].total })));
      const podium = el("ol", { class: "podium", id: "podium" });
      for (const row of view.standings.filter((r) => r.rank <= 3).slice(0, 3)) {
        podium.append(el("li", { class: `step step-${row.rank}`, dataset: { rank: row.rank } },
          el("span", { class: "who" }, this.seatName(row.seat)),
          el("span", { class: "points" }, tn("{n} point", "{n} points", row.total)),
          el("span", { class: "block" }, ordinal(row.rank))));
      }
      box.append(podium);
      const head = el("tr", {}, el("th", {}, t("Player")), [1, 2, 3].map((n) => el("th", {}, t("Race {n}", { n }))), el("th", {}, t("Points")));
      box.append(el("table", { class: "data", id: "final-table" }, head, view.standings.map((row) =>
        el("tr", {}, el("td", {}, `${ordinal(row.rank)} ${this.seatName(row.seat)}`),
           [0, 1, 2].map((i) => el("td", {}, row.races[i] === undefined ? "–" : String(row.races[i]))), el("td", {}, el("b", {}, String(row.total)))))));
    } else {
      const race = this.raceView(msg);
      const first = race && race.places && race.places[0];
      box.append(el("h2", { id: "winner" }, first ? t("{horse} wins the race!", { horse: horseName(first) }) : t("Every horse fell: no horse is placed.")));
    }
    this.againBox = el("div", { id: "again" });
    box.append(el("div", { class: "row final-actions" },
      el("button", { type: "button", class: "primary", id: "play-again", onclick: () => this.playAgain() }, t("Play again")),
      el("a", { class: "button", id: "to-lobby", href: "/" }, t("Back to the lobby"))), this.againBox);
    if (this.again) this.showAgain();
  }

  // A new table with the same game, setup and seats (kinds, bot levels, names): on a table's page
  // the server's "Play again" (onPlayAgain: every person still here goes to its new seat).
  async playAgain() {
    if (this.onPlayAgain) { document.getElementById("play-again").disabled = true; return this.onPlayAgain(); }
    const summary = this.summary;
    const body = { ...(summary.options || {}), game: summary.game, setup: summary.setup,
                   seats: summary.seats.map((s) => ({ name: s.name, kind: s.kind, ...(s.kind === "bot" ? { level: s.level } : {}) })) };
    document.getElementById("play-again").disabled = true;
    this.again = await createTable(body);
    this.showAgain();
  }

  showAgain() {
    const box = this.againBox;
    box.innerHTML = "";
    const { ok, data, statusText } = this.again;
    if (!ok) { box.append(el("div", { class: "error-box", role: "alert" }, data.message_i18n ? render(data.message_i18n) : String(data.detail || statusText))); return; }
    const mine = this.msg && this.msg.seat !== null ? data.seats.find((s) => s.seat === this.msg.seat && s.link) : null;
    if (mine) box.append(el("p", {}, el("a", { class: "button primary", id: "go-again", href: mine.link }, t("Go to your seat at the new table"))));
    // the other people need their own links
    if (data.seats.some((s) => s.link && s !== mine)) box.append(tableLinks(data));
  }

  // -- the move log ----------------------------------------------------------------------------------
  askPastRaces(msg) {
    const run = msg.game === "turfmaster" ? (msg.view.results || []).length : 0;
    if (run <= this.pastRaces.length || this.pastAsked >= run || !this.summary) return;
    this.pastAsked = run;
    fetch(`/api/tables/${encodeURIComponent(this.summary.id)}/races`).then((r) => r.json()).then((answer) => {
      this.pastRaces = answer.races || [];
      if (this.msg) { this.renderLog(this.msg, this.raceView(this.msg)); this.renderTables(this.msg, this.raceView(this.msg)); }
    }).catch(() => { this.pastAsked = 0; });
  }

  rolls(rolls, who) {
    return rolls.map((r) => t("{name} {a}+{b}", { name: who(r), a: r.dice[0], b: r.dice[1] })).join(", ");
  }

  logLine(event) {
    const h = event.horse ? horseName(event.horse) : "";
    switch (event.event) {
      case "card": return event.handicapped ? t("{horse} plays {card}: above its limit of {limit}, it does not move", { horse: h, card: cardName(event.card), limit: event.handicapped })
                                           : t("{horse} plays {card}", { horse: h, card: cardName(event.card) });
      case "roll": return t("{name} rolls {a} and {b}", { name: this.seatName(event.roller), a: event.dice[0], b: event.dice[1] });
      case "dice_use": return event.use === "sum" ? t("The roller uses the sum: {n}", { n: event.value }) : t("The roller uses one die: {n}", { n: event.value });
      case "move": return event.steps < event.points
        ? t("{horse} moves {steps} of {points} to lane {lane}, square {square}", { horse: h, steps: event.steps, points: event.points, lane: laneNumber(event.to.lane), square: event.to.square })
        : t("{horse} moves {steps} to lane {lane}, square {square}", { horse: h, steps: event.steps, lane: laneNumber(event.to.lane), square: event.to.square });
      case "fall": return t("{horse} falls at {fence}", { horse: h, fence: this.fenceName(event.to.lane, event.to.square) });
      case "finish": return t("{horse} finishes {place}", { horse: h, place: ordinal(event.place) });
      case "no_card": return t("{horse} has no card left and stands still", { horse: h });
      case "claim_bonus": return t("{horse} takes its bonus cards", { horse: h });
      case "keep_discard": return event.card ? t("{horse} gives up the {card}", { horse: h, card: cardName(event.card) }) : t("{horse} gives up a card", { horse: h });
      case "bonus_discard": return tn("{horse} loses {n} card at random", "{horse} loses {n} cards at random", event.cards, { horse: h });
      case "bonus_dealt": return t("{horse} is dealt its bonus cards", { horse: h });
      case "stall_roll": return t("Draw for the stalls: {rolls}", { rolls: this.rolls(event.rolls, (r) => horseName(r.horse)) });
      case "roller_roll": return t("Draw for the first dice roller: {rolls}", { rolls: this.rolls(event.rolls, (r) => this.seatName(r.seat)) });
      case "stalls": return t("Stalls, from the inside: {horses}", { horses: event.stalls.map(horseName).join(", ") });
      default: return event.event;
    }
  }

  // The lines of the log not seen before, said in the live region (the first drawing says
  // nothing: a page opened mid-race does not read the whole race out). Moves, dice rounds, falls
  // and finishes; the newest few at once.
  announce(lines) {
    const said = this.said;
    this.said = new Set(lines.map((line) => line.key));
    if (!said) return;
    const told = new Set(["move", "roll", "fall", "finish", "no_card"]);
    const fresh = lines.filter((line) => !line.separator && !said.has(line.key) && told.has(line.event.event)).reverse();
    if (fresh.length) this.announcer.textContent = fresh.slice(-5).map((line) => this.logLine(line.event)).join(". ");
  }

  renderLog(msg, race) {
    const events = msg.view.events || [];
    const length = ((race && race.history) || []).length;
    this.seenAt = this.seenAt || {};
    events.forEach((event, index) => { if (event.during_race && !(index in this.seenAt)) this.seenAt[index] = length; });
    // newest first: the latest race on top, under its heading; within a race the newest line first
    const lines = [];
    const meeting = msg.game === "turfmaster";
    const parts = meeting ? sections(msg.view, race, this.racesRun(msg), this.seenAt)
                          : [{ race: 1, items: timeline(msg.view, race, this.seenAt) }];
    for (const part of [...parts].reverse()) {
      if (meeting) lines.push({ key: `r${part.race}`, separator: true, race: part.race });
      part.items.forEach((event, index) => lines.push({ key: `r${part.race}:${index}`, event }));
      for (let i = lines.length - 1, j = lines.length - part.items.length; j < i; j++, i--) [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    this.announce(lines);
    keyed(this.logBox, lines, (line) => line.key,
      (line) => el("li", line.separator ? { class: "separator", dataset: { event: "race", race: line.race } } : {}),
      (node, line) => {
        if (line.separator) setText(node, t("Race {n} of 3", { n: line.race }));
        else { if (node.dataset.event !== line.event.event) node.dataset.event = line.event.event; setText(node, this.logLine(line.event)); }
      });
  }
}
