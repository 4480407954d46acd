// How a TurfMaster token travels from the square it stood on to the one it moved to: along the
// squares it passes (about 0.4 s, faster when several horses move in one update: a round of dice),
// hopping over each fence it jumps (T11) and tumbling at the fence it falls at; a horse that
// finishes runs to its square past the line and leaves. No travel under prefers-reduced-motion,
// nor when the player turned it off (the board's "Motion" button, kept in this browser).
const STORE = "hippodrome.motion";
const ONE_MOVE = 400;   // ms
const FASTEST = 160;    // ms: many horses at once

export function motionWanted() {
  try { return localStorage.getItem(STORE) !== "off"; } catch (e) { return true; }
}

export function setMotionWanted(on) {
  try { localStorage.setItem(STORE, on ? "on" : "off"); } catch (e) { /* private mode */ }
}

export function motionAllowed() {
  return motionWanted() && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// How long one horse's travel lasts when `movers` horses move at once.
export function travelTime(movers) { return Math.max(FASTEST, Math.round(ONE_MOVE / Math.sqrt(Math.max(1, movers)))); }

// The squares a move passes, from (lane, square) to (lane, square): one a step, the lane changing
// evenly on the way (a picture of the move, not its rules: the engine chose the end). squares: the
// board's "lane:index" -> {at, line}.
export function pathOf(squares, from, to) {
  const steps = Math.max(1, Math.abs(to.square - from.square));
  const path = [];
  for (let k = 0; k <= steps; k++) {
    const lane = Math.round(from.lane + (to.lane - from.lane) * k / steps);
    const index = Math.round(from.square + (to.square - from.square) * k / steps);
    const s = squares[`${lane}:${index}`];
    if (s && (!path.length || path[path.length - 1] !== s)) path.push(s);
  }
  const end = squares[`${to.lane}:${to.square}`];
  if (end && path[path.length - 1] !== end) path.push(end);
  return path;
}

// Travel `node` along `path` (squares), ending at `end` ([x, y]: where it is drawn); `fences`: the
// lines of the fences up; `falls`: it falls at the end. Returns the animation (null: none) and
// writes what it did on the node (data-travel: squares passed, data-jumps, data-fell), which a test
// can read whatever the machine's speed.
export function travel(node, path, end, { fences = new Set(), falls = false, time = ONE_MOVE } = {}) {
  const spots = path.slice(0, -1).map((s) => s.at).concat([end]);
  let jumps = 0;
  const frames = spots.map((at, i) => {
    const jump = i > 0 && i < spots.length - 1 && fences.has(path[i].line);
    if (jump) jumps += 1;
    return { transform: `translate(${at[0]}px, ${at[1]}px)${jump ? " scale(1.45)" : ""}`, offset: spots.length > 1 ? i / (spots.length - 1) : 1 };
  });
  node.dataset.travel = String(spots.length);
  node.dataset.jumps = String(jumps);
  node.dataset.fell = falls ? "yes" : "no";
  if (frames.length < 2) return null;
  if (falls) {   // it tumbles where it stops, in front of the fence: the run takes 3/4 of the time
    for (const f of frames) f.offset *= 0.75;
    frames.push({ transform: `${frames[frames.length - 1].transform} rotate(100deg) scale(0.8)`, offset: 1 });
  }
  return node.animate(frames, { duration: falls ? time * 1.5 : time, easing: "ease-in-out" });
}
