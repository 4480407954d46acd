// QR codes for the table's links (issue 34: the other phones join by pointing a camera), made in
// the page: byte mode (the link's UTF-8), error correction level M, versions 1 to 15 (up to 412
// bytes: any link of this server), ISO/IEC 18004. `qrMatrix(text)` gives the modules (true: dark)
// without the quiet zone; `qrSvg(text, label)` an SVG picture with its four-module quiet zone.
// tests/browser/test_browser_qr.py checks every module against the segno library's symbols.
import { svg } from "/static/net.js";

// Level M, versions 1..15: [EC codewords per block, [blocks, data codewords], [blocks, data codewords]]
const BLOCKS = [null,
  [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]], [16, [4, 27]], [18, [4, 31]],
  [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]], [30, [1, 50], [4, 51]],
  [22, [6, 36], [2, 37]], [22, [8, 37], [1, 38]], [24, [4, 40], [5, 41]], [24, [5, 41], [5, 42]]];
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46],
  [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70]];
const MASKS = [(r, c) => (r + c) % 2 === 0, (r) => r % 2 === 0, (r, c) => c % 3 === 0, (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0, (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0, (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0];

function dataCodewords(version) {
  const [, ...groups] = BLOCKS[version];
  return groups.reduce((sum, [blocks, data]) => sum + blocks * data, 0);
}

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1
function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = divisor.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    divisor.forEach((coef, i) => { result[i] ^= gfMultiply(coef, factor); });
  }
  return result;
}

// The codewords of the text in byte mode, padded, split in blocks, each with its error correction,
// interleaved.
function codewords(bytes, version) {
  const bits = [];
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  const [ec, ...groups] = BLOCKS[version];
  const divisor = rsDivisor(ec);
  const blocks = [];
  let at = 0;
  for (const [count, length] of groups) {
    for (let n = 0; n < count; n++) {
      const block = data.slice(at, at + length);
      at += length;
      blocks.push({ data: block, ec: rsRemainder(block, divisor) });
    }
  }
  const result = [];
  const longest = Math.max(...blocks.map((block) => block.data.length));
  for (let i = 0; i < longest; i++) for (const block of blocks) if (i < block.data.length) result.push(block.data[i]);
  for (let i = 0; i < ec; i++) for (const block of blocks) result.push(block.ec[i]);
  return result;
}

function bch(value, generator, length) {
  let remainder = value << (length - 1);
  const top = 31 - Math.clz32(generator);
  while (31 - Math.clz32(remainder) >= top) remainder ^= generator << ((31 - Math.clz32(remainder)) - top);
  return (value << top) | remainder;
}

// The symbol of `bytes` at `version` with `mask` (or the mask of least penalty when null).
function symbol(bytes, version, mask) {
  const size = 17 + 4 * version;
  const modules = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (row, col, dark) => { modules[row][col] = dark; fixed[row][col] = true; };
  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }   // timing
  for (const [row, col] of [[3, 3], [3, size - 4], [size - 4, 3]]) {   // finders and separators
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        const r = row + dr, c = col + dc, d = Math.max(Math.abs(dr), Math.abs(dc));
        if (r >= 0 && r < size && c >= 0 && c < size) set(r, c, d !== 2 && d !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version];
  for (const row of centres) {
    for (const col of centres) {
      if ((row === 6 && col === 6) || (row === 6 && col === size - 7) || (row === size - 7 && col === 6)) continue;
      for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  const format = (m) => {   // level M (00) and the mask, BCH(15, 5), masked with 101010000010010
    const bits = bch(m, 0x537, 11) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) set(i, 8, bit(i));
    set(7, 8, bit(6)); set(8, 8, bit(7)); set(8, 7, bit(8));
    for (let i = 9; i < 15; i++) set(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i++) set(8, size - 1 - i, bit(i));
    for (let i = 8; i < 15; i++) set(size - 15 + i, 8, bit(i));
    set(size - 8, 8, true);   // the dark module
  };
  format(0);
  if (version >= 7) {
    const bits = bch(version, 0x1f25, 13);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1, a = size - 11 + (i % 3), b = Math.floor(i / 3);
      set(b, a, dark); set(a, b, dark);
    }
  }
  const data = codewords(bytes, version);
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {   // two columns at a time, up and down
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const col = right - j, row = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (!fixed[row][col] && i < data.length * 8) { modules[row][col] = ((data[i >>> 3] >>> (7 - (i & 7))) & 1) === 1; i++; }
      }
    }
  }
  const masked = (m) => {
    const out = modules.map((row) => row.slice());
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) if (!fixed[r][c] && MASKS[m](r, c)) out[r][c] = !out[r][c];
    return out;
  };
  const apply = (m) => {
    const saved = modules.map((row) => row.slice());
    format(m);
    const out = masked(m);
    for (let r = 0; r < size; r++) modules[r] = saved[r];
    return out;
  };
  if (mask !== null) return apply(mask);
  let best = null, bestScore = Infinity;
  for (let m = 0; m < 8; m++) {
    const candidate = apply(m), score = penalty(candidate);
    if (score < bestScore) { best = candidate; bestScore = score; }
  }
  return best;
}

// The penalty of a symbol (ISO/IEC 18004, 7.8.3): runs, 2x2 blocks, finder-like patterns, balance.
function penalty(m) {
  const size = m.length;
  let score = 0;
  const lines = [];
  for (let r = 0; r < size; r++) lines.push(m[r]);
  for (let c = 0; c < size; c++) lines.push(m.map((row) => row[c]));
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) { run++; continue; }
      if (run >= 5) score += 3 + (run - 5);
      run = 1;
    }
    const text = line.map((dark) => (dark ? "1" : "0")).join("");
    for (let i = 0; i + 11 <= size; i++) {
      const part = text.slice(i, i + 11);
      if (part === "10111010000" || part === "00001011101") score += 40;
    }
  }
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const d = m[r][c];
      if (m[r][c + 1] === d && m[r + 1][c] === d && m[r + 1][c + 1] === d) score += 3;
    }
  }
  const dark = m.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
  score += Math.floor(Math.abs(dark * 20 - size * size * 10) / (size * size)) * 10;
  return score;
}

// The smallest version that holds `length` bytes at level M (null: none of 1..15 does).
export function qrVersion(length) {
  for (let version = 1; version < BLOCKS.length; version++) {
    if (4 + (version < 10 ? 8 : 16) + 8 * length <= dataCodewords(version) * 8) return version;
  }
  return null;
}

export function qrMatrix(text, { version = null, mask = null } = {}) {
  const bytes = [...new TextEncoder().encode(text)];
  const v = version || qrVersion(bytes.length);
  if (!v) return null;
  return symbol(bytes, v, mask);
}

// An SVG picture of the code of `text`, with its quiet zone; `label` is what it is, said to a screen reader.
export function qrSvg(text, label) {
  const matrix = qrMatrix(text);
  if (!matrix) return null;
  const size = matrix.length + 8;
  let path = "";
  matrix.forEach((row, r) => row.forEach((dark, c) => { if (dark) path += `M${c + 4},${r + 4}h1v1h-1z`; }));
  return svg("svg", { class: "qr", viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    svg("rect", { width: size, height: size, fill: "#fff" }), svg("path", { d: path, fill: "#000" }));
}
