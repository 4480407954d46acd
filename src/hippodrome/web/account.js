// Who is signed in, shown in a page's header (#account): a guest gets "Sign in", which opens a
// small form to sign in or make an account; a signed-in person gets its name (a link to its
// profile) and "Sign out". The seats this browser played (remembered by the play page) are handed
// to the account at each sign-in and sign-up, so a guest who signs up keeps them
// (docs/accounts.md).
import { t, render } from "/static/i18n.js";
import { el } from "/static/net.js";
import { offered as passkeysOffered, addPasskey, signInWithPasskey } from "/static/passkeys.js";

const SEATS = "hippodrome.seat.";   // + table id: the seat token this browser played with
let current;   // {name} of /api/me once asked (name null: a guest)

export async function me() {
  if (current === undefined) {
    try { current = await (await fetch("/api/me")).json(); } catch (e) { current = { name: null }; }
  }
  return current;
}

export function rememberSeat(table, token) {
  try { localStorage.setItem(SEATS + table, token); } catch (e) { /* private mode */ }
}

export function seatToken(table) {
  try { return localStorage.getItem(SEATS + table); } catch (e) { return null; }
}

async function post(url, body, method = "POST") {
  const response = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = response.status === 204 ? {} : await response.json();
  return { ok: response.ok, status: response.status, data };
}

// A seat link opened in this browser: remembered, and held by the account if one is signed in.
export async function keepSeat(table, token) {
  rememberSeat(table, token);
  if ((await me()).name) await post("/api/me/seats", { table, token });
}

// The seats of this browser held by the account from now on (the server checks each token).
export async function claimSeats() {
  const claims = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith(SEATS)) claims.push({ table: key.slice(SEATS.length), token: localStorage.getItem(key) });
    }
  } catch (e) { return; }
  await Promise.all(claims.map((claim) => post("/api/me/seats", claim)));
}

export function profileLink(name) {
  return el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

// The header's account box; `changed()` is called after a sign-in, a sign-up or a sign-out.
export class AccountBox {
  constructor(root, changed = () => {}) {
    this.root = root;
    this.changed = changed;
    this.open = false;
    this.error = null;
    // the form opens as a panel at the top of the page, under the header (a phone's too)
    this.panel = el("section", { class: "panel account-panel", id: "account-panel", hidden: true });
    document.querySelector("main").prepend(this.panel);
    me().then(() => this.render());
  }

  rerender() { this.render(); }

  render() {
    const root = this.root;
    root.innerHTML = "";
    this.panel.innerHTML = "";
    this.panel.hidden = true;
    if (!current) return;
    if (current.name) {
      const link = profileLink(current.name);
      link.title = t("Your profile");
      root.append(el("span", { id: "signed-in" }, link), " ",
        passkeysOffered ? el("button", { type: "button", id: "add-passkey", onclick: () => this.addPasskey() }, t("Add a passkey")) : null,
        " ", el("button", { type: "button", id: "sign-out", onclick: () => this.signOut() }, t("Sign out")));
      if (this.said) {
        this.panel.append(el("p", { role: "status", id: "account-said" }, this.said()));
        this.panel.hidden = false;
      }
      return;
    }
    root.append(el("button", { type: "button", id: "sign-in-open", "aria-expanded": String(this.open),
                               onclick: () => { this.open = !this.open; this.render(); } }, t("Sign in")));
    if (!this.open) return;
    const name = el("input", { id: "account-name", name: "name", autocomplete: "username", required: true, maxlength: "24",
                               value: this.name || "" });   // kept when a refusal redraws the form
    const password = el("input", { id: "account-password", name: "password", type: "password", autocomplete: "current-password", required: true });
    const form = el("form", { id: "account-form", class: "account-form" },
      el("label", {}, el("span", {}, t("Name")), " ", name),
      el("label", {}, el("span", {}, t("Password")), " ", password),
      el("div", { class: "row" },
        el("button", { type: "submit", class: "primary", id: "sign-in" }, t("Sign in")),
        el("button", { type: "button", id: "sign-up" }, t("Create an account")),
        passkeysOffered ? el("button", { type: "button", id: "passkey-sign-in" }, t("Sign in with a passkey")) : null),
      el("p", { class: "muted" }, t("Guests play without an account; an account keeps your name, your games and your ratings.")),
      this.error ? el("div", { class: "error-box", role: "alert", id: "account-error" }, this.error()) : null);
    form.addEventListener("submit", (event) => { event.preventDefault(); this.send("/api/session", name.value, password.value); });
    if (passkeysOffered) form.querySelector("#passkey-sign-in").addEventListener("click", () => this.passkey());
    form.querySelector("#sign-up").addEventListener("click", () => {
      if (form.reportValidity()) { password.autocomplete = "new-password"; this.send("/api/accounts", name.value, password.value); }
    });
    this.panel.append(form);
    this.panel.hidden = false;
    name.focus();
  }

  async send(url, name, password) {
    this.name = name;
    await this.signedIn(await post(url, { name, password }));
  }

  async passkey() { await this.signedIn(await signInWithPasskey()); }

  async addPasskey() {
    const { ok, data } = await addPasskey();
    this.said = ok ? () => t("Passkey added: sign in with it on this device next time.")
      : data ? () => (data.message_i18n ? render(data.message_i18n) : String(data.detail)) : null;
    this.render();
  }

  async signedIn({ ok, data, status }) {
    if (!data) return;   // the person cancelled the browser's passkey dialog
    if (!ok) {
      this.error = data.message_i18n ? () => render(data.message_i18n) : () => String(data.detail || status);
      this.render();
      return;
    }
    current = { name: data.name };
    this.error = null;
    this.open = false;
    await claimSeats();
    this.render();
    this.changed(current);
  }

  async signOut() {
    this.said = null;
    await post("/api/session", {}, "DELETE");
    current = { name: null };
    this.render();
    this.changed(current);
  }
}
