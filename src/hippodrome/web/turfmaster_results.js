// The TurfMaster page's results panel: the race's places and every horse that fell, with the fence
// it fell at (T11), then the meeting's points per race (T9). Between races, once the meeting has set
// up the next race, it still shows the race just run: its places and falls from the view's results,
// where each fell from the races look-up's history.
import { t, ordinal } from "/static/i18n.js";
import { el } from "/static/net.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const horseName = (id) => t(cap(id));

// The race the panel is about: {n, over, places, fallen, history, owner(id)}, or null.
// pastRaces: the races look-up's answer so far ([{race, stalls, history}]).
export function shownRace(msg, race, pastRaces = []) {
  const view = msg.view;
  const results = (msg.game === "turfmaster" && view.results) || [];
  if (msg.status === "between_races" && results.length && !(race && race.over)) {
    const last = results[results.length - 1];
    const run = pastRaces.find((r) => r.race === last.race);
    const owners = Object.fromEntries((view.horses || []).map((h) => [h.id, h.owner]));
    return { n: last.race, over: true, places: last.places || [], fallen: last.fallen || [],
             history: run ? run.history : [], owner: (id) => owners[id] };
  }
  if (!race) return null;
  const owners = Object.fromEntries((race.horses || []).map((h) => [h.id, h.owner]));
  const n = msg.game === "turfmaster" ? (race.over ? results.length : view.race_no) || 1 : 1;
  return { n, over: Boolean(race.over), places: race.places || [], fallen: race.fallen || [],
           history: race.history || [], owner: (id) => owners[id] };
}

// The fall of `horse` in a race's history: the square its last move ended on, or null.
function fallSquare(history, horse) {
  const move = [...history].reverse().find((e) => e.event === "move" && e.horse === horse && e.fell);
  return move ? move.to : null;
}

// The results panel into `box`. page: seatName(seat), fenceName(lane, square).
export function renderResults(box, page, msg, race, pastRaces) {
  const view = msg.view;
  box.innerHTML = "";
  const shown = shownRace(msg, race, pastRaces);
  if (shown && (shown.places.length || shown.fallen.length)) {
    box.append(el("h2", {}, shown.over ? t("Race {n}: result", { n: shown.n }) : t("This race")));
    const owner = (id) => page.seatName(shown.owner(id));
    const rows = shown.places.map((h, i) => el("tr", { dataset: { horse: h } },
      el("td", {}, ordinal(i + 1)), el("td", {}, horseName(h)), el("td", {}, owner(h))));
    for (const h of shown.fallen) {
      const at = fallSquare(shown.history, h);
      rows.push(el("tr", { class: "fallen", dataset: { horse: h, fallen: "yes" } },
        el("td", {}, "–"), el("td", {}, horseName(h)), el("td", {}, owner(h)),
        el("td", { class: "fell" }, at ? t("fell at {fence}", { fence: page.fenceName(at.lane, at.square) }) : t("fell"))));
    }
    box.append(el("table", { class: "data", id: "race-table" }, rows));
    if (shown.over && !shown.places.length) box.append(el("p", { class: "muted", id: "no-places" }, t("Every horse fell: no horse is placed.")));
  }
  if (msg.game === "turfmaster" && view.standings) {
    box.append(el("h2", {}, msg.over ? t("Final table") : t("The meeting")));
    // narrow (the side column): the races' points under one heading, numbered, so that the table
    // fits its panel in every language ("Carrera 1" three times did not)
    const head = el("thead", {},
      el("tr", {}, el("th", { rowspan: 2 }, "#"), el("th", { rowspan: 2 }, t("Player")),
         el("th", { colspan: 3, class: "races" }, t("Races")), el("th", { rowspan: 2 }, t("Points"))),
      el("tr", {}, [1, 2, 3].map((n) => el("th", { class: "race-no", title: t("Race {n}", { n }), "aria-label": t("Race {n}", { n }) }, String(n)))));
    box.append(el("table", { class: "data", id: "meeting-table" }, head, view.standings.map((row) =>
      el("tr", {}, el("td", {}, String(row.rank)), el("td", {}, page.seatName(row.seat)),
         [0, 1, 2].map((i) => el("td", {}, row.races[i] === undefined ? "" : String(row.races[i]))), el("td", {}, el("b", {}, String(row.total)))))));
  }
  if (!box.childNodes.length) box.append(el("p", { class: "muted", id: "no-places" }, t("No horse has finished yet.")));
}
