// Sound on Ready Set Bet's play page (issue 34, point 3): the dice of each roll, a red-line
// crossing, "No more bets!" and the finish, as short tones made by the Web Audio API (no sound
// file to load), and "No more bets!" and the finish also said in the page's language (voice.js).
// Off until the player turns it on; the choice is remembered in this browser.
//
// Each sound played is also announced as a "hippodrome:sound" event on the document (its detail
// the sound's name), for whatever else wants to follow the race by ear.
import { PacedVoice } from "/static/voice.js";

const KEY = "hippodrome.sound";
// each sound: [frequency (Hz), start (s), length (s), wave] tones
const TONES = {
  dice: [[900, 0, 0.03, "square"], [650, 0.06, 0.03, "square"], [1100, 0.11, 0.03, "square"]],
  red_line: [[660, 0, 0.12, "triangle"], [880, 0.14, 0.18, "triangle"]],
  no_more_bets: [[988, 0, 0.18, "sine"], [784, 0.2, 0.18, "sine"], [659, 0.4, 0.35, "sine"]],
  finish: [[523, 0, 0.12, "triangle"], [659, 0.13, 0.12, "triangle"], [784, 0.26, 0.12, "triangle"], [1047, 0.39, 0.4, "triangle"]],
};
const SOUND_OF = { move: "dice", red_line: "red_line", no_more_bets: "no_more_bets", finish: "finish" };

export class RaceSounds {
  constructor(pacing) {
    this.on = localStorage.getItem(KEY) === "on";
    this.context = null;
    this.heard = null;   // {race, events, lines}: what of the race has been played already
    // only the most urgent lines are said on the play page: "No more bets!" and the finish
    this.voice = new PacedVoice({ priority: Object.fromEntries(Object.entries((pacing && pacing.priority) || {}).filter(([, p]) => p >= 3)),
                                  short: {} }, { synth: window.speechSynthesis, Utterance: window.SpeechSynthesisUtterance });
    // a browser lets a page make sound only after a click or a key: the context starts with one
    const wake = () => { if (this.on) this.audio(); };
    document.addEventListener("pointerdown", wake, { capture: true });
    document.addEventListener("keydown", wake, { capture: true });
  }

  toggle(on) {
    this.on = on;
    localStorage.setItem(KEY, on ? "on" : "off");
    if (on) this.audio(); else this.voice.stop();
  }

  audio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume();
    return this.context;
  }

  play(name) {
    document.dispatchEvent(new CustomEvent("hippodrome:sound", { detail: name }));
    const context = this.audio();
    if (!context) return;
    const now = context.currentTime;
    for (const [frequency, start, length, wave] of TONES[name]) {
      const oscillator = context.createOscillator(), gain = context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.25, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }

  // A new state of the table: the sounds of its new events (none for the backlog of a page just
  // opened, nor while sound is off), and its urgent caller lines said in `lang` (a speech tag).
  update(view, lang) {
    const log = view.race_log || [], lines = (view.caller && view.caller.lines) || [];
    const heard = this.heard;
    this.heard = { race: view.race_no, events: log.length, lines: lines.length };
    if (!heard || !this.on) return;
    const same = heard.race === view.race_no;
    const events = log.slice(same ? heard.events : 0);
    // one roll's sounds: the most telling of its events (a finish says more than its dice)
    const names = events.map((event) => SOUND_OF[event.event]).filter(Boolean);
    const order = ["finish", "no_more_bets", "red_line", "dice"];
    const loudest = order.find((name) => names.includes(name));
    if (loudest) this.play(loudest);
    const fresh = lines.slice(same && heard.lines <= lines.length ? heard.lines : 0);
    const said = fresh.filter((line) => this.voice.priority[line.msgid]);
    if (said.length) this.voice.say(said, lang);
  }
}
