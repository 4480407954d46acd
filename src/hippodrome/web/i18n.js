// Messages of the pages: t("English msgid", {params}) looks the text up in the catalog of the
// chosen language (served at /i18n/<lang>.json, see docs/i18n.md) and falls back to the msgid.
// Every user-facing string of the pages goes through t() / tn() or a data-i18n attribute; numbers
// and money through formatNumber() / formatMoney(), which write them as the server's
// hippodrome.i18n.formatting does ("$45" en, "45 $" es/fr/de, "$ 45" nl).

const SUPPORTED = ["en", "es", "fr", "nl", "de"];
let catalog = {};
const englishPlural = (n) => (n !== 1 ? 1 : 0);
let pluralRule = englishPlural;
const listeners = [];

// The browser's preferred languages, in order; the first one we have wins (the server's negotiate()).
export function negotiate(tags) {
  for (const tag of tags || []) {
    const primary = String(tag).replace("_", "-").split("-")[0].toLowerCase();
    if (SUPPORTED.includes(primary)) return primary;
  }
  return "en";
}

function storedLanguage() {
  try { return localStorage.getItem("hippodrome.lang"); } catch (e) { return null; }
}

export let lang = negotiate([storedLanguage(), ...(navigator.languages || [navigator.language])].filter(Boolean));

// A parameter as the language shows it: numbers with the language's separators, {msgid, params}
// messages (and {money}, {percent}, {ordinal}) translated, ids such as "2/3" kept as they are.
function shown(value) {
  if (typeof value === "number") return formatNumber(value);
  if (value && typeof value === "object") return render(value);
  return String(value);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? shown(params[k]) : m));
}

// A text the server sends in every language ({"en": ..., "es": ...}: a game description's words),
// in the page's language.
export function words(entry) {
  if (entry == null) return "";
  return typeof entry === "string" ? entry : (entry[lang] ?? entry.en ?? "");
}

// msgids asked for that the language's catalog lacks (shown in English): for tests and translators
export const missing = new Set();

export function t(msgid, params) {
  return lookup(msgid, msgid, params);
}

// A message whose English word has another meaning elsewhere: tc("money table column", "Start").
// The catalog keys it as context + "\u0004" + msgid (hippodrome.i18n.catalog_key, GNU gettext's join).
export function tc(context, msgid, params) {
  return lookup(`${context}\u0004${msgid}`, msgid, params);
}

function lookup(key, msgid, params) {
  const found = typeof catalog[key] === "string" && catalog[key];
  if (!found && lang !== "en") missing.add(key);
  return fill(found || msgid, params);
}

export function tn(singular, plural, n, params) {
  const forms = catalog[singular];
  const p = { n, ...(params || {}) };
  if (!Array.isArray(forms) && lang !== "en") missing.add(singular);
  if (Array.isArray(forms) && forms.length) return fill(forms[Math.min(pluralRule(n), forms.length - 1)] || (n === 1 ? singular : plural), p);
  return fill(n === 1 ? singular : plural, p);
}

// The table's seats ([{name, ...}] of a state message), for {seat} parameters of the server's messages.
let tableSeats = null;
export function useSeats(seats) { tableSeats = seats; }

// A message the server sent as JSON (Message.to_json(): {msgid, params[, plural, n]}; Money,
// Percent and Ordinal parameters as {money}, {percent, decimals}, {ordinal}; a seat as {seat}: its
// player's name; a Listing as {list, separator} or {list, conjunction: true}); a string as it is.
export function render(message) {
  if (message === null || message === undefined) return "";
  if (typeof message !== "object") return typeof message === "number" ? formatNumber(message) : String(message);
  if ("money" in message) return formatMoney(message.money);
  if ("percent" in message) return formatPercent(message.percent, message.decimals || 0);
  if ("ordinal" in message) return ordinal(message.ordinal);
  if ("seat" in message && Object.keys(message).length === 1) return seatName(tableSeats, message.seat);
  if ("list" in message) {
    // the separator as the language writes it (French: "\u00a0; "), as the server's Listing does
    const separator = tc("between the items of a list", message.separator ?? ", ");
    return message.conjunction ? formatAnd(message.list.map(render)) : message.list.map(render).join(separator);
  }
  if (!("msgid" in message)) return JSON.stringify(message);
  const params = message.params || {};
  if ("plural" in message) return tn(message.msgid, message.plural, message.n, params);
  return message.context ? tc(message.context, message.msgid, params) : t(message.msgid, params);
}

// A seat's name as the pages show it: a nameless seat is "Player 2" in the reader's language.
export function seatName(seats, seat) {
  const entry = seats && seats[seat];
  return entry && entry.name ? entry.name : t("Player {n}", { n: seat + 1 });
}

// A player's name on a game's page (`msg`: the table's state message): in a guided first game
// (core/tutorial.py) the scripted player, who has no seat at the table, is "Your opponent".
export function playerName(msg, seat) {
  const seats = msg && msg.seats;
  if (msg && msg.view && msg.view.tutorial && !(seats && seats[seat])) return t("Your opponent");
  return seatName(seats, seat);
}

// -- numbers ------------------------------------------------------------------------------
// Grouping "always": Babel groups 4-digit numbers in every language ("1.250" in Spanish), where
// CLDR's minimum grouping digits would leave Spanish "1250".
// A formatter is made once per language and options: making one costs far more than using it,
// and a page shows hundreds of numbers a screen.
const numberFormats = new Map();

export function formatNumber(value, options) {
  const key = options ? `${lang} ${JSON.stringify(options)}` : lang;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, format = new Intl.NumberFormat(lang, { useGrouping: "always", ...options }));
  return format.format(value);
}

// The colon between a label and what it says, where the two are put together piece by piece
// ("Ana: $3 → $9"), as the language writes it (French: "\u00a0: "; the server's i18n.colon).
export function colon() {
  return tc("between a label and what it says", ": ");
}

// Texts joined as the language says "this and that": "5 and 9", "5 y 9", "2/3, 4 und 10" (the
// server's Listing(..., conjunction=True) writes them alike: both read CLDR's lists).
const listFormats = new Map();

export function formatAnd(texts) {
  let format = listFormats.get(lang);
  if (!format) listFormats.set(lang, format = new Intl.ListFormat(lang, { type: "conjunction" }));
  return format.format(texts.map(String));
}

// Dollars as format_money writes them: the plain "$" where the language puts its currency sign,
// whole amounts without cents, others with two decimals.
export function formatMoney(amount) {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return formatNumber(amount, { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol",
                                minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatPercent(fraction, decimals = 0) {
  return formatNumber(fraction, { style: "percent", minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

// A place as format_ordinal writes it: 1st, 2nd (en); 1.º (es); 1er, 2e (fr); 1e (nl); 1. (de).
export function ordinal(n) {
  if (lang === "es") return `${n}.º`;
  if (lang === "fr") return n === 1 ? "1er" : `${n}e`;
  if (lang === "nl") return `${n}e`;
  if (lang === "de") return `${n}.`;
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

// -- the language -------------------------------------------------------------------------
// The catalogs this page has loaded, by language: switching back to a language costs nothing.
const loaded = new Map();

async function fetchCatalog(code) {
  const response = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
  if (!response.ok) return null;
  const data = await response.json();
  const rule = data.plural ? pluralFunction(data.plural) : null;
  return { messages: data.messages || data, rule };
}

// A catalog's plural rule, gettext's C expression of n (integers, ! % < > <= >= == != && || ?: and
// parentheses), read without eval: the pages' Content-Security-Policy allows no code made of text.
// Throws on anything else.
export function pluralFunction(source) {
  const tokens = source.match(/n|\d+|==|!=|<=|>=|&&|\|\||[%<>!?:()]|\S/g) || [];
  let at = 0;
  const take = () => tokens[at++];
  const expect = (token) => { if (take() !== token) throw new Error(`plural rule: ${source}`); };
  const binary = (operand, ops) => () => {
    let left = operand();
    while (ops[tokens[at]]) {
      const op = ops[take()], l = left, r = operand();
      left = (n) => op(l(n), r(n));
    }
    return left;
  };
  const atom = () => {
    const token = take();
    if (token === "n") return (n) => n;
    if (token === "(") { const inner = ternary(); expect(")"); return inner; }
    if (/^\d+$/.test(token || "")) { const value = Number(token); return () => value; }
    throw new Error(`plural rule: ${source}`);
  };
  const unary = () => {
    if (tokens[at] !== "!") return atom();
    take();
    const operand = unary();
    return (n) => Number(!operand(n));
  };
  const product = binary(unary, { "%": (a, b) => a % b });
  const order = binary(product, { "<": (a, b) => Number(a < b), ">": (a, b) => Number(a > b),
                                  "<=": (a, b) => Number(a <= b), ">=": (a, b) => Number(a >= b) });
  const equal = binary(order, { "==": (a, b) => Number(a === b), "!=": (a, b) => Number(a !== b) });
  const both = binary(equal, { "&&": (a, b) => Number(Boolean(a && b)) });
  const either = binary(both, { "||": (a, b) => Number(Boolean(a || b)) });
  function ternary() {
    const test = either();
    if (tokens[at] !== "?") return test;
    take();
    const yes = ternary();
    expect(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (at !== tokens.length) throw new Error(`plural rule: ${source}`);
  return (n) => Number(rule(n));
}

export async function loadLanguage(code) {
  lang = negotiate([code || lang]);
  try {
    if (!loaded.has(lang)) {
      const entry = await fetchCatalog(lang);
      if (entry) loaded.set(lang, entry);
    }
    const entry = loaded.get(lang);
    if (entry) {
      catalog = entry.messages;
      pluralRule = entry.rule || englishPlural;
    }
  } catch (e) { catalog = {}; }
  document.documentElement.lang = lang;
  // the server answers in the same language (errors of the lobby, the pages' <html lang>)
  document.cookie = `lang=${lang}; path=/; SameSite=Lax`;
  translatePage(document);
}

// data-i18n="msgid" (the text) and data-i18n-<attribute>="msgid"; an element's
// data-i18n-context="..." gives all of them a context, as tc() does.
export function translatePage(root) {
  const translated = (el, msgid) => (el.dataset.i18nContext ? tc(el.dataset.i18nContext, msgid) : t(msgid));
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = translated(el, el.dataset.i18n);
  for (const attr of ["title", "placeholder", "aria-label", "alt"]) {
    const key = "i18n" + attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase());
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, translated(el, el.dataset[key]));
  }
}

// Call fn() after every change of language, once the new catalog is loaded.
export function onLanguageChange(fn) { listeners.push(fn); }

// A touch screen (a phone, a tablet): the pages say "tap" there, "click" elsewhere.
export function touchScreen() { return window.matchMedia("(pointer: coarse)").matches; }

// The language selector: <select id="lang"> filled from /api/languages.
export async function languageSelector(select, onChange) {
  let languages = [{ code: "en", name: "English" }];
  try {
    const response = await fetch("/api/languages");
    if (response.ok) languages = await response.json();
  } catch (e) { /* English only */ }
  if (!languages.some((l) => l.code === lang)) lang = "en";
  select.innerHTML = "";
  for (const l of languages) {
    const option = document.createElement("option");
    option.value = l.code; option.textContent = l.name; option.lang = l.code;
    if (l.code === lang) option.selected = true;
    select.appendChild(option);
  }
  if (onChange) onLanguageChange(onChange);
  select.addEventListener("change", async () => {
    try { localStorage.setItem("hippodrome.lang", select.value); } catch (e) { /* private mode */ }
    await loadLanguage(select.value);
    for (const fn of listeners) fn(lang);
  });
  await loadLanguage(lang);
  return languages;
}

export function speechTag(languages) {
  const entry = (languages || []).find((l) => l.code === lang);
  return entry && entry.speech ? entry.speech : lang;
}
