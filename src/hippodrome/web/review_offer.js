// "Review my game" at the end of a table (play.html's #review-offer): once the table is over, every
// person at it (a spectator too: "Review the game") is offered its review, made on the replay's page
// (/replay/ID#review asks the server for it at once; docs/review.md, "On the server").
import { t } from "/static/i18n.js";
import { el } from "/static/net.js";

export class ReviewOffer {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.msg = null;
    this.description = null;   // the game's: only a game that has reviews offers one
  }

  setGame(description) { this.description = description; this.render(); }

  update(msg) {
    const changed = !this.msg || this.msg.over !== msg.over || this.msg.seat !== msg.seat;
    this.msg = msg;
    if (changed) this.render();
  }

  rerender() { this.render(); }

  render() {
    const msg = this.msg, root = this.root;
    root.innerHTML = "";
    root.hidden = !(msg && msg.over && this.description && this.description.review && !(msg.view && msg.view.tutorial));
    if (root.hidden) return;
    root.append(el("a", { class: "button", id: "review-game", href: `/replay/${encodeURIComponent(this.tableId)}#review` },
                      msg.seat === null ? t("Review the game") : t("Review my game")),
                " ", el("span", { class: "muted" }, t("Each decision against the best one open then: where points were won and lost.")));
  }
}
