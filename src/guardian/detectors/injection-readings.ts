import { Mapped, MappedBuilder } from "./mapped.js";
import { spelledWords } from "./injection-gate.js";
import { latinLookalike } from "./normalize-unicode.js";

/*
 * Readings of a disguised text (issue 24, seventh round). An instruction can be written so that a person — or a model —
 * still reads it, while a scanner of words does not: letters spaced apart, digits for letters (leetspeak), small
 * capitals, text turned upside down, letters buried under stacked combining marks, words with their first consonants
 * moved to the end (Pig Latin); or in a signalling alphabet a model decodes when told to (Morse, braille cells, a
 * spelling alphabet); or in a transfer encoding (quoted-printable `=XX`, backslash escapes `\u0041` `\x41` `\101`);
 * or cut by interlinear annotation characters into runs a reader sees as one. None of these changes what the text
 * says, only how it is spelled, so the injection judge reads the text once more as it is meant to be read.
 *
 * `reading` returns that text — every disguised run replaced by its plain reading, everything else as it was — with a
 * map back to the input (a finding in a replaced run covers the whole run), or null when nothing is disguised. Each
 * disguise is recognised by its *form* (a line where most words are spaced letters or mix letters and digits, a run of
 * dots and dashes, of braille cells, of spelling-alphabet words, of escapes), never by what it spells, so it reaches
 * instructions nobody has written yet; and reading a benign text in its plain spelling (a gamer's "gg wp", a brand in
 * small capitals, "... --- ..." for SOS) gives a benign text, which the judge leaves alone. Linear, no backtracking;
 * only texts up to `MAX_READ` characters are read again.
 */

/** Longer texts are not read again (their cost would be the judge's twice). */
export const MAX_READ = 65_536;

type Step = (m: Mapped) => Mapped;

/** A step that replaces matches of `re` (global) in the input by `f(match)`, or keeps the match when `f` returns null. */
function replacing(m: Mapped, re: RegExp, f: (s: string) => string | null): Mapped {
  const b = new MappedBuilder(m);
  const text = m.text;
  let at = 0;
  let changed = false;
  re.lastIndex = 0;
  for (let x = re.exec(text); x !== null; x = re.exec(text)) {
    if (x[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const r = f(x[0]);
    if (r === null || r === x[0]) continue;
    b.keep(at, x.index);
    b.put(r, x.index, x.index + x[0].length);
    at = x.index + x[0].length;
    changed = true;
  }
  if (!changed) return m;
  b.keep(at, text.length);
  return b.finish();
}

/** Interlinear annotation anchor, separator and terminator: the runs they delimit are read as lines of their own. */
const ANNOTATION = /[\uFFF9-\uFFFB]/g;
const annotations: Step = (m) => (/[\uFFF9-\uFFFB]/.test(m.text) ? replacing(m, ANNOTATION, () => "\n") : m);

/** Quoted-printable: a run of `=XX` escapes (and soft line breaks), decoded as UTF-8. */
const QP_RUN = /(?:=[0-9A-F]{2}|=\r?\n){1,4096}/g;
const QP_ESCAPE = /=[0-9A-F]{2}/g;
const utf8 = new TextDecoder("utf-8");
const qp: Step = (m) => {
  if (!m.text.includes("=")) return m;
  const n = m.text.match(QP_ESCAPE)?.length ?? 0;
  if (n < 4) return m;
  return replacing(m, QP_RUN, (s) => {
    const hex = s.replace(/=\r?\n/g, "").match(/[0-9A-F]{2}/g);
    return hex ? utf8.decode(Uint8Array.from(hex, (h) => parseInt(h, 16))).replace(/\r\n/g, "\n") : "";
  });
};

/** Backslash escapes of characters: `\u0041`, `\u{41}`, `\x41`, `\101`, one or more backslashes deep. */
const ESCAPE_RUN = /(?:\\{1,4}(?:u[0-9A-Fa-f]{4}|u\{[0-9A-Fa-f]{1,6}\}|x[0-9A-Fa-f]{2}|[0-3][0-7]{2})){1,4096}/g;
const ESCAPE_ONE = /\\{1,4}(?:u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|x([0-9A-Fa-f]{2})|([0-3][0-7]{2}))/g;
const escapes: Step = (m) => {
  if (!m.text.includes("\\")) return m;
  const n = m.text.match(ESCAPE_ONE)?.length ?? 0;
  if (n < 4) return m;
  return replacing(m, ESCAPE_RUN, (s) =>
    s.replace(ESCAPE_ONE, (_x, u: string | undefined, ub: string | undefined, x: string | undefined, o: string | undefined) => {
      const code = u ?? ub ?? x;
      const c = code !== undefined ? parseInt(code, 16) : parseInt(o as string, 8);
      return c <= 0x10ffff ? String.fromCodePoint(c) : "";
    }),
  );
};

/** Stacked combining marks (zalgo): on a line with many of them, marks are dropped. */
const MARK = /\p{M}/gu;
const zalgo: Step = (m) => {
  const marks = m.text.match(MARK)?.length ?? 0;
  if (marks < 6) return m;
  return replacing(m, /[^\n]{1,4096}/g, (line) => {
    const k = line.match(MARK)?.length ?? 0;
    const letters = line.match(/\p{L}/gu)?.length ?? 0;
    return k >= 6 && k * 2 >= letters ? line.replace(MARK, "") : null;
  });
};

/** Letters written with other characters that look like them at a small size or turned: small capitals and the like. */
const SMALL: Record<string, string> = {
  ᴀ: "a", ʙ: "b", ᴄ: "c", ᴅ: "d", ᴇ: "e", ꜰ: "f", ɢ: "g", ʜ: "h", ɪ: "i", ᴊ: "j", ᴋ: "k", ʟ: "l", ᴍ: "m", ɴ: "n", ᴏ: "o",
  ᴘ: "p", ǫ: "q", ʀ: "r", ꜱ: "s", ᴛ: "t", ᴜ: "u", ᴠ: "v", ᴡ: "w", ʏ: "y", ᴢ: "z",
};
const SMALL_CHAR = /[ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ]/g;
const smallCaps: Step = (m) => ((m.text.match(SMALL_CHAR)?.length ?? 0) >= 6 ? replacing(m, SMALL_CHAR, (c) => SMALL[c] ?? null) : m);

/** Text turned upside down: letters rotated half a turn, the line read from its end. */
const TURNED: Record<string, string> = {
  ɐ: "a", q: "b", ɔ: "c", p: "d", ǝ: "e", ɟ: "f", ƃ: "g", ɥ: "h", ᴉ: "i", ı: "i", ɾ: "j", ʞ: "k", ן: "l", l: "l", ɯ: "m", u: "n", o: "o",
  d: "p", b: "q", ɹ: "r", s: "s", ʇ: "t", n: "u", ʌ: "v", ʍ: "w", x: "x", ʎ: "y", z: "z", "˙": ".", "¡": "!", "¿": "?", "'": ",", ",": "'",
  "˥": "L", "∀": "A", "Ɔ": "C", "Ǝ": "E", "Ⅎ": "F", "⅁": "G", "Ɯ": "M", "Ԁ": "P", "┴": "T", "∩": "U", "Λ": "V", "⅄": "Y",
  "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<",
};
/** Characters that appear in turned text and almost nowhere else. */
const TURNED_ONLY = /[ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ˥]/g;
const turned: Step = (m) => {
  if ((m.text.match(TURNED_ONLY)?.length ?? 0) < 4) return m;
  return replacing(m, /[^\n]{1,4096}/g, (line) => {
    if ((line.match(TURNED_ONLY)?.length ?? 0) < 4) return null;
    // (NFKC writes "˙" as a space and a combining dot.)
    const chars = [...line.replace(/ \u0307/g, "˙")];
    return chars
      .reverse()
      .map((c) => TURNED[c] ?? c)
      .join("");
  });
};

/** Letters spaced apart ("s e n d   t h e"): a line where most tokens are single characters; two or more spaces part words. */
const spaced: Step = (m) => {
  if (!/\S \S \S \S \S/.test(m.text)) return m;
  return replacing(m, /[^\n]{1,4096}/g, (line) => {
    const tokens = line.split(/ +/).filter((t) => t.length > 0);
    const single = tokens.filter((t) => [...t].length === 1).length;
    if (single < 8 || single * 10 < tokens.length * 7) return null;
    return line
      .split(/ {2,}/)
      .map((w) => w.replace(/ /g, ""))
      .join(" ");
  });
};

/** Digits and signs for letters (leetspeak): on a line where many words mix letters with them, every such word is read as letters. */
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "$": "s", "@": "a", "!": "i", "|": "l" };
const LEET_WORD = /^[\p{L}0134579$@!|'’]+$/u;
const isLeet = (w: string) => /\p{L}/u.test(w) && /[0134579$]/.test(w) && LEET_WORD.test(w) && !/^\d*(?:1st|2nd|3rd|[04-9]th|1[123]th|\d[a-z])$/i.test(w);
const leet: Step = (m) => {
  if (!/[a-z][0134579]|[0134579][a-z]/i.test(m.text)) return m;
  return replacing(m, /[^\n]{1,4096}/g, (line) => {
    const words = line.match(/[^\s.,:;()"]+/g) ?? [];
    const leety = words.filter(isLeet).length;
    const wordy = words.filter((w) => /\p{L}|^[0134579]{2,3}$/u.test(w)).length;
    if (leety < 3 || leety * 10 < wordy * 3) return null;
    return line.replace(/[^\s.,:;()"]+/g, (w) => {
      if (w.includes("@") && /\.[a-z]/i.test(w)) return w.replace(/[0134579]/g, (c) => LEET[c] as string);
      if (isLeet(w) || /^[0134579]{2,3}$/.test(w)) return w.replace(/[0134579$@!|]/g, (c) => LEET[c] as string);
      return w;
    });
  });
};

/** Pig Latin: words written `rest-firstay` ("end-say", "e-thay"), read back. */
const PIG = /\b([A-Za-z']{1,30})-((?:[B-DF-HJ-NP-TV-Zb-df-hj-np-tv-z]|[Qq]u){0,4})ay\b/g;
const pigLatin: Step = (m) => {
  if ((m.text.match(PIG)?.length ?? 0) < 4) return m;
  return replacing(m, PIG, (w) => {
    const x = /^([A-Za-z']{1,30})-([A-Za-z]{0,4})ay$/.exec(w);
    if (!x) return null;
    const head = x[2] as string;
    return head.toLowerCase() === "w" || head === "" ? (x[1] as string) : head + (x[1] as string);
  });
};

/** Morse code: a run of at least five codes of dots and dashes, words parted by `/` or three spaces. */
const MORSE: Record<string, string> = {
  ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h", "..": "i", ".---": "j", "-.-": "k",
  ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p", "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u", "...-": "v",
  ".--": "w", "-..-": "x", "-.--": "y", "--..": "z", "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5",
  "-....": "6", "--...": "7", "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",", "---...": ":", "-..-.": "/", "..--.-": "_",
  ".----.": "'", "-....-": "-", ".--.-.": "@", "..--..": "?", "-.-.--": "!", "-...-": "=", ".-.-.": "+", "-.--.": "(", "-.--.-": ")",
};
const MORSE_RUN = /[.\-·•−–]{1,7}(?:(?: {1,3}| ?\/ ?)[.\-·•−–]{1,7}){4,2000}/g;
const morse: Step = (m) => {
  if (!/[.\-·•−–]{2,7} [.\-·•−–]{1,7} [.\-·•−–]/.test(m.text)) return m;
  return replacing(m, MORSE_RUN, (run) => {
    const codes = run.replace(/[·•]/g, ".").replace(/[−–]/g, "-");
    const words = codes.split(/ ?\/ ?| {3}/);
    let unknown = 0;
    const out = words.map((w) =>
      w
        .split(/ +/)
        .filter((c) => c.length > 0)
        .map((c) => MORSE[c] ?? (unknown++, "?"))
        .join(""),
    );
    return unknown * 5 > run.length / 3 ? null : out.join(" ");
  });
};

/** Braille cells (grade 1): letters by their dots. */
const BRAILLE_LETTERS = "a⠁b⠃c⠉d⠙e⠑f⠋g⠛h⠓i⠊j⠚k⠅l⠇m⠍n⠝o⠕p⠏q⠟r⠗s⠎t⠞u⠥v⠧w⠺x⠭y⠽z⠵'⠄,⠂.⠲?⠦!⠖-⠤/⠌:⠒";
const BRAILLE: Record<string, string> = {};
for (let i = 0; i + 1 < BRAILLE_LETTERS.length; i += 2) BRAILLE[BRAILLE_LETTERS[i + 1] as string] = BRAILLE_LETTERS[i] as string;
const BRAILLE_DIGITS: Record<string, string> = { "⠁": "1", "⠃": "2", "⠉": "3", "⠙": "4", "⠑": "5", "⠋": "6", "⠛": "7", "⠓": "8", "⠊": "9", "⠚": "0" };
const BRAILLE_RUN = /[\u2800-\u28FF](?:[\u2800-\u28FF ]{0,4096}[\u2800-\u28FF])?/g;
const braille: Step = (m) => {
  if (!/[\u2801-\u28FF]{2}/.test(m.text)) return m;
  return replacing(m, BRAILLE_RUN, (run) => {
    let out = "";
    let digits = false;
    for (const c of run) {
      if (c === " " || c === "\u2800") {
        out += " ";
        digits = false;
      } else if (c === "⠼") digits = true;
      else if (c === "⠠") continue;
      else out += (digits ? BRAILLE_DIGITS[c] : undefined) ?? BRAILLE[c] ?? "?";
    }
    return out;
  });
};

/** A spelling alphabet (NATO, with the words for signs): a run of at least four of its words, read as the characters they spell. */
const SPELLED: Record<string, string> = {
  alfa: "a", alpha: "a", bravo: "b", charlie: "c", delta: "d", echo: "e", foxtrot: "f", golf: "g", hotel: "h", india: "i", juliet: "j",
  juliett: "j", kilo: "k", lima: "l", mike: "m", november: "n", oscar: "o", papa: "p", quebec: "q", romeo: "r", sierra: "s", tango: "t",
  uniform: "u", victor: "v", whiskey: "w", whisky: "w", "x-ray": "x", xray: "x", yankee: "y", zulu: "z",
  zero: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", niner: "9",
  space: " ", dash: "-", hyphen: "-", minus: "-", dot: ".", period: ".", point: ".", slash: "/", colon: ":", pipe: "|", underscore: "_",
  tilde: "~", at: "@", comma: ",", equals: "=", plus: "+", ampersand: "&", semicolon: ";", backslash: "\\", quote: '"', apostrophe: "'",
};
/** The letter words alone: a run must hold several of them, or it is ordinary words ("one", "at", "point", "dash"). */
const LETTER_WORDS = new Set(Object.keys(SPELLED).filter((k) => /^[a-z]$/.test(SPELLED[k] as string)));
const SPELLED_RUN = /\b[A-Za-z][A-Za-z-]{1,8}(?:[ ,]{1,3}[A-Za-z][A-Za-z-]{1,8}){3,2000}\b/g;
const spelling: Step = (m) => {
  if (!/\b(?:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|yankee|zulu)\b/i.test(m.text)) return m;
  return replacing(m, SPELLED_RUN, (run) => {
    const words = run.split(/[ ,]+/);
    // Only the longest stretch of spelling words in the run is read; it must hold at least four letter words.
    let best: [number, number] = [0, 0];
    let start = -1;
    let letters = 0;
    let bestLetters = 0;
    words.forEach((w, i) => {
      const k = w.toLowerCase();
      if (SPELLED[k] !== undefined) {
        if (start < 0) {
          start = i;
          letters = 0;
        }
        if (LETTER_WORDS.has(k)) letters++;
        if (i + 1 - start > best[1] - best[0]) {
          best = [start, i + 1];
          bestLetters = letters;
        }
      } else start = -1;
    });
    if (bestLetters < 4) return null;
    const spelled = words.slice(best[0], best[1]).map((w) => SPELLED[w.toLowerCase()] as string).join("");
    return [...words.slice(0, best[0]), spelled, ...words.slice(best[1])].join(" ");
  });
};

/*
 * A line written wholly in another script's look-alikes of Latin letters (eighth round): Lisu or Cherokee capitals,
 * Coptic, Greek or Cyrillic letters chosen for their shape. The normaliser reads a look-alike as Latin only in a word
 * that mixes in ASCII or in text that is mostly Latin (so Russian or Greek prose keeps its words); here a line is read
 * in Latin when nearly all of its non-ASCII letters (at least 8, and four in five) have a Latin look-alike — real prose
 * in those scripts has many letters without one (Russian и л д п ж, Greek λ δ π σ) — for the judge's second reading.
 */
const LINE = /[^\n]+/g;
/** Per BMP code unit: 0 not looked at yet, 1 a Latin look-alike, 2 another letter, 3 neither. */
const CLASS = new Uint8Array(65536);
function classOf(c: number): number {
  let k = CLASS[c] as number;
  if (k === 0) {
    k = latinLookalike(c) !== undefined ? 1 : c < 0xd800 || c > 0xdfff ? (/\p{L}/u.test(String.fromCharCode(c)) ? 2 : 3) : 3;
    CLASS[c] = k;
  }
  return k;
}
function lookalikeLine(line: string): boolean {
  let look = 0;
  let other = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x80) continue;
    const k = classOf(c);
    if (k === 1) look++;
    else if (k === 2) other++;
  }
  return look >= 8 && look >= 4 * other;
}
const lookalikes: Step = (m) =>
  replacing(m, LINE, (line) => {
    if (!/[^\x00-\x7f]/.test(line) || !lookalikeLine(line)) return null;
    let out = "";
    for (const ch of line) out += latinLookalike(ch.codePointAt(0) as number) ?? ch;
    // (TR39 reads a vertical stroke as "l"; in a word of capitals it is an "I".)
    return out.replace(/\b[A-Zl]{2,64}\b/g, (w) => (/[A-Z]/.test(w) ? w.replace(/l/g, "I") : w));
  });

/**
 * Enclosed letters a reader reads as letters: parenthesized `⒜` (NFKC makes it "(a)"; a run of at least four is read
 * as the word, and then the shorter runs beside it), negative circled `🅐` and negative squared `🅰` capitals (no compatibility mapping of their own).
 */
const PAREN_RUN = /(?:\([a-z0-9]\)){2,4096}/g;
const PAREN_WORD = /(?:\([a-z0-9]\)){4}/;
const ENCLOSED_RUN = /[\u{1F150}-\u{1F169}\u{1F170}-\u{1F189}]{2,4096}/gu;
const enclosed: Step = (m) => {
  // (Runs of two or more once the text has one of four: "⒜⒤" beside a word of them is "ai".)
  let r = PAREN_WORD.test(m.text) ? replacing(m, PAREN_RUN, (run) => run.replace(/[()]/g, "")) : m;
  if (/[\u{1F150}-\u{1F189}]/u.test(r.text))
    r = replacing(r, ENCLOSED_RUN, (run) => [...run].map((c) => String.fromCharCode(0x61 + (((c.codePointAt(0) as number) - 0x1f150) % 0x20))).join(""));
  return r;
};

/**
 * Regional indicator symbols (U+1F1E6–1F1FF), the letters flags are built from, read as letters when a run of them
 * (joined, or each apart by a space or an invisible separator) is longer than two flags: then each is read as its letter
 * ("🇦 🇮" is "a i", read further by the spaced-letters step). A row of flags reads as country codes ("usca mx").
 */
const RI_RUN = /(?:[\u{1F1E6}-\u{1F1FF}][\u200B-\u200D\u2060\uFE0F ]{0,2}){5}/u;
const RI = /[\u{1F1E6}-\u{1F1FF}][\u200B-\u200D\u2060\uFE0F]{0,2}/gu;
const regional: Step = (m) => {
  if (!RI_RUN.test(m.text)) return m;
  return replacing(m, RI, (c) => String.fromCharCode(0x61 + (c.codePointAt(0) as number) - 0x1f1e6));
};

const STEPS: Step[] = [annotations, qp, escapes, regional, zalgo, smallCaps, turned, spaced, leet, pigLatin, morse, braille, spelling, lookalikes, enclosed];

/**
 * Anything a step could act on but the spelling alphabet, in one native scan (most text has none of it, and is done
 * with here): annotation characters, combining marks, turned and small letters, braille cells, a `=XX` or backslash
 * escape, dots or dashes around a space, a leetspeak digit against a letter, five single characters spaced apart, a
 * word ending in "ay".
 */
const RARE = /[\uFFF9-\uFFFB\u0300-\u036F\u0483-\u0489\u0250-\u02AF\u1D00-\u1D7F\uA730-\uA7FF\u2800-\u28FF\u01DD\u01EB\u0183\u2200\u2229\u2534\u2141\u02D9]|=[0-9A-F]{2}|\\[ux0-3]|[.\-] [.\-]|[0134579$](?:[A-Za-z]|(?<=[A-Za-z].))| \S \S \S \S |-[a-z]{0,4}ay\b/;
const ENCLOSED = /(?:\([a-z0-9]\)){4}|[\u{1F150}-\u{1F189}]|(?:[\u{1F1E6}-\u{1F1FF}][\u200B-\u200D\u2060\uFE0F ]{0,2}){5}/u;
const SPELLED_WORD = /\b(?:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|yankee|zulu)\b/gi;

/**
 * Whether any step could act on `text`. The spelling alphabet's words are counted by the injection gate's pass over
 * the same text (injection-gate.ts, `spelledWords`), read just before; a text it has not read is searched here.
 */
function mayBeDisguised(text: string): boolean {
  if (RARE.test(text)) return true;
  // (perf31) ENCLOSED needs a `(` or a character outside the BMP (so outside ASCII): asked only of a text with one.
  const wide = /[^\x00-\x7f]/.test(text);
  if ((wide || text.includes("(")) && ENCLOSED.test(text)) return true;
  if (wide) {
    LINE.lastIndex = 0;
    for (let x = LINE.exec(text); x !== null; x = LINE.exec(text)) if (lookalikeLine(x[0])) return true;
  }
  const counted = spelledWords(text);
  if (counted !== null) return counted >= 4;
  SPELLED_WORD.lastIndex = 0;
  let k = 0;
  while (SPELLED_WORD.exec(text) !== null) if (++k >= 4) return true;
  return false;
}

/** The text as it is meant to be read, with a map back into `text`; null when nothing in it is disguised. */
export function reading(text: string): Mapped | null {
  if (text.length > MAX_READ || text.length < 8 || !mayBeDisguised(text)) return null;
  let m = Mapped.identity(text);
  for (const step of STEPS) m = step(m);
  return m.isIdentity || m.text === text ? null : m;
}
