import { questionedQuote } from "./injection-questioned.js";
import type { NormalText } from "./normalize.js";
import type { StringSite } from "./scan.js";

/*
 * The text model (issue 24, item 9; docs/detection.md, "Text model detector"): a logistic regression over hashed
 * character 3–5-grams and word 1–2-grams of a message's normalised text, trained on the project's own labelled cases
 * by bench/train-classifier.mjs, which imports THIS featuriser from dist/ (one featuriser: what is trained is what is
 * served). Pure and synchronous; the weights come from a shipped asset (text-model-asset.ts decodes it).
 *
 * Speed: one pass over the text (lowering, whitespace folding, the n-grams and running word hashes), FNV-1a folded over
 * char codes (no string per n-gram), a reusable open-addressing counter of typed arrays, a block-indexed sparse weight
 * table read once per feature (test/guardian/text-model-reference.test.ts holds it to a plain reference, bucket for bucket and score for
 * score). Work is bounded: at most `WINDOW` characters of a message are read (its head and its tail when longer).
 */

/** The message kinds the model tells apart (a feature of their own: where a text sits changes what it means). */
export const KINDS = ["call", "result", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "initialize", "sampling", "send", "card", "request"] as const;
export type MessageKind = (typeof KINDS)[number];

/** Characters of normalised text read per message: all of a shorter one; of a longer one its first HEAD and last WINDOW − HEAD. */
export const WINDOW = 16_384;
export const HEAD = 12_288;

const CALLS = new Set(["tools/call", "steps/toolCallRequest"]);
const SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
const LISTS: [string, MessageKind][] = [
  ["tools", "tools/list"],
  ["prompts", "prompts/list"],
  ["resources", "resources/list"],
  ["resourceTemplates", "resources/templates/list"],
  ["instructions", "initialize"],
  ["skills", "card"],
];

/** What kind of message this is, from its shape alone (the same for training and serving). */
export function messageKind(message: Record<string, unknown>): MessageKind {
  const method = message.method;
  if (typeof method === "string") {
    if (CALLS.has(method)) return "call";
    if (method === "sampling/createMessage") return "sampling";
    if (SENDS.has(method)) return "send";
    return "request";
  }
  const result = message.result;
  if (result !== null && typeof result === "object" && !Array.isArray(result)) {
    for (const [key, kind] of LISTS) if ((result as Record<string, unknown>)[key] !== undefined) return kind;
  }
  return "result";
}

/** What the model reads of a message: its text and flags for what the normaliser found hidden or decoded in it. */
export interface ModelInput {
  kind: MessageKind;
  text: string;
  flags: string[];
}

/** A text longer than WINDOW as the model reads it: its first HEAD characters, a newline, and its last ones. */
const window = (text: string) => text.slice(0, HEAD) + "\n" + text.slice(text.length - (WINDOW - HEAD - 1));

/**
 * `parts.join("\n").slice(start, end)` without building the join: V8 copies a joined megabyte in 3–6 ms, more than
 * half of what judging a 1 MB result may cost, and the model reads 16 KB of it (`start` below 0 counts as 0).
 */
export function joinedSlice(parts: readonly string[], start: number, end: number): string {
  let out = "";
  let at = 0;
  for (let k = 0; k < parts.length && at < end; k++) {
    if (k > 0) {
      if (at >= start) out += "\n";
      at++;
    }
    const part = parts[k] as string;
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, part.length);
    if (from < to) out += part.slice(from, to);
    at += part.length;
  }
  return out;
}

/**
 * The text the model reads: every string of the message as the guardian's normaliser gives it (normalize.ts), each
 * followed by its decoded layers' text, joined by newlines; of a message longer than `WINDOW` characters its first
 * `HEAD` and its last `WINDOW − HEAD` (strings in between are not normalised for it). Flags name what was hidden
 * (`__hidden:<kind>`) or decoded (`__decoded`) in the strings read.
 */
export function modelInput(message: Record<string, unknown>, sites: readonly StringSite[], normal: (site: StringSite) => NormalText): ModelInput {
  const flags = new Set<string>();
  // (Seventeenth round) In what a caller sends, material it quotes only to ask whether it can be trusted ("Is this
  // phishing? …") is the object of its question: the model reads the sender's words (injection-questioned.ts).
  const kind = messageKind(message);
  const send = kind === "send";
  const read = (site: StringSite, into: string[]): number => {
    const n = normal(site);
    const q = send ? questionedQuote(n.text) : null;
    const own = q ? n.text.slice(0, q[0]) + n.text.slice(q[1]) : n.text;
    into.push(own);
    let length = own.length + 1;
    if (!n.identity) {
      for (const h of n.hidden) flags.add("__hidden:" + h.kind);
      const layers = (v: NormalText) => {
        for (const d of v.decoded) {
          flags.add("__decoded");
          into.push(d.view.text);
          length += d.view.text.length + 1;
          layers(d.view);
        }
      };
      layers(n);
    }
    return length;
  };
  const head: string[] = [];
  let length = 0;
  let i = 0;
  for (; i < sites.length && length < WINDOW; i++) length += read(sites[i] as StringSite, head);
  // `length` counts a newline after every piece: the joined text is one shorter.
  let text: string;
  if (i < sites.length) {
    const tail: string[] = [];
    const parts: string[] = [];
    let tailLength = 0;
    for (let j = sites.length - 1; j >= i && tailLength < WINDOW - HEAD; j--) {
      parts.length = 0;
      tailLength += read(sites[j] as StringSite, parts);
      tail.unshift(...parts);
    }
    text = joinedSlice(head, 0, HEAD) + "\n" + joinedSlice(tail, tailLength - 1 - (WINDOW - HEAD - 1), tailLength - 1);
  } else if (length - 1 > WINDOW) {
    text = joinedSlice(head, 0, HEAD) + "\n" + joinedSlice(head, length - 1 - (WINDOW - HEAD - 1), length - 1);
  } else text = head.join("\n");
  return { kind, text: proseOf(text), flags: [...flags].sort() };
}

const LETTER = /\p{L}/u;
/** proseOf's reading of an ASCII character: 0 a blank (space, tab, carriage return), 1 a letter, 2 anything else. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_CLASS[c] = c === 32 || c === 9 || c === 13 ? 0 : (c | 32) >= 97 && (c | 32) <= 122 ? 1 : 2;
/** A name that spells words (`remove-the-branch-protection`, `upload_the_keys`): three letter-only parts or more. */
const NAMED_WORDS = /^(?:\p{L}{2,}[-_]){2,}\p{L}{2,}/u;

/**
 * The lines of `text` that read as words (ninth round, 2026-11-27): at least half of a line's non-blank characters are
 * letters, and it has two words or more (or four letters of a script written without spaces, or starts with a name
 * that spells three words or more: `remove-the-branch-protection`). Data is dropped: a CSV
 * row (`12,item-12,44.40`), a base64 or hex blob, a JSON value without prose. The model had learnt data as an attack
 * (the training sets' attacks carry records, keys and blobs; their benign cases seldom carry data): a plain CSV file
 * read by a tool scored 0.99. What the rules' detectors read is unchanged; the model judges the prose it was made for.
 */
export function proseOf(text: string): string {
  const kept: string[] = [];
  const n = text.length;
  let start = 0;
  let wideKept = false;
  while (start <= n) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = n;
    let letters = 0;
    let nonBlank = 0;
    let words = 0;
    let wide = 0;
    // 1 inside a word, else 0 (a number: the ASCII branch below adds it in without a branch)
    let inWord = 0;
    let lineWide = false;
    for (let i = start; i < end; i++) {
      let c = text.charCodeAt(i);
      if (c < 128) {
        // (Issue 25) ASCII by its class alone: a blank, a letter, or another character. Counted without a branch
        // (perf26): `nb` is 1 for a non-blank; a word starts at a non-blank outside one (`~inWord` is −1 or −2).
        const k = ASCII_CLASS[c] as number;
        const nb = (k + 1) >> 1;
        nonBlank += nb;
        words += nb & ~inWord;
        inWord = nb;
        letters += k & 1;
        continue;
      }
      lineWide = true;
      if (c === 32 || c === 9 || c === 13 || c === 0xa0 || c === 0x3000) {
        inWord = 0;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      nonBlank++;
      if (inWord === 0) words++;
      inWord = 1;
      if (isLetter(c)) {
        letters++;
        if (c > 0xdff && isUnspaced(c)) wide++;
      }
    }
    if (letters * 2 >= nonBlank && (words >= 2 || wide >= 4 || NAMED_WORDS.test(text.slice(start, end).trimStart()))) {
      kept.push(text.slice(start, end));
      if (lineWide) wideKept = true;
    }
    start = end + 1;
  }
  const prose = kept.join("\n");
  asciiProse = wideKept ? null : prose;
  return prose;
}

/**
 * The last text proseOf returned, when it is all ASCII (else null): the featuriser, handed that text, skips its own
 * search for a character outside ASCII (issue 25: a pass over the same characters, done twice). A fact about the
 * string's content only, so a stale value is never wrong: a text equal to it is ASCII too.
 */
let asciiProse: string | null = null;

/** Whether a code point outside ASCII is a letter (`\p{L}`), cached per BMP code unit. */
const letterCache = new Uint8Array(65536); // 0 unknown, 1 letter, 2 not
function isLetter(c: number): boolean {
  if (c > 0xffff) return LETTER.test(String.fromCodePoint(c));
  let k = letterCache[c] as number;
  if (k === 0) {
    k = c >= 0xd800 && c <= 0xdfff ? 2 : LETTER.test(String.fromCharCode(c)) ? 1 : 2;
    letterCache[c] = k;
  }
  return k === 1;
}

/** Letters of scripts written without spaces between words (Thai, Lao, Myanmar, Khmer, kana, CJK, Hangul). */
const isUnspaced = (c: number): boolean =>
  (c >= 0x0e00 && c <= 0x0eff) || (c >= 0x1000 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af);

// ---------------------------------------------------------------------------------------------------------------
// Features: hashed n-grams counted in a reusable typed-array table

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const fold = (h: number, c: number) => Math.imul(h ^ c, FNV_PRIME);
const C_SEED = fold(FNV_OFFSET, 0x63); // "c"
const W_SEED = fold(FNV_OFFSET, 0x77); // "w"
const B_SEED = fold(FNV_OFFSET, 0x62); // "b"

/** FNV-1a of a string, 32 bits (flags). */
function fnv(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = fold(h, s.charCodeAt(i));
  return h >>> 0;
}

/** Whitespace as `\s` has it (and other C0 controls): runs of it are one space. */
function isSpace(c: number): boolean {
  return c <= 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Word characters: ASCII letters, digits and `_ . / ~ $ -`; outside ASCII, letters and digits (cached per code unit). */
const WORDISH = new Uint8Array(128);
for (let c = 0; c < 128; c++) WORDISH[c] = /[A-Za-z0-9_./~$-]/.test(String.fromCharCode(c)) ? 1 : 0;
const wideWord = new Uint8Array(65536); // 0 unknown, 1 word, 2 not
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
function isWord(c: number): boolean {
  if (c < 128) return WORDISH[c] === 1;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  let k = wideWord[c] as number;
  if (k === 0) {
    k = LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 1 : 2;
    wideWord[c] = k;
  }
  return k === 1;
}

/** The counter's largest size (a window's features fill at most half of it); a short text uses a smaller part of it. */
const TABLE_BITS = 17;
const TABLE = 1 << TABLE_BITS;

/**
 * The counter, reused for every message: bucket ids (−1 empty) and their counts in an open-addressing table of
 * `2^(32 − shift)` slots, the slots used in order (`used` of them; cleared by whoever reads them), and the word and
 * word-pair buckets met while the character n-grams are counted (counted after them, in the order met, from index 3:
 * the last n-grams go just before them). One object,
 * so the hot loops read its fields and not module bindings.
 */
class Counter {
  readonly key = new Int32Array(TABLE).fill(-1);
  readonly count = new Int32Array(TABLE);
  readonly touched = new Int32Array(TABLE);
  readonly words = new Int32Array(WINDOW * 3 + 8);
  used = 0;
  shift = 32 - TABLE_BITS;
  mask = TABLE - 1;

  bump(bucket: number): void {
    const key = this.key;
    const mask = this.mask;
    let s = Math.imul(bucket, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = key[s] as number;
      if (k === bucket) {
        this.count[s] = (this.count[s] as number) + 1;
        return;
      }
      if (k === -1) {
        key[s] = bucket;
        this.count[s] = 1;
        this.touched[this.used++] = s;
        return;
      }
      s = (s + 1) & mask;
    }
  }
}
const counter = new Counter();

const LOG1 = new Float64Array(256);
for (let c = 1; c < 256; c++) LOG1[c] = 1 + Math.log(c);

/**
 * Counts the features of `text` (at most WINDOW characters: longer text is cut to its head and tail) into the counter:
 * character 3–5-grams of " text " and word 1–2-grams, lowered, whitespace runs as one space; plus `flags`. Counted in
 * this order: each character n-gram by where it starts (3, 4, then 5 characters), then each word, the word again
 * hashed with the message's kind (what a word means in a tool call is not what it means in a result), and the pair
 * it ends, then the flags (the order the slots are read in, so the sums that score them are the same every time).
 *
 * One pass over the text: each character is lowered and folded, and the n-grams that start four places back are
 * counted as it arrives; each word's hash, and the hash of the pair it ends, run along with it.
 */
function countFeatures(text: string, flags: readonly string[], mask: number, kindIndex: number): Counter {
  const t = counter;
  const words = t.words;
  const ascii = text === asciiProse;
  if (text.length > WINDOW) text = window(text);
  if (!ascii && /[^\x00-\x7f]/.test(text)) text = text.toLowerCase();
  // at most length + 2 codes, and fewer than 5 features per code
  let bits = 10;
  while (bits < TABLE_BITS && 1 << bits < 5 * text.length + 4 * flags.length + 72) bits++;
  const kindSalt = 0x100 + kindIndex;
  t.used = 0;
  t.shift = 32 - bits;
  t.mask = (1 << bits) - 1;
  // the last five codes (c4 newest) and how many codes so far; the text starts with a space
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let c4 = 32;
  let n = 1;
  let space = true;
  // words: in one, its hash, its hash as a pair's first word, the pair it ends (when one came before)
  let nw = 3;
  let inWord = false;
  let w = 0;
  let first = 0;
  let pair = 0;
  let prev = 0;
  let paired = false;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    let c: number;
    if (i < length) {
      c = text.charCodeAt(i);
      if (c <= 32 || (c >= 0xa0 && isSpace(c))) {
        if (space) continue;
        c = 32;
        space = true;
      } else {
        space = false;
        if (c >= 65 && c <= 90) c += 32;
      }
    } else if (!space) c = 32;
    else break;
    c0 = c1;
    c1 = c2;
    c2 = c3;
    c3 = c4;
    c4 = c;
    if (++n >= 5) {
      const h = fold(fold(fold(C_SEED, c0), c1), c2);
      t.bump((h >>> 0) & mask);
      const h4 = fold(h, c3);
      t.bump((h4 >>> 0) & mask);
      t.bump((fold(h4, c4) >>> 0) & mask);
    }
    if (c < 128 ? WORDISH[c] === 1 : isWord(c)) {
      if (!inWord) {
        inWord = true;
        w = W_SEED;
        first = B_SEED;
        if (paired) pair = fold(prev, 32);
      }
      w = fold(w, c);
      first = fold(first, c);
      if (paired) pair = fold(pair, c);
    } else if (inWord) {
      inWord = false;
      words[nw++] = (w >>> 0) & mask;
      words[nw++] = (fold(w, kindSalt) >>> 0) & mask;
      if (paired) words[nw++] = (pair >>> 0) & mask;
      prev = first;
      paired = true;
    }
  }
  // the n-grams that start in the last four codes (a 4-gram and a 3-gram, then a 3-gram) go before the words, so
  // that one loop counts them all
  let from = 3;
  if (n >= 4) {
    const h = fold(fold(fold(C_SEED, c1), c2), c3);
    words[0] = (h >>> 0) & mask;
    words[1] = (fold(h, c4) >>> 0) & mask;
    from = 0;
  } else if (n >= 3) from = 2;
  if (n >= 3) words[2] = (fold(fold(fold(C_SEED, c2), c3), c4) >>> 0) & mask;
  for (let k = from; k < nw; k++) t.bump(words[k] as number);
  for (const f of flags) t.bump(fnv(f) & mask);
  return t;
}

/** The value of a bucket counted `c` times: 1 + ln c. */
const logCount = (c: number) => (c < 256 ? (LOG1[c] as number) : 1 + Math.log(c));

/** A sparse feature vector: bucket ids (the kind as bucket 2^bits + its index, at value 1) and L2-normalised values. */
export interface Features {
  idx: Int32Array;
  val: Float64Array;
}

/** The features of one message's text (for training, and tests): the same counting as `scoreText`. */
export function textFeatures(bits: number, kind: MessageKind, text: string, flags: readonly string[] = []): Features {
  const { key: slotKey, count: slotCount, touched, used } = countFeatures(text, flags, (1 << bits) - 1, KINDS.indexOf(kind));
  const idx = new Int32Array(used + 1);
  const val = new Float64Array(used + 1);
  let norm = 0;
  for (let j = 0; j < used; j++) {
    const s = touched[j] as number;
    const v = logCount(slotCount[s] as number);
    idx[j] = slotKey[s] as number;
    val[j] = v;
    norm += v * v;
    slotKey[s] = -1;
  }
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < used; j++) val[j] = (val[j] as number) / norm;
  idx[used] = (1 << bits) + KINDS.indexOf(kind);
  val[used] = 1;
  return { idx, val };
}

/** A loaded model: a weight for each of its 2^bits buckets. */
export interface TextModel {
  bits: number;
  bias: number;
  /** The probability at or above which a message is flagged, unless a rule sets its own. */
  threshold: number;
  /** Per kind (KINDS order). */
  kindWeights: Float32Array;
  /**
   * Every bucket's weight quantised to int16 (weight = q × scale; 0 where the model has none): one read per feature
   * (2 MB at 2^20 buckets, where a blocked sparse table took two dependent reads and a scan).
   */
  weights: Int16Array;
  scale: number;
}

/** The model's probability that a message of this kind with this text is an attack. */
export function scoreText(m: TextModel, kind: MessageKind, text: string, flags: readonly string[] = []): number {
  const { key: slotKey, count: slotCount, touched, used } = countFeatures(text, flags, (1 << m.bits) - 1, KINDS.indexOf(kind));
  const weights = m.weights;
  let norm = 0;
  let dot = 0;
  for (let j = 0; j < used; j++) {
    const s = touched[j] as number;
    const v = logCount(slotCount[s] as number);
    norm += v * v;
    dot += (weights[slotKey[s] as number] as number) * v;
    slotKey[s] = -1;
  }
  const z = m.bias + (dot * m.scale) / (Math.sqrt(norm) || 1) + (m.kindWeights[KINDS.indexOf(kind)] ?? 0);
  return 1 / (1 + Math.exp(-z));
}
