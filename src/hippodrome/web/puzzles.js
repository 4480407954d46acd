// A game's puzzles, /puzzles/<game>: one position at a time, drawn by the game's module
// (/static/<page>.js, its showPuzzle), the player's choice checked by the server
// (POST /api/games/<game>/puzzles/<n>/answer: the solution never reaches the page), the
// puzzles solved kept in this browser (localStorage).
import { t, languageSelector } from "/static/i18n.js";
import { el } from "/static/net.js";
import { gameDescription } from "/static/games.js";

const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const api = `/api/games/${encodeURIComponent(gameName)}/puzzles`;
const $ = (id) => document.getElementById(id);
const STORE = `hippodrome.puzzles.${gameName}`;

// number -> "solved" (answered right at least once) or "tried"
function progress() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}
function remember(number, correct) {
  const done = progress();
  if (correct) done[number] = "solved";
  else if (!done[number]) done[number] = "tried";
  try { localStorage.setItem(STORE, JSON.stringify(done)); } catch (e) { /* private mode */ }
}

function problem(text) {
  $("messages").replaceChildren(el("div", { class: "error-box", role: "alert" }, text));
}

async function answerOf(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || t("The server did not answer; try again."));
  return body;
}

class PuzzlePage {
  constructor(description, module) {
    this.description = description;
    this.module = module;
    this.count = description.puzzles.count;
    this.number = 1;
    this.listing = null;
    this.shown = null;   // the game module's drawing of the puzzle
  }

  async start() {
    const asked = Number(location.hash.slice(1));
    const done = progress();
    this.number = asked >= 1 && asked <= this.count ? asked
      : (Array.from({ length: this.count }, (_, i) => i + 1).find((n) => done[n] !== "solved") || 1);
    $("previous").addEventListener("click", () => this.go(this.number - 1, { top: true }));
    $("next").addEventListener("click", () => this.go(this.number + 1, { top: true }));
    // a puzzle picked from "All puzzles" (a link to #n at the page's foot) is shown from the top
    window.addEventListener("hashchange", () => {
      const n = Number(location.hash.slice(1));
      if (n >= 1 && n <= this.count && n !== this.number) this.go(n, { top: true });
    });
    await this.reload();
  }

  // the list and the puzzle again (a new language)
  async reload() {
    try {
      this.listing = await answerOf(await fetch(api));
    } catch (error) { problem(error.message); return; }
    await this.go(this.number);
  }

  // top: the page scrolls back to the puzzle's question (another puzzle chosen, not a new language)
  async go(number, { top = false } = {}) {
    if (number < 1 || number > this.count) return;
    this.number = number;
    if (location.hash !== `#${number}`) history.replaceState(null, "", `#${number}`);
    let puzzle;
    try {
      puzzle = await answerOf(await fetch(`${api}/${number}`));
    } catch (error) { problem(error.message); return; }
    $("messages").replaceChildren();
    $("result").replaceChildren();
    document.title = `${puzzle.title} · ${t("Puzzles")} · hippodrome`;
    $("puzzle-number").textContent = t("Puzzle {n} of {count}", { n: number, count: this.count });
    $("puzzle-title").replaceChildren(puzzle.title, el("span", { class: "theme-tag" }, puzzle.theme_title));
    $("puzzle-question").textContent = puzzle.question;
    $("previous").disabled = number <= 1;
    $("next").disabled = number >= this.count;
    const host = $("puzzle");
    if (this.shown && this.shown.remove) this.shown.remove();
    host.replaceChildren();
    this.shown = this.module.showPuzzle(host, this.description, puzzle, (action) => this.answer(puzzle, action));
    this.renderList();
    if (top) window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  }

  async answer(puzzle, action) {
    let verdict;
    try {
      verdict = await answerOf(await fetch(`${api}/${puzzle.number}/answer`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action }) }));
    } catch (error) { problem(error.message); return; }
    remember(puzzle.number, verdict.correct);
    const more = verdict.correct && puzzle.number < this.count
      ? el("button", { type: "button", id: "next-after", onclick: () => this.go(puzzle.number + 1, { top: true }) }, t("Next puzzle"))
      : verdict.correct ? null : el("span", { class: "muted" }, t("Try another move."));
    $("result").replaceChildren(el("div", { class: `verdict ${verdict.correct ? "correct" : "wrong"}`, role: "status",
                                            dataset: { correct: String(verdict.correct) } },
      el("strong", {}, verdict.message), verdict.explanation, " ", more));
    if (this.shown && this.shown.answered) this.shown.answered(action, verdict.correct);
    this.renderList();
  }

  renderList() {
    const done = progress();
    const solved = Object.values(done).filter((state) => state === "solved").length;
    $("progress").textContent = t("{solved} of {count} solved", { solved, count: this.count });
    const items = $("puzzle-items");
    items.replaceChildren();
    for (const entry of this.listing.puzzles) {
      const link = el("a", { href: `#${entry.number}` }, entry.title);
      if (entry.number === this.number) link.setAttribute("aria-current", "true");
      const state = done[entry.number];
      items.append(el("li", { class: state || "", dataset: { number: entry.number } }, link,
        el("span", { class: "muted" }, " · ", this.listing.themes[entry.theme] || ""),
        state === "solved" ? el("span", { class: "mark", title: t("Solved") }, "✓") : null));
    }
  }
}

async function start() {
  let page = null;
  await languageSelector($("lang"), () => page && page.reload());
  const description = await gameDescription(gameName);
  if (!description || !description.puzzles) { problem(t("There are no puzzles for this game.")); return; }
  $("puzzles-game").textContent = t("Puzzles");
  if (description.rules) {
    const rules = $("rules-link");
    rules.href = `/rules/${encodeURIComponent(gameName)}`;
    rules.hidden = false;
  }
  const module = await import(`/static/${description.puzzles.page}.js`);
  page = new PuzzlePage(description, module);
  await page.start();
}

start();
