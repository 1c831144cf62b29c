/*
 * (exf31) Decimal digits of other scripts, read as ASCII digits: one helper for the checks that read numbers in any
 * script (exfil-personal-bulk.ts's counts, pii-rows.ts's birth dates, identity numbers and phones). Twenty-two decimal
 * digit blocks: ASCII, Arabic-Indic, Persian, N'Ko, the Indic scripts (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya,
 * Tamil, Telugu, Kannada, Malayalam, Sinhala), Thai, Lao, Tibetan, Myanmar (and its Shan digits), Khmer, Mongolian
 * and full width. Every digit is one UTF-16 unit, so a text keeps its length and its offsets.
 */

/** Zeros of the decimal digit blocks other than ASCII. */
const ZEROS = [0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0xff10];

/** One character class of all those digits (a single class: linear, no backtracking). */
const OTHER_DIGITS = new RegExp(`[${ZEROS.map((z) => `\\u${z.toString(16).padStart(4, "0")}-\\u${(z + 9).toString(16).padStart(4, "0")}`).join("")}]`, "g");
const ANY_OTHER = new RegExp(OTHER_DIGITS.source);

/** Each code point below U+1820 as its digit's value plus one (0: no digit): one lookup per character. */
const TABLE = (() => {
  const t = new Uint8Array(0x1820);
  for (const z of ZEROS) if (z < 0x1820) for (let d = 0; d < 10; d++) t[z + d] = d + 1;
  return t;
})();

/** The value (0–9) of a digit of another script at char code `c`, or -1. */
export function otherDigit(c: number): number {
  if (c < 0x1820) return (TABLE[c] as number) - 1;
  return c >= 0xff10 && c <= 0xff19 ? c - 0xff10 : -1;
}

/** A text with every decimal digit of another script written as its ASCII digit (offsets kept). */
export function asciiDigits(text: string): string {
  if (!ANY_OTHER.test(text)) return text;
  return text.replace(OTHER_DIGITS, (d) => String(otherDigit(d.charCodeAt(0))));
}
