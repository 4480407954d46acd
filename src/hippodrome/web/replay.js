// A finished table watched again (/replay/ID): the game's own page draws each step the server
// plays back from the stored log (GET /api/tables/ID/replay?step=K); the timeline steps forward
// and back, jumps to a race, plays at a chosen speed, and links to one step (#step=K). A
// signed-in player who held a seat sees its own hand; anyone else what a spectator saw. The
// game's review (review_panel.js) is asked for with its button, or at once from "Review my game"
// at the end of a table (#review).
import { t, render, languageSelector, seatName, useSeats, words, formatNumber } from "/static/i18n.js";
import { el, fragmentParam } from "/static/net.js";
import { gameDescription } from "/static/games.js";
import { ReviewPanel } from "/static/review_panel.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
const SPEEDS = [0.5, 1, 2, 4, 8];   // steps a second when playing
let description = null;
let page = null;
let shown = null;      // the answer on screen
let wanted = 0;        // the step asked for last
let playing = null;    // the timer while playing
let review = null;     // the review's panel (a game that has reviews)

function message(text) {
  $("messages").innerHTML = "";
  if (text) $("messages").append(el("div", { class: "error-box", role: "alert" }, text));
}

// the seats as a page names them: a deleted account's seat is "a former player"
function seats(answer) {
  return answer.seats.map((s) => (s.former ? { ...s, name: t("a former player") } : s));
}

function drawHeader() {
  document.title = `${t("Replay of table {id}", { id: tableId })} · hippodrome`;
  $("table-title").textContent = description ? t("Replay: {game}", { game: words(description.title) }) : t("Replay of table {id}", { id: tableId });
  if (shown) $("who").textContent = shown.seat === null ? t("watching") : t("you are {name}", { name: seatName(seats(shown), shown.seat) });
}

function drawTimeline() {
  if (!shown) return;
  const scrub = $("scrub");
  scrub.max = String(shown.steps);
  scrub.value = String(shown.step);
  $("where").textContent = t("Step {n} of {count}", { n: formatNumber(shown.step), count: formatNumber(shown.steps) });
  $("first").disabled = $("back").disabled = shown.step === 0;
  $("forward").disabled = $("last").disabled = shown.step === shown.steps;
  $("play").textContent = playing ? t("Pause") : t("Play");
  const races = $("race");
  $("race-label").hidden = shown.races.length < 2;
  if (races.options.length !== shown.races.length) {
    races.innerHTML = "";
    shown.races.forEach((step, index) => races.append(el("option", { value: String(step) }, t("Race {n}", { n: index + 1 }))));
  }
  for (const option of races.options) option.textContent = t("Race {n}", { n: option.index + 1 });
  let race = 0;
  shown.races.forEach((step, index) => { if (step <= shown.step) race = index; });
  races.selectedIndex = race;
  const link = `${location.pathname}#step=${shown.step}`;
  $("step-link").href = link;
}

function speedOptions() {
  const select = $("speed");
  const chosen = select.value || "2";
  select.innerHTML = "";
  for (const speed of SPEEDS) select.append(el("option", { value: String(speed) }, `${formatNumber(speed)}×`));
  select.value = chosen;
}

async function go(step) {
  if (shown) step = Math.max(0, Math.min(shown.steps, step));
  wanted = step;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${step}`);
  const answer = await response.json();
  if (!response.ok) { stop(); message(answer.message_i18n ? render(answer.message_i18n) : answer.detail); return; }
  if (answer.step !== wanted) return;   // a newer step was asked for meanwhile
  shown = answer;
  message(null);
  const msg = { type: "state", table: tableId, game: answer.game, state_id: answer.step, seat: answer.seat,
                view: answer.view, decision: answer.decision, free_actions: [], over: answer.step === answer.steps && answer.decision === null,
                status: answer.step === answer.steps ? "over" : "playing", lifecycle: null, clock: null,
                seats: seats(answer), replay: true };
  useSeats(msg.seats);
  if (!page) {
    const module = await import(`/static/${description.page}.js`);
    page = new module.Page($("app"), { id: tableId, game: answer.game, seats: msg.seats, setup: {} }, description);
    page.connection = { act() {}, preview() {}, why() {}, setLanguage() {} };   // nobody plays in a replay
    page.showMessage = () => {};
    $("timeline").hidden = false;
    document.body.classList.add("replay");
  }
  page.update(msg);
  drawHeader();
  drawTimeline();
  if (review) review.show(answer.step, answer.steps);
  if (playing && answer.step === answer.steps) stop();
}

function stop() {
  clearInterval(playing);
  playing = null;
  drawTimeline();
}

function play() {
  if (playing) { stop(); return; }
  if (shown && shown.step === shown.steps) go(0);
  playing = setInterval(() => { if (shown && wanted === shown.step) go(shown.step + 1); }, 1000 / Number($("speed").value));
  drawTimeline();
}

async function start() {
  await languageSelector($("lang"), () => {
    drawHeader();
    speedOptions();
    drawTimeline();
    if (page) page.rerender();
    if (review) review.rerender();
  });
  speedOptions();
  drawHeader();
  const first = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?step=0`);
  if (!first.ok) {
    const answer = await first.json();
    message(answer.message_i18n ? render(answer.message_i18n) : answer.detail);
    return;
  }
  const { game } = await first.json();
  description = await gameDescription(game);
  if (description.rules) {
    $("rules-link").href = `/rules/${encodeURIComponent(description.name)}`;
    $("rules-link").hidden = false;
  }
  $("first").onclick = () => go(0);
  $("back").onclick = () => go((shown ? shown.step : 0) - 1);
  $("forward").onclick = () => go((shown ? shown.step : 0) + 1);
  $("last").onclick = () => go(shown ? shown.steps : 0);
  $("play").onclick = play;
  $("speed").onchange = () => { if (playing) { stop(); play(); } };
  $("race").onchange = () => go(Number($("race").value));
  $("scrub").oninput = () => go(Number($("scrub").value));
  $("step-link").onclick = (event) => { event.preventDefault(); history.replaceState(null, "", $("step-link").href); };
  window.addEventListener("hashchange", () => go(Number(fragmentParam("step")) || 0));
  await go(Number(fragmentParam("step")) || 0);
  if (description.review) {
    review = new ReviewPanel($("review"), $("review-marks"), tableId, {
      go, name: (seat) => seatName(seats(shown), seat), seat: () => shown.seat, page: () => page });
    review.show(shown.step, shown.steps);
    await review.load(location.hash.split(/[#&]/).includes("review"));
  }
}

start();
