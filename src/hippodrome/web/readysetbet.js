// The Ready Set Bet page: the track and its red line, the whole betting board, my tokens,
// VIP cards and money, bets by clicking a space, optional live odds, settlement, standings.
import { t, formatMoney, formatPercent, ordinal, seatName } from "/static/i18n.js";
import { el } from "/static/net.js";

// The printed game, from the game's description (GET /api/games/readysetbet: data.race, data.board).
export let HORSES = [], HORSE_COLOUR = {}, FINISH = 0, RED_LINE = 0;
let COLUMNS = [];

export function useDescription(description) {
  const { race, board } = description.data;
  HORSES = race.horses.map((horse) => horse.id);
  HORSE_COLOUR = Object.fromEntries(race.horses.map((horse) => [horse.id, horse.colour]));
  FINISH = race.finish;
  RED_LINE = race.red_line;
  COLUMNS = board.columns;
}
const SEAT_COLOURS = ["#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#c2410c", "#0e7490", "#a16207", "#be185d", "#374151"];
const EXOTIC_NAMES = () => ({ "by-a-nose": t("By a Nose"), "blow-out": t("Blow Out"), "tight-race": t("Tight Race"),
                              "late-start": t("Late Start"), "photo-finish": t("Photo Finish") });
const EXOTIC_RULES = () => ({ "by-a-nose": t("2nd loses by exactly 1"), "blow-out": t("2nd loses by more than 5"),
                              "tight-race": t("every horse moved 6 or more spaces"), "late-start": t("at least 2 horses moved 3 or fewer"),
                              "photo-finish": t("3rd loses by 3 or fewer") });

export function spaceTitle(id) {
  const [kind, a, b] = id.split(":");
  if (kind === "win") return t("{horse} wins", { horse: a });
  if (kind === "place") return t("{horse} places (1st or 2nd)", { horse: a });
  if (kind === "show") return t("{horse} shows (top 3)", { horse: a });
  if (kind === "colour") return { blue: t("Blue wins"), orange: t("Orange wins"), red: t("Red wins"), "7-fifth-or-worse": t("7 finishes 5th or worse") }[a] || a;
  if (kind === "prop") return propTitle(id.slice(5));
  if (kind === "exotic") return `${EXOTIC_NAMES()[a] || a} ${b}`;
  return id;
}

function propTitle(card) {
  const [horse, others] = card.split(">");
  const beaten = others === "blues" ? t("the blues") : others.replace(",", " & ");
  return t("{horse} beats {others}", { horse, others: beaten });
}

// A VIP card by its vip.json id, with the card names of hippodrome.i18n.vocabulary.
export function vipName(card) {
  const detail = card.split("-")[1];
  if (card.startsWith("comp-")) return t("Comp Chips: {amount}", { amount: formatMoney(Number(detail)) });
  if (card.startsWith("bandwagon-")) return t("Bandwagon for token {n}", { n: detail });
  if (card.startsWith("bonus-")) {
    return card.endsWith("-white") ? t("Bonus Token: white {n}", { n: detail }) : t("Bonus Token: black {n}", { n: detail });
  }
  if (card.startsWith("snake-eyes-boxcars")) return t("Snake Eyes & Boxcars");
  if (card.startsWith("snake-eyes")) return t("Snake Eyes");
  if (card.startsWith("boxcars")) return t("Boxcars");
  if (card.startsWith("lucky-")) return t("Lucky Number: {n}", { n: detail });
  if (card.startsWith("last-call")) return t("Last Call");
  return card;
}

export function announce(event) {
  switch (event.event) {
    case "move": return event.bonus_move && event.bonus
      ? t("{a} and {b}: {horse} again, bonus! {from} → {to}", { a: event.dice[0], b: event.dice[1], horse: event.horse, from: event.from, to: event.to })
      : t("{a} and {b}: {horse} moves to {to}", { a: (event.dice || [])[0], b: (event.dice || [])[1], horse: event.horse, to: event.to });
    case "red_line": return t("{horse} crosses the red line ({n} of 3)", { horse: event.horse, n: event.crossing });
    case "no_more_bets": return t("No more bets!");
    case "finish": return t("{horse} wins the race!", { horse: event.horse });
    default: return null;
  }
}

export function drawTrack(container, race, lastEvent, animate = false) {
  container.innerHTML = "";
  const grid = el("div", { class: "track", role: "img", "aria-label": t("The track") });
  const moved = lastEvent && lastEvent.event === "move" ? lastEvent.horse : null;
  for (const horse of HORSES) {
    grid.append(el("div", { class: "name" }, horse));
    const at = race.positions[horse];
    for (let space = 0; space <= FINISH; space++) {
      const cls = ["cell"];
      if (space === RED_LINE) cls.push("redline");
      if (space === FINISH) cls.push("finish");
      if (space === 0) cls.push("start");
      const cell = el("div", { class: cls.join(" "), dataset: space === at ? { horse } : {} });
      if (space === at) cell.append(el("div", { class: `horse colour-${HORSE_COLOUR[horse]}${moved === horse ? " moved" : ""}${moved === horse && animate ? " hop" : ""}`, dataset: { horse } }, horse));
      grid.append(cell);
    }
  }
  container.append(grid);
}

export class Page {
  constructor(root, summary, description) {
    useDescription(description);
    this.root = root;
    this.summary = summary;
    this.token = null;       // the token chosen to bet with
    this.showOdds = false;
    this.odds = null;
    this.build();
  }

  build() {
    this.root.innerHTML = "";
    this.statusBox = el("div", { class: "turn", id: "turn" });
    this.announceBox = el("div", { class: "announce", id: "announce", "aria-live": "polite" });
    this.trackBox = el("div", { id: "track" });
    this.mineBox = el("div", { id: "mine" });
    this.boardBox = el("div", { id: "board" });
    this.resultsBox = el("div", { id: "results" });
    this.playersBox = el("div", { id: "players" });
    const oddsToggle = el("input", { type: "checkbox", id: "odds-toggle", onchange: (e) => { this.showOdds = e.target.checked; this.refreshOdds(true); } });
    this.root.append(el("div", { class: "rsb-layout" },
      el("div", { class: "column" },
        el("div", { class: "panel p-track" }, this.statusBox, this.announceBox, this.trackBox),
        el("div", { class: "panel p-mine" }, this.mineBox),
        el("div", { class: "panel p-results" }, this.resultsBox)),
      el("div", { class: "column" },
        el("div", { class: "panel p-board" }, el("div", { class: "row" }, el("h2", { style: "flex:1" }, t("Betting board")),
          el("label", {}, oddsToggle, t("Show live odds"))), this.boardBox),
        el("div", { class: "panel p-players" }, this.playersBox))));
  }

  rerender() { this.build(); if (this.msg) this.update(this.msg); }

  seatName(seat) { return seatName(this.msg && this.msg.seats, seat); }

  update(msg) {
    this.msg = msg;
    this.root.dataset.stateId = msg.state_id;
    const view = msg.view;
    const log = view.race_log || [];
    const lastMove = [...log].reverse().find((e) => e.event === "move");
    const moveKey = `${view.race_no}:${lastMove ? log.lastIndexOf(lastMove) : -1}`;
    drawTrack(this.trackBox, view.race, lastMove, moveKey !== this.moveKey);
    this.moveKey = moveKey;
    const said = [...log].reverse().map(announce).find(Boolean);
    this.announceBox.textContent = said || (view.phase === "race" ? t("They're off: place your bets!") : "");
    this.renderStatus(msg);
    this.renderMine(msg);
    this.renderBoard(msg);
    this.renderResults(msg);
    this.renderPlayers(msg);
    this.refreshOdds(false);
  }

  betsOpen(view, seat) {
    if (view.phase !== "race" || view.race.finished) return false;
    if (view.race.bets_closed) return (view.vip_cards[seat] || []).some((c) => c.startsWith("last-call"));
    return true;
  }

  renderStatus(msg) {
    const view = msg.view;
    let text;
    if (view.over) text = t("The game is over.");
    else if (msg.decision && msg.decision.seat !== undefined) {
      text = msg.decision.seat === msg.seat ? t("Your choice: {what}", { what: this.decisionText(msg.decision.kind) })
                                            : t("Waiting for {name}: {what}", { name: this.seatName(msg.decision.seat), what: this.decisionText(msg.decision.kind) });
    } else if (view.phase === "race") text = view.race.bets_closed ? t("Race {n} of {m}: no more bets", { n: view.race_no, m: view.races })
                                                                  : t("Race {n} of {m}: bets are open", { n: view.race_no, m: view.races });
    else text = t("Race {n} of {m}", { n: view.race_no, m: view.races });
    if (msg.clock && msg.clock.paused && view.phase === "race") text += " · " + t("paused");
    this.statusBox.textContent = text;
    this.statusBox.dataset.over = view.over ? "yes" : "no";
  }

  decisionText(kind) {
    return { vip: t("keep one of two VIP cards"), house_token: t("place the House's tokens"), house_offer: t("become the House?"),
             house_stay: t("stay the House?") }[kind] || kind;
  }

  renderMine(msg) {
    const view = msg.view, seat = msg.seat, box = this.mineBox;
    box.innerHTML = "";
    if (seat === null) { box.append(el("p", { class: "muted" }, t("You are watching."))); return; }
    box.append(el("h2", {}, t("You: {money}", { money: formatMoney(view.money[seat]) })));
    const tokens = view.tokens[seat] || [];
    const free = tokens.filter((tk) => !tk.used);
    if (this.token && !free.some((tk) => tk.id === this.token)) this.token = null;
    if (!this.token && free.length) this.token = free.reduce((a, b) => (b.value > a.value ? b : a)).id;
    const open = this.betsOpen(view, seat) && view.house_seat !== seat;
    box.append(el("p", { class: "muted" }, open ? t("Choose a token, then click a space on the board.") : t("Betting is closed.")));
    box.append(el("div", { class: "tokens", id: "tokens" }, tokens.map((tk) =>
      el("button", { type: "button", class: `token${tk.used ? " used" : ""}${tk.id === this.token ? " selected" : ""}`, disabled: tk.used,
                     style: `background:${SEAT_COLOURS[seat]};color:#fff`, title: tk.cancels_loss ? t("its loss costs nothing") : tk.penalty ? t("loses {amount} more", { amount: formatMoney(tk.penalty) }) : null,
                     dataset: { token: tk.id }, onclick: () => { this.token = tk.id; this.renderMine(this.msg); } }, String(tk.value)))));
    const vip = view.vip_cards[seat] || [];
    if (vip.length) box.append(el("p", {}, t("VIP cards:"), " ", vip.map(vipName).join(", ")));
    const decision = msg.decision;
    if (decision && decision.options && decision.seat === seat && decision.kind === "house_token") {
      // R9: the House puts its tokens on the board before the race: choose a value, click a space
      const values = [...new Set(decision.context.tokens_left)].sort((a, b) => b - a);
      if (!values.includes(this.houseValue)) this.houseValue = values[0];
      box.append(el("p", {}, t("Place the House's tokens: choose one, then click a free space.")));
      box.append(el("div", { class: "tokens", id: "house-tokens" }, values.map((v) =>
        el("button", { type: "button", class: `token${v === this.houseValue ? " selected" : ""}`, style: "background:#000;color:#fff",
                       dataset: { token: `house-${v}` }, onclick: () => { this.houseValue = v; this.renderMine(this.msg); } }, String(v)))));
    } else if (decision && decision.options && decision.seat === seat) {
      const options = el("div", { class: "options", id: "decision" });
      for (const option of decision.options.slice(0, 40)) {
        let label = JSON.stringify(option);
        if (option.type === "vip") label = t("Keep {card}", { card: vipName(option.keep) });
        if (option.type === "house") label = option.accept ? t("Yes") : t("No");
        if (option.type === "house_token") label = t("House token {n} on {space}", { n: option.value, space: spaceTitle(option.space) });
        options.append(el("button", { type: "button", class: "option", dataset: { type: option.type }, onclick: () => this.connection.act(option) }, label));
      }
      box.append(options);
    }
  }

  clickSpace(space) {
    const msg = this.msg;
    if (!msg || msg.seat === null) return;
    const decision = msg.decision;
    if (decision && decision.options && decision.seat === msg.seat && decision.kind === "house_token") {
      const option = decision.options.find((o) => o.value === this.houseValue && o.space === space.id);
      if (option) this.connection.act(option);
      else this.showMessage && this.showMessage(t("The House cannot put a token there."));
      return;
    }
    if (!this.token) return;
    this.connection.act({ type: "bet", token: this.token, space: space.id });
  }

  spaceNode(space, label) {
    const seat = this.msg.seat;
    const mine = space.tokens.some((tk) => tk.seat === seat);
    const cls = ["space"];
    if (space.closed) cls.push("closed");
    if (mine) cls.push("mine"); else if (space.tokens.length) cls.push("taken");
    const odds = this.showOdds && this.odds && this.odds.spaces ? this.odds.spaces[space.id] : undefined;
    return el("button", { type: "button", class: cls.join(" "), disabled: space.closed, title: spaceTitle(space.id),
                          dataset: { space: space.id }, onclick: () => this.clickSpace(space) },
      label ? el("span", { class: "muted", style: "font-size:.7rem" }, label) : null,
      el("span", { class: "pay" }, `×${space.multiplier}`),
      space.penalty ? el("span", { class: "pen", title: t("a losing bet here costs {amount}", { amount: formatMoney(space.penalty) }) }, formatMoney(-space.penalty)) : null,
      el("span", {}, space.tokens.map((tk) => el("span", { class: "chip", style: `background:${SEAT_COLOURS[tk.seat] || "#333"}`, title: this.seatName(tk.seat) }, String(tk.value))),
                   space.house_tokens.map((v) => el("span", { class: "chip house", style: "background:#000", title: t("House token {n}", { n: v }) }, String(v)))),
      odds !== undefined ? el("span", { class: "odds" }, formatPercent(odds)) : null);
  }

  renderBoard(msg) {
    const view = msg.view, box = this.boardBox;
    box.innerHTML = "";
    const byId = {};
    for (const space of view.board) byId[space.id] = space;
    const grid = el("div", { class: "board" }, el("div", {}),
      COLUMNS.map((c) => el("div", { class: "head" }, { "show:L": t("Show"), "show:R": t("Show"), "place:L": t("Place"), "place:R": t("Place"), "win:L": t("Win"), "win:M": t("Win"), "win:R": t("Win") }[c])));
    for (const horse of HORSES) {
      grid.append(el("div", { class: "head", style: "align-self:center" }, el("span", { class: `chip colour-${HORSE_COLOUR[horse]}` }, horse)));
      for (const column of COLUMNS) {
        const [kind, side] = column.split(":");
        const space = byId[`${kind}:${horse}:${side}`];
        grid.append(space ? this.spaceNode(space) : el("div", {}));
      }
    }
    box.append(grid);
    const colour = view.board.filter((s) => s.kind === "colour");
    if (colour.length) box.append(el("h2", { style: "margin-top:.6rem" }, t("Colour bets")), el("div", { class: "cards" }, colour.map((s) => el("div", { class: "betcard" }, el("div", { class: "title" }, spaceTitle(s.id)), this.spaceNode(s)))));
    const props = view.board.filter((s) => s.kind === "prop");
    if (props.length) box.append(el("h2", { style: "margin-top:.6rem" }, t("Prop bets")), el("div", { class: "cards" }, props.map((s) => el("div", { class: "betcard" }, el("div", { class: "title" }, spaceTitle(s.id)), this.spaceNode(s)))));
    const exotics = {};
    for (const s of view.board.filter((x) => x.kind === "exotic")) (exotics[s.card] = exotics[s.card] || []).push(s);
    if (Object.keys(exotics).length) {
      box.append(el("h2", { style: "margin-top:.6rem" }, t("Exotic finishes")), el("div", { class: "cards" }, Object.entries(exotics).map(([card, spaces]) =>
        el("div", { class: "betcard" }, el("div", { class: "title" }, EXOTIC_NAMES()[card] || card), el("div", { class: "muted", style: "font-size:.75rem" }, EXOTIC_RULES()[card] || ""),
           el("div", { class: "row" }, spaces.map((s) => this.spaceNode(s)))))));
    }
  }

  renderResults(msg) {
    const view = msg.view, box = this.resultsBox;
    box.innerHTML = "";
    const history = view.history || [];
    if (!history.length) { box.append(el("h2", {}, t("Results")), el("p", { class: "muted" }, t("Bets are settled when a horse reaches the finish."))); return; }
    const last = history[history.length - 1];
    box.append(el("h2", {}, t("Race {n}: results", { n: last.race })));
    box.append(el("p", {}, last.order.filter((row) => row.rank <= 3).map((row) => t("{place}: {horse}", { place: ordinal(row.rank), horse: row.horse })).join(" · ")));
    const rows = last.results.map((r) => el("tr", { class: "settled", dataset: { seat: r.seat, space: r.space } },
      el("td", {}, this.seatName(r.seat)), el("td", {}, t("token {n}", { n: r.token.replace(/b$/, "") })), el("td", {}, spaceTitle(r.space)),
      el("td", { class: r.won ? "won" : "lost" }, r.won ? t("won {amount}", { amount: formatMoney(r.amount) }) : r.amount ? t("lost {amount}", { amount: formatMoney(-r.amount) }) : t("lost, nothing to pay"))));
    box.append(rows.length ? el("table", { class: "data", id: "settlement" }, rows) : el("p", { class: "muted" }, t("Nobody bet on this race.")));
  }

  renderPlayers(msg) {
    const view = msg.view, box = this.playersBox;
    box.innerHTML = "";
    box.append(el("h2", {}, view.over ? t("Final standings") : t("Players")));
    const order = [...Array(view.seats).keys()].sort((a, b) => view.money[b] - view.money[a]);
    box.append(el("table", { class: "data", id: "standings" }, order.map((seat) => el("tr", {},
      el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat]}` }), this.seatName(seat), seat === view.house_seat ? ` (${t("House")})` : ""),
      el("td", { class: "money" }, formatMoney(view.money[seat])),
      el("td", {}, view.over && view.winners && view.winners.includes(seat) ? "🏆" : "")))));
  }

  async refreshOdds(force) {
    if (!this.showOdds || !this.msg || this.msg.view.phase !== "race" || this.msg.view.race.finished) {
      // no odds outside a running race: the last race's would still show on a settled board
      const stale = this.odds;
      this.odds = null;
      if (force || stale) this.renderBoard(this.msg);
      return;
    }
    const now = Date.now();
    if (!force && this.oddsAt && now - this.oddsAt < 1500) return;
    this.oddsAt = now;
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(this.msg.table)}/odds`);
      if (response.ok) { this.odds = await response.json(); this.renderBoard(this.msg); }
    } catch (e) { /* odds are optional */ }
  }
}
