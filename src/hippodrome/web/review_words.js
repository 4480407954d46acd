// A game's review in words (docs/review.md): the marks, the values in the game's unit (TurfMaster's
// race points, Ready Set Bet's dollars of expected value), a decision as a sentence. The choices'
// words come from the server (each choice's `words`, a message: "Play 9 for Red"), never their ids.
import { t, tn, render, formatMoney, formatNumber, formatPercent } from "/static/i18n.js";

// the marks worse than good, from the least bad (good decisions are not listed nor drawn)
export const MARKED = ["inaccuracy", "mistake", "blunder"];

export function markWord(mark) {
  return { good: t("good"), inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") }[mark] || "";
}

// a value or a loss in the review's unit: "9.4 points", "$1.25"
export function amount(review, value) {
  const rounded = Math.round(value * 10) / 10;
  if (review.scale.unit === "dollars") return formatMoney(Math.round(value * 100) / 100);
  return tn("{n} point", "{n} points", rounded, { n: formatNumber(rounded) });
}

export const choiceWords = (choice) => render(choice.words);

// "Race 2, step 188: Ana chose Play 4 for Red (31.2 points)": the step of the replay's timeline
// where the choice was made (decision.at, the step a click on it goes to: "Step 188 of 450")
export function choseLine(review, decision, name) {
  return t("Race {race}, step {step}: {player} chose {choice} ({value})",
           { ...choseWords(decision, name), value: amount(review, decision.chosen.value) });
}

// a line of the list of marked decisions: "Race 2, step 188: Ana chose Play 4 for Red, 9.4 points
// lost" (what the choice cost, not its value, which reads as a loss beside the mark)
export function listLine(review, decision, name) {
  return t("Race {race}, step {step}: {player} chose {choice}, {lost} lost",
           { ...choseWords(decision, name), lost: amount(review, decision.loss) });
}

// the words both lines share: the race, the replay's step, who chose what
function choseWords(decision, name) {
  return { race: decision.race, step: formatNumber(decision.at), player: name, choice: choiceWords(decision.chosen) };
}

// "better: Play 9 for Red (40.6 points), 9.4 points lost: mistake"
export function betterLine(review, decision) {
  return t("better: {choice} ({value}), {lost} lost: {mark}", {
    choice: choiceWords(decision.best), value: amount(review, decision.best.value),
    lost: amount(review, decision.loss), mark: markWord(decision.mark) });
}

// a player's line of the summary: "Ana: accuracy 91.4%, 12.3 points lost per race"
export function playerLine(review, player, name) {
  return t("{player}: accuracy {accuracy}, {lost} lost per race", {
    player: name, accuracy: formatPercent(player.accuracy / 100, 1), lost: amount(review, player.points_lost) });
}
