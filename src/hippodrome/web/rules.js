// A game's rules page, /rules/<game>: the paragraphs in the reader's language (the game's texts in
// /static/rules/<page>.<lang>.json), each under its own anchor (#blocking) so that other pages can
// link to the paragraph a refusal or a note comes from, and the diagrams, drawn by the game's
// module /static/rules/<page>.js from data its engine computed (GET /api/games/<game>/rules).
import { t, lang, languageSelector } from "/static/i18n.js";
import { el } from "/static/net.js";
import { gameDescription } from "/static/games.js";

const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
const texts = {};   // language -> the page's texts

async function textsIn(page, code) {
  if (!texts[code]) {
    const response = await fetch(`/static/rules/${page}.${code}.json`);
    texts[code] = response.ok ? await response.json() : null;
  }
  return texts[code] || textsIn(page, "en");
}

// A label of the diagrams with its {placeholders} filled in.
function sayer(labels) {
  return (key, params = {}) => (labels[key] ?? key).replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));
}

function figure(drawing, name, data, caption, say) {
  const drawn = drawing.draw(name, data, say);
  for (const picture of drawn.querySelectorAll("svg")) picture.setAttribute("aria-label", caption || "");
  return el("figure", { class: "diagram", dataset: { diagram: name } }, drawn, el("figcaption", {}, caption || ""));
}

function section(entry, diagrams, drawing, say) {
  const heading = el("h2", {}, el("a", { href: `#${entry.id}`, class: "anchor" }, entry.title));
  const body = (entry.paragraphs || []).map((text) => el("p", {}, text));
  const items = entry.items ? el("ul", {}, entry.items.map((text) => el("li", {}, text))) : null;
  const figures = (entry.diagrams || []).map((d) => figure(drawing, d.name, diagrams[d.name], d.caption, say));
  return el("section", { id: entry.id, class: "panel rules-section" }, heading, body, items, figures);
}

function render(content, diagrams, drawing) {
  document.title = `${content.title} · hippodrome`;
  $("rules-game").textContent = content.title;
  const say = sayer(content.labels || {});
  $("rules-intro").replaceChildren(el("h1", {}, content.title), el("p", { class: "lead" }, content.intro || ""));
  const article = $("rules");
  article.innerHTML = "";
  for (const entry of content.sections) article.append(section(entry, diagrams, drawing, say));
  const list = $("contents-list");
  list.innerHTML = "";
  for (const entry of content.sections) list.append(el("li", {}, el("a", { href: `#${entry.id}` }, entry.title)));
  article.dataset.lang = lang;
  if (location.hash) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
}

function problem(text) {
  $("messages").replaceChildren(el("div", { class: "error-box", role: "alert" }, text));
}

async function start() {
  let redraw = null;
  await languageSelector($("lang"), () => redraw && redraw());
  const description = await gameDescription(gameName);
  if (!description || !description.rules) { problem(t("There are no rules for this game.")); return; }
  if (description.puzzles) {
    $("puzzles-link").href = `/puzzles/${encodeURIComponent(gameName)}`;
    $("puzzles-link").hidden = false;
  }
  const page = description.rules.page;
  const [answer, drawing] = await Promise.all([
    fetch(`/api/games/${encodeURIComponent(gameName)}/rules`), import(`/static/rules/${page}.js`)]);
  if (!answer.ok) { problem(t("There are no rules for this game.")); return; }
  const { diagrams } = await answer.json();
  redraw = async () => render(await textsIn(page, lang), diagrams, drawing);
  await redraw();
}

start();
