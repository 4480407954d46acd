// The guided first game's panel (core/tutorial.py), for every game: the play page shows it when
// the view carries `tutorial`. Step n of N, the step's title, what to do, why (the rule in words)
// with a link to the rule's paragraph on the rules page, and at the end "Well done" with the way
// back to the lobby and to the rules, under the last step's own words (a settlement to read).
// Built once and patched; the game's own page draws the board.
import { t, render } from "/static/i18n.js";
import { el } from "/static/net.js";

export class TutorialPanel {
  constructor(root, description) {
    this.root = root;
    this.description = description;
    this.step = null;
    this.counter = el("span", { class: "tutorial-counter muted" });
    this.title = el("h2", { class: "tutorial-title" });
    this.text = el("p", { class: "tutorial-text" });
    this.rule = el("a", { class: "tutorial-rule", target: "_blank", rel: "noopener" });
    this.why = el("p", { class: "tutorial-why" }, el("b", {}), " ", el("span", {}), " ", this.rule);
    this.closing = el("span", { class: "tutorial-closing" });
    this.end = el("p", { class: "tutorial-end" }, this.closing, " ",
                  el("a", { class: "tutorial-lobby", href: "/" }), " · ",
                  el("a", { class: "tutorial-rules", target: "_blank", rel: "noopener" }));
    this.root.replaceChildren(el("div", { class: "tutorial-head" }, this.counter, this.title), this.text, this.why,
                              this.end);
    this.root.hidden = true;
  }

  // The state message's view.tutorial (absent: not a tutorial, the panel stays hidden).
  update(step) {
    const moved = step && this.step && step.key !== this.step.key;
    this.step = step || null;
    this.rerender();
    // a new step: its words in sight, should the page have been scrolled down to the hand
    if (moved && this.root.getBoundingClientRect().top < 0) this.root.scrollIntoView({ block: "start" });
  }

  rulesPage() {
    return this.description.rules ? `/rules/${encodeURIComponent(this.description.tutorial_of || this.description.name)}` : null;
  }

  rerender() {
    const step = this.step;
    this.root.hidden = !step;
    if (!step) return;
    this.root.dataset.step = step.key;
    this.root.dataset.finished = String(step.finished);
    this.counter.textContent = t("Step {n} of {total}", { n: step.step, total: step.steps });
    this.title.textContent = step.finished ? t("Well done! You have finished your first race.") : render(step.title);
    this.text.textContent = render(step.text);   // once finished: the last step's text (or its finished_text)
    this.why.children[0].textContent = t("Why?");
    this.why.children[1].textContent = render(step.why);
    const page = this.rulesPage();
    this.rule.hidden = !(page && step.rule);
    if (page && step.rule) {
      this.rule.href = `${page}#${encodeURIComponent(step.rule)}`;
      this.rule.textContent = t("Read the rule");
    }
    this.end.hidden = !step.finished;
    this.closing.textContent = t("You have seen every step: play a real game from the lobby, or read all the rules.");
    const [lobby, rules] = this.end.querySelectorAll("a");
    lobby.textContent = t("Back to the lobby");
    rules.hidden = !page;
    if (page) rules.href = page;
    rules.textContent = t("All the rules");
  }
}
