// Messages of the pages: t("English msgid", {params}) looks the text up in the catalog of the
// chosen language (served at /i18n/<lang>.json, see docs/i18n.md) and falls back to the msgid.
// Every user-facing string of the pages goes through t() / tn() or a data-i18n attribute.

let catalog = {};
let pluralRule = (n) => (n !== 1 ? 1 : 0);
export let lang = localStorage.getItem("hippodrome.lang") || (navigator.language || "en").slice(0, 2);

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

export function t(msgid, params) {
  const text = typeof catalog[msgid] === "string" && catalog[msgid] ? catalog[msgid] : msgid;
  return fill(text, params);
}

export function tn(singular, plural, n, params) {
  const forms = catalog[singular];
  const p = { n, ...(params || {}) };
  if (Array.isArray(forms) && forms.length) return fill(forms[Math.min(pluralRule(n), forms.length - 1)] || (n === 1 ? singular : plural), p);
  return fill(n === 1 ? singular : plural, p);
}

export async function loadLanguage(code) {
  lang = code || lang;
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
    if (response.ok) {
      const data = await response.json();
      catalog = data.messages || data;
      if (data.plural) pluralRule = new Function("n", `return Number(${data.plural.replace(/[^n0-9!=<>&|?:()% ]/g, "")});`);
    }
  } catch (e) { catalog = {}; }
  document.documentElement.lang = lang;
  translatePage(document);
}

export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["title", "placeholder", "aria-label"]) {
    const key = "i18n" + attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase());
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.dataset[key]));
  }
}

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
    option.value = l.code; option.textContent = l.name;
    if (l.code === lang) option.selected = true;
    select.appendChild(option);
  }
  select.addEventListener("change", async () => {
    localStorage.setItem("hippodrome.lang", select.value);
    document.cookie = `lang=${select.value}; path=/; SameSite=Lax`;
    await loadLanguage(select.value);
    if (onChange) onChange();
  });
  await loadLanguage(lang);
  return languages;
}

export function speechTag(languages) {
  const entry = (languages || []).find((l) => l.code === lang);
  return entry && entry.speech ? entry.speech : lang;
}
