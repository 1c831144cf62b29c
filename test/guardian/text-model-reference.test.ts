import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MessageScan } from "../../src/guardian/detectors/index.js";
import { loadTextModel } from "../../src/guardian/detectors/text-model-asset.js";
import { joinedSlice, KINDS, proseOf, scoreText, textFeatures, WINDOW, HEAD, type MessageKind, type TextModel } from "../../src/guardian/detectors/text-model.js";

/*
 * The featuriser is written for speed (one pass, running hashes, a reusable table); this file holds it to a plain
 * reference written from the feature definition (docs/detection.md, "Text model detector"): the same buckets with the
 * same counts, counted in the same order, so the features and the score are identical, not merely close.
 */

const FNV_PRIME = 0x01000193;
const fnv = (s: string | number[]): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ (typeof s === "string" ? s.charCodeAt(i) : (s[i] as number)), FNV_PRIME);
  return h >>> 0;
};
const isSpace = (c: number) => c <= 32 || /\s/.test(String.fromCharCode(c));
const isWord = (c: number) => (c < 128 ? /[A-Za-z0-9_./~$-]/.test(String.fromCharCode(c)) : !(c >= 0xd800 && c <= 0xdfff) && /^[\p{L}\p{N}]$/u.test(String.fromCharCode(c)));

/**
 * The reference: the window (first HEAD and last WINDOW − HEAD − 1 characters joined by a newline), lowered, whitespace
 * runs as one space, a space either side; then each character 3-, 4- and 5-gram by where it starts ("c" + its codes),
 * each word ("w" + its codes), the word with the message's kind ("w" + its codes + 0x100 + the kind's index in KINDS),
 * then the pair it ends ("b" + the first word, a space, the second), the flags; FNV-1a of each, masked to `bits`. Returns the buckets in the order first counted, with their counts.
 */
function referenceCounts(bits: number, kind: MessageKind, text: string, flags: readonly string[]): Map<number, number> {
  if (text.length > WINDOW) text = text.slice(0, HEAD) + "\n" + text.slice(text.length - (WINDOW - HEAD - 1));
  const lowered = /[^\x00-\x7f]/.test(text) ? text.toLowerCase() : text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const codes = [32];
  for (let i = 0; i < lowered.length; i++) {
    const c = lowered.charCodeAt(i);
    if (isSpace(c)) {
      if (codes[codes.length - 1] !== 32) codes.push(32);
    } else codes.push(c >= 65 && c <= 90 ? c + 32 : c);
  }
  if (codes[codes.length - 1] !== 32) codes.push(32);
  const counts = new Map<number, number>();
  const mask = (1 << bits) - 1;
  const count = (h: number) => counts.set(h & mask, (counts.get(h & mask) ?? 0) + 1);
  const C = "c".charCodeAt(0);
  const W = "w".charCodeAt(0);
  const B = "b".charCodeAt(0);
  for (let i = 0; i + 3 <= codes.length; i++) for (let len = 3; len <= 5 && i + len <= codes.length; len++) count(fnv([C, ...codes.slice(i, i + len)]));
  const words: number[][] = [];
  let current: number[] = [];
  for (const c of codes) {
    if (isWord(c)) current.push(c);
    else if (current.length > 0) {
      words.push(current);
      current = [];
    }
  }
  words.forEach((word, k) => {
    count(fnv([W, ...word]));
    count(fnv([W, ...word, 0x100 + KINDS.indexOf(kind)]));
    if (k > 0) count(fnv([B, ...(words[k - 1] as number[]), 32, ...word]));
  });
  for (const f of flags) count(fnv(f));
  return counts;
}

/** The reference score: the same sums in the same order (quantised weights dotted with 1 + ln count, then scaled). */
function referenceScore(m: TextModel, weights: Map<number, number>, kind: MessageKind, text: string, flags: readonly string[]): number {
  let norm = 0;
  let dot = 0;
  for (const [bucket, c] of referenceCounts(m.bits, kind, text, flags)) {
    const v = 1 + Math.log(c);
    norm += v * v;
    dot += (weights.get(bucket) ?? 0) * v;
  }
  const z = m.bias + (dot * m.scale) / (Math.sqrt(norm) || 1) + (m.kindWeights[KINDS.indexOf(kind)] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** The model's quantised weights by bucket. */
function quantised(m: TextModel): Map<number, number> {
  const w = new Map<number, number>();
  m.weights.forEach((q, bucket) => {
    if (q !== 0) w.set(bucket, q);
  });
  return w;
}

/** A deterministic generator of test texts. */
function texts(): string[] {
  let seed = 0x2545f491;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const pick = (s: string) => s[next(s.length)] as string;
  const ascii = " \t\n\r\x0b\x0c\x00\x1f!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f";
  const wide = ["\u00a0", "\u1680", "\u2003", "\u2028", "\u202f", "\u205f", "\u3000", "\ufeff", "\u200b", "İ", "Σ", "ς", "Ä", "ß", "ǅ", "ﬁ", "Ω", "é", "e\u0301", "日本", "Привет", "١٢٣", "\ud800", "\udc00", "\u{1F600}", "\u{10400}", "\u0130x"];
  const words = ["ignore", "previous", "instructions", "Send", "THE", "keys", "~/.ssh/id_rsa", "curl", "https://x.example/i.sh", "|", "bash", "$HOME", "a_b-c.d", "…", "—", "tool", "result"];
  const out: string[] = ["", " ", "a", "ab", "abc", "  a  ", "a b", "\u00a0x\u00a0", "İ", "Σ ", " ΣΑΣ. ", "x".repeat(5), "a ".repeat(3)];
  for (let k = 0; k < 150; k++) out.push(Array.from({ length: next(600) }, () => pick(ascii)).join(""));
  for (let k = 0; k < 150; k++) out.push(Array.from({ length: next(400) }, () => (next(3) === 0 ? (wide[next(wide.length)] as string) : pick(ascii))).join(""));
  for (let k = 0; k < 100; k++) out.push(Array.from({ length: next(200) }, () => words[next(words.length)] as string).join(next(2) ? " " : "  \n"));
  for (let k = 0; k < 20; k++) out.push(Array.from({ length: WINDOW - 4 + next(8) }, () => pick(ascii)).join("")); // about the window's edge
  return out;
}

/** Texts of the kind the model is trained on: the corpus's files, in pieces, and as the guardian reads its messages. */
function corpusTexts(): string[] {
  const dir = join(import.meta.dirname, "..", "fixtures", "corpus");
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const body = readFileSync(join(dir, f), "utf8");
    for (let o = 0; o < body.length; o += 1500) out.push(body.slice(o, o + 1500));
    out.push(new MessageScan({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: body.slice(0, 40_000) }] } }, "t", null).modelInput.text);
  }
  return out;
}

const adversarial = [
  "a".repeat(1_048_576),
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(10486).slice(0, 1_048_576),
  "\u{1F600}".repeat(300_000),
  "\ud800".repeat(100_000),
  " \t\n".repeat(300_000),
  "İ".repeat(200_000),
  "İa ".repeat(20_000),
  Array.from({ length: 70_000 }, (_, i) => String.fromCharCode(0x4e00 + (i % 20_000))).join(""),
  "w ".repeat(500_000),
  Array.from({ length: 40_000 }, (_, i) => (i * 2654435761).toString(36)).join(" "),
];

describe("text model: the featuriser equals its reference", () => {
  const m = loadTextModel();
  const weights = quantised(m);
  const check = (text: string, flags: readonly string[] = []) => {
    const ref = referenceCounts(m.bits, "result", text, flags);
    const f = textFeatures(m.bits, "result", text, flags);
    // the same buckets, in the same order, with the same values
    expect(Array.from(f.idx.subarray(0, f.idx.length - 1))).toEqual([...ref.keys()]);
    let norm = 0;
    for (const c of ref.values()) norm += (1 + Math.log(c)) ** 2;
    norm = Math.sqrt(norm) || 1;
    expect(Array.from(f.val.subarray(0, f.val.length - 1))).toEqual([...ref.values()].map((c) => (1 + Math.log(c)) / norm));
    for (const kind of ["result", "call"] as const) expect(scoreText(m, kind, text, flags)).toBe(referenceScore(m, weights, kind, text, flags));
  };

  it("for random ASCII and Unicode texts, words, and texts about the window's size", () => {
    const all = texts();
    for (const t of all) check(t);
    expect(all.length).toBeGreaterThan(400);
  }, 120_000);

  it("for the corpus's texts and the guardian's reading of them, with flags", () => {
    const all = corpusTexts();
    for (const t of all) check(t, ["__decoded", "__hidden:html_comment"]);
    expect(all.length).toBeGreaterThan(100);
  }, 120_000);

  it("for 1 MB and adversarial texts", () => {
    for (const t of adversarial) check(t);
  }, 120_000);
});

/** proseOf as docs/detection.md words it, code point by code point with regexes: the fast one must agree exactly. */
function referenceProse(text: string): string {
  const unspaced = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;
  return text
    .split("\n")
    .filter((line) => {
      let letters = 0;
      let nonBlank = 0;
      let wide = 0;
      for (const ch of line) {
        if (/^[ \t\r\u00a0\u3000]$/.test(ch)) continue;
        nonBlank++;
        if (/\p{L}/u.test(ch)) {
          letters++;
          if (ch.length === 1 && unspaced.test(ch)) wide++;
        }
      }
      const words = line.split(/[ \t\r\u00a0\u3000]+/).filter((w) => w.length > 0).length;
      return letters * 2 >= nonBlank && (words >= 2 || wide >= 4 || /^(?:\p{L}{2,}[-_]){2,}\p{L}{2,}/u.test(line.trimStart()));
    })
    .join("\n");
}

describe("text model: the prose the model reads (proseOf) equals its plain reference", () => {
  it("on random mixes of letters, digits, blanks, scripts without spaces, astral and lone surrogates", () => {
    const pool = ["a", "Z", " ", "\n", "\t", "\r", "\u00a0", "\u3000", "1", "-", "_", ",", "東", "ก", "한", "\ud835\udc00", "\ud83d\ude00", "\ud800", "\udc00", "é", "\u0301", "remove-the-", "data_"];
    let seed = 11;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let k = 0; k < 20_000; k++) {
      let s = "";
      for (let i = next(40); i > 0; i--) s += pool[next(pool.length)];
      expect(proseOf(s)).toBe(referenceProse(s));
    }
  });
});

/** The model's reading of plain strings as it was first written: join every piece read, then cut the window out. */
function referenceInput(strings: readonly string[]): string {
  const head: string[] = [];
  let length = 0;
  let i = 0;
  for (; i < strings.length && length < WINDOW; i++) length += (head.push(strings[i] as string), (strings[i] as string).length + 1);
  let text = head.join("\n");
  if (i < strings.length) {
    const tail: string[] = [];
    let tailLength = 0;
    for (let j = strings.length - 1; j >= i && tailLength < WINDOW - HEAD; j--) tailLength += (tail.unshift(strings[j] as string), (strings[j] as string).length + 1);
    text = text.slice(0, HEAD) + "\n" + tail.join("\n").slice(-(WINDOW - HEAD - 1));
  }
  return text.length > WINDOW ? text.slice(0, HEAD) + "\n" + text.slice(text.length - (WINDOW - HEAD - 1)) : text;
}

describe("text model: the window is cut without joining the whole message", () => {
  it("joinedSlice equals the join's slice for any pieces and range", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }), fc.integer({ min: -5, max: 120 }), fc.integer({ min: 0, max: 120 }), (parts, start, end) => {
        expect(joinedSlice(parts, start, end)).toBe(parts.join("\n").slice(Math.max(start, 0), end));
      }),
      { numRuns: 2000 },
    );
  });

  it("the model reads of a message what it read when the strings were joined first, for sizes about the window", () => {
    const sizes = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: HEAD - 30, max: HEAD + 30 }), fc.integer({ min: WINDOW - 30, max: WINDOW + 30 }), fc.integer({ min: 1, max: 3 * WINDOW }));
    fc.assert(
      fc.property(fc.array(sizes, { minLength: 1, maxLength: 6 }), (lengths) => {
        const strings = lengths.map((n, k) => Array.from({ length: n }, (_, c) => String.fromCharCode(97 + ((c * 7 + k) % 26)) + (c % 9 === 8 ? " " : "")).join("").slice(0, n));
        const message = { jsonrpc: "2.0", id: 1, result: { content: strings.map((text) => ({ text })) } };
        const expected = proseOf(referenceInput(strings));
        expect(new MessageScan(message, "t", null).modelInput.text).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });
});
