// A TurfMaster puzzle (the puzzles page's game module): the race drawn with the game's board
// (turfmaster_board.js), the deciding seat's hand and the decision's options. A click on a card,
// a square or a dice choice is the answer; the page (puzzles.js) asks the server whether it is right.
import { t, tn, words } from "/static/i18n.js";
import { el } from "/static/net.js";
import { Board, dieWhat, handicapWords, horseSwatch, squareName } from "/static/turfmaster_board.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const horseName = (id) => t(cap(id));
const isJoker = (card) => card.startsWith("J");

function what(decision) {
  if (decision.kind === "die") return dieWhat(decision);
  const h = horseName(decision.context.horse || "");
  return {
    card: t("play a card for {horse}", { horse: h }),
    square: t("choose where {horse} ends its move", { horse: h }),
    dice_use: t("use the dice: the sum or one die"),
  }[decision.kind] || "";
}

function optionLabel(option, decision) {
  switch (option.type) {
    case "dice_use": {
      const dice = decision.context.dice || [];
      return option.use === "sum" ? t("Use the sum: {n}", { n: dice[0] + dice[1] }) : t("Use one die: {n}", { n: option.value });
    }
    case "die": return t("Move {horse} by {n}", { horse: horseName(option.horse), n: option.value });
    case "square": return squareName(option.lane, option.square);
    default: return "";
  }
}

// The facts a player reads before deciding: the round, the dice, each horse's place in the order
// of play, its handicap and its cards left. horses: the game's, in colour order (numbered);
// handicaps: the description's data.handicap_numbers.
function facts(race, horses, handicaps) {
  const swatch = (id) => horseSwatch(horses, id);
  const items = [];
  items.push(el("li", {}, race.round_kind === "card" ? t("round {n}: cards", { n: race.round }) : t("round {n}: dice", { n: race.round })));
  if (race.dice) items.push(el("li", { id: "puzzle-dice" }, t("dice:"), " ", race.dice.join(" + ")));
  const byId = Object.fromEntries(race.horses.map((h) => [h.id, h]));
  for (const id of race.order) {
    const horse = byId[id];
    const parts = [tn("{n} card left", "{n} cards left", horse.cards_left ?? 0)];
    if (horse.limit) parts.push(handicapWords(handicaps, horse.limit));
    if (horse.stage === "fallen") parts.push(t("fallen"));
    items.push(el("li", { dataset: { horse: id } }, swatch(id), horseName(id), el("span", { class: "muted" }, " · ", parts.join(" · "))));
  }
  for (const id of race.places) items.push(el("li", { class: "muted" }, swatch(id), horseName(id), " · ", t("finished")));
  return el("ul", { class: "puzzle-facts" }, items);
}

export function showPuzzle(host, description, puzzle, onAnswer) {
  const race = puzzle.view;
  const decision = race.pending;
  const course = description.data.courses[race.course];
  // numbered by colour, as at the table (1 red, 2 blue, 3 yellow ...), whichever horses run
  const horses = description.data.horses;
  const courseWrap = el("div", { class: "course-wrap", id: "course" });
  const choices = el("div", { class: "puzzle-choices", id: "choices" });
  const hands = el("div", { id: "hands" });
  const small = window.matchMedia("(max-width: 900px)").matches;
  const prompt = el("h2", { id: "puzzle-prompt" }, t("Your turn: {what}", { what: what(decision) }));
  host.append(el("div", { class: "tm-layout" },
    el("div", { class: "column" }, courseWrap),
    el("div", { class: "column" },
      el("div", { class: "panel p-hand" }, prompt, hands, choices),
      el("div", { class: "panel p-facts" }, facts(race, horses, description.data.handicap_numbers)))));
  const title = race.steeplechase ? `${words(course.title)} · ${t("Steeplechase")}` : words(course.title);
  const board = new Board(courseWrap, course, { steeplechase: race.steeplechase, horses, title, handicaps: description.data.handicap_numbers });
  board.setHorses(race.horses, decision.context.horse);

  const chosen = new Map();   // an option (as JSON) -> the button or square that answers it
  const spent = new Map();    // a card above its horse's limit -> its note, shown after an answer
  const answer = (option) => onAnswer(option);
  // the hands of the deciding seat: the current horse's cards are the options
  for (const [horse, cards] of Object.entries(race.hands || {})) {
    const row = el("div", { class: "hand", dataset: { horse } },
      el("div", { style: "width:100%" }, horseSwatch(horses, horse), horseName(horse)));
    for (const card of cards) {
      const index = decision.kind === "card" ? decision.options.findIndex((o) => o.card === card && o.horse === horse) : -1;
      const option = index >= 0 ? decision.options[index] : null;
      // a card above the limit is not marked before the answer: which card is spent is what a
      // handicap puzzle asks (its note is shown once the card is tried)
      const note = option && decision.notes ? decision.notes[index] : "";
      const cls = ["card"];
      if (isJoker(card)) cls.push("joker");
      if (option) cls.push("playable");
      const button = el("button", { type: "button", class: cls.join(" "), disabled: !option,
                                    dataset: { card, horse }, onclick: () => option && answer(option) },
        isJoker(card) ? card.slice(1) : card, isJoker(card) ? el("small", {}, t("joker")) : null);
      if (isJoker(card)) button.setAttribute("aria-label", t("joker {value}", { value: card.slice(1) }));
      if (option && !chosen.has(JSON.stringify(option))) chosen.set(JSON.stringify(option), button);
      if (note) spent.set(button, note);
      row.append(button);
    }
    hands.append(row);
  }
  // squares are chosen on the board (or in the list); dice choices with buttons
  if (decision.kind === "square") {
    const falls = new Set((decision.context.falls || []).map((s) => `${s.lane}:${s.square}`));
    board.setMarks(decision.options.map((o) => ({ lane: o.lane, square: o.square, falls: falls.has(`${o.lane}:${o.square}`),
                                                  title: optionLabel(o, decision) })),
                   (lane, square) => answer(decision.options.find((o) => o.lane === lane && o.square === square)));
  }
  if (decision.kind !== "card") {
    decision.options.forEach((option, index) => {
      const note = decision.notes && decision.notes[index];
      const button = el("button", { type: "button", class: "choice", dataset: { option: JSON.stringify(option) },
                                    onclick: () => answer(option) }, optionLabel(option, decision), note ? el("small", { class: "muted" }, ` (${note})`) : null);
      chosen.set(JSON.stringify(option), button);
      choices.append(button);
    });
  }
  requestAnimationFrame(() => focus(board, race, decision, small));
  return {
    remove: () => board.remove(),
    // the option answered is marked: right, or tried and wrong
    answered(option, correct) {
      const button = chosen.get(JSON.stringify(option));
      if (button) button.classList.add(correct ? "answer-right" : "answer-wrong");
      if (correct) prompt.textContent = t("Solved");   // no longer a question (a wrong answer may try again)
      for (const [card, note] of spent) { card.classList.add("over-limit"); card.title = note; }
    },
  };
}

// The part of the course that matters in sight: on a phone the horse to move (or the squares to
// choose from), on a wider screen every horse still running, as close as they allow.
function focus(board, race, decision, small) {
  board.fit();
  if (small) { if (decision.kind === "square") board.showMarks(true); else board.follow(true); return; }
  const spots = race.horses.filter((h) => h.stage === "racing")
    .map((h) => board.squares[`${h.lane}:${h.square}`]).filter(Boolean).map((s) => s.at);
  if (!spots.length) return;
  const xs = spots.map((p) => p[0]), ys = spots.map((p) => p[1]);
  const w = Math.max(Math.max(...xs) - Math.min(...xs) + 160, 420), h = Math.max(Math.max(...ys) - Math.min(...ys) + 160, 260);
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  board.setView({ x: cx - w / 2, y: cy - h / 2, w, h });
}
