/*
 * (Tenth round, "fp10") Bidirectional formatting that writing needs, told from bidi used to hide or disguise text.
 *
 * Mixed-direction text is written with isolates and embeddings around a run of the other direction: an Arabic or
 * Hebrew name inside an English sentence (`⁧ليلى حداد⁩'s team`), an English product name inside Arabic text. Mail
 * clients, chat apps and CMSs insert them on their own. What an attacker does with the same characters is different:
 * reverse Latin text so that a reviewer reads something else (an override, or an embedding around Latin letters written
 * backwards), or hide a Latin instruction inside a right-to-left isolate, or reorder code (Trojan Source).
 *
 * A pair is genuine when: the opener is an isolate (LRI, RLI, FSI) or an embedding (LRE, RLE), its closer (PDI for an
 * isolate, PDF for an embedding) follows within 160 characters with no other bidi control between; and the run it
 * encloses is of the direction the pair asks for: a right-to-left opener (RLI, RLE, FSI) around a run with right-to-left
 * letters and no Latin letter, a left-to-right opener (LRI, LRE) around a run with no right-to-left letter, standing in
 * right-to-left text (right-to-left letters within 40 characters before the opener). Overrides (LRO, RLO) are never
 * genuine here: a reader sees their text reversed or forced.
 */

const OPENERS: Record<string, string> = { "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069", "\u202A": "\u202C", "\u202B": "\u202C" };
const RTL_OPENERS = new Set(["\u2067", "\u2068", "\u202B"]);
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;
/** Invisible characters: a run holding one is hiding something, whatever its direction. */
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u00AD]|\uDB40[\uDC00-\uDC7F]/;
const LATIN_LETTER = /[A-Za-z\u00C0-\u024F]/;
const MAX_RUN = 160;

/**
 * When the character at `at` opens a genuine pair (see above), the index just past its closer; otherwise -1.
 */
export function genuineBidiPair(text: string, at: number): number {
  const opener = text[at] as string;
  const closer = OPENERS[opener];
  if (closer === undefined) return -1;
  const limit = Math.min(text.length, at + 1 + MAX_RUN + 1);
  let end = -1;
  for (let i = at + 1; i < limit; i++) {
    const ch = text[i] as string;
    if (ch === closer) {
      end = i;
      break;
    }
    if (BIDI.test(ch)) return -1;
  }
  if (end < 0) return -1;
  const run = text.slice(at + 1, end);
  if (INVISIBLE.test(run)) return -1;
  if (RTL_OPENERS.has(opener)) return RTL_LETTER.test(run) && !LATIN_LETTER.test(run) ? end + 1 : -1;
  if (RTL_LETTER.test(run)) return -1;
  return RTL_LETTER.test(text.slice(Math.max(0, at - 40), at)) ? end + 1 : -1;
}
