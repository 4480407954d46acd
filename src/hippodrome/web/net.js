// The table connection (protocol v1, docs/protocol.md): joins with the seat's token, keeps the
// newest state, and reconnects by itself (with growing pauses) when the server goes away.
// `join` carries the page's language, so the server's errors and notes come in that language.
// The pages get whole states; a connection made with `{patches: true}` asks the server for
// patches instead: after the first whole `state`, each change comes as a `patch` (JSON Patch,
// RFC 6902) against the last state sent, applied here (the page's onState still gets whole states).
// While the server cannot save the game it pauses the table and says so (`storage` messages):
// `onSaving` hears each of them, and null once a state comes again (a state is always stored).
import { lang, t, render, seatName } from "/static/i18n.js";

export const PROTOCOL = 1;

export class TableConnection {
  constructor(tableId, { token = null, host = null, patches = false, onState, onError, onStatus, onPreview, onWhy,
    onSaving } = {}) {
    this.tableId = tableId;
    this.patches = patches;   // ask for patches rather than whole states (docs/protocol.md)
    this.token = token;
    this.host = host;
    this.onState = onState || (() => {});
    this.onError = onError || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onPreview = onPreview || (() => {});
    this.onWhy = onWhy || (() => {});
    this.onSaving = onSaving || (() => {});
    this.saving = null;   // the last storage message while saving fails
    this.state = null;
    this.retry = 0;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.join();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "welcome") { this.seat = message.seat; this.onStatus("online"); }
      else if (message.type === "state") this.received(message);
      else if (message.type === "patch") this.patched(message);
      else if (message.type === "storage") {
        this.saving = message.saving === "failing" ? message : null;
        this.onSaving(message);
      }
      else if (message.type === "preview") this.onPreview(message);
      else if (message.type === "why") this.onWhy(message);
      else if (message.type === "error") this.onError(message);
    });
    ws.addEventListener("close", () => {
      if (this.closed) return;
      this.onStatus("offline");
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.open(), wait);
    });
  }

  join() {
    return this.send({ type: "join", lang, ...(this.patches ? { patches: true } : {}),
      ...(this.token ? { token: this.token } : {}) });
  }

  // A whole state (every state is stored: a saving banner goes).
  received(state) {
    if (this.saving) { this.saving = null; this.onSaving(null); }
    this.state = state;
    this.onState(state);
  }

  // A change against the state last received: the page gets the whole new state. A patch that
  // does not fit (it cannot happen on one ordered connection) makes a new join, for a whole state.
  patched(message) {
    if (!this.state) { this.join(); return; }
    let state;
    try { state = applyPatch(this.state, message.ops); } catch (e) { this.join(); return; }
    this.received(state);
  }

  // After a change of language: join again, and the server answers in the new language.
  setLanguage() { return this.join(); }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ v: PROTOCOL, ...message }));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: "act", state_id: this.state ? this.state.state_id : -1, action });
  }

  preview(action) { return this.send({ type: "preview", action }); }
  // the game's private "why" look-up: why a square (or the like) is out of reach, in words
  why(params) { return this.send({ type: "why", ...params }); }
  pause() { return this.send({ type: "pause", ...(this.host ? { host: this.host } : {}) }); }
  resume() { return this.send({ type: "resume", ...(this.host ? { host: this.host } : {}) }); }
}

// `doc` with the JSON Patch `ops` (add, remove, replace) applied, as a new document: `doc` and
// the parts of it that did not change are shared, never modified (a page may hold the old state).
export function applyPatch(doc, ops) {
  const root = { doc };
  const copied = new Set();
  const own = (value) => {   // a copy of a container on the path, made once per patch
    if (copied.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(copy);
    return copy;
  };
  for (const op of ops) {
    const tokens = op.path === "" ? [] : op.path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent = root;
    let key = "doc";
    for (const token of tokens) {
      if (parent[key] === null || typeof parent[key] !== "object") throw new Error(`bad path ${op.path}`);
      parent[key] = own(parent[key]);
      parent = parent[key];
      key = Array.isArray(parent) ? (token === "-" ? parent.length : Number(token)) : token;
      if (Array.isArray(parent) && !(Number.isInteger(key) && key >= 0 && key <= parent.length)) throw new Error(`bad index ${token}`);
    }
    if (op.op === "remove") {
      if (Array.isArray(parent)) parent.splice(key, 1); else delete parent[key];
    } else if (op.op === "add" && Array.isArray(parent)) parent.splice(key, 0, op.value);
    else if (op.op === "add" || op.op === "replace") parent[key] = op.value;
    else throw new Error(`unknown op ${op.op}`);
  }
  return root.doc;
}

// The banner of a table's page while the server cannot save the game ("the table is paused:
// saving the game failed, retrying"), and for a few seconds once it can again; in the page's
// language, redrawn when it changes.
export class SavingBanner {
  constructor(parent) {
    this.node = el("div", { class: "saving-banner", role: "alert" });
    this.node.hidden = true;
    parent.prepend(this.node);
    this.message = null;
  }

  update(message) {
    clearTimeout(this.timer);
    this.message = message;
    if (message && message.saving === "ok") this.timer = setTimeout(() => this.update(null), 6000);
    this.rerender();
  }

  rerender() {
    const message = this.message;
    this.node.hidden = !message;
    if (!message) return;
    this.node.dataset.saving = message.saving;
    this.node.textContent = message.message_i18n ? render(message.message_i18n) : message.message;
  }
}

export function fragmentParam(name) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get(name);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style") node.style.cssText = v;   // through the CSSOM: the CSP refuses style attributes
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

export const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

// Patch `parent`'s children to show `items` in order, one element per key: an element whose key
// is still shown is kept (and `update`d), never rebuilt, so a button a person is pressing survives
// an update; new keys get `create(item)`, gone ones are removed.
export function keyed(parent, items, keyOf, create, update = () => {}) {
  const old = new Map([...parent.children].filter((n) => n.dataset.key !== undefined).map((n) => [n.dataset.key, n]));
  let previous = null;
  for (const item of items) {
    const k = String(keyOf(item));
    let node = old.get(k);
    if (node) old.delete(k); else { node = create(item); node.dataset.key = k; }
    update(node, item);
    const wanted = previous ? previous.nextSibling : parent.firstChild;
    if (node !== wanted) parent.insertBefore(node, wanted);
    previous = node;
  }
  for (const node of old.values()) node.remove();
}

// A new table made through the lobby API (POST /api/tables): {ok, data} with the server's answer
// (its seats' links, or its refusal).
export async function createTable(body) {
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                                body: JSON.stringify(body) });
  const data = await response.json();
  if (response.ok) {
    try { localStorage.setItem(`hippodrome.table.${data.id}`, JSON.stringify(data)); } catch (e) { /* private mode */ }
  }
  return { ok: response.ok, data, statusText: response.statusText };
}

// "Copy link": the link shown in `code` to the clipboard, and `said` says so. Where the page may not
// write to the clipboard (plain http from another device of the network: no navigator.clipboard)
// the link is selected on screen and copied the old way; failing that, the words say to copy the
// selected link by hand.
async function copyLink(code, said) {
  const text = code.textContent;
  const tell = (words) => {
    said.textContent = words;
    clearTimeout(said.timer);
    said.timer = setTimeout(() => { said.textContent = ""; }, 6000);
  };
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      tell(t("Copied"));
      return;
    }
  } catch (e) { /* refused: select it below */ }
  const selection = window.getSelection();
  selection.removeAllRanges();
  const range = document.createRange();
  range.selectNodeContents(code);
  selection.addRange(range);
  let copied = false;
  try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
  tell(copied ? t("Copied") : t("This page may not copy: the link is selected, copy it by hand."));
}

// "QR code": shows (and hides) the code of `link` below its row, for a phone at the table to open
// it by pointing its camera (web/qr.js, loaded when first asked for).
export function qrButton(link, label) {
  const button = el("button", { type: "button", class: "qr-button", "aria-expanded": "false" }, t("QR code"));
  button.addEventListener("click", async () => {
    const open = button.getAttribute("aria-expanded") === "true";
    button.setAttribute("aria-expanded", open ? "false" : "true");
    if (open) { button.nextElementSibling && button.nextElementSibling.classList.contains("qr-box") && button.nextElementSibling.remove(); return; }
    const { qrSvg } = await import("/static/qr.js");
    const picture = qrSvg(link, label());
    if (picture) button.after(el("div", { class: "qr-box", dataset: { link } }, picture));
  });
  return button;
}

// A new table's links, as the lobby shows them once it is made: each person's seat (their own
// link), the spectators' link and the race caller's.
export function tableLinks(data) {
  const absolute = (path) => location.origin + path;
  const box = el("div", { class: "created-table" });
  box.append(el("h2", {}, t("Table {id} is ready", { id: data.id })));
  const seated = data.seats.length > 0;   // a table for the box has no seats: its caller is the link
  if (seated) box.append(el("p", { class: "muted" }, t("Send each person their own link: it is their seat, and nobody else can play it.")));
  const list = el("div", { class: "links" });
  // the creator plays the first person seat, through the host link (it may also start the game)
  const creator = data.seats.find((seat) => seat.link);
  const linkOf = (seat) => (seat === creator && data.play_host_link ? data.play_host_link : seat.link);
  if (data.play_host_link) {
    box.append(el("p", { class: "host-link-row" }, creator
      ? t("Your own seat is the first: its link makes you the host, who may start the game without absent players and call the next race.")
      : t("Keep the host link: it starts the game and calls the next race."), " ",
      el("a", { href: data.play_host_link, class: "button primary host-link" }, creator ? t("Play your seat as host") : t("Open as host"))));
  }
  for (const seat of data.seats) {
    const code = seat.link ? el("code", {}, absolute(seat.link)) : null;
    const said = el("span", { class: "copy-said", role: "status", "aria-live": "polite" });
    list.append(el("div", { class: "link-row" },
      el("b", {}, seatName(data.seats, seat.seat)), " ", el("span", { class: "muted" }, seat.kind === "bot" ? t("Bot") : t("Person")),
      seat.link ? el("div", {}, code) : null,
      seat.link ? el("div", { class: "row" },
        el("a", { class: "button primary play-link", href: linkOf(seat), dataset: { seat: seat.seat } }, t("Play this seat")),
        el("button", { type: "button", class: "copy-link", onclick: () => copyLink(code, said) }, t("Copy link")),
        qrButton(absolute(seat.link), () => t("QR code of the link of {name}", { name: seatName(data.seats, seat.seat) })), said) : null));
  }
  box.append(list);
  box.append(el("p", {}, t("Watch as a spectator:"), " ", el("a", { href: data.spectator_link, class: "spectate-link" }, absolute(data.spectator_link)),
    " ", qrButton(absolute(data.spectator_link), () => t("QR code of the spectators' link"))));
  if (data.host_link) {
    box.append(el("p", {}, t("Race caller (keep this link: it can pause the race):"), " ",
      el("a", { href: data.host_link, class: seated ? "caller-link" : "caller-link button primary" }, t("Open the race caller"))));
  }
  return box;
}
