// A caller's voice that keeps pace with the dice (issue 34): the rule of
// src/hippodrome/readysetbet/pacing.py, which the terminal's voice follows too, over the browser's
// speech synthesis. Lines come a roll at a time (say); when a new roll's lines come, earlier
// rolls' commentary not yet said is dropped; urgent lines ("No more bets!" and the finish, then
// red-line crossings, then the results: the description's data.caller_pacing.priority) are always
// said, the most urgent first, in their short form once their roll is past, and they cut a less
// urgent line being said; a new race's first lines drop and cut whatever the race before left
// (its results too). So speech is never more than about a roll behind the dice.
import { render } from "/static/i18n.js";

export class PacedVoice {
  // pacing: the description's data.caller_pacing ({priority: {msgid: n}, short: {msgid: msgid}});
  // synth and Utterance: the browser's speech synthesis (a test gives its own)
  constructor(pacing, { synth = window.speechSynthesis, Utterance = window.SpeechSynthesisUtterance } = {}) {
    this.priority = (pacing && pacing.priority) || {};
    this.short = (pacing && pacing.short) || {};
    this.synth = synth;
    this.Utterance = Utterance;
    this.roll = 0;
    this.waiting = [];     // {text, short, priority, roll}
    this.current = null;   // {utterance, priority}
    this.lang = "";
  }

  get available() { return Boolean(this.synth && this.Utterance); }

  // One roll's caller lines (message JSON, translated here in the page's language), said in `lang` (a
  // speech tag); newRace: the first lines of a race after another (pacing.py's NEW_RACE)
  say(lines, lang, newRace = false) {
    if (!this.available) return;
    this.lang = lang;
    this.roll += 1;
    const fresh = lines.map((line) => ({
      text: render(line),
      short: this.short[line.msgid] ? render({ msgid: this.short[line.msgid], params: line.params }) : null,
      priority: this.priority[line.msgid] || 0,
      roll: this.roll,
    }));
    const kept = (newRace ? [] : this.waiting.filter((line) => line.priority > 0)).concat(fresh);
    this.waiting = kept.map((line, i) => [line, i]).sort((a, b) => b[0].priority - a[0].priority || a[1] - b[1]).map(([line]) => line);
    const urgent = Math.max(0, ...fresh.map((line) => line.priority));
    if (this.current && (newRace || this.current.priority < urgent)) {   // cut what is said: a new race, or a more urgent line
      this.current = null;
      this.synth.cancel();
    }
    this.next();
  }

  next() {
    if (this.current || !this.waiting.length) return;
    const line = this.waiting.shift();
    const text = line.roll < this.roll && line.short ? line.short : line.text;
    const utterance = new this.Utterance(text);
    utterance.lang = this.lang;
    const current = this.current = { utterance, priority: line.priority };
    const done = () => { if (this.current === current) { this.current = null; this.next(); } };
    utterance.onend = done;
    utterance.onerror = done;
    this.synth.speak(utterance);
  }

  // Silence: nothing waiting, nothing said.
  stop() {
    this.waiting = [];
    if (this.current) { this.current = null; if (this.synth) this.synth.cancel(); }
  }
}
