// A review's marks on the replay's timeline (replay.html's #review-marks, under the scrubber): each
// decision marked worse than good at its step (`at`: where the player was asked), coloured by its
// mark; a click goes there. Good decisions are not drawn.
import { colon } from "/static/i18n.js";
import { el } from "/static/net.js";
import { MARKED, markWord, choiceWords } from "/static/review_words.js";

export function drawMarks(host, decisions, steps, { current, go, name }) {
  host.innerHTML = "";
  host.hidden = !decisions.length;
  for (const decision of decisions) {
    if (!MARKED.includes(decision.mark)) continue;
    const label = `${markWord(decision.mark)}${colon()}${name(decision.seat)}, ${choiceWords(decision.chosen)}`;
    host.append(el("button", {
      type: "button", class: `review-mark mark-${decision.mark}${decision.at === current ? " here" : ""}`,
      style: `left: ${(100 * decision.at / Math.max(steps, 1)).toFixed(2)}%`, title: label, "aria-label": label,
      dataset: { at: String(decision.at), mark: decision.mark }, onclick: () => go(decision.at) }));
  }
}
