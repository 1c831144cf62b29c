import { sharedUnits } from "./units.js";

/*
 * Encoded layers inside a string: base64 (standard or URL-safe, also wrapped over lines as MIME does), hex, and
 * percent-encoding. A run is decoded only when it is long enough to hide words and what comes out is mostly
 * printable text; the caller normalises that text again, to a small depth.
 */

export interface EncodedRun {
  encoding: "base64" | "hex" | "percent";
  start: number;
  end: number;
  text: string;
}

/** Shortest runs worth decoding: 16 base64 characters (12 bytes), 16 hex digits (8 bytes), 3 percent escapes. */
export const MIN_BASE64 = 16;
const MIN_HEX = 16;
const MIN_ESCAPES = 3;
/** Decoding stops after this many characters of decoded text per string (all layers together) and this many runs. */
export const MAX_DECODED = 1 << 20;
const MAX_RUNS = 32;
/** A run's first bytes decide: when these are not text the rest is not decoded. */
const PROBE = 192;

const B64 = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") B64[c.charCodeAt(0)] = 1;
const isB64 = (c: number) => c < 128 && B64[c] === 1;
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** Per ASCII character: in the base64 alphabet (1), a capital (2), a hex digit (4). */
const RUN = new Uint8Array(128);
for (let c = 0; c < 128; c++) RUN[c] = B64[c] === 0 ? 0 : 1 | (c >= 0x41 && c <= 0x5a ? 2 : 0) | (isHex(c) ? 4 : 0);

/**
 * Whether the string holds a run of base64 characters at least `MIN_BASE64` long with an upper-case letter in it, or
 * of hex digits alone (the fast path's question: prose, paths and lower-case identifiers have none). Skips ahead: the
 * last character of a window of `MIN_BASE64` is read first, then the window backwards; the first character outside
 * the alphabet rules out every window through it, so a word of prose costs the few characters read back to its
 * start. A long string is read from its code units (`hasEncodedRunIn`).
 */
export function hasEncodedRun(s: string): boolean {
  if (s.length >= LONG) return hasEncodedRunIn(sharedUnits(s));
  const n = s.length;
  // `i` always follows a character that cannot be in a run (or is 0).
  let i = 0;
  while (i + MIN_BASE64 <= n) {
    let k = i + MIN_BASE64 - 1;
    let c = s.charCodeAt(k);
    while (c < 128 && B64[c] === 1 && k > i) c = s.charCodeAt(--k);
    if (c >= 128 || B64[c] === 0) {
      i = k + 1;
      continue;
    }
    // The window [i, i + MIN_BASE64) is all in the alphabet: on to the run's end (it starts at i).
    let e = i + MIN_BASE64;
    while (e < n) {
      const d = s.charCodeAt(e);
      if (d >= 128 || B64[d] === 0) break;
      e++;
    }
    if (worthDecoding(s, i, e)) return true;
    i = e + 1;
  }
  return false;
}

/** Whether a run of the base64 alphabet has a capital in it, or is all hex digits and long enough. */
function worthDecoding(s: string, start: number, end: number): boolean {
  let hex = true;
  for (let k = start; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x41 && c <= 0x5a) return true;
    if (hex && !isHex(c)) hex = false;
  }
  return hex && end - start >= MIN_HEX;
}

/** From this length a string is read from its code units (units.ts): the copy costs less than a `charCodeAt` per read. */
const LONG = 4096;

/**
 * `hasEncodedRun` on a long string's code units (shared with the scanners that read the string next): the same
 * windows, from an array, and past its first window a run is read once (whether it holds a capital, or hex digits
 * alone, noted as it is read; RUN). On short strings the copy would cost more than the reads it speeds up, and the
 * same bookkeeping made prose slower there.
 */
function hasEncodedRunIn(s: Uint16Array): boolean {
  const n = s.length;
  let i = 0;
  while (i + MIN_BASE64 <= n) {
    let k = i + MIN_BASE64 - 1;
    let c = s[k] as number;
    let t = c < 128 ? (RUN[c] as number) : 0;
    while (t !== 0 && k > i) {
      c = s[--k] as number;
      t = c < 128 ? (RUN[c] as number) : 0;
    }
    if (t === 0) {
      i = k + 1;
      continue;
    }
    // The window [i, i + MIN_BASE64) is all in the alphabet. Whether it holds a capital, or hex digits alone (read
    // again: most windows never get this far); then on to the run's end (it starts at i).
    let any = 0;
    let all = 7;
    for (let j = i; j < i + MIN_BASE64; j++) {
      const u = RUN[s[j] as number] as number;
      any |= u;
      all &= u;
    }
    let e = i + MIN_BASE64;
    while (e < n) {
      const d = s[e] as number;
      const u = d < 128 ? (RUN[d] as number) : 0;
      if (u === 0) break;
      any |= u;
      all &= u;
      e++;
    }
    if ((any & 2) !== 0 || (all & 4) !== 0) return true;
    i = e + 1;
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether decoded text reads as text (it is already valid UTF-8): no control characters but white space, no
 * replacement character, and letters in at least a quarter of its first 16 characters. Invisible and format
 * characters count as text: the layer is normalised again, and they are what it may be hiding.
 */
function readable(text: string): boolean {
  if (text.length === 0) return false;
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 && c !== 0x0a && c !== 0x0d : c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0xfffd) return false;
    if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) letters++;
    else if (c > 0x7f && c < 0xd800 && /\p{L}/u.test(text[i] as string)) letters++;
  }
  return letters * 4 >= Math.min(text.length, 16);
}

function decodeBytes(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Base64 (either alphabet) to text, or null when it is not text; the first bytes are tried before the rest. */
function base64Text(run: string): string | null {
  const body = run.replace(/[\r\n]/g, "").replace(/=+$/, "");
  const usable = body.length - (body.length % 4 === 1 ? 1 : 0);
  if (usable < MIN_BASE64) return null;
  const probe = Math.min(usable, PROBE - (PROBE % 4));
  const head = decodeBytes(Buffer.from(body.slice(0, probe), "base64"));
  // A multi-byte character cut at the probe's end is not a reason to give up.
  if (head === null && probe === usable) return null;
  if (head !== null && !readable(head)) return null;
  const text = decodeBytes(Buffer.from(body.slice(0, usable), "base64"));
  return text !== null && readable(text) ? text : null;
}

function hexText(run: string): string | null {
  const even = run.length - (run.length % 2);
  const text = decodeBytes(Buffer.from(run.slice(0, even), "hex"));
  return text !== null && readable(text) ? text : null;
}

function percentText(run: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 0x25 && isHex(run.charCodeAt(i + 1)) && isHex(run.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(run.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c === 0x2b ? 0x20 : c);
    else return null;
  }
  const text = decodeBytes(Uint8Array.from(bytes));
  return text !== null && readable(text) ? text : null;
}

/** Characters that end a percent-encoded token. */
const isTokenEnd = (c: number) => c <= 0x20 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x60;

/**
 * The encoded runs of `s` that decode to text, in order; at most `MAX_RUNS`, and together at most `budget.left`
 * characters of decoded text (the budget is shared with the layers below). One pass for each kind, each linear.
 */
export function encodedRuns(s: string, budget: { left: number }): EncodedRun[] {
  const found: EncodedRun[] = [];
  const take = (encoding: EncodedRun["encoding"], start: number, end: number, text: string | null): boolean => {
    if (text === null || found.length >= MAX_RUNS || text.length > budget.left) return false;
    budget.left -= text.length;
    found.push({ encoding, start, end, text });
    return true;
  };
  // Percent-encoded tokens with a few escapes: the whole token (up to white space or a quote) is decoded.
  let from = 0;
  for (let p = s.indexOf("%"); p >= 0 && found.length < MAX_RUNS; p = s.indexOf("%", Math.max(p + 1, from))) {
    if (p < from || !isHex(s.charCodeAt(p + 1)) || !isHex(s.charCodeAt(p + 2))) continue;
    let a = p;
    while (a > from && !isTokenEnd(s.charCodeAt(a - 1))) a--;
    let e = p;
    let escapes = 0;
    while (e < s.length && !isTokenEnd(s.charCodeAt(e))) {
      if (s.charCodeAt(e) === 0x25 && isHex(s.charCodeAt(e + 1)) && isHex(s.charCodeAt(e + 2))) escapes++;
      e++;
    }
    from = e;
    if (escapes >= MIN_ESCAPES) take("percent", a, e, percentText(s.slice(a, e)));
  }
  const percent = found.length;
  if (!hasEncodedRun(s)) return found;
  // Base64 and hex: maximal runs of the base64 alphabet (a hex run is one made only of hex digits).
  for (let i = 0; i < s.length && found.length < MAX_RUNS; ) {
    if (!isB64(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let e = runEnd(s, i);
    // MIME wraps base64 in lines of 4n characters: a full line and a newline continue the run.
    let line = start;
    while ((e - line) % 4 === 0 && e - line >= 4 && continuesOnNextLine(s, e)) {
      line = e + (s.charCodeAt(e) === 0x0d ? 2 : 1);
      e = runEnd(s, line);
    }
    let end = e;
    while (end < s.length && end - e < 2 && s.charCodeAt(end) === 0x3d) end++;
    i = end;
    if (end - start < MIN_BASE64 || inside(found, percent, start, end)) continue;
    const run = s.slice(start, end);
    if (/^[0-9A-Fa-f]+$/.test(run) && run.length >= MIN_HEX && take("hex", start, end, hexText(run))) continue;
    if (!/[A-Z]/.test(run)) continue;
    if (take("base64", start, end, base64Text(run))) continue;
    // A path or URL holding base64 in one of its segments.
    if (!run.includes("/")) continue;
    let segStart = start;
    for (const seg of run.split("/")) {
      if (seg.length >= MIN_BASE64 && /[A-Z]/.test(seg)) take("base64", segStart, segStart + seg.length, base64Text(seg));
      segStart += seg.length + 1;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function runEnd(s: string, i: number): number {
  let e = i;
  while (e < s.length && isB64(s.charCodeAt(e))) e++;
  return e;
}

function continuesOnNextLine(s: string, e: number): boolean {
  const c = s.charCodeAt(e);
  const next = c === 0x0a ? e + 1 : c === 0x0d && s.charCodeAt(e + 1) === 0x0a ? e + 2 : -1;
  return next > 0 && isB64(s.charCodeAt(next));
}

/** Whether `[start, end)` lies within one of the first `count` runs (a percent-encoded token already decoded). */
function inside(runs: EncodedRun[], count: number, start: number, end: number): boolean {
  for (let k = 0; k < count; k++) if ((runs[k] as EncodedRun).start <= start && end <= (runs[k] as EncodedRun).end) return true;
  return false;
}
