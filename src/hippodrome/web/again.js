// "Play again, everyone" on the play page: the button (a game page may offer its own, calling
// `request()`), and the move to the next table once it is made: the server's state then carries
// `again` (docs/accounts.md): this seat's link there, which the page follows, or for a spectator
// where to watch, which the page offers.
import { t, render } from "/static/i18n.js";
import { el } from "/static/net.js";
import { keepSeat } from "/static/account.js";

export class Again {
  constructor(root, tableId, { token, host }) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.host = host;
    this.msg = null;
    this.error = null;
    this.asked = false;
    this.ownButton = false;   // the game's page shows its own "Play again" (TurfMaster's final screen)
  }

  async request() {
    this.asked = true;
    this.render();
    const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/again`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      // no token: a signed-in player's own seat (its account holds it)
      body: JSON.stringify(this.token ? { token: this.token } : this.host ? { host: this.host } : {}) });
    const data = await response.json();
    if (!response.ok) {
      this.asked = false;
      this.error = data.message_i18n ? () => render(data.message_i18n) : () => String(data.detail);
      this.render();
      return;
    }
    if (data.link) this.go(data.link);   // (the state that says so may come first)
    else if (data.host_link) location.assign(data.host_link);
  }

  go(link) {
    if (this.gone) return;
    this.gone = true;
    const token = new URLSearchParams(link.split("#")[1] || "").get("seat");
    if (token) keepSeat(link.split("/play/")[1].split("#")[0], token);
    location.assign(link);
  }

  update(msg) {
    this.msg = msg;
    if (msg.again && msg.again.link) { this.go(msg.again.link); return; }
    this.render();
  }

  rerender() { this.render(); }

  render() {
    const msg = this.msg, root = this.root;
    root.innerHTML = "";
    const mayAsk = msg && msg.over && (msg.seat !== null || this.host);
    const watch = msg && msg.again && msg.again.watch;
    root.hidden = !(watch || (mayAsk && !this.ownButton) || this.error);
    if (root.hidden) return;
    if (watch) root.append(el("p", {}, el("a", { class: "button primary", id: "watch-again", href: watch }, t("Watch the next table"))));
    else if (mayAsk && !this.ownButton) {
      root.append(el("button", { type: "button", class: "primary", id: "play-again", disabled: this.asked,
                                 onclick: () => this.request() }, t("Play again")),
                  " ", el("span", { class: "muted" }, t("Everyone still here comes along to the new table.")));
    }
    if (this.error) root.append(el("div", { class: "error-box", role: "alert" }, this.error()));
  }
}
