// A review's choice drawn on the game's board at a marked step of the replay: on TurfMaster's
// course the square chosen and the better one (turfmaster_board.js's markChoices); a game whose
// page has no such board, or a choice that is no square (a card, a bet), is told in words alone
// (review_panel.js).
import { t } from "/static/i18n.js";

const isSquare = (action) => action && action.lane !== undefined && action.square !== undefined;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export async function drawChoices(page, decisions) {
  if (page && page.loadingPromise) await page.loadingPromise.catch(() => {});
  const board = page && page.board;
  if (!board || !board.markChoices) return;
  const spots = [];
  for (const decision of decisions) {
    const made = decision.chosen.action, better = decision.best.action;
    // NOTE: a game's review on TurfMaster's course: the label of the square the player chose, beside the better one.
    if (isSquare(made)) spots.push({ ...made, kind: "made", label: t("chosen") });
    // NOTE: a game's review on TurfMaster's course: the label of the square that was the better choice.
    if (isSquare(better) && !same(made, better)) spots.push({ ...better, kind: "better", label: t("better") });
  }
  board.markChoices(spots);
}
