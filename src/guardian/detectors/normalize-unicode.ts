import confusables from "unhomoglyph/data.json" with { type: "json" };
import { Mapped, MappedBuilder } from "./mapped.js";
import type { HiddenSpan } from "./normalize.js";

/*
 * The Unicode stages of the normalisation pass: invisible characters out (tag and variation-selector text decoded
 * and reported), compatibility forms folded (NFKC), and Latin look-alikes read as the Latin letters they imitate.
 */

/**
 * Characters nobody sees: C0/C1 controls (not tab, newline, carriage return), soft hyphen, combining grapheme joiner,
 * Arabic letter mark, Hangul fillers, Khmer inherent vowels, Mongolian selectors, zero-width and bidi controls,
 * invisible operators, BOM, interlinear annotation and other specials; tag characters (U+E0000–E007F) and variation
 * selectors come as runs of their own.
 */
const INVISIBLE =
  /(?:\uDB40[\uDC00-\uDC7F])+|(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF])+|(?:[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF0-\uFFF8]|\uD82F[\uDCA0-\uDCA3]|\uD834[\uDD73-\uDD7A])+/g;
export const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/** Zero-width characters that split words when they sit inside one (reported as `zero_width`). */
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u115F\u1160\u3164\uFFA0]/;
/** Bidi embeddings, overrides and isolates that open a span (closed by PDF U+202C or PDI U+2069). */
const BIDI_OPEN = /[\u202A\u202B\u202D\u202E\u2066-\u2068]/;
/** Scripts whose orthography uses ZWJ/ZWNJ between letters (Hebrew and Arabic to Syriac, Indic, South-East Asian, Mongolian). */
const JOINING_SCRIPT = /[\u0590-\u08FF\u0900-\u0DFF\u0E00-\u0FFF\u1000-\u109F\u1780-\u18AF\uA8E0-\uA8FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;
const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u20E3\uFE0F]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** Whether a character (one code point) is a letter, mark or digit; ASCII without a regex. */
function wordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
  return WORD_CHAR.test(ch);
}

/** Whether a character is part of a word a zero-width character may split: a word character or an invisible one. */
function inWord(ch: string): boolean {
  return ch !== "" && (wordChar(ch) || HAS_INVISIBLE.test(ch));
}

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "g");

const BLACK_FLAG = "\u{1F3F4}";
/** An emoji tag sequence after a black flag (the flags of England, Scotland, Wales…): lower-case tag letters and digits, then CANCEL TAG. */
const FLAG_TAGS = /^(?:\uDB40[\uDC30-\uDC39\uDC61-\uDC7A]){2,8}\uDB40\uDC7F$/;

/** Whether `[start, end)` of `s` is an emoji tag sequence: the tag characters after a black flag that make it a subdivision flag. */
export function isEmojiTagSequence(s: string, start: number, end: number): boolean {
  return s.slice(Math.max(0, start - 2), start) === BLACK_FLAG && FLAG_TAGS.test(s.slice(start, end));
}

/** At most this many characters either side are read to name the word a zero-width character splits, or a bidi span. */
const AROUND = 64;
const BIDI_REACH = 1024;

/** The code point ending at `i` (exclusive) in `s`, or "" at the start. */
function before(s: string, i: number): string {
  if (i <= 0) return "";
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s.slice(i - 1, i);
}

function after(s: string, i: number): string {
  if (i >= s.length) return "";
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s.slice(i, i + 1);
}

/** Decodes a run of tag characters to the ASCII they stand for (language and cancel tags dropped). */
function tagText(run: string): string {
  let out = "";
  for (let i = 0; i + 1 < run.length; i += 2) {
    const c = run.charCodeAt(i + 1) - 0xdc00;
    if (c >= 0x20 && c <= 0x7e) out += String.fromCharCode(c);
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a run of variation selectors as the bytes they are used to smuggle (VS1–16 are 0–15, VS17–256 are
 * 16–255, one byte per selector), or null when that is not UTF-8 text.
 */
function variationText(run: string): string | null {
  const bytes: number[] = [];
  for (const ch of run) {
    const cp = ch.codePointAt(0) as number;
    bytes.push(cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16);
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/** Whether hidden text reads as words: at least one run of two letters. */
const READABLE = /\p{L}{2}/u;

/**
 * Removes invisible characters. Emoji tag sequences, a single variation selector (emoji or ideographic variant),
 * ZWJ inside emoji and ZWJ/ZWNJ between letters of scripts that write with them stay. Tag characters and runs of
 * variation selectors that spell text are reported and their text put in their place, so the detectors read it.
 */
export function invisibleStage(inp: Mapped, hidden: HiddenSpan[], plain: (s: string) => string): Mapped {
  const t = inp.text;
  if (!HAS_INVISIBLE.test(t)) return inp;
  const b = new MappedBuilder(inp);
  const span = (kind: HiddenSpan["kind"], a: number, e: number, text: string) => hidden.push({ kind, start: inp.startOf(a), end: inp.endOf(e), text });
  // A regex of its own: `plain` runs this stage again, on hidden text, from inside the loop.
  const re = new RegExp(INVISIBLE);
  let last = 0;
  /** The word the last zero-width span is in (its end in `t`, and the span): a later split inside it extends the span. */
  let word = { end: -1, span: null as HiddenSpan | null };
  /** Where the last bidi span reported ends in `t`: an opener inside it is part of it. */
  let bidiUntil = -1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    const run = m[0];
    const i = m.index;
    const j = i + run.length;
    const first = run.charCodeAt(0);
    const second = run.charCodeAt(1);
    if (first === 0xdb40 && second >= 0xdc00 && second <= 0xdc7f) {
      // Tag characters.
      if (before(t, i) === BLACK_FLAG && FLAG_TAGS.test(run)) continue;
      b.keep(last, i);
      last = j;
      const text = tagText(run);
      if (/[A-Za-z0-9]/.test(text)) {
        span("tag_text", i, j, text.trim());
        b.put("\n" + text + "\n", i, j);
      } else b.drop(i, j);
      continue;
    }
    if ((first >= 0xfe00 && first <= 0xfe0f) || first === 0xdb40) {
      // Variation selectors: one is a glyph variant; a run carries bytes.
      if (run.length === 1 || (run.length === 2 && first === 0xdb40)) continue;
      b.keep(last, i);
      last = j;
      const text = variationText(run);
      if (text !== null && READABLE.test(text)) {
        span("variation_text", i, j, plain(text).trim());
        b.put("\n" + text + "\n", i, j);
      } else b.drop(i, j);
      continue;
    }
    const prev = before(t, i);
    const next = after(t, j);
    if (run.length === 1 && (first === 0x200d || first === 0x200c)) {
      if (first === 0x200d && (EMOJI.test(prev) || EMOJI.test(next))) continue;
      if (JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) continue;
    }
    // (A doubled joiner between letters of such a script — an editor's slip in Devanagari — is orthography too.)
    if (run.length === 2 && (first === 0x200d || first === 0x200c) && (second === 0x200d || second === 0x200c) && JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) continue;
    b.keep(last, i);
    b.drop(i, j);
    last = j;
    if (ZERO_WIDTH.test(run)) {
      if (prev !== "" && next !== "" && wordChar(prev) && wordChar(next)) {
        // One span per word, from its first split to its last, with the word joined as its text.
        if (word.span !== null && i < word.end) word.span.end = inp.endOf(j);
        else {
          const [a, e] = wordAround(t, i, j);
          span("zero_width", i, j, joinedWord(t.slice(a, e)));
          word = { end: e, span: hidden[hidden.length - 1] as HiddenSpan };
        }
      } else if (run.length >= 2) span("zero_width", i, j, "");
    }
    for (let k = 0; k < run.length; k++) {
      if (i + k >= bidiUntil && BIDI_OPEN.test(run[k] as string)) {
        const end = bidiEnd(t, i + k + 1);
        const closed = t.charCodeAt(end) === 0x202c || t.charCodeAt(end) === 0x2069;
        bidiUntil = closed ? end + 1 : end;
        span("bidi", i + k, bidiUntil, plain(t.slice(i + k + 1, end)));
      }
    }
  }
  if (last === 0) return inp;
  b.keep(last, t.length);
  return b.finish();
}

/** The span of the word a zero-width run at `[i, j)` splits (invisible characters in it included), at most `AROUND` either side. */
function wordAround(t: string, i: number, j: number): [number, number] {
  let a = i;
  for (let ch = before(t, a); a > 0 && i - a < AROUND && inWord(ch); ch = before(t, a)) a -= ch.length;
  let e = j;
  for (let ch = after(t, e); e < t.length && e - j < AROUND && inWord(ch); ch = after(t, e)) e += ch.length;
  return [a, e];
}

/** A word's text with every invisible character out, folded as the view is (NFKC, then the skeleton). */
function joinedWord(s: string): string {
  return skeleton(s.replace(INVISIBLE_ALL, "").normalize("NFKC"));
}

/** Where a bidi span opened before `from` ends: its PDF/PDI, the end of the line, or `BIDI_REACH` characters on. */
function bidiEnd(t: string, from: number): number {
  const limit = Math.min(t.length, from + BIDI_REACH);
  for (let k = from; k < limit; k++) {
    const c = t.charCodeAt(k);
    if (c === 0x202c || c === 0x2069 || c === 0x0a) return k;
  }
  return limit;
}

const NON_ASCII = /[^\x00-\x7f]+/g;
const HAS_NON_ASCII = /[^\x00-\x7f]/;
const STARTS_WITH_MARK = /^\p{M}/u;
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

/**
 * Unicode NFKC, mapped: each run of non-ASCII characters (with the ASCII letter a leading combining mark sits on) is
 * normalised on its own, which gives the same text as normalising the whole string since ASCII characters never
 * compose with what precedes them; within a run, each character with its marks maps to its own span when that gives
 * the same result.
 */
export function nfkcStage(inp: Mapped): Mapped {
  const t = inp.text;
  if (!HAS_NON_ASCII.test(t)) return inp;
  if (t.normalize("NFKC") === t) return inp;
  const b = new MappedBuilder(inp);
  NON_ASCII.lastIndex = 0;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = NON_ASCII.exec(t)) !== null) {
    let a = m.index;
    const e = a + m[0].length;
    if (a > last && STARTS_WITH_MARK.test(m[0])) a -= 1;
    const run = t.slice(a, e);
    const normal = run.normalize("NFKC");
    if (normal === run) continue;
    b.keep(last, a);
    last = e;
    const clusters = run.match(CLUSTER) ?? [];
    const folded = clusters.map((c) => c.normalize("NFKC"));
    if (folded.join("") !== normal) {
      b.put(normal, a, e);
      continue;
    }
    let p = a;
    for (let k = 0; k < clusters.length; k++) {
      const c = clusters[k] as string;
      const n = folded[k] as string;
      if (n === c) b.keep(p, p + c.length);
      else b.put(n, p, p + c.length);
      p += c.length;
    }
  }
  b.keep(last, t.length);
  return b.finish();
}

/**
 * Letters outside Latin that look like one Latin letter, from Unicode's TR39 confusables (the `unhomoglyph`
 * package's copy of confusables.txt): Cyrillic, Greek, Armenian, Cherokee, IPA, small capitals and the like.
 * ASCII is never a source; the Latin-1 and Latin Extended-A/B letters (ı, ſ, Ƅ…) are left out, being ordinary letters
 * of European languages; look-alikes of "rn" read as "m", and capitals TR39 maps to "l" read as "I".
 */
const LOOKALIKE = new Map<number, string>();
for (const [k, v] of Object.entries(confusables as Record<string, string>)) {
  const cp = k.codePointAt(0) as number;
  if (k.length > 2 || String.fromCodePoint(cp) !== k || cp < 0x80 || (cp >= 0xc0 && cp <= 0x24f) || !/^\p{L}$/u.test(k)) continue;
  let target = v === "rn" ? "m" : v;
  if (!/^[A-Za-z]$/.test(target)) continue;
  if (target === "l" && /^\p{Lu}$/u.test(k)) target = "I";
  LOOKALIKE.set(cp, target);
}
const LOOKALIKE_CLASS = new RegExp("[" + [...LOOKALIKE.keys()].map((cp) => `\\u{${cp.toString(16)}}`).join("") + "]", "u");
const LETTERS = /[\p{L}\p{M}\p{N}]+/gu;
const LETTER = /\p{L}/u;

/** How many of a text's letters are ASCII, Latin look-alikes and neither. */
function letterCounts(s: string): { ascii: number; lookalike: number; other: number } {
  let ascii = 0;
  let lookalike = 0;
  let other = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) ascii++;
      continue;
    }
    const cp = s.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    if (LOOKALIKE.has(cp)) lookalike++;
    else if (LETTER.test(String.fromCodePoint(cp))) other++;
  }
  return { ascii, lookalike, other };
}

/**
 * Reads Latin look-alikes as Latin (a confusable skeleton), word by word, and only where that cannot turn ordinary
 * non-Latin text into nonsense: a word is read as Latin when every letter in it is ASCII or a look-alike, and either
 * it mixes in an ASCII letter ("іgnоrе" with Cyrillic і, о, е) or the text around it is Latin (its letters, counting
 * the mixed words as Latin, are more ASCII than look-alike, and fewer than one in ten is neither). Russian or Greek
 * prose keeps its words, and so does a Greek word on its own ("σου"); a word that has a letter without a Latin
 * look-alike is never touched. The result is idempotent: what is changed becomes ASCII, and the counts the choice
 * rests on are those the result has.
 */
export function skeletonStage(inp: Mapped): Mapped {
  const t = inp.text;
  if (!LOOKALIKE_CLASS.test(t)) return inp;
  let ascii = 0;
  let lookalike = 0;
  let other = 0;
  LETTERS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LETTERS.exec(t)) !== null) {
    const w = letterCounts(m[0]);
    // A mixed word is read as Latin whatever the text around it: count it as it will be.
    if (w.other === 0 && w.ascii > 0) ascii += w.ascii + w.lookalike;
    else {
      ascii += w.ascii;
      lookalike += w.lookalike;
      other += w.other;
    }
  }
  const latin = ascii > lookalike && other * 10 < ascii + lookalike + other;
  const b = new MappedBuilder(inp);
  LETTERS.lastIndex = 0;
  let last = 0;
  while ((m = LETTERS.exec(t)) !== null) {
    const word = m[0];
    if (!LOOKALIKE_CLASS.test(word)) continue;
    const w = letterCounts(word);
    if (w.other > 0 || !(w.ascii > 0 || latin)) continue;
    for (let i = 0; i < word.length; i++) {
      const cp = word.codePointAt(i) as number;
      const size = cp > 0xffff ? 2 : 1;
      const target = LOOKALIKE.get(cp);
      if (target !== undefined) {
        b.keep(last, m.index + i);
        b.put(target, m.index + i, m.index + i + size);
        last = m.index + i + size;
      }
      i += size - 1;
    }
  }
  if (last === 0) return inp;
  b.keep(last, t.length);
  return b.finish();
}

/** The Latin letter a non-ASCII letter looks like (TR39, as `skeletonStage` reads it), or undefined. */
export function latinLookalike(cp: number): string | undefined {
  return LOOKALIKE.get(cp);
}

/** The skeleton of a string on its own (what `skeletonStage` makes of it). */
export function skeleton(s: string): string {
  return skeletonStage(Mapped.identity(s)).text;
}
