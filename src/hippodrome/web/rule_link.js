// A small "Rule" link to the paragraph of the game's rules page a refusal or a note comes from:
// the server names the ruling ("rule": "T4"), the game's description maps it to the paragraph's id
// (description.rules.anchors). Opens in a new tab, so the table stays where it is.
import { t } from "/static/i18n.js";
import { el } from "/static/net.js";

export function ruleLink(description, rule) {
  const anchors = description && description.rules && description.rules.anchors;
  const anchor = rule && anchors ? anchors[rule] : null;
  if (!anchor) return null;
  return el("a", { class: "rule-link", href: `/rules/${encodeURIComponent(description.name)}#${encodeURIComponent(anchor)}`,
                   target: "_blank", rel: "noopener", dataset: { rule } }, t("Rule"));
}
