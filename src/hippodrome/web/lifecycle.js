// The table's lifecycle on the play page, for every game (docs/protocol.md, "Lifecycle"): while
// the table waits for its people, who is connected and ready, a Ready button for your seat and,
// for the host, "Start now"; between races, a Next race button with the countdown and who has
// pressed it. While the game runs the host's page lists the players who left (nobody connected to
// their seats), each with "Let a bot play" (the `hand` message), and the seats it handed over. The
// panel is built once and patched (keyed rows, buttons kept), so an update never takes a button
// from under a finger. Hidden while the game plays and once it is over, except on the host's page
// while a player is away (or since it let a bot play a seat), and on the page of a seat the host
// handed to a bot: it says so for as long as the game lasts.
import { t, tn, seatName } from "/static/i18n.js";
import { el, keyed, fragmentParam } from "/static/net.js";

// Whether a bot plays this page's seat: the host started the game, or let a bot play the seat,
// while nobody was at it (docs/protocol.md, "Lifecycle"). The page then watches: no move, no bet of
// its own.
export function seatHanded(msg) {
  const life = msg && msg.lifecycle;
  return Boolean(life && msg.seat !== null && msg.seat !== undefined && (life.handed || []).includes(msg.seat));
}

export class LifecyclePanel {
  constructor(root, connection, { host = null } = {}) {
    this.root = root;
    this.connection = connection;
    this.host = host;
    this.message = null;
    this.deadline = null;   // performance.now() at which the countdown reaches 0
    this.handedHere = new Set();   // seats this (host's) page let a bot play: listed while the game runs
    this.handing = new Set();      // seats whose "Let a bot play" was pressed, until the next update
    this.title = el("h2", {});
    this.summary = el("p", { class: "lifecycle-summary" });
    this.list = el("ul", { class: "lifecycle-seats" });
    this.mine = el("button", { type: "button", class: "primary lifecycle-mine", onclick: () => this.pressMine() });
    this.hostButton = el("button", { type: "button", class: "lifecycle-host", onclick: () => this.pressHost() });
    this.countdown = el("p", { class: "lifecycle-countdown", "aria-live": "off" });
    this.buttons = el("div", { class: "row" }, this.mine, this.hostButton);
    this.root.replaceChildren(this.title, this.summary, this.countdown, this.buttons, this.list);
    this.root.hidden = true;
    this.timer = setInterval(() => this.drawCountdown(), 250);
  }

  update(message) {
    this.message = message;
    const left = message.lifecycle ? message.lifecycle.countdown : null;
    this.deadline = left === null || left === undefined ? null : performance.now() + left * 1000;
    this.paused = Boolean(message.clock && message.clock.paused);   // the countdown stands still
    this.left = left;
    this.handing.clear();   // the server answered (a state follows a refusal too): the buttons work again
    this.readyAtOnce(message);
    this.rerender();
  }

  // The lobby's "Play now" opens the table with #ready=now: the person is ready at once (with only
  // bots besides, the game starts). Said once; the link loses the word, so a reload asks again.
  readyAtOnce(message) {
    if (this.readySent || fragmentParam("ready") !== "now") return;
    const life = message.lifecycle;
    this.readySent = true;
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    params.delete("ready");
    history.replaceState(null, "", `#${params}`);
    if (message.status === "waiting" && life && life.persons.includes(message.seat) && !life.ready.includes(message.seat)) {
      this.connection.send({ type: "ready" });
    }
  }

  pressMine() {
    const status = this.message && this.message.status;
    if (status === "waiting") this.connection.send({ type: "ready" });
    else if (status === "between_races") this.connection.send({ type: "next_race" });
  }

  pressHost() {
    const status = this.message && this.message.status;
    if (status === "waiting") this.connection.send({ type: "start", host: this.host });
    else if (status === "between_races") this.connection.send({ type: "next_race", host: this.host });
  }

  // The host lets a bot play the seat of a player who left (docs/protocol.md, "Lifecycle").
  pressHand(seat) {
    if (!this.host || this.handing.has(seat)) return;
    this.handing.add(seat);
    this.handedHere.add(seat);
    this.connection.send({ type: "hand", host: this.host, seat });
    this.rerender();
  }

  // The person seats nobody is connected to while the game runs, but the host's own: the host may
  // let a bot play them.
  awaySeats(message) {
    const life = message.lifecycle;
    if (!this.host || !["playing", "between_races"].includes(message.status)) return [];
    // and, between races, those people the table waits for (a card everyone chooses at once, R8),
    // here or not (a bot still thinking over its card is no seat to hand to a bot)
    const holding = message.status === "between_races" ? (life.waiting_for || []).filter((seat) => life.persons.includes(seat)) : [];
    return [...new Set([...life.absent, ...holding])].filter((seat) => seat !== message.seat);
  }

  rerender() {
    const message = this.message;
    const status = message && message.status;
    const life = message && message.lifecycle;
    const you = message ? message.seat : null;
    // the host started, or let a bot play, while this seat was empty: a bot plays it now, and this
    // page only watches
    const handed = Boolean(life && you !== null && status !== "over" && (life.handed || []).includes(you));
    const away = message && life ? this.awaySeats(message) : [];
    // the host's page while the game plays: the players who left, and the seats it handed over
    const minding = status === "playing" && !handed
      && (away.length > 0 || life.handed.some((seat) => this.handedHere.has(seat)));
    const shown = status === "waiting" || status === "between_races" || handed || minding;
    this.root.hidden = !shown;
    this.root.dataset.status = status || "";
    this.root.dataset.handed = handed ? "yes" : "no";
    this.root.dataset.away = away.length ? "yes" : "no";
    document.body.dataset.tableStatus = status || "";
    if (!shown) return;
    const waiting = status === "waiting";
    const persons = life.persons;
    const youPlay = you !== null && persons.includes(you);
    const pressed = waiting ? life.ready : life.next;
    this.title.textContent = handed ? t("A bot plays your seat")
      : minding ? t("Players who left")
      : waiting ? t("Waiting for the players") : t("Between races: read the results");
    this.summary.textContent = handed
      ? t("Nobody was at your seat, so the host let a bot play it to the end of the game. You can watch the game here, but not play.")
      : minding && away.length
      ? t("Nobody is connected to the seat of a player who left. If they do not come back, let a bot play their seat to the end of the game; their link can still watch.")
      : minding
      ? t("A bot plays for each player who left, to the end of the game; their links can still watch.")
      : waiting
      ? tn("Ready: {ready} of {n} player", "Ready: {ready} of {n} players", persons.length, { ready: pressed.length })
      : tn("Next race pressed: {pressed} of {n} player present", "Next race pressed: {pressed} of {n} players present",
           life.present.length, { pressed: pressed.filter((s) => life.present.includes(s)).length });
    const done = youPlay && pressed.includes(you);
    this.mine.hidden = !youPlay || minding;
    this.mine.disabled = done;
    this.mine.textContent = waiting ? (done ? t("You are ready") : t("Ready"))
                                    : (done ? t("Waiting for the others") : t("Next race"));
    // else the game plays: the panel says a bot plays your seat, or lists the players who left (the host)
    const gathering = waiting || status === "between_races";
    this.hostButton.hidden = !this.host || !gathering;
    this.list.hidden = !gathering && !minding;
    this.hostButton.textContent = waiting ? t("Start now, bots take empty seats") : t("Start the next race now");
    this.buttons.hidden = this.mine.hidden && this.hostButton.hidden;
    const rows = minding
      ? message.seats.filter((s) => away.includes(s.seat) || life.handed.includes(s.seat))
      : message.seats.filter((s) => persons.includes(s.seat) || life.handed.includes(s.seat) || s.kind === "bot");
    keyed(this.list, rows, (s) => s.seat, (s) => el("li", {}, el("b", {}), " ", el("span", { class: "muted" }), " ",
      el("button", { type: "button", class: "lifecycle-hand", onclick: () => this.pressHand(s.seat) })), (node, s) => {
      node.children[0].textContent = s.seat === you ? t("{name} (you)", { name: seatName(message.seats, s.seat) })
                                                    : seatName(message.seats, s.seat);
      node.children[1].textContent = seatWords(s, life, waiting, minding);
      node.dataset.seat = s.seat;
      node.classList.toggle("pressed", !minding && pressed.includes(s.seat));
      const button = node.children[2];
      button.hidden = !away.includes(s.seat);
      button.disabled = this.handing.has(s.seat);
      button.textContent = t("Let a bot play");
    });
    this.drawCountdown();
  }

  drawCountdown() {
    const status = this.message && this.message.status;
    if (status !== "between_races" || this.deadline === null) {
      const none = status === "between_races" && this.message.lifecycle.next_race_seconds === 0;
      this.countdown.textContent = none ? t("The next race starts when everyone present has pressed Next race.") : "";
      this.drawChoosing();
      return;
    }
    const left = Math.max(0, Math.ceil(this.paused ? this.left : (this.deadline - performance.now()) / 1000));
    this.countdown.textContent = tn("The next race starts in {n} second, or when everyone present has pressed Next race.",
                                    "The next race starts in {n} seconds, or when everyone present has pressed Next race.", left);
    this.drawChoosing();
  }

  // Whom the table waits for between races: the players still choosing a card everyone chooses
  // at once (R8); the next race waits for them.
  drawChoosing() {
    const life = this.message && this.message.lifecycle, choosing = (life && life.waiting_for) || [];
    if (choosing.length && this.message.status === "between_races") {
      const names = choosing.map((seat) => seatName(this.message.seats, seat)).join(", ");
      this.countdown.textContent += " " + t("Still choosing: {names}.", { names });
    }
  }
}

// A seat's line in words: a bot; or a person's connection and whether they are ready (waiting)
// or pressed Next race (between races); while the game plays (the host's list of those who left),
// the connection only.
function seatWords(seat, life, waiting, playing = false) {
  if (seat.kind === "bot") return life.handed.includes(seat.seat) ? t("a bot plays for this absent player") : t("bot");
  const here = life.present.includes(seat.seat) ? t("connected") : t("not connected");
  if (playing) return here;
  if (waiting) return here + " · " + (life.ready.includes(seat.seat) ? t("ready") : t("not ready yet"));
  return here + " · " + (life.next.includes(seat.seat) ? t("pressed Next race") : t("reading the results"));
}
