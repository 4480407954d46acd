// The review panel of the replay page (docs/review.md, "On the server"): asks the server for the
// table's review (POST /api/tables/ID/review; it is made once, then kept), shows its progress while
// it is made ("Reviewing: 40 of 180 decisions"), then each player's accuracy, the list of a player's
// decisions marked inaccuracy, mistake or blunder (a click goes to its step), the marks on the
// timeline (review_marks.js) and, at a marked step, the choice made against the better one, in
// words and on the board (review_board.js).
import { t, render } from "/static/i18n.js";
import { el } from "/static/net.js";
import { MARKED, markWord, choseLine, listLine, betterLine, playerLine } from "/static/review_words.js";
import { drawMarks } from "/static/review_marks.js";
import { drawChoices } from "/static/review_board.js";

const POLL_MS = 1000;   // how often the progress of a review under way is asked for

export class ReviewPanel {
  // root: the panel; marks: the timeline's strip; go(step): the replay goes there; name(seat): a
  // seat's name; seat(): the viewer's own seat (null: a spectator); page(): the game's page
  constructor(root, marks, tableId, { go, name, seat, page }) {
    Object.assign(this, { root, marks, tableId, go, name, seat, page });
    this.state = null;      // the server's answer: {status, done, total, review?, message_i18n?}
    this.error = null;      // a refusal of the last request (a message)
    this.player = null;     // whose decisions are listed: a seat, or "all"
    this.step = 0;
    this.steps = 0;
    this.timer = null;
  }

  url() { return `/api/tables/${encodeURIComponent(this.tableId)}/review`; }

  // the review's status (and, with ask, the review asked for when there is none yet)
  async load(ask) {
    const answer = await fetch(this.url());
    if (!answer.ok) return;   // the replay says why (an unknown table, one still being played)
    this.state = await answer.json();
    if (ask && (this.state.status === "none" || this.state.status === "failed")) await this.ask();
    else this.settle();
  }

  async ask() {
    this.error = null;
    const answer = await fetch(this.url(), { method: "POST" });
    const data = await answer.json();
    if (!answer.ok) this.error = data.message_i18n || data.detail;
    else this.state = data;
    this.settle();
  }

  settle() {
    clearTimeout(this.timer);
    if (this.state && this.state.status === "running") this.timer = setTimeout(() => this.load(false), POLL_MS);
    this.render();
  }

  decisions() {
    const review = this.state && this.state.review;
    if (!review) return [];
    if (this.player === null) this.player = this.seat() ?? "all";
    return review.decisions.filter((d) => MARKED.includes(d.mark) && (this.player === "all" || d.seat === this.player));
  }

  // the replay now shows `step` of `steps`
  show(step, steps) {
    this.step = step;
    this.steps = steps;
    if (this.state && this.state.review) this.render();
  }

  rerender() { this.render(); }

  render() {
    const root = this.root, state = this.state;
    root.innerHTML = "";
    root.hidden = !state;
    if (!state) return;
    // NOTE: the heading of a game's review on the replay page (each decision marked good, inaccuracy, mistake, blunder).
    root.append(el("h2", {}, t("Review")));
    if (this.error) root.append(el("div", { class: "error-box", role: "alert" }, render(this.error)));
    if (state.status === "ready") { this.renderReview(state.review); return; }
    this.marks.hidden = true;
    if (state.status === "running") {
      root.append(el("p", { id: "review-progress", role: "status" }, state.total
        ? t("Reviewing: {done} of {total} decisions", { done: state.done, total: state.total })
        : t("The review is starting…")),
      el("progress", { max: String(state.total || 1), value: String(state.done) }));
      return;
    }
    if (state.status === "failed") root.append(el("div", { class: "error-box", role: "alert" }, render(state.message_i18n)));
    root.append(el("p", { class: "muted" }, t("A review values each decision against the best one open at that moment, from what the player could see then.")),
                el("button", { type: "button", class: "primary", id: "review-ask", onclick: () => this.ask() }, t("Review the game")));
  }

  renderReview(review) {
    const marked = this.decisions();
    drawMarks(this.marks, marked, this.steps, { current: this.step, go: this.go, name: this.name });
    // NOTE: a game's review: the choice of whose marked decisions are listed ("Decisions of" + a player's name, or "everyone").
    const choose = el("select", { id: "review-player", onchange: () => { const v = choose.value; this.player = v === "all" ? "all" : Number(v); this.render(); } },
      el("option", { value: "all" }, t("everyone")),
      review.players.map((p) => el("option", { value: String(p.seat) }, this.name(p.seat))));
    choose.value = String(this.player);
    this.root.append(el("div", { class: "row review-summary" },
      review.players.map((player) => el("span", { class: "review-player" }, playerLine(review, player, this.name(player.seat)))),
      el("label", {}, t("Decisions of"), " ", choose)));
    const here = review.decisions.filter((d) => d.at === this.step && MARKED.includes(d.mark));
    if (here.length) {
      this.root.append(el("div", { id: "review-here", class: `review-here mark-${here[0].mark}`, role: "status" },
        here.map((d) => el("p", {}, choseLine(review, d, this.name(d.seat)), el("br"), el("strong", {}, betterLine(review, d))))));
    }
    drawChoices(this.page(), here);
    if (!marked.length) {
      this.root.append(el("p", { class: "muted" }, t("No decision lost anything the review could measure.")));
      return;
    }
    this.root.append(el("ol", { id: "review-list", class: "review-list" }, marked.map((d) => el("li", {},
      el("button", { type: "button", class: `link mark-${d.mark}${d.at === this.step ? " here" : ""}`, dataset: { at: String(d.at) },
                     onclick: () => this.go(d.at) },
         el("span", { class: "review-mark-word" }, markWord(d.mark)), " ", listLine(review, d, this.name(d.seat)))))));
  }
}
