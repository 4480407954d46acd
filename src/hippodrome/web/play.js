// A table's page: connects as the seat of the link (#seat=TOKEN) or as a spectator, and hands
// every state to the game's own page module.
import { t, languageSelector } from "/static/i18n.js";
import { TableConnection, fragmentParam, el } from "/static/net.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const token = fragmentParam("seat");
const $ = (id) => document.getElementById(id);

function showMessage(text, kind = "error") {
  const box = $("messages");
  box.innerHTML = "";
  if (!text) return;
  const node = el("div", { class: "error-box", role: "alert", dataset: { kind } }, text);
  box.append(node);
  setTimeout(() => { if (node.parentNode) node.remove(); }, kind === "stale" ? 3000 : 8000);
}

async function start() {
  let page = null;
  await languageSelector($("lang"), () => page && page.rerender());
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) { showMessage(t("There is no table {id}.", { id: tableId })); return; }
  const summary = await response.json();
  const module = summary.game.startsWith("turfmaster") ? await import("/static/turfmaster.js") : await import("/static/readysetbet.js");
  page = new module.Page($("app"), summary);
  $("table-title").textContent = t("Table {id}", { id: tableId });
  const connection = new TableConnection(tableId, {
    token,
    onState: (message) => {
      const me = message.seat === null ? t("watching") : t("you are {name}", { name: message.seats[message.seat].name });
      $("who").textContent = me;
      page.update(message);
    },
    onError: (message) => {
      if (message.code === "stale") showMessage(t("The game moved on before your move arrived; look again and choose."), "stale");
      else showMessage(message.message);
      if (page.onError) page.onError(message);
    },
    onPreview: (message) => page.onPreview && page.onPreview(message),
    onStatus: (status) => {
      const node = $("connection");
      node.className = `status-dot ${status}`;
      node.textContent = { online: t("online"), offline: t("reconnecting…"), connecting: t("connecting") }[status];
      node.dataset.status = status;
    },
  });
  page.connection = connection;
  page.showMessage = showMessage;
}

start();
