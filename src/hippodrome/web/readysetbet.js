// The Ready Set Bet page: the track and its red line, the whole betting board, my tokens,
// VIP cards and money, bets by clicking a space, optional live odds, results with their working,
// and at the end a race-by-race table and a chart of everybody's money.
//
// Updates patch the page: every board space, token button, VIP card and option is a keyed element
// made once and updated in place (net.js keyed()), so a click that spans an update is never lost.
import { t, tc, colon, render, formatAnd, formatMoney, formatPercent, ordinal, playerName, words, speechTag, touchScreen } from "/static/i18n.js";
import { el, svg, keyed } from "/static/net.js";
import { seatHanded } from "/static/lifecycle.js";
import { RaceSounds } from "/static/race_sounds.js";

// The printed game, from the game's description (GET /api/games/readysetbet: data.race, data.board).
export let HORSES = [], HORSE_COLOUR = {}, FINISH = 0, RED_LINE = 0;
let COLUMNS = [], VIP_CARDS = {}, CLOSE_AT = 3, COMPENSATION = {};

export function useDescription(description) {
  const { race, board, vip, house } = description.data;
  HORSES = race.horses.map((horse) => horse.id);
  HORSE_COLOUR = Object.fromEntries(race.horses.map((horse) => [horse.id, horse.colour]));
  FINISH = race.finish;
  RED_LINE = race.red_line;
  CLOSE_AT = race.crossings_to_close_bets || 3;
  COLUMNS = board.columns;
  VIP_CARDS = Object.fromEntries(((vip && vip.cards) || []).map((card) => [card.id, card]));
  COMPENSATION = (house && house.rotating_compensation) || {};
}
// the decisions of a guided race (core/tutorial.py; readysetbet/tutorial.py): its panel says what they ask
const GUIDED = new Set(["tutorial", "bet"]);
const SEAT_COLOURS = ["#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#c2410c", "#0e7490", "#a16207", "#be185d", "#374151"];
const EXOTIC_NAMES = () => ({ "by-a-nose": t("By a Nose"), "blow-out": t("Blow Out"), "tight-race": t("Tight Race"),
                              "late-start": t("Late Start"), "photo-finish": t("Photo Finish") });
const EXOTIC_RULES = () => ({ "by-a-nose": t("2nd loses by exactly 1"), "blow-out": t("2nd loses by more than 5"),
                              "tight-race": t("every horse moved 6 or more spaces"), "late-start": t("at least 2 horses moved 3 or fewer"),
                              "photo-finish": t("3rd loses by 3 or fewer") });
const COLUMN_HEADS = () => ({ "show:L": t("Show"), "show:R": t("Show"), "place:L": t("Place"), "place:R": t("Place"),
                              "win:L": t("Win"), "win:M": t("Win"), "win:R": t("Win") });

// A space in words, as the engine's refusals say it (readysetbet/words.py): "Win on horse 7".
export function spaceTitle(id) {
  const [kind, a, b] = id.split(":");
  if (kind === "win") return t("Win on horse {horse}", { horse: a });
  if (kind === "place") return t("Place on horse {horse}", { horse: a });
  if (kind === "show") return t("Show on horse {horse}", { horse: a });
  if (kind === "colour") return { blue: t("Blue wins"), orange: t("Orange wins"), red: t("Red wins"), "7-fifth-or-worse": t("7 finishes 5th or worse") }[a] || a;
  if (kind === "prop") return propTitle(id.slice(5));
  if (kind === "exotic") return t("{card} (space {n})", { card: EXOTIC_NAMES()[a] || a, n: b });
  return id;
}

// A result line's space in words a player finds on the board: a Win, Place or Show space with its
// multiplier and its red circle as the board prints them ("Show on horse 11/12 (×4, -$3)"), since
// one horse has several such spaces; any other space is named alone (spaceTitle).
function resultSpaceTitle(line) {
  const title = spaceTitle(line.space);
  if (!["win", "place", "show"].includes(line.space.split(":")[0]) || line.multiplier === undefined) return title;
  return line.penalty ? t("{space} (×{multiplier}, {penalty})", { space: title, multiplier: line.multiplier, penalty: formatMoney(-line.penalty) })
                      : t("{space} (×{multiplier})", { space: title, multiplier: line.multiplier });
}

function propTitle(card) {
  const [horse, others] = card.split(">");
  const beaten = others === "blues" ? t("the blues") : formatAnd(others.split(","));
  return t("{horse} beats {others}", { horse, others: beaten });
}

// A bonus token's colour ("black"/"white"): its id is its VIP card's ("bonus-4-black"); null for a plain token.
export function bonusColour(tokenId) {
  return String(tokenId).startsWith("bonus-") ? String(tokenId).split("-").pop() : null;
}

// One of my tokens in words: "your 3 token", "your black bonus 4 token".
function myTokenWords(token) {
  const colour = bonusColour(token.id);
  if (colour === "black") return t("your black bonus {value} token", { value: token.value });
  if (colour === "white") return t("your white bonus {value} token", { value: token.value });
  return t("your {value} token", { value: token.value });
}

// The token a click bets with when the player chose none: the highest free plain token, and a
// bonus token (R8) only once no plain token is free, for its loss may cost more than the space's
// red circle (a white 4 loses $1 more, a 7 $5): the page never takes on that cost for the player.
// Among bonus tokens, the highest, then the one whose loss costs least. Null when none is free.
function autoToken(free) {
  const rank = (tk) => [bonusColour(tk.id) ? 0 : 1, tk.value, tk.cancels_loss ? 1 : 0, -(tk.penalty || 0)];
  const better = (a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i] ? a : b;
    return a;   // the first of equals: the tray's order
  };
  return free.length ? free.reduce(better).id : null;
}

// Anybody's token in a result line: "token 3", "black bonus token 4", "House token 5".
function tokenWords(tokenId, value, house) {
  if (house) return t("House token {n}", { n: value });
  const colour = bonusColour(tokenId);
  if (colour === "black") return t("black bonus token {n}", { n: value });
  if (colour === "white") return t("white bonus token {n}", { n: value });
  return t("token {n}", { n: value });
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

// What a VIP card does (R8), from its vip.json entry.
export function vipEffect(id) {
  const card = VIP_CARDS[id];
  if (!card) return "";
  if (card.kind === "comp_chips") return t("paid {amount} once, when taken", { amount: formatMoney(card.amount) });
  if (card.kind === "bandwagon") return t("your {n} token may join a space that already holds a token", { n: card.token });
  if (card.kind === "bonus_token") {
    if (card.cancels_loss) return t("a bonus token {n}; when it loses, it costs nothing", { n: card.token });
    return card.penalty ? t("a bonus token {n}; when it loses, it costs {amount} more", { n: card.token, amount: formatMoney(card.penalty) })
                        : t("a bonus token {n}", { n: card.token });
  }
  if (card.kind === "roll_payout") {
    const sums = card.sums.join(" / ");
    return t("{amount} for every roll of {sum}", { amount: formatMoney(card.amount), sum: sums });
  }
  if (card.kind === "last_call") return t("you may still bet after “No more bets!”, until a horse finishes");
  return "";
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

// A horse's label on the track: "7"; a horse of two numbers ("11/12") in parts, which the track
// stacks one above the other inside the circle (style.css .track .horse.pair).
function horseLabel(horse) {
  if (!horse.includes("/")) return horse;
  const [a, b] = horse.split("/");
  return [el("span", {}, a), el("span", { class: "slash" }, "/"), el("span", {}, b)];
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
      if (space === at) cell.append(el("div", { class: `horse colour-${HORSE_COLOUR[horse]}${moved === horse ? " moved" : ""}${moved === horse && animate ? " hop" : ""}${horse.includes("/") ? " pair" : ""}`, dataset: { horse } }, horseLabel(horse)));
      grid.append(cell);
    }
  }
  container.append(grid);
}

// Set a node's text only when it changed (a patch, not a rebuild).
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function setClass(node, name) {
  if (node.className !== name) node.className = name;
}

// A bet's working: "5 × 3 = $15"; a loss "-$2 for the space, -$1 for the bonus token" (result lines
// of the history: the penalty printed on the space, and the bonus token's).
export function working(r) {
  if (r.value === undefined) {   // a game stored before result lines had their working
    return r.won ? t("won {amount}", { amount: formatMoney(r.amount) }) : r.amount ? t("lost {amount}", { amount: formatMoney(-r.amount) }) : t("lost, nothing to pay");
  }
  if (r.won) return t("{value} × {multiplier} = {amount}", { value: r.value, multiplier: r.multiplier, amount: formatMoney(r.amount) });
  if (r.cancels_loss) return t("lost, the bonus token cancels the loss: {amount}", { amount: formatMoney(0) });
  const parts = [];
  if (r.penalty) parts.push(t("{amount} for the space", { amount: formatMoney(-r.penalty) }));
  if (r.token_penalty) parts.push(t("{amount} for the bonus token", { amount: formatMoney(-r.token_penalty) }));
  return parts.length ? t("lost: {parts}", { parts: parts.join(", ") }) : t("lost, nothing to pay");
}

export class Page {
  constructor(root, summary, description) {
    useDescription(description);
    this.root = root;
    this.summary = summary;
    this.token = null;       // the token the next click bets with
    this.chosen = false;     // whether the player chose it (kept while it is free), or the page did (made anew each time)
    this.sent = new Map();   // token id -> time a bet with it was sent, until the state shows it used
    this.showOdds = false;
    this.odds = null;
    const variant = (description.setup || []).find((entry) => entry.key === "variant");
    this.variants = variant ? Object.fromEntries(variant.choices.map((choice) => [choice.value, choice.label])) : {};
    this.sounds = new RaceSounds(description.data.caller_pacing);
    this.build();
  }

  build() {
    this.placeTutorial(false);   // the page is made anew: the step's panel goes back to its place first
    const messages = document.getElementById("messages");   // play.js's refusals: shown over the track (below)
    this.root.innerHTML = "";
    this.spaceNodes = new Map();   // space id -> its button, made once (keyed, patched in place)
    this.finalBox = el("div", { class: "panel p-final", id: "final", hidden: true });
    this.statusBox = el("div", { class: "turn", id: "turn" });
    this.betsBadge = el("span", { class: "badge", id: "bets-state" });
    this.redlineBox = el("span", { class: "badge redline-count", id: "redline" });
    this.announceBox = el("div", { class: "announce", id: "announce", "aria-live": "polite" });
    // "No more bets!" for a screen reader at once, over whatever it is saying (R2)
    this.alertBox = el("div", { class: "visually-hidden", id: "alert", "aria-live": "assertive" });
    // sound on or off (race_sounds.js), remembered in this browser
    this.soundButton = el("button", { type: "button", class: "sound-toggle", id: "sound-toggle",
      onclick: () => { this.sounds.toggle(!this.sounds.on); this.renderSoundButton(); } });
    this.renderSoundButton();
    this.trackBox = el("div", { id: "track" });
    this.moneyBox = el("h2", { id: "my-money" });
    this.hintBox = el("p", { class: "muted hint" });
    this.tokensBox = el("div", { class: "tokens", id: "tokens" });
    this.myVipBox = el("ul", { class: "vip-list", id: "my-vip" });
    this.decisionBox = el("div", { id: "decision-box" });
    // a guided race's "Roll the dice" (core/tutorial.py): with the track, pinned with it on a phone
    this.stepBox = el("div", { class: "step-action", id: "step-action" });
    this.lastResultBox = el("div", { id: "my-result" });
    this.boardBox = el("div", { id: "board" });
    this.resultsBox = el("div", { id: "results" });
    this.playersBox = el("div", { id: "players" });
    this.betLogBox = el("div", { id: "bet-log" });
    const oddsToggle = el("input", { type: "checkbox", id: "odds-toggle", onchange: (e) => { this.showOdds = e.target.checked; this.refreshOdds(true); } });
    this.root.append(this.finalBox, el("div", { class: "rsb-layout" },
      this.leftColumn = el("div", { class: "column c-left" },
        // the track panel holds my token tray: pinned on a phone, it shows which token a tap bets
        // with; refusals show over its track (trackSlot), under the race's commentary and never
        // over the board
        this.trackPanel = el("div", { class: "panel p-track" },
          el("div", { class: "rsb-status" }, this.statusBox, this.betsBadge, this.redlineBox, this.soundButton), this.stepBox,
          this.announceBox, this.alertBox, this.trackSlot = el("div", { class: "track-slot" }, this.trackBox), this.tokensBox),
        el("div", { class: "panel p-mine", id: "mine" }, this.moneyBox, this.hintBox, this.myVipBox,
           this.decisionBox, this.lastResultBox)),
      el("div", { class: "column c-right" },
        el("div", { class: "panel p-board" }, el("div", { class: "row" }, el("h2", { style: "flex:1" }, t("Betting board")),
          el("label", {}, oddsToggle, t("Show live odds"))), this.boardBox),
        el("div", { class: "panel p-results" }, this.resultsBox),
        el("div", { class: "panel p-players" }, this.playersBox),
        el("div", { class: "panel p-bets" }, this.betLogBox))));
    if (messages) this.trackSlot.append(messages);
    // the board's Show / Place / Win headers stay below the pinned track (style.css --pinned)
    if (window.ResizeObserver) {
      new ResizeObserver(() => this.root.style.setProperty("--pinned", `${this.pinnedHeight()}px`)).observe(this.trackPanel);
    }
    this.boardBuilt = false;   // the board is made with the first state (a space shows as it is, closed or not)
  }

  rerender() { this.build(); if (this.msg) this.update(this.msg); }

  // How much of the top of the window the pinned track panel covers (0 where nothing is pinned).
  pinnedHeight() {
    return getComputedStyle(this.trackPanel).position === "sticky" && this.root.classList.contains("racing")
      ? Math.ceil(this.trackPanel.getBoundingClientRect().height) : 0;
  }

  renderSoundButton() {
    const on = this.sounds.on;
    // a loudspeaker, with sound waves when on and a cross when off (drawn: no emoji font needed)
    if (this.soundButton.dataset.on !== String(on)) {
      this.soundButton.dataset.on = String(on);
      this.soundButton.replaceChildren(svg("svg", { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" },
        svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
        on ? svg("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" })
           : svg("path", { d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" })));
    }
    this.soundButton.setAttribute("aria-pressed", on ? "true" : "false");
    const title = on ? t("Sound on (dice, red line, no more bets, finish): click to turn it off")
                     : t("Sound off: click to hear the dice, the red line, no more bets and the finish");
    this.soundButton.title = title;
    this.soundButton.setAttribute("aria-label", title);
  }

  // The variant played, as the lobby names it ("App: the program runs the race"): play.js adds it to the header.
  subtitle(msg) {
    const label = msg && msg.view && this.variants[msg.view.variant];
    return label ? words(label) : "";
  }

  seatName(seat) { return playerName(this.msg, seat); }

  update(msg) {
    this.msg = msg;
    this.root.dataset.stateId = msg.state_id;
    const view = msg.view;
    // on a phone the track is pinned above the board while the race runs (style.css), not over the results
    this.root.classList.toggle("racing", view.phase === "race" && !view.race.finished);
    const log = view.race_log || [];
    const lastMove = [...log].reverse().find((e) => e.event === "move");
    const moveKey = `${view.race_no}:${lastMove ? log.lastIndexOf(lastMove) : -1}`;
    drawTrack(this.trackBox, view.race, lastMove, moveKey !== this.moveKey);
    this.moveKey = moveKey;
    const said = [...log].reverse().map(announce).find(Boolean);
    // a race is off once the table plays it: not while it waits for its people, nor between races
    const off = view.phase === "race" && (msg.status || "playing") === "playing";
    setText(this.announceBox, said || (off ? t("They're off: place your bets!") : "\u00a0"));
    setText(this.alertBox, log.some((event) => event.event === "no_more_bets") ? t("No more bets!") : "");
    this.renderStatus(msg);
    this.renderMine(msg);
    this.renderBoard(msg);
    this.followStep(view.tutorial);
    this.renderResults(msg);
    this.renderPlayers(msg);
    this.renderFinal(msg);
    this.renderBetLog(msg);
    this.sounds.update(view, speechTag());
    this.root.style.setProperty("--pinned", `${this.pinnedHeight()}px`);
    this.refreshOdds(false);
  }

  // Every bet of the race shown, in words, the latest first: who, which token, which space, when
  // (after which roll), from the race's log (the House's tokens are on the board before the race).
  renderBetLog(msg) {
    const view = msg.view, log = view.race_log || [];
    const bets = [];
    let rolls = 0;
    for (const event of log) {
      if (event.event === "move") rolls += 1;
      else if (event.event === "bet") bets.push({ ...event, rolls, key: `${view.race_no}:${bets.length}` });
    }
    const box = this.betLogBox;
    if (!box.firstChild) box.append(el("h2", {}), el("p", { class: "muted" }), el("ol", { class: "bet-log", reversed: true }));
    const [head, empty, list] = box.children;
    setText(head, t("Bets this race"));
    setText(empty, bets.length ? "" : t("No bet yet this race."));
    keyed(list, [...bets].reverse(), (bet) => bet.key, (bet) => el("li", { dataset: { seat: bet.seat, bet: bet.space } },
      el("span", { class: "swatch", style: `background:${SEAT_COLOURS[bet.seat] || "#333"}` }), el("span", { class: "text" })),
    (node, bet) => {
      const when = bet.rolls ? t("after roll {n}", { n: bet.rolls }) : t("before the first roll");
      setText(node.lastChild, t("{name}: {token} on {space}, {when}", { name: this.seatName(bet.seat),
        token: tokenWords(bet.token, bet.value, false), space: spaceTitle(bet.space), when }));
    });
  }

  betsOpen(view, seat) {
    if (view.phase !== "race" || view.race.finished) return false;
    if (this.msg && (this.msg.status || "playing") !== "playing") return false;   // waiting, or between races
    if (view.race.bets_closed) return (view.vip_cards[seat] || []).some((c) => c.startsWith("last-call"));
    return true;
  }

  // The names of the seats still choosing a VIP card (R8: all at once), as one phrase.
  namesOf(seats) { return seats.map((seat) => this.seatName(seat)).join(", "); }

  // The VIP choice together (R8 as amended): the table's decision is my own while I choose (with
  // "together": the seats still choosing); what I kept is held back until all chose.
  ownDecision(msg) { return msg.decision; }

  renderStatus(msg) {
    const view = msg.view;
    let text;
    const status = msg.status || "playing";   // the table's lifecycle: nothing is played while it waits
    const choosing = view.vip_choosing || [], kept = view.vip_choice && view.vip_choice.kept;
    if (view.over) text = t("The game is over.");
    else if (status === "waiting") text = t("Waiting for the players");
    else if (choosing.length && !choosing.includes(msg.seat)) {
      text = kept ? t("You keep {card}; waiting for {names} to choose", { card: vipName(kept), names: this.namesOf(choosing) })
                  : t("VIP cards: waiting for {names} to choose", { names: this.namesOf(choosing) });
    } else if (choosing.length) text = t("Your choice: {what}", { what: this.decisionText({ kind: "vip" }) });
    else if (status === "between_races" && !(msg.decision && msg.decision.seat === msg.seat)) text = t("Between races: read the results");
    else if (msg.decision && msg.decision.seat !== undefined && !GUIDED.has(msg.decision.kind)) {
      text = msg.decision.seat === msg.seat ? t("Your choice: {what}", { what: this.decisionText(msg.decision) })
                                            : t("Waiting for {name}: {what}", { name: this.seatName(msg.decision.seat), what: this.decisionText(msg.decision) });
    } else text = t("Race {n} of {m}", { n: view.race_no, m: view.races });
    if (msg.clock && msg.clock.paused && view.phase === "race") text += " · " + t("paused");
    setText(this.statusBox, text);
    this.statusBox.dataset.over = view.over ? "yes" : "no";
    const open = view.phase === "race" && !view.race.bets_closed && status === "playing";
    // "Bets closed" once a race is under way (the red line, the finish), never before race 1 starts
    const underWay = (view.race_log || []).some((event) => event.event === "move") || view.race.finished;
    setText(this.betsBadge, open ? t("Bets open") : underWay ? t("Bets closed") : "");
    setClass(this.betsBadge, `badge ${open ? "open" : underWay ? "closed" : "idle"}`);
    const crossed = Math.min(view.race.crossings || 0, CLOSE_AT);
    setText(this.redlineBox, t("Red line: {n} of {m}", { n: crossed, m: CLOSE_AT }));
    this.redlineBox.dataset.crossings = crossed;
  }

  decisionText(decision) {
    const kind = decision.kind;
    return { vip: t("keep one of two VIP cards"), house_token: t("place the House's tokens"),
             house_offer: t("become the House?"), house_stay: t("stay the House?") }[kind] || "";
  }

  // "Stay the House?" / "Become the House?" in full: what it means for this race (R9).
  houseQuestion(decision) {
    const race = (decision.context || {}).race;
    const pay = COMPENSATION[String(race)] || 0;
    const what = t("The House does not bet with its own tokens: before the race it puts the 6 House tokens on free spaces, which pay it or cost it like bets, and its VIP cards do not count while it is the House.");
    const head = decision.kind === "house_stay" ? t("Stay the House for race {n}?", { n: race })
                                                : t("Become the House for race {n}?", { n: race });
    return [head, what, pay ? t("The new House is paid {amount}.", { amount: formatMoney(pay) }) : ""].filter(Boolean).join(" ");
  }

  myTokens(msg) {
    return msg.seat === null ? [] : (msg.view.tokens[msg.seat] || []);
  }

  // The token the next click bets with (none sent already): the one the player chose, while it is
  // free; else the page's choice, made anew with every state (a choice kept from between races
  // would be the bonus token a VIP card just gave, the only free one then): see autoToken.
  chooseToken(tokens) {
    const now = Date.now();
    for (const [id, at] of this.sent) if (now - at > 5000 || tokens.some((tk) => tk.id === id && tk.used)) this.sent.delete(id);
    const free = tokens.filter((tk) => !tk.used && !this.sent.has(tk.id));
    if (!(this.chosen && free.some((tk) => tk.id === this.token))) {
      this.chosen = false;
      this.token = autoToken(free);
    }
    return this.token;
  }

  // The player picks a token in the tray: it stays the one to bet with until it is placed.
  pickToken(id) {
    this.token = id;
    this.chosen = true;
    this.renderMine(this.msg);
  }

  // The seat is the House of the race to come or running (R9): it bets only with the House tokens.
  isHouse(view, seat) {
    return seat !== null && view.house_seat === seat && (view.phase === "race" || view.phase === "house_tokens");
  }

  renderMine(msg) {
    const view = msg.view, seat = msg.seat;
    if (seat === null) {
      setText(this.moneyBox, t("You are watching."));
      setText(this.hintBox, "");
      keyed(this.tokensBox, [], () => "", () => null);
      this.renderDecision(msg);
      return;
    }
    setText(this.moneyBox, t("You: {money}", { money: formatMoney(view.money[seat]) }));
    const tokens = this.myTokens(msg);
    // R9: the House does not bet with its own tokens this race: none is offered
    const house = this.isHouse(view, seat);
    const handed = seatHanded(msg);   // a bot bets for this seat: its tokens are the bot's to place
    const open = this.betsOpen(view, seat);
    // no token is chosen (none shows the ring) where none can be bet: the House's own, a bot's, or
    // once bets are closed (R2: "No more bets!", the race over, between races)
    if (house || handed || !open) { this.token = null; this.chosen = false; } else this.chooseToken(tokens);
    setText(this.hintBox, handed ? t("A bot plays your seat")
      : house ? t("You are the House this race: you bet with the House tokens only.")
      : !open ? t("Betting is closed.")
      : !this.token ? t("All your tokens are on the board this race; placed tokens never move.")
      : (touchScreen() ? t("Choose a token, then tap a space on the board.") : t("Choose a token, then click a space on the board.")));
    keyed(this.tokensBox, tokens, (tk) => tk.id, (tk) => {
      const colour = bonusColour(tk.id);
      const node = el("button", { type: "button", dataset: { token: tk.id }, onclick: () => this.pickToken(tk.id) },
        el("span", { class: "value" }, String(tk.value)), colour ? el("span", { class: "star", "aria-hidden": "true" }, "★") : null);
      if (!colour) node.style.cssText = `background:${SEAT_COLOURS[seat]};color:#fff`;
      return node;
    }, (node, tk) => {
      const colour = bonusColour(tk.id);
      setClass(node, `token${colour ? ` bonus bonus-${colour}` : ""}${tk.used ? " used" : ""}${tk.id === this.token ? " selected" : ""}`);
      node.disabled = tk.used || house || handed;
      const cost = tk.cancels_loss ? t("its loss costs nothing") : tk.penalty ? t("loses {amount} more", { amount: formatMoney(tk.penalty) }) : "";
      const title = [myTokenWords(tk), cost].filter(Boolean).join(" · ");
      if (node.title !== title) node.title = title;
    });
    this.renderVipList(this.myVipBox, view.vip_cards[seat] || []);
    this.renderDecision(msg);
    this.renderMyResult(msg);
  }

  renderVipList(box, cards) {
    keyed(box, cards, (card) => card, (card) => el("li", { class: "vip", dataset: { card } }, el("b", {}), " ", el("span", { class: "effect" })),
      (node, card) => { setText(node.firstChild, vipName(card)); setText(node.lastChild, vipEffect(card)); });
  }

  renderDecision(msg) {
    const decision = this.ownDecision(msg), seat = msg.seat, box = this.decisionBox;
    const mine = decision && decision.options && seat !== null && decision.seat === seat && !seatHanded(msg);
    const kind = mine ? decision.kind : null;
    this.renderStep(mine && GUIDED.has(kind) ? decision : null);
    // a bet step waits for a click on the board: the spaces it asks for are marked there
    this.asked = new Set(kind === "bet" ? decision.options.map((option) => option.space) : []);
    if (GUIDED.has(kind)) { box.innerHTML = ""; box.dataset.kind = ""; return; }
    // a choice of mine between races: on a phone it comes first, the panel beneath kept short
    // (readysetbet_table.css), so nothing covers the cards to choose from
    document.body.dataset.choice = mine && !GUIDED.has(kind) ? "mine" : "";
    const kept = msg.view.vip_choice && msg.view.vip_choice.kept;
    const shown = kind || (kept ? "vip-kept" : "");
    if (box.dataset.kind !== shown) { box.innerHTML = ""; box.dataset.kind = shown; }
    if (!mine && kept) {   // my card is chosen: the others see it once they all have chosen (R8)
      if (!box.firstChild) box.append(el("p", { class: "question", id: "vip-kept" }));
      setText(box.firstChild, t("You keep {card}. The others see it once everybody has chosen.", { card: vipName(kept) }));
      return;
    }
    if (!mine) return;
    if (kind === "house_token") {
      // R9: the House puts its tokens on the board before the race: choose a value, click a space
      const left = decision.context.tokens_left;
      const counts = {};
      for (const v of left) counts[v] = (counts[v] || 0) + 1;
      const values = Object.keys(counts).map(Number).sort((a, b) => b - a);
      if (!values.includes(this.houseValue)) this.houseValue = values[0];
      if (!box.firstChild) box.append(el("p", { class: "house-hint" }), el("div", { class: "tokens", id: "house-tokens" }));
      setText(box.firstChild, touchScreen() ? t("Place the House's tokens ({n} left): choose one, then tap a free space.", { n: left.length })
                                        : t("Place the House's tokens ({n} left): choose one, then click a free space.", { n: left.length }));
      keyed(box.lastChild, values, (v) => v, (v) => el("button", { type: "button", class: "token house", dataset: { token: `house-${v}` },
        onclick: () => { this.houseValue = v; this.renderDecision(this.msg); } }, el("span", { class: "value" }, String(v)), el("span", { class: "count" })),
      (node, v) => { setClass(node, `token house${v === this.houseValue ? " selected" : ""}`); setText(node.lastChild, `×${counts[v]}`);
                     node.title = t("House token {n}: {count} left", { n: v, count: counts[v] }); });
      return;
    }
    if (!box.firstChild) box.append(el("p", { class: "question" }), el("div", { class: "options", id: "decision" }));
    const question = kind === "vip" ? t("Keep one of these two VIP cards (the other goes to the discard pile); everybody chooses at the same time:")
                   : (kind === "house_stay" || kind === "house_offer") ? this.houseQuestion(decision) : "";
    setText(box.firstChild, question);
    keyed(box.lastChild, decision.options.slice(0, 40), (o) => JSON.stringify(o), (option) => {
      const node = el("button", { type: "button", class: "option", dataset: { type: option.type }, onclick: () => this.connection.act(option) }, el("b", {}), el("small", {}));
      return node;
    }, (node, option) => {
      let label = "", detail = "";
      if (option.type === "vip") { label = t("Keep {card}", { card: vipName(option.keep) }); detail = vipEffect(option.keep); }
      if (option.type === "house") {
        label = option.accept ? (kind === "house_stay" ? t("Yes, stay the House") : t("Yes, become the House"))
                              : (kind === "house_stay" ? t("No, pass the House on") : t("No, keep betting"));
      }
      setText(node.firstChild, label);
      setText(node.lastChild, detail ? ` · ${detail}` : "");
    });
  }

  // A guided race's one button: "Roll the dice" (the option's note), or, while a step waits for a
  // bet, "Show me where" (the space it asks for, brought into view: below the fold on a phone).
  renderStep(decision) {
    const box = this.stepBox;
    const kind = decision ? decision.kind : "";
    if (box.dataset.kind !== kind) { box.replaceChildren(); box.dataset.kind = kind; }
    if (!decision) return;
    if (!box.firstChild) box.append(el("button", { type: "button", id: "step-button",
                                                   class: kind === "bet" ? "step-button" : "primary step-button" }));
    const button = box.firstChild;
    if (kind === "bet") {
      const space = decision.options.length ? decision.options[0].space : null;
      button.onclick = () => this.showSpace(space);
      setText(button, t("Show me where"));
      return;
    }
    const note = (decision.notes_i18n || [])[0];
    button.onclick = () => this.connection.act(decision.options[0]);
    setText(button, note ? render(note) : (decision.notes || [])[0] || t("Continue"));
  }

  // Scroll a board space to the middle of what the track leaves in view (pinned over the page on a phone).
  showSpace(id) {
    const node = id && this.spaceNodes.get(id);
    if (!node) return;
    const track = this.trackBox.closest(".p-track");
    // the track panel, once stuck at the top of the window, covers its own height there
    const pinned = getComputedStyle(track).position === "sticky" ? track.getBoundingClientRect().height : 0;
    const box = node.closest(".betcard") || node;
    const rect = box.getBoundingClientRect();
    // on a phone: the middle of the free part; on a wide screen: just enough, so the step's panel stays in view
    const margin = 16;
    const by = pinned ? rect.top - pinned - Math.max(0, (window.innerHeight - pinned - rect.height) / 2)
      : rect.bottom + margin > window.innerHeight ? rect.bottom + margin - window.innerHeight : rect.top < margin ? rect.top - margin : 0;
    window.scrollTo({ top: window.scrollY + by, behavior: "smooth" });
  }

  // A guided race's panel (play.html's #tutorial, web/tutorial.js) stands beside the board, at the
  // top of the column that holds the track (pinned on a wide screen), so the board can scroll while
  // the step stays in view; once the race is over it goes back above the page, over the results.
  placeTutorial(beside) {
    const panel = document.getElementById("tutorial");
    if (!panel) return;
    if (beside && panel.parentNode !== this.leftColumn) this.leftColumn.prepend(panel);
    if (!beside && this.root.contains(panel)) this.root.before(panel);
  }

  // A guided race shows each new step from the top of the page: its panel first, with the track.
  followStep(step) {
    this.placeTutorial(Boolean(step && !step.finished));
    const key = step ? `${step.key}:${step.finished}` : "";
    if (this.stepKey !== undefined && key !== this.stepKey) window.scrollTo({ top: 0 });
    this.stepKey = key;
  }

  // My own last result, kept by my tray (the full results are below the board): "Race 1: $30 → $42".
  renderMyResult(msg) {
    const view = msg.view, history = view.history || [], box = this.lastResultBox;
    const last = history[history.length - 1];
    const show = last && msg.seat !== null;   // until the next race is settled: it never moves the board while people bet
    if (!show) { box.innerHTML = ""; box.dataset.race = ""; return; }
    const before = last.money_before[msg.seat], after = last.money_after[msg.seat];
    const text = t("Race {n}: {before} → {after}", { n: last.race, before: formatMoney(before), after: formatMoney(after) });
    if (box.dataset.race !== String(last.race) || box.textContent.indexOf(text) < 0) {
      box.innerHTML = "";
      box.dataset.race = String(last.race);
      box.append(el("p", { class: after > before ? "won" : after < before ? "lost" : "even" }, text), el("button", { type: "button", class: "see-results",
        onclick: () => this.resultsBox.scrollIntoView({ behavior: "smooth", block: "start" }) }, t("See the results")));
    }
  }

  clickSpace(id) {
    const msg = this.msg;
    if (!msg) return;
    if (msg.seat === null) { this.showMessage(t("You are watching: only players bet.")); return; }
    if (seatHanded(msg)) { this.showMessage(t("A bot plays your seat")); return; }
    const decision = msg.decision;
    if (decision && decision.options && decision.seat === msg.seat && decision.kind === "house_token") {
      const option = decision.options.find((o) => o.value === this.houseValue && o.space === id);
      // R6: one token per exotic finish card, the House's tokens too
      const [kind, card] = id.split(":");
      const cardHeld = kind === "exotic" && msg.view.board.some((s) => s.card === card && s.house_tokens.length);
      if (option) { this.showMessage(null); this.connection.act(option); }   // a good click: an earlier refusal goes
      else if (cardHeld) this.showMessage(t("The House already has a token on the exotic finish card {card}: one House token per card.", { card: EXOTIC_NAMES()[card] || card }), "error", "R6");
      else this.showMessage(t("The House cannot put a token on {space}: one House token per free space.", { space: spaceTitle(id) }), "error", "R9");
      return;
    }
    if (this.isHouse(msg.view, msg.seat)) {
      // the engine's own words for this refusal (game.py), answered here: the House has no token to send
      this.showMessage(t("you are the House this race: the House bets only with its house tokens, before the race"), "error", "R9");
      return;
    }
    const token = this.chooseToken(this.myTokens(msg));
    if (!token) {
      // every token is on the board (or on its way there): answered here, nothing to send
      this.showMessage(t("All your tokens are on the board this race; placed tokens never move."), "error", "R4");
      return;
    }
    this.sent.set(token, Date.now());
    this.token = null;
    this.chosen = false;
    this.showMessage(null);   // a new bet: an earlier refusal no longer stands over the board
    this.connection.act({ type: "bet", token, space: id });
    this.renderMine(msg);
  }

  onError() { this.sent.clear(); if (this.msg) this.renderMine(this.msg); }

  spaceButton(id) {
    let node = this.spaceNodes.get(id);
    if (!node) {
      node = el("button", { type: "button", class: "space", dataset: { space: id }, onclick: () => this.clickSpace(id) },
        el("span", { class: "pay" }), el("span", { class: "pen" }), el("span", { class: "chips" }), el("span", { class: "odds" }));
      this.spaceNodes.set(id, node);
    }
    return node;
  }

  patchSpace(space, winning) {
    const node = this.spaceButton(space.id), seat = this.msg.seat;
    const mine = space.tokens.some((tk) => tk.seat === seat);
    const cls = ["space"];
    if (space.closed) cls.push("closed");
    if (mine) cls.push("mine"); else if (space.tokens.length) cls.push("taken");
    if (winning && winning.has(space.id)) cls.push("winning");
    if (this.asked && this.asked.has(space.id)) cls.push("asked");
    setClass(node, cls.join(" "));
    // a closed space is not disabled: a tap on it is refused in words, saying why it is closed (R4)
    const title = winning && winning.has(space.id) ? t("{space}: a winning space", { space: spaceTitle(space.id) })
      : space.closed ? t("{space}: closed", { space: spaceTitle(space.id) }) : spaceTitle(space.id);
    if (node.title !== title) node.title = title;
    const [pay, pen, chips, odds] = node.children;
    setText(pay, `×${space.multiplier}`);
    setText(pen, space.penalty ? formatMoney(-space.penalty) : "");
    const key = JSON.stringify([space.tokens, space.house_tokens]);
    if (chips.dataset.key !== key) {
      chips.dataset.key = key;
      chips.replaceChildren(...space.tokens.map((tk) => {
        const colour = bonusColour(tk.token);
        // a bonus token is black or white with a star, ringed in its owner's colour
        const owner = SEAT_COLOURS[tk.seat] || "#333";
        return el("span", { class: `chip${colour ? ` bonus bonus-${colour}` : ""}`, dataset: { seat: tk.seat },
                            style: colour ? `--owner:${owner}` : `background:${owner}`,
                            title: colour ? t("{name}'s bonus token", { name: this.seatName(tk.seat) }) : t("{name}'s token", { name: this.seatName(tk.seat) }) },
          colour ? `★${tk.value}` : String(tk.value));
      }), ...space.house_tokens.map((v) => el("span", { class: "chip house", title: t("House token {n}", { n: v }) }, String(v))));
    }
    const p = this.showOdds && this.odds && this.odds.spaces ? this.odds.spaces[space.id] : undefined;
    setText(odds, p !== undefined ? formatPercent(p) : "");
  }

  // The fixed part of the board (Win/Place/Show grid, colour bets) is made once; prop and exotic
  // cards change between races and are keyed by card.
  buildBoard() {
    const box = this.boardBox;
    // the Show / Place / Win headers are a row of their own, which stays in view below the pinned
    // track as the board scrolls (style.css .board-heads; a grid cell cannot stick past its row)
    const heads = el("div", { class: "board board-heads" }, el("div", {}), COLUMNS.map((c) => el("div", { class: "head", dataset: { column: c } })));
    const grid = el("div", { class: "board" });
    for (const horse of HORSES) {
      grid.append(el("div", { class: "head", style: "align-self:center" }, el("span", { class: `chip colour-${HORSE_COLOUR[horse]}` }, horse)));
      for (const column of COLUMNS) {
        const [kind, side] = column.split(":");
        grid.append(this.spaceButton(`${kind}:${horse}:${side}`));
      }
    }
    this.colourHead = el("h2", { class: "board-head" });
    this.colourCards = el("div", { class: "cards", id: "colour-cards" });
    this.propHead = el("h2", { class: "board-head" });
    this.propCards = el("div", { class: "cards", id: "prop-cards" });
    this.exoticHead = el("h2", { class: "board-head" });
    this.exoticCards = el("div", { class: "cards", id: "exotic-cards" });
    box.append(el("div", { class: "board-wrap" }, heads, grid), this.colourHead, this.colourCards, this.propHead, this.propCards, this.exoticHead, this.exoticCards);
  }

  renderBoard(msg) {
    const view = msg.view;
    if (!this.boardBuilt) { this.buildBoard(); this.boardBuilt = true; }
    for (const head of this.boardBox.querySelectorAll(".board > .head[data-column]")) setText(head, COLUMN_HEADS()[head.dataset.column]);
    const history = view.history || [];
    const last = history[history.length - 1];
    // the winning spaces stay marked while the settled race's board is shown
    const winning = last && last.race === view.race_no && last.winning ? new Set(last.winning) : null;
    for (const space of view.board) this.patchSpace(space, winning);
    const card = (titleOf, ruleOf) => (spaces) => el("div", { class: "betcard" }, el("div", { class: "title" }, titleOf(spaces)),
      ruleOf ? el("div", { class: "muted rule" }, ruleOf(spaces)) : null, el("div", { class: "row" }, spaces.map((s) => this.spaceButton(s.id))));
    const patchCard = (titleOf, ruleOf) => (node, spaces) => {
      setText(node.querySelector(".title"), titleOf(spaces));
      if (ruleOf) setText(node.querySelector(".rule"), ruleOf(spaces));
    };
    const colour = view.board.filter((s) => s.kind === "colour").map((s) => [s]);
    const props = view.board.filter((s) => s.kind === "prop").map((s) => [s]);
    const exotics = {};
    for (const s of view.board.filter((x) => x.kind === "exotic")) (exotics[s.card] = exotics[s.card] || []).push(s);
    const one = (spaces) => spaceTitle(spaces[0].id);
    const exoticTitle = (spaces) => EXOTIC_NAMES()[spaces[0].card] || spaces[0].card;
    const exoticRule = (spaces) => EXOTIC_RULES()[spaces[0].card] || "";
    setText(this.colourHead, colour.length ? t("Colour bets") : "");
    keyed(this.colourCards, colour, (g) => g[0].id, card(one), patchCard(one));
    setText(this.propHead, props.length ? t("Prop bets") : "");
    keyed(this.propCards, props, (g) => g[0].id, card(one), patchCard(one));
    setText(this.exoticHead, Object.keys(exotics).length ? t("Exotic finishes") : "");
    keyed(this.exoticCards, Object.values(exotics), (g) => g[0].card, card(exoticTitle, exoticRule), patchCard(exoticTitle, exoticRule));
  }

  // One race's results, grouped by player: each bet with its working, money before and after.
  raceResults(race, id) {
    const view = this.msg.view;
    const history = view.history || [];
    const previous = history[history.indexOf(race) - 1];
    const rows = [];
    const seats = [...Array(view.seats).keys()].sort((a, b) => race.money_after[b] - race.money_after[a]);
    for (const seat of seats) {
      const lines = race.results.filter((r) => r.seat === seat);
      const before = race.money_before[seat], after = race.money_after[seat];
      const sum = lines.reduce((total, r) => total + r.amount, 0);
      rows.push(el("tr", { class: "player", dataset: { seat } },
        el("th", { colspan: 2 }, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat]}` }), this.seatName(seat),
           race.house === seat || (view.variant === "house_bets" && seat === view.house_seat) ? ` (${t("House")})` : ""),
        el("th", { class: "money" }, t("{before} → {after}", { before: formatMoney(before), after: formatMoney(after) }))));
      const between = previous ? before - previous.money_after[seat] : 0;
      if (between) {
        rows.push(el("tr", { class: "between" }, el("td", { colspan: 3, class: "muted" },
          t("{amount} before the bets were settled (VIP cards, the House's pay)", { amount: (between > 0 ? "+" : "") + formatMoney(between) }))));
      }
      if (!lines.length) rows.push(el("tr", { class: "nobet" }, el("td", { colspan: 3, class: "muted" }, t("no bet this race"))));
      for (const r of lines) {
        const house = String(r.token).startsWith("house-");
        rows.push(el("tr", { class: "settled", dataset: { seat: r.seat, space: r.space } },
          el("td", {}, resultSpaceTitle(r)), el("td", {}, tokenWords(r.token, r.value ?? "", house)),
          el("td", { class: r.won ? "won" : "lost" }, working(r))));
      }
      if (before + sum < 0 && after === 0) rows.push(el("tr", { class: "floor" }, el("td", { colspan: 3, class: "muted" }, t("money never goes below $0"))));
    }
    return el("table", { class: "data results", id }, rows);
  }

  renderResults(msg) {
    const view = msg.view, box = this.resultsBox;
    const history = view.history || [];
    const key = `${history.length}:${view.over}:${view.race_no}`;
    if (box.dataset.key === key && box.dataset.lang === document.documentElement.lang) return;   // results change only when a race is settled
    box.dataset.key = key;
    box.dataset.lang = document.documentElement.lang;
    box.innerHTML = "";
    if (!history.length) { box.append(el("h2", {}, t("Results")), el("p", { class: "muted" }, t("Bets are settled when a horse reaches the finish."))); return; }
    const last = history[history.length - 1];
    box.append(el("h2", {}, t("Race {n}: results", { n: last.race })));
    box.append(el("p", { class: "podium-line" }, last.order.filter((row) => row.rank <= 3).map((row) => t("{place}: {horse}", { place: ordinal(row.rank), horse: row.horse })).join(" · ")));
    box.append(this.raceResults(last, "settlement"));
    // said while the board is the settled race's (patchBoard marks its winning spaces): once the next
    // race is dealt (the VIP cards chosen) the board holds that race's cards, unmarked
    if (last.race === view.race_no && !view.over) {
      box.append(el("p", { class: "muted" }, t("Winning spaces are marked on the board until the next race starts.")));
    }
  }

  renderPlayers(msg) {
    const view = msg.view, box = this.playersBox;
    if (!box.firstChild) box.append(el("h2", {}), el("div", { id: "standings" }));
    setText(box.firstChild, view.over ? t("Final standings") : t("Players"));
    const order = [...Array(view.seats).keys()].sort((a, b) => view.money[b] - view.money[a]);
    keyed(box.lastChild, order, (seat) => seat, (seat) => el("div", { class: "player-row", dataset: { seat } },
      el("div", { class: "who" }, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat]}` }), el("span", { class: "name" }),
         el("span", { class: "money" }), el("span", { class: "trophy" })), el("ul", { class: "vip-list" })),
    (node, seat) => {
      const [name, money, trophy] = node.firstChild.querySelectorAll(".name, .money, .trophy");
      setText(name, this.seatName(seat) + (seat === view.house_seat ? ` (${t("House")})` : ""));
      setText(money, formatMoney(view.money[seat]));
      // the winner in a word (no emoji: not every device has the font, and a missing glyph is an empty box)
      setText(trophy, view.over && view.winners && view.winners.includes(seat) ? t("Winner") : "");
      this.renderVipList(node.lastChild, view.vip_cards[seat] || []);   // kept VIP cards are public at the table
    });
  }

  // The end: who won, money race by race as a table and as a chart, and every race's results.
  renderFinal(msg) {
    const view = msg.view, box = this.finalBox;
    const history = view.history || [];
    if (!view.over || !history.length) { box.hidden = true; box.innerHTML = ""; box.dataset.lang = ""; return; }
    if (!box.hidden && box.dataset.lang === document.documentElement.lang) return;
    // the game just ended (not a language switch): the page goes up to who won and "Play again",
    // from wherever the player was watching the board
    if (box.hidden) requestAnimationFrame(() => window.scrollTo({ top: 0, behavior: "smooth" }));
    box.hidden = false;
    box.dataset.lang = document.documentElement.lang;
    box.innerHTML = "";
    const seats = [...Array(view.seats).keys()];
    const series = seats.map((seat) => [history[0].money_before[seat], ...history.map((race) => race.money_after[seat])]);
    const winners = (view.winners || []).map((seat) => this.seatName(seat));
    const best = formatMoney(Math.max(...view.money));
    box.append(el("h2", { id: "winner" }, winners.length === 1 ? t("{name} wins with {amount}", { name: winners[0], amount: best })
                                                               : t("{names} share the win with {amount}", { names: formatAnd(winners), amount: best })));
    const head = el("tr", {}, el("th", {}, t("Player")), el("th", {}, tc("money before the first race", "Start")), history.map((race) => el("th", {}, t("Race {n}", { n: race.race }))));
    const order = [...seats].sort((a, b) => view.money[b] - view.money[a]);
    const body = order.map((seat) => el("tr", { dataset: { seat } },
      el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat]}` }), this.seatName(seat)),
      series[seat].map((money, i) => {
        const change = i ? money - series[seat][i - 1] : null;
        return el("td", { class: "money" }, formatMoney(money), change ? el("small", { class: change > 0 ? "won" : "lost" }, ` (${change > 0 ? "+" : ""}${formatMoney(change)})`) : null);
      })));
    box.append(el("div", { class: "final-grid" },
      el("div", {}, el("table", { class: "data", id: "race-table" }, head, body)),
      this.moneyChart(series, ["", ...history.map((race) => String(race.race))])));
    const details = history.map((race) => el("details", { class: "race-details", open: race === history[history.length - 1] },
      el("summary", {}, t("Race {n}: results", { n: race.race }), " · ", race.order.filter((row) => row.rank <= 3).map((row) => t("{place}: {horse}", { place: ordinal(row.rank), horse: row.horse })).join(" · ")),
      this.raceResults(race, `race-${race.race}`)));
    box.append(el("h2", {}, t("Every race")), ...details);
  }

  // An SVG line chart of every player's money after each race (x: start, race 1, race 2 ...).
  moneyChart(series, labels) {
    const width = 420, height = 200, left = 44, right = 30, top = 12, bottom = 28;
    const most = Math.max(1, ...series.flat());
    const x = (i) => left + (i * (width - left - right)) / Math.max(1, labels.length - 1);
    const y = (money) => top + (height - top - bottom) * (1 - money / most);
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "money-chart", id: "money-chart", role: "img", "aria-label": t("Money after each race") });
    for (const step of [0, 0.5, 1]) {
      const money = Math.round(most * step);
      chart.append(svg("line", { x1: left, x2: width - right, y1: y(money), y2: y(money), class: "grid" }),
                   svg("text", { x: left - 4, y: y(money) + 4, "text-anchor": "end", class: "axis" }, formatMoney(money)));
    }
    labels.forEach((label, i) => chart.append(svg("text", { x: x(i), y: height - 8, "text-anchor": "middle", class: "axis" },
      i ? t("Race {n}", { n: label }) : tc("money before the first race", "Start"))));
    series.forEach((points, seat) => {
      const g = svg("g", { class: "series", dataset: { seat: String(seat) } });
      g.append(svg("polyline", { points: points.map((m, i) => `${x(i)},${y(m)}`).join(" "), fill: "none", stroke: SEAT_COLOURS[seat], "stroke-width": 3 }));
      points.forEach((m, i) => g.append(svg("circle", { cx: x(i), cy: y(m), r: 4, fill: SEAT_COLOURS[seat] })));
      const name = svg("title", {}, `${this.seatName(seat)}${colon()}${points.map(formatMoney).join(" → ")}`);
      g.append(name);
      chart.append(g);
    });
    const legend = el("ul", { class: "legend" }, series.map((points, seat) => el("li", {},
      el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat]}` }), this.seatName(seat))));
    return el("figure", { class: "chart" }, chart, legend);
  }

  async refreshOdds(force) {
    if (!this.showOdds || !this.msg || this.msg.view.phase !== "race" || this.msg.view.race.finished) {
      // no odds outside a running race: the last race's would still show on a settled board
      const stale = this.odds;
      this.odds = null;
      if (this.msg && (force || stale)) this.renderBoard(this.msg);
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
